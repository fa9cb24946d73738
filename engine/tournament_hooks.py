"""Tournament webhooks: ``tournament_round`` (a round was paired: your table, or your bye) and
``tournament_over``, delivered, signed and retried as every webhook is (``engine.webhooks``).

A delivery's body names the tournament and the round, never a game's secret:
``{"id", "type", "tournament", "round", "version", "created_at"}``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence

from engine.webhooks import DELIVERY_TTL, RECENT_DELIVERIES, Webhooks, _iso
from events.envelope import canonical_json

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
    fresh: list[str] = []
    for raw in sorted(hooks.redis.smembers(hooks.keys.player_webhooks(player_id))):
        hook = hooks._load(raw.decode())
        if hook is None or hook["disabled"] == "1" or kind not in json.loads(hook["events"]):
            continue
        delivery_id = hashlib.sha256(f"{hook['id']}:{kind}:t:{tournament_id}:{version}".encode()).hexdigest()[:32]
        now = hooks.clock()
        body = canonical_json({"id": delivery_id, "type": kind, "tournament": tournament_id, "round": round_,
                               "version": version, "created_at": _iso(now)})
        key = hooks.keys.delivery(delivery_id)
        if not hooks.redis.hsetnx(key, "id", delivery_id):
            continue
        pipe = hooks.redis.pipeline(transaction=False)
        pipe.hset(key, mapping={"webhook": hook["id"], "type": kind, "game": "", "tournament": tournament_id,
                                "version": version, "body": body, "status": "pending", "attempts": 0,
                                "created": now, "created_at": _iso(now), "next_retry": _iso(now), "last_status": ""})
        pipe.expire(key, DELIVERY_TTL)
        pipe.lpush(hooks.keys.webhook_deliveries(hook["id"]), delivery_id)
        pipe.ltrim(hooks.keys.webhook_deliveries(hook["id"]), 0, RECENT_DELIVERIES - 1)
        pipe.zadd(hooks.keys.deliveries_due(), {delivery_id: now})
        pipe.execute()
        fresh.append(delivery_id)
    for delivery_id in fresh:
        hooks.deliver(delivery_id)
    return len(fresh)
