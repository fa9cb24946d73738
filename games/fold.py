"""The skeleton every game's ``evolve`` shares: dispatch by event type on a fresh copy.

A game's ``fold.py`` names three things: the handler of its opening event (which builds
the first state from the event alone), one handler per later event type (which changes
the copy it is given in place), and the copy function (deep enough that no handler can
reach the state the caller holds). :func:`make_evolve` joins them into the protocol's
``evolve``, so the copy contract and the refusal of an event the rules never write are
spelled once for all four games.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
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

    def evolve_all(state: State | None, events: Iterable[EventLike]) -> State | None:
        """Fold ``events`` in order on one fresh copy: what folding them one by one gives."""
        new = None
        for event in events:
            if new is None:
                if event.type == opening or state is None:
                    state = new = evolve(state, event)
                    continue
                new = copy(state)
            elif event.type == opening:
                new = open_state(event.data)
                continue
            handler = handlers.get(event.type)
            if handler is None:
                raise IntegrityError(f"integrity error: unknown {game} event type {event.type!r}")
            handler(new, event.data)
        return state if new is None else new

    # Named as the game's own function, so a traceback or a repr points at the game's fold.
    evolve.__qualname__ = "evolve"
    evolve.__module__ = getattr(open_state, "__module__", __name__)
    evolve.evolve_all = evolve_all  # type: ignore[attr-defined]  # a function attribute, read through getattr
    return evolve


def evolve_all(evolve: Evolve, state: State | None, events: Iterable[EventLike]) -> State | None:
    """``events`` folded in order into ``state``: with one copy of the state when ``evolve``
    was made by :func:`make_evolve` (a search folds a step's dozen events this way), else
    one ``evolve`` call an event. Never changes ``state``."""
    many = getattr(evolve, "evolve_all", None)
    if many is not None:
        return many(state, events)
    for event in events:
        state = evolve(state, event)
    return state
