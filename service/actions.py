"""A seat's action, checked and submitted: the one path of the Flask route and the front's fast handler.

Both read the request their own way (the route through Flask, the fast handler from the WSGI
environ); from the parsed body and headers on, they call :func:`submit_action`, so an
action is checked, decided and answered the same way whichever of them took it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import orjson
from marshmallow import ValidationError

from engine.core import Committed, Engine, Player
from events.store import Gate
from projections.record import seat_of
from projections.views import feed_item
from service import view_cache
from service.answers import Problem
from service.inputs import parse_header_int
from service.schemas import ActionSchema

#: Built once: a marshmallow schema costs more to build than to use, and a built one is
#: reused safely across requests.
ACTION_SCHEMA = ActionSchema()
#: The bounds of an action's ``type``, as ``ActionSchema`` declares them.
_TYPE_LENGTHS = range(1, 65)
#: The longest Idempotency-Key a client may send.
MAX_IDEMPOTENCY_KEY = 200
#: The answer's header when ``Prefer: return=minimal`` left the view out (RFC 7240).
MINIMAL_APPLIED = {"Preference-Applied": "return=minimal"}


def submit_action(engine: Engine, player: Player, game_id: str, action: dict[str, Any], key: str | None,
                  if_match_header: str | None, minimal: bool, gates: Sequence[Gate] = ()
                  ) -> tuple[dict[str, Any], Sequence[Callable[[], None]]]:
    """Check the action and its headers, let the engine decide it; the answer and the work
    owed once it is sent.

    A refused check raises before anything is spent or changed (``ValidationError``: 400
    ``invalid_body``, or a ``Problem``); the engine's refusals are domain errors. ``gates``
    spend the caller's rate-limit tokens in the append (see ``Engine.act``).
    """
    errors = action_errors(action)
    if errors:
        raise ValidationError(errors)
    if key is not None and not 1 <= len(key) <= MAX_IDEMPOTENCY_KEY:
        raise Problem(400, "bad_idempotency_key", f"Idempotency-Key must be 1 to {MAX_IDEMPOTENCY_KEY} characters")
    if_match = parse_header_int(if_match_header, "If-Match", "bad_if_match")
    done = engine.act(player, game_id, action, idempotency_key=key, if_match=if_match, gates=gates,
                      answer_first=True)
    return action_answer(done, player.id, minimal), done.after_answer


def action_errors(action: Any) -> dict[str, Any]:
    """What ``ActionSchema`` finds wrong with ``action``: nothing for an object whose ``type``
    is a string of 1 to 64 characters (the schema lets every other field through).

    That case is told here without the schema, whose validation cost about a fortieth of a
    move's CPU; anything else goes to the schema, so its error messages stay the schema's.
    """
    if type(action) is dict:
        kind = action.get("type")
        if type(kind) is str and len(kind) in _TYPE_LENGTHS:
            return {}
    return ACTION_SCHEMA.validate(action)


def action_answer(done: Committed, player_id: str, minimal: bool = False) -> dict[str, Any]:
    """The answer to an action: the new version, the events as the player sees them, their view.

    ``minimal`` leaves the view out: a client that follows the game's event stream with
    ``view=true`` gets the same view there, so building and sending it twice is waste.
    The view is the rendering the seat's event streams in this process send for this
    version (``service.view_cache``): built and serialised once for the answer and them.
    """
    seat = seat_of(done.record, player_id)
    events = [item for e in done.events if (item := feed_item(done.record, e, seat)) is not None]
    version = done.events[-1].seq if done.events else done.record["version"]
    if minimal:
        return {"version": version, "events": events}
    return {"version": version, "events": events, "game": orjson.Fragment(view_cache.VIEWS.rendered(done.record, seat))}
