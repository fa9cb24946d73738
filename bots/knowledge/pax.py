"""Pax Porfiriana for the search: rollouts cut short and scored by gold (the richest wins)
plus the income a seat's tableau brings in, and played mostly the way the plain player
(``bots.heuristics.pax``) would (play a card, improve an enterprise, buy one), so a rollout
is not a random walk of speculation and selling."""

from __future__ import annotations

from typing import Any

from bots.knowledge.base import Knowledge
from games.base import Seat, State
from games.pax.board import income_of


class PaxKnowledge(Knowledge):
    rollout_decisions = 6
    score_scale = 6.0

    def policy_view(self, state: State, seat: Seat) -> dict[str, Any]:
        """The plain player reads only the card definitions (the whole view takes 150 µs)."""
        return {"cards": state["cards"]}

    def scores(self, state: State, seats: int) -> list[float] | None:
        return [state["players"][s]["gold"] + 2.0 * income_of(state, s) for s in range(seats)]
