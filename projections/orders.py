"""Standing orders as the record reads them: which order answers a decision, and with what.

The commit (``engine.orders``) and the audit (:mod:`projections.audit`) both ask
:func:`first_answer`, so an order's answer replays exactly as it was made.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.base import GameEvent, GameRules, RuleViolation
from projections.record import Record, awaiting, resigned, rules_of

#: The type of a seat's order change, an event of the orders' own stream.
ORDERS_SET = "StandingOrdersSet"


@dataclass(frozen=True)
class OrderAnswer:
    """What an order played for its seat: the events, and the cause that names the order."""

    seat: int
    index: int
    order: dict[str, Any]
    #: The action played: the order's answer, or what a game's answer template stood for.
    action: dict[str, Any]
    drafts: list[GameEvent]

    def cause(self, seq: int, follows: int) -> dict[str, Any]:
        """The batch's cause: the seat's action as if posted, plus the order that chose it."""
        return {"kind": "player", "seat": self.seat, "action": dict(self.action),
                "order": {"index": self.index, **self.order}, "batch": seq, "follows": follows}


def matches(rules: GameRules, state: Any, seat: int, kind: str, order: Mapping[str, Any]) -> bool:
    """Whether ``order`` speaks for ``seat`` owing a ``kind`` decision in ``state``."""
    if order["decision"] != kind:
        return False
    conditions = getattr(rules, "ORDER_CONDITIONS", {})
    return all(name in conditions and conditions[name].test(state, seat, value)
               for name, value in order["when"].items())


def first_answer(record: Record, orders: Mapping[int, Sequence[Mapping[str, Any]]], rng: Callable[[], Any],
                 spent: set[tuple[int, int]] | frozenset[tuple[int, int]] = frozenset()) -> OrderAnswer | None:
    """The first order (by seat, then by its place in the seat's list) that answers a decision
    ``record`` awaits and that the rules accept, with its events; None when none does.

    ``rng()`` gives the generator of the answer's step, afresh for each answer tried (a
    refused one must not move the draws of the next).

    Shared by the commit and the audit, so both read the same orders the same way. Orders of
    a resigned seat stand down: its takeover bot plays it.
    """
    rules = rules_of(record)
    state = record["state"]
    out = resigned(record)
    for seat, kind in sorted(awaiting(record).items()):
        if seat in out:
            continue
        for index, order in enumerate(orders.get(seat, ())):
            if (seat, index) in spent or not matches(rules, state, seat, kind, order):
                continue
            # A game may offer answers that read the moment (Revolution!'s bid as last round).
            expand = getattr(rules, "order_answer", None)
            action = expand(state, seat, order["answer"]) if expand is not None else dict(order["answer"])
            if action is None:
                continue
            try:
                drafts = rules.decide(state, seat, action, rng())
            except RuleViolation:
                continue  # not legal now: the next order, or the seat is asked as usual
            return OrderAnswer(seat, index, dict(order), action, list(drafts))
    return None
