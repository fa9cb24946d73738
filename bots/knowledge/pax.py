"""Pax Porfiriana for the search: rollouts cut short and scored by gold (the richest wins)
plus the income a seat's tableau brings in, and played mostly the way a plain player
would (play a card, improve an enterprise, buy one), so a rollout is not a random walk of
speculation and selling."""

from __future__ import annotations

import random
from collections.abc import Sequence

from bots.knowledge.base import Knowledge
from games.base import Action, Seat, State
from games.pax.board import income_of

#: Action types a rollout prefers, in order; a Buy only of an enterprise.
PREFERRED = ("play", "upgrade", "buy", "buy_public", "end_turn")
#: How often a rollout move follows :data:`PREFERRED` rather than chance.
GUIDED = 0.7


class PaxKnowledge(Knowledge):
    #: The rules list every legal action (a few milliseconds each time), so rollouts stay short.
    rollout_decisions = 6
    score_scale = 6.0

    def rollout(self, state: State, seat: Seat, actions: Sequence[Action], rng: random.Random) -> Action:
        if rng.random() < GUIDED:
            cards = state["cards"]
            for kind in PREFERRED:
                options = [a for a in actions if a["type"] == kind
                           and (kind != "buy" or cards[a["card"]]["category"] == "enterprise")]
                if options:
                    return options[rng.randrange(len(options))]
        return actions[rng.randrange(len(actions))]

    def scores(self, state: State, seats: int) -> list[float] | None:
        return [state["players"][s]["gold"] + 2.0 * income_of(state, s) for s in range(seats)]
