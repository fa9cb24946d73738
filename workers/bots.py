"""The RQ jobs of bot seats: the drain of the bots' due set, and the one job per decision of old.

They run on their own queue (``intrigue-bots``), so a search that spends its whole budget
never holds up a game's step or a deadline on a worker of the games queue.
"""

from __future__ import annotations

from typing import Any

from engine.bot_queue import drain_bot_queue
from workers.jobs import current_engine


def drain() -> dict[str, Any]:
    """Play the bot seats' waiting requests, oldest first (see ``engine.bot_queue``)."""
    engine = current_engine()
    return drain_bot_queue(engine.scheduler.bot_queue, engine)  # type: ignore[union-attr]


def play_seat(game_id: str, version: int, seat: int) -> str:
    """Decide for bot seat ``seat`` at ``version`` (see ``Engine.play_bot_seat``).

    Nothing queues this job any more (one request per seat waits in the bots' due set); it
    stays so that jobs queued by earlier versions still run, and do nothing once stale.
    """
    return current_engine().play_bot_seat(game_id, version, seat)
