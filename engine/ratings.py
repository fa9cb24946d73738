"""Ratings per player and title: a projection of the finished rated games, folded in one order.

The model is Weng-Lin's Plackett-Luce (the ``openskill`` library), made for more than two
players: each game is a ranking of its seats (``projections.record.final_ranks``: the
winners share the first place, resigned seats come last). A rating is shown as its
conservative ``ordinal`` (mu - 3 sigma), the number the leaderboard sorts by.

Rating updates do not commute, so a title's ratings are always the fold of its rated games
in one order: by the time each ended, then by game id. Each result is kept (a hash and a
sorted set per title); a result that sorts after every one folded so far is applied on its
own, and one that arrives late (two games ending in the same moment on two processes)
refolds the title from its results. So the live numbers are exactly those that
``intrigue reindex`` rebuilds from the logs. A per-title lock makes the fold one writer's.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import redis
from openskill.models import PlackettLuce

from events.envelope import parse_time

#: Ratings folded and written per round trip when a title is refolded.
REFOLD_BATCH = 500


@dataclass(frozen=True)
class Result:
    """What a finished rated game says about its players: who sat where and each seat's place."""

    game_id: str
    title: str
    ended_at: float
    players: tuple[str, ...]
    ranks: tuple[int, ...]

    def to_json(self) -> str:
        return json.dumps({"title": self.title, "ended_at": self.ended_at, "players": list(self.players),
                           "ranks": list(self.ranks)})

    @classmethod
    def from_json(cls, game_id: str, raw: str | bytes) -> Result:
        data = json.loads(raw)
        return cls(game_id, data["title"], data["ended_at"], tuple(data["players"]), tuple(data["ranks"]))


def result_of(record: Mapping[str, Any], ranks: Sequence[int]) -> Result | None:
    """The result a finished game contributes, or None when it is not rated."""
    if record["status"] != "finished" or not record.get("rated"):
        return None
    players = [player["id"] if player else None for player in record["players"]]
    if any(player is None for player in players) or len(set(players)) < 2:
        return None
    return Result(record["id"], record["game"], parse_time(record["updated_at"]).timestamp(),
                  tuple(players), tuple(ranks))  # type: ignore[arg-type]


