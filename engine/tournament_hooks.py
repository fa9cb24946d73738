"""Tournament webhooks: ``tournament_round`` (a round was paired: your table, or your bye) and
``tournament_over``, delivered, signed and retried as every webhook is (``engine.webhooks``).

A delivery's body names the tournament and the round, never a game's secret:
``{"id", "type", "tournament", "round", "version", "created_at"}``.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.webhooks import Webhooks

DISPATCH_TOURNAMENT = "workers.webhooks.dispatch_tournament"


def notify(hooks: Webhooks, players: Sequence[str], kind: str, tournament_id: str, round_: int,
           version: int) -> None:
    """Ask for the dispatch job of each of ``players`` who has a webhook (none without a queue)."""
    if hooks.queue is None or not players:
        return
    wanted = sorted(set(players))
    flags = hooks.redis.smismember(hooks.keys.hooked_players(), wanted)
    for player_id, flag in zip(wanted, flags, strict=True):
        if flag:
            hooks._enqueue(DISPATCH_TOURNAMENT, f"hook-t-{tournament_id}-{version}-{player_id}-{kind}",
                           player_id, kind, tournament_id, round_, version)


def dispatch(hooks: Webhooks, player_id: str, kind: str, tournament_id: str, round_: int, version: int) -> int:
    """Create (once) one delivery per webhook of the player that wants ``kind``; make its first attempt."""
    return hooks.dispatch_to(player_id, kind, f"t:{tournament_id}:{version}",
                             {"tournament": tournament_id, "round": round_, "version": version},
                             {"game": "", "tournament": tournament_id, "version": version})
