"""What the search may know about each game beyond its rules: candidate actions, a rollout
policy, an evaluation of an unfinished game, and how to reopen a simultaneous decision.

The defaults are game-agnostic (the rules' own legal actions, rollouts played to the end)
except for one thing: the game's rule-of-thumb player (``bots.heuristics``) is the search's
model of a plausible move. Rollouts mostly play its move (the rest at random), and the tree
tries it first at every node and leans toward it while the node has few visits (progressive
bias), so a few hundred iterations are spent on lines real players take. A game module here
overrides only what its game needs.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from bots.base import Observation
from bots.heuristics import heuristic_for
from games.base import Action, GameRules, Seat, State


class Knowledge:
    """The game-agnostic defaults."""

    #: Decisions a rollout may play before it is cut and the position evaluated.
    rollout_decisions = 400
    #: How often a rollout move is the rule-of-thumb player's rather than a uniformly random one.
    guided = 0.8
    #: The progressive bias toward the rule-of-thumb move: this much reward, shrinking as 1/(visits+1).
    hint_weight = 1.0
    #: How often a rival in the tree simply plays the rule-of-thumb move (the model of the
    #: other players); otherwise it searches like the seat itself.
    rival_model = 0.75

    def __init__(self, rules: GameRules) -> None:
        self.rules = rules
        self.game: str = rules.NAME
        self.heuristic = heuristic_for(self.game)

    def policy_view(self, state: State, seat: Seat) -> dict[str, Any]:
        """What the rule-of-thumb player reads of the seat's view (a game whose full view is
        slow to build gives only the fields its heuristic reads)."""
        return self.rules.view(state, seat)

    def policy(self, state: State, seat: Seat, actions: Sequence[Action], rng: random.Random) -> Action:
        """The rule-of-thumb player's move for ``seat`` in a sampled state, among ``actions``."""
        observation = Observation(self.game, seat, self.policy_view(state, seat), actions)
        return self.heuristic.choose(observation, rng)

    def seat_count(self, state: State) -> int:
        seats = state["seats"]
        return seats if isinstance(seats, int) else len(seats)

    def root_actions(self, observation: Observation, legal: list[Action], sample: State,
                     rules: GameRules) -> list[Action]:
        """The searching seat's choices now: the offered legal actions (a game may add more)."""
        return legal

    def candidates(self, state: State, seat: Seat, rules: GameRules) -> list[Action]:
        """The concrete actions the search tries for ``seat`` in a sampled state."""
        return rules.legal_actions(state, seat)

    def rollout(self, state: State, seat: Seat, actions: Sequence[Action], rng: random.Random) -> Action:
        if rng.random() < self.guided:
            return self.policy(state, seat, actions, rng)
        return actions[rng.randrange(len(actions))]

    def shaper(self, observation: Observation) -> Callable[[State, random.Random], State] | None:
        """A belief the search adds to the uniform samples (who likely holds what), or None.

        It may only move unseen cards between unseen places, so every sample keeps the
        seat's view; and it reads nothing but the observation.
        """
        return None

    def reopen(self, state: State, seat: Seat) -> State:
        """Undo rivals' sealed choices the seat cannot see, so the search makes them simultaneously."""
        return state

    def scores(self, state: State, seats: int) -> list[float] | None:
        """A score per seat for an unfinished game (higher is better), or None for no opinion."""
        return None

    #: The score gap that turns into odds of about 3 to 1 in :meth:`rewards`.
    score_scale = 10.0

    def rewards(self, state: State, rules: GameRules, seats: int) -> list[float]:
        """Each seat's share of the win (shared wins split), or an estimate for a cut rollout."""
        outcome = rules.outcome(state)
        if outcome is not None:
            winners = outcome.winners
            return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(seats)]
        scores = self.scores(state, seats)
        if scores is None:
            return [1.0 / seats] * seats
        weights = [math.exp(max(-50.0, min(50.0, s / self.score_scale))) for s in scores]
        total = sum(weights)
        return [w / total for w in weights]
