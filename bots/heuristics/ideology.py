"""A steady Ideology player: develops and expands, defends, offers peace, never gives ground."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from bots.base import Observation
from games.base import Action

#: Action types in the order this bot prefers them, whatever the decision.
PREFERENCE = ("cancel", "continue", "develop", "place", "buy", "attack", "done", "pass", "stop", "concede")


def _level(view: Mapping[str, Any], region: str | None) -> int:
    for entry in view["regions"]:
        if entry["id"] == region:
            return entry["level"]
    return 0


class IdeologyHeuristic:
    name = "heuristic"

    def choose(self, observation: Observation, rng: random.Random) -> Action:
        view, legal = observation.view, list(observation.legal_actions)
        kinds = {a["type"] for a in legal}
        if "offer" in kinds:
            return dict(max(legal, key=lambda a: sum(status == "peace" for status in a["offers"].values())))
        if "exchange" in kinds:
            return dict(min(legal, key=lambda a: sum(a["discard"].values())))
        if "discard" in kinds:
            counts = view["hand"]["counts"]
            return dict(min(legal, key=lambda a: max(counts[k] - a["discard"][k] for k in counts)))
        for kind in PREFERENCE:
            options = [a for a in legal if a["type"] == kind]
            if options:
                best = max(options, key=lambda a: _level(view, a.get("region")))
                return dict(best)
        return dict(legal[0])
