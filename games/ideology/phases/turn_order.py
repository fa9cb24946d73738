"""The New Turn Order and the end of a turn: Global Influence orders the seats, and
ends the game at the winning total or a cap."""

from __future__ import annotations

import random
from typing import Any

from games.base import GameEvent, State
from games.ideology.board import WINNING_INFLUENCE, global_influence, tie_break_points
from games.ideology.phases.resources import turn_started


def new_turn_order(state: State) -> GameEvent:
    influence = [global_influence(state, seat) for seat in range(state["seats"])]
    order = sorted(state["order"], key=lambda seat: -influence[seat])  # stable: ties keep their places
    return GameEvent("TurnOrderSet", {"turn": state["turn"], "order": order, "influence": influence})


def final_result(state: State, reason: str) -> dict[str, Any]:
    influence = [global_influence(state, seat) for seat in range(state["seats"])]
    points = [tie_break_points(state, seat) for seat in range(state["seats"])]
    best = max(influence)
    tied = [seat for seat in range(state["seats"]) if influence[seat] == best]
    top = max(points[seat] for seat in tied)
    winners = [seat for seat in tied if points[seat] == top]
    return {"reason": reason, "winners": winners, "influence": influence, "points": points}


def end_of_turn(state: State, rng: random.Random) -> GameEvent:
    influence = [global_influence(state, seat) for seat in range(state["seats"])]
    opts = state["options"]
    if max(influence) >= WINNING_INFLUENCE:
        return GameEvent("GameScored", {"turn": state["turn"], **final_result(state, "global_influence")})
    if opts["stall_turns"] is not None and state["quiet_turns"] >= opts["stall_turns"]:
        return GameEvent("GameScored", {"turn": state["turn"], **final_result(state, "stalled")})
    if opts["max_turns"] is not None and state["turn"] >= opts["max_turns"]:
        return GameEvent("GameScored", {"turn": state["turn"], **final_result(state, "turn_limit")})
    return turn_started(state, rng)
