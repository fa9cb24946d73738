"""Which games the server hosts: one line per game."""

from __future__ import annotations

import importlib
from functools import cache

from games.base import GameRules

GAMES: dict[str, str] = {
    "coup": "games.coup",
    "ideology": "games.ideology",
    "revolution": "games.revolution",
    "pax": "games.pax",
}


@cache
def load(name: str) -> GameRules:
    """The rules module of a registered game; KeyError for an unknown name."""
    module = importlib.import_module(GAMES[name])
    return module


def available() -> list[str]:
    return sorted(GAMES)
