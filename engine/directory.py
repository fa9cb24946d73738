"""Finding players by name: the index behind ``GET /v1/players?name=<prefix>``.

One sorted set, every member at score 0, so Redis orders it by bytes: each member is a
player's name folded to lower case, a NUL, then the player's id. A prefix is then one
``ZRANGE ... BYLEX`` (a range read, however many players there are), and names that
differ only in case, or players who share a name, stay apart. The id travels in the
member, so the answer needs the player hashes only for the names as typed.

Players registered before this index existed are added by :func:`backfill`, which
``intrigue reindex`` runs.
"""

from __future__ import annotations

from typing import Any

import redis

from events.store import Keys

#: The most players one lookup returns.
MAX_RESULTS = 20


def names_key(keys: Keys) -> str:
    return f"{keys.prefix}:players:names"


def fold(name: str) -> str:
    """The form names are compared in: case folded, so "nat" finds "Natasha"."""
    return name.casefold()


def index_player(pipe: Any, keys: Keys, player_id: str, name: str) -> None:
    """Queue the player's entry on ``pipe`` (the registration's own pipeline: no extra round trip)."""
    pipe.zadd(names_key(keys), {f"{fold(name)}\x00{player_id}": 0})


def find_by_prefix(client: redis.Redis, keys: Keys, prefix: str, limit: int = MAX_RESULTS) -> list[dict[str, Any]]:
    """Players whose name starts with ``prefix`` (any case), in name order: ids and names."""
    folded = fold(prefix)
    members = client.zrange(names_key(keys), f"[{folded}", f"[{folded}\xff", bylex=True, offset=0,
                            num=min(limit, MAX_RESULTS))
    ids = [member.decode().rsplit("\x00", 1)[1] for member in members]
    if not ids:
        return []
    pipe = client.pipeline(transaction=False)
    for player_id in ids:
        pipe.hmget(keys.player(player_id), "name", "bot")
    return [{"id": player_id, "name": name.decode(), **({"bot_account": True} if bot else {})}
            for player_id, (name, bot) in zip(ids, pipe.execute(), strict=True) if name is not None]


def backfill(client: redis.Redis, keys: Keys) -> int:
    """Index every registered player (idempotent); returns how many were seen."""
    seen = 0
    for key in client.scan_iter(match=keys.player("*"), count=500):
        player_id = key.decode()[len(keys.player("")):]
        if ":" in player_id:
            continue  # a player's tokens, not the player
        name = client.hget(key, "name")
        if name is not None:
            client.zadd(names_key(keys), {f"{fold(name.decode())}\x00{player_id}": 0})
            seen += 1
    return seen
