"""RQ jobs of webhooks: create the deliveries of a notification, attempt one delivery, check a deadline.

They run on their own queue (``intrigue-webhooks``), so a slow receiver (up to 5 s an
attempt) never holds up a game's deadline job on a worker that serves both queues
game jobs first. Each job is idempotent: a delivery id is derived from the webhook and
the notification, and an attempt is claimed before it is made.
"""

from __future__ import annotations

from engine import tournament_hooks
from workers.jobs import current_engine


def dispatch(player_id: str, kind: str, game_id: str, version: int, seat: int, deadline: str | None,
             tag: str) -> int:
    """Create (once) a delivery for each of the player's webhooks that wants ``kind``."""
    return current_engine().hooks.dispatch(player_id, kind, game_id, version, seat, deadline, tag)


def deliver(delivery_id: str) -> str:
    """One attempt of a delivery that is due; on failure the next one is booked."""
    return current_engine().hooks.deliver(delivery_id)


def deadline_soon(game_id: str, seat: int, deadline: str) -> int:
    """At the booked moment: if the seat still owes the same decision, notify its player."""
    engine = current_engine()
    record = engine.projector.load(game_id)
    if record is None or record["status"] != "active" or record["deadlines"][seat] != deadline:
        return 0
    player = record["players"][seat]
    return engine.hooks.dispatch(player["id"], "deadline_soon", game_id, record["version"], seat, deadline, deadline)


def dispatch_tournament(player_id: str, kind: str, tournament_id: str, round_: int, version: int) -> int:
    """Create (once) a delivery of ``tournament_round`` or ``tournament_over`` for each webhook wanting it."""
    engine = current_engine()
    return tournament_hooks.dispatch(engine.hooks, player_id, kind, tournament_id, round_, version)
