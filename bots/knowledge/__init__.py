"""Search knowledge per game: the game-agnostic defaults (``base``) and each game's overrides."""

from __future__ import annotations

from functools import cache

from bots.knowledge.base import Knowledge
from bots.knowledge.coup import CoupKnowledge
from bots.knowledge.ideology import IdeologyKnowledge
from bots.knowledge.pax import PaxKnowledge
from bots.knowledge.revolution import RevolutionKnowledge
from games import registry

__all__ = ["Knowledge", "knowledge_for"]

#: The games whose search knows more than the defaults.
SPECIAL: dict[str, type[Knowledge]] = {"coup": CoupKnowledge, "revolution": RevolutionKnowledge,
                                       "ideology": IdeologyKnowledge, "pax": PaxKnowledge}


@cache
def knowledge_for(game: str) -> Knowledge:
    """The search knowledge of a registered game (the defaults for a game without its own)."""
    return SPECIAL.get(game, Knowledge)(registry.load(game))
