"""Checking a webhook delivery's ``Intrigue-Signature`` before trusting its body."""

from __future__ import annotations

import hashlib
import hmac
import json
import time

from intrigue_client.types import WebhookPayload

#: How old a signature may be, in seconds, before it is refused as a possible replay.
DEFAULT_TOLERANCE = 300.0


class InvalidSignature(ValueError):
    """The delivery was not signed with this secret, was altered, or is too old."""


def verify_signature(secret: str, header: str | None, body: bytes, *, tolerance: float = DEFAULT_TOLERANCE,
                     now: float | None = None) -> bool:
    """True when ``body`` (the raw bytes, before any parsing) was signed with ``secret`` recently.

    ``header`` is ``Intrigue-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 over "<t>.<body>">``.
    A missing or garbled header is simply not valid; the comparison takes constant time.
    """
    if not header:
        return False
    fields: dict[str, list[str]] = {}
    for part in header.split(","):
        name, sep, value = part.strip().partition("=")
        if sep:
            fields.setdefault(name, []).append(value)
    try:
        timestamp = int(fields["t"][0])
    except (KeyError, ValueError):
        return False
    if abs((time.time() if now is None else now) - timestamp) > tolerance:
        return False
    expected = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    # Several v1 values may be present while a secret is rotated: any one that matches will do.
    return any(hmac.compare_digest(expected, candidate) for candidate in fields.get("v1", []))


def parse_delivery(secret: str, header: str | None, body: bytes, *, tolerance: float = DEFAULT_TOLERANCE,
                   now: float | None = None) -> WebhookPayload:
    """The delivery's payload, once its signature checks; raises :class:`InvalidSignature` otherwise."""
    if not verify_signature(secret, header, body, tolerance=tolerance, now=now):
        raise InvalidSignature("Intrigue-Signature does not match this body and secret, or is too old")
    payload: WebhookPayload = json.loads(body)
    return payload
