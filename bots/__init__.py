"""Bots that play from one seat's own information: random, a heuristic per game, and ISMCTS.

This package imports :mod:`games` and nothing else of the project, so a bot can run in a
worker, in a test, in the bench or in a third-party client alike.
"""

from bots.base import Bot, Observation, ObservedEvent, RandomBot, observe
from bots.ismcts import IsmctsBot

__all__ = ["Bot", "IsmctsBot", "ObservedEvent", "Observation", "RandomBot", "observe"]
