"""Ideology for the search: rollouts cut short and scored by Global Influence (the victory
measure), and Diplomacy's sealed offers reopened so they are searched as simultaneous."""

from __future__ import annotations

from bots.knowledge.base import Knowledge
from games.base import Seat, State
from games.ideology.rules import DIPLOMACY, global_influence, tie_break_points


class IdeologyKnowledge(Knowledge):
    rollout_decisions = 30
    score_scale = 1.5

    def reopen(self, state: State, seat: Seat) -> State:
        if state["phase"] != DIPLOMACY:
            return state
        state = dict(state)
        state["offers"] = [offer if index == seat else None for index, offer in enumerate(state["offers"])]
        return state

    def scores(self, state: State, seats: int) -> list[float] | None:
        return [global_influence(state, s) + 0.01 * tie_break_points(state, s) for s in range(seats)]