class Ratings:
    """The ratings store: results, ratings and leaderboards, all under ``<prefix>:ratings``."""

    def __init__(self, client: redis.Redis, prefix: str, min_games: int) -> None:
        self.redis = client
        self.prefix = f"{prefix}:ratings"
        self.min_games = min_games
        self.model = PlackettLuce()

    # keys
    def _results(self, title: str) -> str:
        return f"{self.prefix}:{title}:results"

    def _order(self, title: str) -> str:
        return f"{self.prefix}:{title}:order"

    def _players(self, title: str) -> str:
        return f"{self.prefix}:{title}:players"

    def leaderboard_key(self, title: str) -> str:
        return f"{self.prefix}:{title}:leaderboard"

    def _lock(self, title: str) -> Any:
        return self.redis.lock(f"{self.prefix}:{title}:lock", timeout=60, blocking_timeout=60)

    # writing
    def record(self, result: Result) -> None:
        """Fold one game's result in (a result already folded changes nothing)."""
        with self._lock(result.title):
            if not self.redis.hsetnx(self._results(result.title), result.game_id, result.to_json()):
                return
            order = self._order(result.title)
            self.redis.zadd(order, {result.game_id: result.ended_at})
            last = self.redis.zrevrange(order, 0, 0)
            if last and last[0].decode() == result.game_id:
                self._write(result.title, self._apply(result, self._read(result.title, result.players)))
            else:  # it ended before games already folded: fold the title again, in order
                self._refold(result.title)

    def rebuild(self, results: Iterable[Result]) -> int:
        """Forget every rating and fold ``results`` again (``intrigue reindex``); how many."""
        for key in self.redis.scan_iter(match=f"{self.prefix}:*"):
            if not key.endswith(b":lock"):
                self.redis.delete(key)
        titles: set[str] = set()
        count = 0
        for result in results:
            self.redis.hset(self._results(result.title), result.game_id, result.to_json())
            self.redis.zadd(self._order(result.title), {result.game_id: result.ended_at})
            titles.add(result.title)
            count += 1
        for title in sorted(titles):
            with self._lock(title):
                self._refold(title)
        return count

    def _refold(self, title: str) -> None:
        self.redis.delete(self._players(title), self.leaderboard_key(title))
        ids = [raw.decode() for raw in self.redis.zrange(self._order(title), 0, -1)]
        state: dict[str, dict[str, Any]] = {}
        for start in range(0, len(ids), REFOLD_BATCH):
            chunk = ids[start:start + REFOLD_BATCH]
            for game_id, raw in zip(chunk, self.redis.hmget(self._results(title), chunk), strict=True):
                result = Result.from_json(game_id, raw)
                current = {player: state.get(player) for player in result.players}
                state.update(self._apply(result, current))
        self._write(title, state)

    def _apply(self, result: Result, current: Mapping[str, dict[str, Any] | None]) -> dict[str, dict[str, Any]]:
        """The players' ratings after ``result``, from ``current`` (None: a new player)."""
        teams = []
        for player in result.players:
            known = current.get(player)
            rating = (self.model.rating(mu=known["mu"], sigma=known["sigma"]) if known
                      else self.model.rating())
            teams.append([rating])
        rated = self.model.rate(teams, ranks=list(result.ranks))
        return {player: {"mu": team[0].mu, "sigma": team[0].sigma,
                         "games": (current.get(player) or {}).get("games", 0) + 1}
                for player, team in zip(result.players, rated, strict=True)}

    def _read(self, title: str, players: Sequence[str]) -> dict[str, dict[str, Any] | None]:
        raw = self.redis.hmget(self._players(title), list(players))
        return {player: json.loads(found) if found else None for player, found in zip(players, raw, strict=True)}

    def _write(self, title: str, ratings: Mapping[str, dict[str, Any]]) -> None:
        if not ratings:
            return
        pipe = self.redis.pipeline(transaction=True)
        pipe.hset(self._players(title), mapping={player: json.dumps(value) for player, value in ratings.items()})
        shown = {player: ordinal(value) for player, value in ratings.items() if value["games"] >= self.min_games}
        if shown:
            pipe.zadd(self.leaderboard_key(title), shown)
        pipe.execute()

    # reading
    def of_player(self, player_id: str, titles: Iterable[str]) -> dict[str, dict[str, Any]]:
        """A player's rating and games played per title they have played rated."""
        titles = list(titles)
        pipe = self.redis.pipeline(transaction=False)
        for title in titles:
            pipe.hget(self._players(title), player_id)
        found = {}
        for title, raw in zip(titles, pipe.execute(), strict=True):
            if raw is not None:
                found[title] = shown(json.loads(raw))
        return found

    def page(self, title: str, offset: int, limit: int) -> tuple[list[dict[str, Any]], int | None]:
        """Best first: ``limit`` entries from ``offset``, and the offset of the next page (None: last)."""
        ids = [raw.decode() for raw in self.redis.zrevrange(self.leaderboard_key(title), offset, offset + limit)]
        more = len(ids) > limit
        ids = ids[:limit]
        raw = self.redis.hmget(self._players(title), ids) if ids else []
        entries = [{"rank": offset + index + 1, "player": player, **shown(json.loads(value))}
                   for index, (player, value) in enumerate(zip(ids, raw, strict=True)) if value]
        return entries, (offset + limit if more else None)


def ordinal(value: Mapping[str, Any]) -> float:
    """The conservative rating shown and sorted by: mu less three sigma."""
    return value["mu"] - 3 * value["sigma"]


def shown(value: Mapping[str, Any]) -> dict[str, Any]:
    return {"rating": round(ordinal(value), 3), "mu": round(value["mu"], 3), "sigma": round(value["sigma"], 3),
            "games": value["games"]}
