"""What Pax Porfiriana's standing orders may ask about: the topple under way.

Out of turn, a seat is asked to join a topple (each seat in turn: manifesto, fraud,
assassination, or ``done``) and to turn its hacendado when a troop retreats. The
conditions read the topple's public facts: who bought it and for which prestige.
"""

from __future__ import annotations

from typing import Any

from games.base import OrderCondition, State
from games.pax.cards import PRESTIGE

#: The out-of-turn decisions: joining a topple, and a retreating troop's hacendado.
ORDER_DECISIONS: tuple[str, ...] = ("topple", "retreat", "battle_retreat")


def _topple(state: State) -> dict[str, Any]:
    return state.get("topple") or {}


ORDER_CONDITIONS: dict[str, OrderCondition] = {
    "buyer": OrderCondition("the seat that bought the topple card", "seat",
                            lambda state, seat, value: _topple(state).get("buyer") == value),
    "prestige": OrderCondition("the prestige the topple is scored in", PRESTIGE,
                               lambda state, seat, value: _topple(state).get("prestige") == value),
    "mine": OrderCondition("whether this seat bought the topple card itself", "boolean",
                           lambda state, seat, value: (_topple(state).get("buyer") == seat) is value),
}
