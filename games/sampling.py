"""What every game's sampler shares: replaying one seat's history with the unknown written in.

A sampler (``games/<name>/sample.py``) rebuilds the skeleton of a seat's information set by
folding the seat's own redacted history through the game's ``evolve``, after a game-specific
``fill`` writes every card the seat cannot see as unknown. The replay loop is the same for
every game; only the filling and what follows the skeleton differ.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.base import EventLike, Seat, State

#: How a skeleton writes a card the seat cannot see.
UNKNOWN = "?"


@dataclass(frozen=True)
class FilledEvent:
    """A seat's event with its unknowns written in, ready for the game's ``evolve``."""

    type: str
    data: Mapping[str, Any]
    actor: Seat | None


#: ``fill(state, event)``: the state to fold into (possibly amended) and the event's filled data.
Fill = Callable[[State | None, EventLike], tuple[State | None, Mapping[str, Any]]]


def replay_skeleton(history: Sequence[EventLike], fill: Fill,
                    evolve: Callable[[State | None, Any], State], first: str) -> State:
    """Fold ``history`` with its unknowns filled; ``first`` names the event a history starts with."""
    state: State | None = None
    for event in history:
        state, data = fill(state, event)
        state = evolve(state, FilledEvent(event.type, data, event.actor))
    if state is None:
        raise ValueError(f"the history must start with {first}")
    return state


def fill_unknown(cards: Iterable[str], deal: Iterator[str]) -> list[str]:
    """``cards`` with each unknown replaced by the next card dealt."""
    return [next(deal) if card == UNKNOWN else card for card in cards]


Determinize = Callable[[Mapping[str, Any], Sequence[EventLike], Seat, random.Random], State]


def determinize_with(prepare: Callable[[Mapping[str, Any], Sequence[EventLike], Seat], Any]) -> Determinize:
    """A game's ``determinize`` from its ``prepare_sampler``: one sample of a sampler prepared
    for that call (a search prepares once and samples many times instead)."""

    def determinize(view: Mapping[str, Any], history: Sequence[EventLike], seat: Seat, rng: random.Random) -> State:
        """A complete state consistent with everything ``seat`` has seen (see the game's sample module)."""
        return prepare(view, history, seat).sample(rng)

    return determinize
