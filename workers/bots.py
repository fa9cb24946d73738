"""The RQ job of bot seats: one decision of one bot seat at one version of a game.

It runs on its own queue (``intrigue-bots``), so a search that spends its whole budget
never holds up a game's step or a deadline on a worker of the games queue. The job does
nothing once the game has moved past the version it was asked for.
"""

from __future__ import annotations

from workers.jobs import current_engine


def play_seat(game_id: str, version: int, seat: int) -> str:
    """Decide for bot seat ``seat`` at ``version`` and submit its action (see ``Engine.play_bot_seat``)."""
    return current_engine().play_bot_seat(game_id, version, seat)
