"""intrigue_client: a Python client for the Intrigue game server, and a base class for bots.

>>> from intrigue_client import Client
>>> me = Client.register("http://127.0.0.1:8000", "natasha")   # doctest: +SKIP
"""

from intrigue_client import errors as _errors
from intrigue_client.bot import Bot
from intrigue_client.client import Client, new_idempotency_key
from intrigue_client.errors import *  # noqa: F403  (every exception, named after its problem code)
from intrigue_client.stream import EventStream, StreamEvent
from intrigue_client.webhooks import InvalidSignature, parse_delivery, verify_signature

__version__ = "0.1.0"

__all__ = ["Bot", "Client", "EventStream", "StreamEvent", "new_idempotency_key", "verify_signature", "parse_delivery",
           "InvalidSignature", *_errors.__all__]
