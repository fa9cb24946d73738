"""What a bot is given and what it returns.

A bot sees what its seat sees and nothing more: the seat's view, the actions it may post,
and the seat's own history (every event of the game as ``redact`` shows it to that seat).
That is exactly what a client of the server has, so the same bot runs in-process or
behind the HTTP API.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from games.base import Action, EventLike, GameRules, Seat


@dataclass(frozen=True)
class ObservedEvent:
    """One event as a seat saw it: its type, its redacted data and who caused it."""

    type: str
    data: Mapping[str, Any]
    actor: Seat | None


@dataclass(frozen=True)
class Observation:
    """Everything a seat knows when it owes a decision."""

    game: str
    seat: Seat
    view: Mapping[str, Any]
    legal_actions: Sequence[Action]
    history: Sequence[ObservedEvent] = field(default_factory=tuple)


def observe(rules: GameRules, events: Sequence[EventLike], seat: Seat) -> list[ObservedEvent]:
    """The seat's own history of ``events``: each redacted for ``seat``; hidden ones left out."""
    seen = []
    for event in events:
        data = rules.redact(event, seat)
        if data is not None:
            seen.append(ObservedEvent(event.type, data, event.actor))
    return seen


class Bot(Protocol):
    """A player: given one seat's observation, pick one of its legal actions (or another legal one)."""

    name: str

    def choose(self, observation: Observation, rng: random.Random) -> Action:
        """The action to post; must be legal for the observing seat."""


class RandomBot:
    """The baseline: a uniformly random action among the offered legal ones."""

    name = "random"

    def choose(self, observation: Observation, rng: random.Random) -> Action:
        return dict(rng.choice(list(observation.legal_actions)))
