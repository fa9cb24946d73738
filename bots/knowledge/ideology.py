"""Ideology for the search: rollouts cut short and scored by Global Influence (the victory
measure), and Diplomacy's sealed offers reopened so they are searched as simultaneous."""

from __future__ import annotations

from typing import Any

from bots.knowledge.base import Knowledge
from games.base import Seat, State
from games.ideology.board import count_types
from games.ideology.rules import DIPLOMACY, global_influence, tie_break_points


class IdeologyKnowledge(Knowledge):
    rollout_decisions = 30
    score_scale = 1.5

    def policy_view(self, state: State, seat: Seat) -> dict[str, Any]:
        """The steady player reads its hand's counts and the regions' levels (the whole view
        takes 100 µs to build)."""
        board = state["board"]["regions"]
        return {"hand": {"counts": count_types(state["hands"][seat])},
                "regions": [{"id": rid, "level": board[rid]["level"]} for rid, region in state["regions"].items()
                            if region["status"] != "deck"]}

    def reopen(self, state: State, seat: Seat) -> State:
        if state["phase"] != DIPLOMACY:
            return state
        state = dict(state)
        state["offers"] = [offer if index == seat else None for index, offer in enumerate(state["offers"])]
        return state

    def scores(self, state: State, seats: int) -> list[float] | None:
        return [global_influence(state, s) + 0.01 * tie_break_points(state, s) for s in range(seats)]
