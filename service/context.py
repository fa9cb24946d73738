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
from service import admission
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
    """The request's bearer token (see ``service.admission.bearer_token``)."""
    return admission.bearer_token(request.headers.get("Authorization"))


def caller() -> admission.Caller:
    """Who the request's token names: as the app's ``before_request`` admitted it, or (outside
    a request it admitted) looked up once per request, nothing spent."""
    admitted: admission.Admission | None = g.get("admission")
    if admitted is not None:
        return admitted.caller
    if "caller" not in g:
        g.caller = admission.identify(engine(), request.headers.get("Authorization"))
    return g.caller


def current_player(required: bool = True) -> Player | None:
    """The player behind the bearer token: a 401 for a token that names nobody, or (``required``)
    for no player at all."""
    found = caller()
    if found.refusal is not None:
        raise found.refusal
    if required and found.player is None:
        raise Problem(401, "auth_required", "this needs a player token: 'Authorization: Bearer <token>'")
    return found.player


def is_operator() -> bool:
    current_player(required=False)  # a token sent must name someone
    return caller().operator


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
