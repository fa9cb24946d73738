"""Who is calling, and what the call spends: the one check of every request's caller and rate limit.

Every request goes through :func:`admit` once, whichever way it is served: the Flask app's
first ``before_request`` hook calls it, and so does each fast handler of ``service.front``
(the hot requests served past Flask's per-request machinery). It reads the bearer token,
names the caller (a player, the operator, or nobody), and spends one token of each bucket
the request counts against: the player's and its address's ceiling over all its tokens, or
the address's anonymous bucket; the operator spends none.

A fast handler may ask for the spending to be deferred (``defer=True``): nothing is spent
then, and the admission's ``gates`` are what an append spends in its own round trip
(``Engine.act``, ``Engine.join``), or what the handler spends apart when it appends nothing.
Either way a request spends once, and only through this module's buckets.

A token that names nobody (or an ``Authorization`` that is not ``Bearer``) is not refused
here: the request is anonymous, and the route that needs a caller raises the admission's
``refusal`` (401), as it would raise it for no token at all.

A player's token answers only for the calls its scopes cover (``service.scopes``): checked
here, after the spending, so a call outside them spends its token and is refused 403
``missing_scope`` on either path. The gates are left in the environ (``GATES``), where the
front's ``start_response`` reads what is left of each bucket for the answer's ``RateLimit``
headers (``service.ratelimit_headers``). ``endpoint`` is the Flask endpoint the request was
routed to, the same name on both paths, for any rule that is the route's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.core import Engine, Player
from engine.settings import Bucket, Limits
from events.store import Gate
from service.answers import Problem
from service.ratelimit_headers import GATES
from service.scopes import check_scope


@dataclass(frozen=True, slots=True)
class Caller:
    """The bearer token's owner: a player, the operator, or nobody (``refusal`` says why, if a
    token was sent that names nobody)."""

    player: Player | None
    operator: bool = False
    refusal: Problem | None = None


ANONYMOUS = Caller(None)


@dataclass(slots=True)
class Admission:
    """A request admitted: its caller, its address, the route it reached, the buckets it
    spends, and (when the spending was deferred) the gates an append spends them with."""

    caller: Caller
    address: str
    endpoint: str | None
    asked: tuple[tuple[Bucket, str], ...]
    #: The gates of ``asked``: spent by ``admit``, unless it deferred them (then the caller spends them).
    gates: tuple[Gate, ...] = ()

    @property
    def player(self) -> Player | None:
        return self.caller.player


def bearer_token(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header; None without the header;
    a 401 ``bad_authorization`` for any other scheme or an empty token."""
    if not authorization:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Problem(401, "bad_authorization", "use the header 'Authorization: Bearer <token>'")
    return token.strip()


def identify(engine: Engine, authorization: str | None) -> Caller:
    """Who the ``Authorization`` header names (nothing is spent): the lookup of every path."""
    try:
        token = bearer_token(authorization)
    except Problem as refusal:
        return Caller(None, refusal=refusal)
    if token is None:
        return ANONYMOUS
    if engine.is_operator(token):
        return Caller(None, operator=True)
    player = engine.player_for_token(token)
    if player is None:
        return Caller(None, refusal=Problem(401, "bad_token",
                                            "this token is not known; create a player with POST /v1/players"))
    return Caller(player)


def buckets(limits: Limits, caller: Caller, address: str) -> tuple[tuple[Bucket, str], ...]:
    """The buckets one request of ``caller`` from ``address`` spends a token of."""
    if caller.operator:
        return ()
    if caller.player is not None:  # the player's tokens, and the address's ceiling over all its tokens
        return (limits.player(), caller.player.id), (limits.address(), address)
    return ((limits.anonymous(), address),)


def admit(engine: Engine, limits: Limits, environ: dict[str, Any], endpoint: str | None, *,
          defer: bool = False) -> Admission:
    """Admit the request of this WSGI ``environ``: name its caller, note its gates for the
    answer's RateLimit headers, spend a token of each of its buckets (``Limited``, a 429, when
    one is missing), then hold a player's token to its scopes (403 ``missing_scope``).

    With ``defer`` nothing is spent: the scopes are checked first (a fast handler then leaves
    the request to the app, which spends and refuses in that order), and the returned gates
    are what an append, or the handler apart, spends.
    """
    caller = identify(engine, environ.get("HTTP_AUTHORIZATION"))
    address = environ.get("REMOTE_ADDR") or "unknown"
    asked = buckets(limits, caller, address)
    gates = engine.gates(list(asked))
    environ[GATES] = gates  # what the answer's RateLimit headers say is left (service/ratelimit_headers.py)
    admission = Admission(caller, address, endpoint, asked, gates)
    if not defer and gates:
        engine.spend_apart(gates)  # one round trip for all of them, all or none
    if caller.player is not None:
        check_scope(caller.player.scopes, environ.get("REQUEST_METHOD", ""), environ.get("PATH_INFO", ""))
    return admission
