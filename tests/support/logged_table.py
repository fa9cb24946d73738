"""A table that also writes the log the server would store, so a test can audit it.

The platform numbers its events from ``GameCreated`` (then one ``PlayerJoined`` a seat,
``GameStarted`` and the setup in the last join's batch), draws each batch with the
generator of its first sequence number, and ends the batch that finishes the game with
``GameEnded`` revealing the seed. :class:`LoggedTable` plays as :class:`Table` does and
seals the same batches with the same causes, so ``projections.audit.audit`` replays its
log exactly as ``intrigue verify`` replays a live game's.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from events.envelope import GENESIS_HASH, Envelope, seal, seed_commitment
from games.base import Action, GameEvent, GameRules, RuleViolation, Seat, derive_rng
from games.table import Table, TableEvent
from projections.audit import AuditReport, audit

AT = "2026-01-01T00:00:00.000Z"


class LoggedTable(Table):
    """A :class:`Table` whose ``log`` holds the sealed envelopes the server would have stored."""

    def __init__(self, rules: GameRules, seats: int, options: Mapping[str, Any] | None = None,
                 seed: str = "table-seed") -> None:
        self.log: list[Envelope] = []
        self.state = None  # read by _seal before Table.__init__ runs the setup
        self._cause: dict[str, Any] = {}
        self._misses = [0] * seats
        full = rules.validate_options(dict(options or {}), seats)
        self._seal([GameEvent("GameCreated", {
            "id": "logged", "game": rules.NAME, "seats": seats, "options": full, "time_control": {},
            "created_by": "p0", "seed_hash": seed_commitment(seed)})], {"kind": "create", "player": "p0"})
        for seat in range(seats - 1):
            self._seal([GameEvent("PlayerJoined", {"seat": seat, "player": {"id": f"p{seat}", "name": f"p{seat}"}},
                                  seat)], {"kind": "join", "player": f"p{seat}"})
        last = seats - 1
        self._cause = {"kind": "join", "player": f"p{last}"}
        self._opening = [GameEvent("PlayerJoined", {"seat": last, "player": {"id": f"p{last}", "name": f"p{last}"}},
                                   last), GameEvent("GameStarted", {})]
        super().__init__(rules, seats, options, seed)

    def rng(self) -> random.Random:
        """The generator of the batch about to be written: its first sequence number's."""
        return derive_rng(self.seed, len(self.log) + 1)

    def _append(self, drafts: list[GameEvent]) -> list[TableEvent]:
        added = super()._append(drafts)
        opening, self._opening = self._opening, []
        self._seal([*opening, *drafts], self._cause)
        return added

    def _seal(self, drafts: list[GameEvent], cause: Mapping[str, Any]) -> None:
        batch = {**cause, "batch": len(self.log) + 1}
        for draft in drafts:
            prev = self.log[-1].hash if self.log else GENESIS_HASH
            self.log.append(seal(len(self.log) + 1, draft.type, AT, draft.actor, draft.data, batch, prev))
        if self.state is not None and self.rules.outcome(self.state) is not None and self.log[-1].type != "GameEnded":
            outcome = self.rules.outcome(self.state)
            assert outcome is not None
            self.log.append(seal(len(self.log) + 1, "GameEnded",
                                 AT, None, {"winners": list(outcome.winners), "reason": outcome.reason,
                                            "seed": self.seed}, batch, self.log[-1].hash))

    def act(self, seat: Seat, action: Action, *, settle: bool = True) -> list[TableEvent]:
        """A seat's action, recorded with the cause the engine gives it (seat and action)."""
        self._cause = {"kind": "player", "seat": seat, "action": dict(action)}
        return self._act_then_settle(seat, action, settle)

    def _act_then_settle(self, seat: Seat, action: Action, settle: bool) -> list[TableEvent]:
        added = super().act(seat, action, settle=False)
        if settle:
            added += self.settle()
        return added

    def settle(self) -> list[TableEvent]:
        self._cause = {"kind": "system"}
        return super().settle()

    def timeout(self, seat: Seat) -> list[TableEvent]:
        """The default action of a seat whose deadline passed, recorded as the worker does."""
        if self.outcome is not None:
            raise RuleViolation("game_over", "the game is over")
        action = self.rules.on_timeout(self.current, seat)
        self._misses[seat] += 1
        self._cause = {"kind": "timeout", "seat": seat, "action": action}
        self._opening = [GameEvent("DeadlineMissed", {"seat": seat, "misses": self._misses[seat],
                                                      "autoplay": False}, seat)]
        return self._act_then_settle(seat, action, True)

    def audit(self) -> AuditReport:
        """What ``intrigue verify`` says of this game's log (raises AuditError if it disowns it)."""
        return audit(self.log)
