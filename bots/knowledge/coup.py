"""Coup for the search: the defaults, plus a score for a rollout cut short."""

from __future__ import annotations

from bots.knowledge import Knowledge
from games.base import State


class CoupKnowledge(Knowledge):
    rollout_decisions = 120
    score_scale = 4.0

    def scores(self, state: State, seats: int) -> list[float] | None:
        """An influence is worth about a coup's seven coins."""
        return [7.0 * len(player["hidden"]) + player["coins"] for player in state["seats"]]
