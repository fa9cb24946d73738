"""The skeleton every game's ``evolve`` shares: dispatch by event type on a fresh copy.

A game's ``fold.py`` names three things: the handler of its opening event (which builds
the first state from the event alone), one handler per later event type (which changes
the copy it is given in place), and the copy function (deep enough that no handler can
reach the state the caller holds). :func:`make_evolve` joins them into the protocol's
``evolve``, so the copy contract and the refusal of an event the rules never write are
spelled once for all four games.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from games.base import EventLike, State

#: Builds the first state from the opening event's data.
Opening = Callable[[Mapping[str, Any]], State]
#: Changes a fresh copy of the state in place for one event's data.
Handler = Callable[[State, Mapping[str, Any]], None]
Evolve = Callable[[State | None, EventLike], State]


class IntegrityError(ValueError):
    """An event the fold cannot apply: an unknown type, or one before the opening event.

    The rules never write such a log, so it was damaged or forged; a ``ValueError`` so the
    audit reports it as a step the rules cannot replay.
    """


def make_evolve(game: str, opening: str, open_state: Opening, handlers: Mapping[str, Handler],
                copy: Callable[[State], State]) -> Evolve:
    """The ``evolve`` of ``game``: ``opening`` builds a state, every other event folds into
    ``copy(state)`` through its handler, so the state given is never changed."""

    def evolve(state: State | None, event: EventLike) -> State:
        """Fold one event into a new state; trusts the event, never mutates ``state``."""
        if event.type == opening:
            return open_state(event.data)
        handler = handlers.get(event.type)
        if handler is None:
            raise IntegrityError(f"integrity error: unknown {game} event type {event.type!r}")
        if state is None:
            raise IntegrityError(f"integrity error: {event.type} before {opening}")
        new = copy(state)
        handler(new, event.data)
        return new

    # Named as the game's own function, so a traceback or a repr points at the game's fold.
    evolve.__qualname__ = "evolve"
    evolve.__module__ = getattr(open_state, "__module__", __name__)
    return evolve
