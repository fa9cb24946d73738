"""One simple rule-of-thumb bot per game: the yardstick that shows what search adds.

Each plays from the seat's view and legal actions alone, with no search and no sampling.
"""

from __future__ import annotations

from bots.base import Bot, RandomBot


def heuristic_for(game: str) -> Bot:
    """The heuristic bot of a registered game (the random bot for a game without one)."""
    from bots.heuristics import coup, ideology, pax, revolution

    bots: dict[str, type] = {"coup": coup.CoupHeuristic, "revolution": revolution.RevolutionHeuristic,
                             "ideology": ideology.IdeologyHeuristic, "pax": pax.PaxHeuristic}
    factory = bots.get(game)
    return factory() if factory is not None else RandomBot()
