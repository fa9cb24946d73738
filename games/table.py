"""An in-memory table: the platform's loop without Redis, for tests, bots and tools.

It applies the game protocol exactly as the server does (``decide`` then ``evolve``
for a seat's action, ``resolve`` whenever nobody is awaited), so rule tests and
property tests exercise the same sequence of calls that live games go through.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from games.base import Action, GameEvent, GameRules, Outcome, RuleViolation, Seat, State, derive_rng

#: The codes a table refuses with before it asks the game: the same codes, with the same meaning,
#: as the engine's (``engine.errors.DOMAIN_CODES``).
TABLE_RULE_CODES: dict[str, str] = {
    "game_over": "the game has ended",
    "not_your_turn": "the seat may not act now",
}


@dataclass(frozen=True)
class TableEvent:
    """A folded event as the store would hold it (minus time and hash)."""

    seq: int
    type: str
    data: Mapping[str, Any]
    actor: Seat | None


def stored_form(data: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` as the event store gives it back: through JSON, keys sorted.

    The table folds what a log would hold, as the server does: a rule that walks a dict
    in order must see the order every replay sees, not the draft's insertion order.
    """
    return json.loads(json.dumps(data, sort_keys=True))


class Table:
    """One game held in memory, driven through the public game protocol."""

    def __init__(self, rules: GameRules, seats: int, options: Mapping[str, Any] | None = None,
                 seed: str = "table-seed") -> None:
        self.rules = rules
        self.seats = seats
        self.seed = seed
        self.options = rules.validate_options(dict(options or {}), seats)
        self.events: list[TableEvent] = []
        self.state: State | None = None
        self._append(rules.setup(self.options, seats, self.rng()))

    def rng(self) -> random.Random:
        return derive_rng(self.seed, len(self.events) + 1)

    def _append(self, drafts: list[GameEvent]) -> list[TableEvent]:
        added = []
        for draft in drafts:
            event = TableEvent(len(self.events) + 1, draft.type, stored_form(draft.data), draft.actor)
            self.state = self.rules.evolve(self.state, event)
            self.events.append(event)
            added.append(event)
        return added

    @property
    def outcome(self) -> Outcome | None:
        return self.rules.outcome(self.current)

    @property
    def current(self) -> State:
        assert self.state is not None
        return self.state

    def awaiting(self) -> dict[Seat, str]:
        return self.rules.awaiting(self.current)

    def act(self, seat: Seat, action: Action, *, settle: bool = True) -> list[TableEvent]:
        """Post ``action`` for ``seat``; then run system steps unless ``settle`` is False."""
        if self.outcome is not None:
            raise RuleViolation("game_over", "the game is over")
        if not self.rules.may_act(self.current, seat):
            raise RuleViolation("not_your_turn", "you have no decision to make now")
        added = self._append(self.rules.decide(self.current, seat, action, self.rng()))
        if settle:
            added += self.settle()
        return added

    def settle(self) -> list[TableEvent]:
        """Run ``resolve`` while the game is on and nobody is awaited (what workers do)."""
        added: list[TableEvent] = []
        while self.outcome is None and not self.awaiting():
            step = self._append(self.rules.resolve(self.current, self.rng()))
            if not step:
                raise AssertionError("resolve returned no events while nobody is awaited")
            added += step
        return added

    def timeout(self, seat: Seat) -> list[TableEvent]:
        """Apply the default action of an awaited seat whose deadline passed."""
        return self.act(seat, self.rules.on_timeout(self.current, seat))

    def replay(self) -> State | None:
        """Fold the recorded events from nothing; must equal ``self.state``."""
        state: State | None = None
        for event in self.events:
            state = self.rules.evolve(state, event)
        return state

    def play_randomly(self, rng: random.Random, max_steps: int = 10_000,
                      check: Callable[[Table], None] | None = None) -> Outcome:
        """Random legal play to the end: every awaited seat picks a legal action."""
        self.settle()
        for _ in range(max_steps):
            if self.outcome is not None:
                return self.outcome
            waiting = sorted(self.awaiting())
            seat = rng.choice(waiting)
            options = self.rules.legal_actions(self.current, seat)
            if not options:
                raise AssertionError(f"seat {seat} is awaited but has no legal action")
            self.act(seat, rng.choice(options))
            if check is not None:
                check(self)
        raise AssertionError(f"game did not end in {max_steps} steps")
