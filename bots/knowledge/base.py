"""What the search may know about each game beyond its rules: candidate actions, a rollout
policy, an evaluation of an unfinished game, and how to reopen a simultaneous decision.

The defaults are game-agnostic (the rules' own legal actions, uniform random rollouts,
played to the end); a game module here overrides only what its game needs.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

from bots.base import Observation
from games.base import Action, GameRules, Seat, State


class Knowledge:
    """The game-agnostic defaults."""

    #: Decisions a rollout may play before it is cut and the position evaluated.
    rollout_decisions = 400

    def __init__(self, rules: GameRules) -> None:
        self.rules = rules

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
