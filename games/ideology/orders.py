"""What Ideology's standing orders may ask about: the conflict a seat must answer.

Out of turn, a defender answers an attack (``concede``, or ``cancel`` with a card of the
conflict's type) and every seat seals its diplomacy offers. The conditions read the
declared conflict, which every seat sees.
"""

from __future__ import annotations

from typing import Any

from games.base import OrderCondition, Seat, State
from games.ideology.components import INFLUENCE_TYPES

#: The out-of-turn decisions: a defender's reply and the sealed offers of diplomacy.
ORDER_DECISIONS: tuple[str, ...] = ("defend", "offer")




def _conflict(state: State) -> dict[str, Any]:
    return state.get("conflict") or {}


def _attacker(state: State, seat: Seat, value: Any) -> bool:
    return _conflict(state).get("attacker") == value


def _influence(state: State, seat: Seat, value: Any) -> bool:
    return _conflict(state).get("influence") == value


ORDER_CONDITIONS: dict[str, OrderCondition] = {
    "attacker": OrderCondition("the seat that declared the conflict", "seat", _attacker),
    "influence": OrderCondition("the conflict's type", INFLUENCE_TYPES, _influence),
}
