"""Pax Porfiriana for the search: rollouts cut short and scored by gold (the richest wins)
plus the income a seat's tableau brings in."""

from __future__ import annotations

from bots.knowledge import Knowledge
from games.base import State
from games.pax.board import income_of


class PaxKnowledge(Knowledge):
    #: The rules list every legal action (a few milliseconds each time), so rollouts stay short.
    rollout_decisions = 6
    score_scale = 6.0

    def scores(self, state: State, seats: int) -> list[float] | None:
        return [state["players"][s]["gold"] + 2.0 * income_of(state, s) for s in range(seats)]
