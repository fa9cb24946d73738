"""Play a whole game in memory with one bot per seat (the bench and the tests use it)."""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bots.base import Bot, Observation, ObservedEvent
from games import registry
from games.base import Outcome, Seat, derive_rng
from games.table import Table


@dataclass
class GameRecord:
    """How one game ended and how long each seat took over each of its decisions."""

    outcome: Outcome
    decisions: dict[Seat, list[float]] = field(default_factory=dict)


class SeatHistories:
    """Each seat's own redacted history of a table, kept up to date incrementally."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.seen = 0
        self.histories: list[list[ObservedEvent]] = [[] for _ in range(table.seats)]

    def of(self, seat: Seat) -> list[ObservedEvent]:
        rules = self.table.rules
        for event in self.table.events[self.seen:]:
            for index, history in enumerate(self.histories):
                data = rules.redact(event, index)
                if data is not None:
                    history.append(ObservedEvent(event.type, data, event.actor))
        self.seen = len(self.table.events)
        return self.histories[seat]


def observation_for(table: Table, game: str, seat: Seat, histories: SeatHistories) -> Observation:
    rules = table.rules
    return Observation(game=game, seat=seat, view=rules.view(table.current, seat),
                       legal_actions=rules.legal_actions(table.current, seat), history=tuple(histories.of(seat)))


def play(game: str, bots: Sequence[Bot], seed: str, options: Mapping[str, Any] | None = None,
         max_decisions: int = 5_000) -> GameRecord:
    """One game, every seat played by its bot; which awaited seat moves first is drawn from ``seed``.

    A game still on after ``max_decisions`` ends with no winner (reason ``unfinished``): bots
    that keep blocking each other must not hang a benchmark.
    """
    rules = registry.load(game)
    table = Table(rules, len(bots), options, seed=seed)
    histories = SeatHistories(table)
    order = random.Random(f"{seed}:order")
    record = GameRecord(outcome=Outcome((), ""), decisions={seat: [] for seat in range(len(bots))})
    table.settle()
    for count in range(max_decisions):
        if table.outcome is not None:
            record.outcome = table.outcome
            return record
        seat = order.choice(sorted(table.awaiting()))
        observation = observation_for(table, game, seat, histories)
        rng = derive_rng(seed, count, f"bot:{seat}")
        started = time.perf_counter()
        action = bots[seat].choose(observation, rng)
        record.decisions[seat].append(time.perf_counter() - started)
        table.act(seat, action)
    record.outcome = table.outcome or Outcome((), "unfinished")
    return record
