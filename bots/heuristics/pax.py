"""A plain Pax Porfiriana player: plays its cards, buys enterprises, never speculates."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from bots.base import Observation
from games.base import Action

PREFERENCE = ("play", "upgrade", "buy", "buy_public", "end_turn")


def _category(view: Mapping[str, Any], card: str | None) -> str:
    definition = view.get("cards", {}).get(card) if card else None
    return definition.get("category", "") if isinstance(definition, dict) else ""


class PaxHeuristic:
    name = "heuristic"

    def choose(self, observation: Observation, rng: random.Random) -> Action:
        view, legal = observation.view, list(observation.legal_actions)
        for kind in PREFERENCE:
            options = [a for a in legal if a["type"] == kind]
            if kind == "buy":
                options = [a for a in options if _category(view, a.get("card")) == "enterprise"]
            if options:
                return dict(options[0])
        safe = [a for a in legal if a["type"] not in ("speculate", "sell")]
        return dict((safe or legal)[0])
