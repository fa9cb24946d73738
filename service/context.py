"""What a request knows about itself: its engine, its caller (player or operator), its limits.

Read from Flask's application and request context; the routes ask these helpers and
never the app's extensions directly.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from flask import current_app, g, request

from engine.core import Engine, Player
from engine.settings import Bucket, Limits
from projections.record import Record, seat_of
from projections.views import OPERATOR
from service.answers import Problem


def engine() -> Engine:
    return current_app.extensions["intrigue"]


def limits() -> Limits:
    return current_app.extensions["intrigue.limits"]


def take(bucket: Bucket, subject: str) -> None:
    """Spend one token of ``bucket`` for ``subject``, or refuse (429) with when to retry."""
    engine().take(bucket, subject)


def client_address() -> str:
    """The caller's address (behind ``INTRIGUE_TRUSTED_PROXIES``, the one the proxies saw)."""
    return request.remote_addr or "unknown"


def bearer_token() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if not header:
        return None
    if scheme.lower() != "bearer" or not token.strip():
        raise Problem(401, "bad_authorization", "use the header 'Authorization: Bearer <token>'")
    return token.strip()


def current_player(required: bool = True) -> Player | None:
    """The player behind the bearer token (cached per request)."""
    if "player" not in g:
        token = bearer_token()
        g.operator = bool(token) and engine().is_operator(token or "")
        g.player = engine().player_for_token(token) if token and not g.operator else None
        if token and not g.operator and g.player is None:
            raise Problem(401, "bad_token", "this token is not known; create a player with POST /v1/players")
    if required and g.player is None:
        raise Problem(401, "auth_required", "this needs a player token: 'Authorization: Bearer <token>'")
    return g.player


def is_operator() -> bool:
    current_player(required=False)
    return bool(g.get("operator"))


def caller_seat(record: Record) -> int | None | str:
    """The caller's seat in the game: a seat number, the operator, or None (a spectator)."""
    if is_operator():
        return OPERATOR
    player = current_player(required=False)
    return seat_of(record, player.id) if player is not None else None


def after_answer(work: Iterable[Callable[[], None]]) -> None:
    """Keep what a commit owes the workers until this request's answer is sent (see the app factory)."""
    if work:
        g.setdefault("after_answer", []).extend(work)
