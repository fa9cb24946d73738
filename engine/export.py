"""A player's finished games, oldest end first, for ``GET /v1/players/<id>/games/export`` (issue 52, item 4).

Each player seated in a game that ends gets it in a sorted set of their finished games,
scored by the end's time (written by the follow-up of the commit that ends it, and again
by ``intrigue reindex``), so an export reads its games in order, from any moment on, in
pages, however many games the player has: a client resumes an export with ``since`` set
to the ``ended_at`` of the last line it kept. Games that expired before they started are
not listed: nothing was played.

Exports are limited by a bucket of their own per caller (the player, or the address of a
call without a token), apart from the per-request limits: an export reads every game it
streams, so it costs more than any other read.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import redis

from engine.settings import Bucket
from events.envelope import parse_time
from events.store import Keys
from projections.projector import Projector
from projections.record import Record

#: Exports a caller may start at once, then one every ``EXPORT_EVERY`` seconds.
EXPORT_BURST = 3
EXPORT_EVERY = 20.0
EXPORT_BUCKET = Bucket("export", 1 / EXPORT_EVERY, EXPORT_BURST)
#: Games read from the store together while an export streams.
EXPORT_PAGE = 50


def finished_key(keys: Keys, player_id: str) -> str:
    """The player's finished games, scored by when each ended (seconds since the epoch)."""
    return f"{keys.prefix}:player:{player_id}:finished"


def is_listed(record: Record) -> bool:
    """Whether a finished game counts among its players' games: it was played (started)."""
    return record["status"] == "finished" and record.get("reason") != "expired"


def queue_finished(pipe: Any, keys: Keys, record: Record) -> None:
    """Add ``record``'s game (just finished) to each of its people's finished games."""
    if not is_listed(record):
        return
    ended = parse_time(record["updated_at"]).timestamp()
    for player in record["players"]:
        if player is not None and "bot" not in player:
            pipe.zadd(finished_key(keys, player["id"]), {record["id"]: ended})


def summary_line(record: Record) -> dict[str, Any]:
    """One export line: the game's id, title, players, result, whether it was rated, its final hash."""
    return {
        "id": record["id"], "title": record["game"],
        "players": [None if p is None else {k: p[k] for k in ("id", "name", "bot") if k in p}
                    for p in record["players"]],
        "result": {"winners": record["winners"], "reason": record["reason"]},
        "rated": bool(record.get("rated")), "final_hash": record["last_hash"], "seed_hash": record["seed_hash"],
        "created_at": record["created_at"], "ended_at": record["updated_at"],
    }


class Exports:
    """Reads a player's finished games in the order they ended."""

    def __init__(self, client: redis.Redis, keys: Keys, projector: Projector) -> None:
        self.redis = client
        self.keys = keys
        self.projector = projector

    def finished_games(self, player_id: str, since: float | None = None) -> Iterator[Record]:
        """The player's finished games that ended at or after ``since`` (seconds), oldest first,
        read a page at a time as the caller consumes them."""
        key = finished_key(self.keys, player_id)
        low: str | float = "-inf" if since is None else since
        offset = 0
        while True:
            ids = [raw.decode() for raw in self.redis.zrangebyscore(key, low, "+inf", start=offset, num=EXPORT_PAGE)]
            if not ids:
                return
            loaded = self.projector.load_many(ids)
            for game_id in ids:
                record = loaded.get(game_id)
                if record is not None and is_listed(record):
                    yield record
            offset += len(ids)
