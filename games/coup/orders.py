"""What Coup's standing orders may ask about: the open window and the pending action.

An order answers a seat's decision when every condition of its ``when`` holds. The
conditions read what every seat sees (the declared action, its target and claim, the
block) and, for ``holding``, the seat's own hand, which only that seat's orders read.
"""

from __future__ import annotations

from typing import Any

from games.base import OrderCondition, Seat, State
from games.coup.components import ACTIONS, BLOCK_WINDOW, CHARACTERS

#: Every decision Coup awaits may be answered by an order.
ORDER_DECISIONS: tuple[str, ...] = ("turn", "react", "reveal", "keep")


def _pending(state: State) -> dict[str, Any]:
    return state["action"] or {}


def _targeted(state: State, seat: Seat, value: Any) -> bool:
    return (_pending(state).get("target") == seat) is value


def _actor(state: State, seat: Seat, value: Any) -> bool:
    return _pending(state).get("seat") == value


def _action(state: State, seat: Seat, value: Any) -> bool:
    return _pending(state).get("type") == value


def _blocking(state: State) -> bool:
    return state["window"] is not None and state["window"]["kind"] == BLOCK_WINDOW


def _claim(state: State, seat: Seat, value: Any) -> bool:
    claimed = state["block"]["card"] if _blocking(state) and state["block"] else _pending(state).get("claim")
    return claimed == value


def _is_blocking(state: State, seat: Seat, value: Any) -> bool:
    return _blocking(state) is value


def _holding(state: State, seat: Seat, value: Any) -> bool:
    return value in state["seats"][seat]["hidden"]


ORDER_CONDITIONS: dict[str, OrderCondition] = {
    "targeted": OrderCondition("whether the pending action targets this seat (steal, assassinate, coup)",
                               "boolean", _targeted),
    "actor": OrderCondition("the seat that declared the pending action", "seat", _actor),
    "action": OrderCondition("the pending action's type", tuple(ACTIONS), _action),
    "claim": OrderCondition("the character claimed in the open window: the action's, or the block's in a "
                            "window about a block", CHARACTERS, _claim),
    "blocking": OrderCondition("whether the open window is about a block (challenge the blocker, or pass)",
                               "boolean", _is_blocking),
    "holding": OrderCondition("whether this seat's own hand holds the character (its own secret: no other "
                              "seat's card is read)", CHARACTERS, _holding),
}
