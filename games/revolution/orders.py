"""Revolution!'s standing orders: the sealed bid every seat owes each round.

Bids are the game's one decision made out of turn, by every seat at once. An order's
answer may be a bid, or ``{"type": "bid_as_last_round"}``: the seat's own bid of the
round before, as it was revealed. It stands only where the rules take it (a bid must
place the whole hand, so it is skipped when the hand has changed). No condition is
needed: every round asks the same question of every seat.
"""

from __future__ import annotations

from typing import Any

from games.base import Action, OrderCondition, Seat, State

ORDER_DECISIONS: tuple[str, ...] = ("bid",)
ORDER_CONDITIONS: dict[str, OrderCondition] = {}
#: The answer that stands for the seat's last revealed bid.
AS_LAST_ROUND = "bid_as_last_round"
#: Answer types an order may hold that stand for an action (the API checks the others' shapes).
ORDER_ANSWER_TYPES: tuple[str, ...] = (AS_LAST_ROUND,)


def order_answer(state: State, seat: Seat, answer: Action) -> Action | None:
    """The action an order's ``answer`` stands for now; None when it stands for none."""
    if answer.get("type") != AS_LAST_ROUND:
        return dict(answer)
    last: Any = state.get("last_bids")
    if not last or answer.keys() != {"type"}:
        return None
    return {"type": "bid", "bids": last[seat]}
