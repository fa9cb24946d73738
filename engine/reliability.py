"""Reliability, as webDiplomacy keeps it (issue 50): of a player's decisions in their last
100 games that ended, the share made before the deadline, with the deadlines missed and
the games abandoned as counts.

A game's record counts, per seat, the decisions its player made (their actions and
standing orders) and the deadlines they let pass before the bot took over
(``projections.community``). When the game ends its archive step files those counts under
each player (``<prefix>:reliability:<id>``: the games by end time, and their counts),
once however often it runs, keeping the newest 100. A game is abandoned by a player when
the bot held their seat at the end (not a resignation: that is said aloud), or when a
substitute took it over. The figure is null until the player has made 20 decisions.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import redis

from engine.errors import Forbidden
from events.envelope import parse_time
from events.store import Keys
from projections.record import Record, resigned

#: Games counted: the player's newest ones that ended.
WINDOW = 100
#: Decisions a player makes before a figure is shown.
MIN_DECISIONS = 20


def tallies(record: Record) -> dict[str, tuple[int, int, int]]:
    """What a finished game files under each of its players: decisions, timeouts, abandoned."""
    seats = record["seats"]
    decided = list(record.get("decided") or [0] * seats)
    timeouts = list(record.get("timeouts") or [0] * seats)
    out: dict[str, tuple[int, int, int]] = {}
    gone = resigned(record)
    for seat, player in enumerate(record["players"]):
        if player is None or "bot" in player:
            continue
        abandoned = int(bool(record["autoplay"][seat]) and seat not in gone)
        out[player["id"]] = (decided[seat], timeouts[seat], abandoned)
    for left in record.get("left") or []:
        before = out.get(left["player"], (0, 0, 0))
        out[left["player"]] = (before[0] + left["decided"], before[1] + left["timeouts"], before[2] + 1)
    return out


class Reliability:
    def __init__(self, client: redis.Redis, keys: Keys) -> None:
        self.redis = client
        self.prefix = keys.prefix

    def _games(self, player_id: str) -> str:
        return f"{self.prefix}:reliability:{player_id}"

    def _counts(self, player_id: str) -> str:
        return f"{self.prefix}:reliability:{player_id}:counts"

    def record(self, record: Record) -> None:
        """File a finished game's counts under its players; running it again changes nothing."""
        if record["status"] != "finished" or record["state"] is None:
            return  # a game that expired or was cancelled asked nobody for a decision
        ended = parse_time(record["updated_at"]).timestamp()
        found = tallies(record)
        pipe = self.redis.pipeline(transaction=False)
        for player_id, (decided, timeouts, abandoned) in found.items():
            pipe.zadd(self._games(player_id), {record["id"]: ended})
            pipe.hset(self._counts(player_id), record["id"], f"{decided} {timeouts} {abandoned}")
            pipe.zrange(self._games(player_id), 0, -WINDOW - 1)
        replies = pipe.execute()
        pipe = self.redis.pipeline(transaction=False)
        for index, player_id in enumerate(found):
            old = replies[index * 3 + 2]
            if old:
                pipe.zrem(self._games(player_id), *old)
                pipe.hdel(self._counts(player_id), *old)
        if len(pipe):
            pipe.execute()

    def of_players(self, player_ids: Iterable[str]) -> dict[str, dict[str, Any]]:
        """Each player's figure and counts, in one round trip."""
        wanted = list(dict.fromkeys(player_ids))
        pipe = self.redis.pipeline(transaction=False)
        for player_id in wanted:
            pipe.hvals(self._counts(player_id))
        return {player_id: _figure(counts) for player_id, counts in zip(wanted, pipe.execute() if wanted else [],
                                                                       strict=True)}

    def of_player(self, player_id: str) -> dict[str, Any]:
        return self.of_players([player_id])[player_id]

    def check(self, record: Record, player_id: str) -> None:
        """Refuse a player whose figure is below the game's ``min_reliability`` (none yet: welcome)."""
        floor = record.get("min_reliability")
        if floor is None:
            return
        figure = self.of_player(player_id)["reliability"]
        if figure is not None and figure < floor:
            raise Forbidden("too_unreliable", f"this game takes players of {floor}% reliability or more; "
                                              f"yours is {figure}%")

    def annotate(self, games: Sequence[dict[str, Any]]) -> None:
        """Put each seated person's reliability beside their name in listed games."""
        ids = [p["id"] for game in games for p in game["players"] if p is not None and "bot" not in p]
        figures = self.of_players(ids)
        for game in games:
            game["players"] = [p if p is None or "bot" in p else {**p, "reliability": figures[p["id"]]["reliability"]}
                               for p in game["players"]]


def _figure(counts: Sequence[bytes]) -> dict[str, Any]:
    decided = timeouts = abandoned = 0
    for raw in counts:
        d, t, a = (int(part) for part in raw.split())
        decided, timeouts, abandoned = decided + d, timeouts + t, abandoned + a
    shown = round(100 * decided / (decided + timeouts), 1) if decided >= MIN_DECISIONS else None
    return {"reliability": shown, "decisions": decided, "timeouts": timeouts, "abandoned": abandoned}
