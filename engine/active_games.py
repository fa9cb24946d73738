"""How many seats a player holds in games not over, and the ceiling on them (issue 50).

Each player has an index of the games where they hold a seat and that are open or running
(``<prefix>:player:<id>:live``), kept by the commit's follow-up like the other indexes: a
join or a substitution adds the game, a seat left, a substitute taking it over, or the
game's end (or cancellation) removes it. Bot seats have no index and count for nobody.
The ceiling (``INTRIGUE_ACTIVE_GAMES_PER_PLAYER``) is checked before a join or a creation
appends: a correspondence player may hold many games, but not so many that every one of
them waits weeks for them.

The index of the games that offer seats to substitutes (``engine.substitutes``) is kept
here too, by the same follow-up.
"""

from __future__ import annotations

from typing import Any

import redis

from engine.errors import Conflict
from events.envelope import parse_time
from events.store import Keys
from projections.record import Record, resigned

#: The statuses of a game not over: a seat in one counts.
LIVE = ("open", "starting", "active")


def live_key(keys: Keys, player_id: str) -> str:
    return f"{keys.prefix}:player:{player_id}:live"


def _human(player: dict[str, Any] | None) -> str | None:
    return None if player is None or "bot" in player else player["id"]


def queue_live(pipe: Any, keys: Keys, record: Record, before: Record | None) -> None:
    """Add to ``pipe`` the changes of the players' live indexes that ``record`` brings."""
    status_changed = before is None or before["status"] != record["status"]
    live = record["status"] in LIVE
    game_id = record["id"]
    for seat, player in enumerate(record["players"]):
        now = _human(player)
        then = _human(before["players"][seat]) if before is not None else None
        if then is not None and then != now:  # the seat was left or taken over
            pipe.zrem(live_key(keys, then), game_id)
            pipe.zrem(keys.inbox(then), game_id)
            if now is not None:  # a substitute: the game is among theirs from now on
                pipe.zadd(keys.player_games(now), {game_id: parse_time(record["created_at"]).timestamp()})
        if now is None or not (status_changed or then != now):
            continue
        if live:
            pipe.zadd(live_key(keys, now), {game_id: parse_time(record["created_at"]).timestamp()})
        else:
            pipe.zrem(live_key(keys, now), game_id)


def seeking_key(keys: Keys) -> str:
    return f"{keys.prefix}:seeking_substitute"


def offered_seats(record: Record) -> list[int]:
    """The seats a running game offers to a substitute: people's seats the bot plays or that resigned."""
    if record["status"] != "active" or not record.get("substitutes", True) or record.get("tournament"):
        return []  # a tournament's table is its entrants' alone
    gone = resigned(record)
    return [seat for seat, player in enumerate(record["players"])
            if player is not None and "bot" not in player and (record["autoplay"][seat] or seat in gone)]


def queue_offer(pipe: Any, keys: Keys, record: Record, before: Record | None) -> None:
    """Add to ``pipe`` the game's place in the index of offers, where it changed."""
    offered = offered_seats(record)
    if before is not None and bool(offered) == bool(offered_seats(before)):
        return
    if offered:
        pipe.zadd(seeking_key(keys), {record["id"]: parse_time(record["created_at"]).timestamp()})
    elif before is not None:
        pipe.zrem(seeking_key(keys), record["id"])


class ActiveGames:
    def __init__(self, client: redis.Redis, keys: Keys, ceiling: int) -> None:
        self.redis = client
        self.keys = keys
        #: Seats one player may hold in games not over (0: no ceiling).
        self.ceiling = ceiling

    def held(self, player_id: str) -> int:
        """Seats the player holds in games not over (bots hold none)."""
        return int(self.redis.zcard(live_key(self.keys, player_id)))

    def check(self, player_id: str) -> None:
        """Refuse a join or a creation that would take the player past the ceiling."""
        if not self.ceiling:
            return
        held = self.held(player_id)
        if held >= self.ceiling:
            raise Conflict("too_many_active_games",
                           f"you already hold seats in {held} games not over (at most {self.ceiling}); "
                           "finish or leave one before you take another")
