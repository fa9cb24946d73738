"""Ratings per player and title: a projection of the finished rated games, folded in one order.

The model is Weng-Lin's Plackett-Luce (the ``openskill`` library), made for more than two
players: each game is a ranking of its seats (``projections.record.final_ranks``: the
winners share the first place, resigned seats come last). A rating is shown as its
conservative ``ordinal`` (mu - 3 sigma), the number the leaderboard sorts by.

Rating updates do not commute, so a title's ratings are always the fold of its rated games
in one order: by the time each ended, then by game id. Each result is kept (a hash and a
sorted set per title), with the ratings its players left it with and, per player, the games
they played in that order. A result that sorts after every one folded so far is applied on
its own. One that arrives late (two games ending in the same moment on two processes, a
common thing on a busy server) refolds only the results from its place on: each player
starts from the rating their previous game left them with. Refolding the whole title
instead cost a late result time in proportion to every game ever played. So the live
numbers are exactly those that ``intrigue reindex`` rebuilds from the logs. A per-title
lock makes the fold one writer's.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import redis
from openskill.models import PlackettLuce
from redis.cluster import RedisCluster

from events.envelope import parse_time
from events.lean import LeanScript
from projections.community import as_rated

#: Ratings folded and written per round trip when a title is refolded.
REFOLD_BATCH = 500
#: How long the per-title lock lives if its holder dies (redis-py's ``Lock`` timeout).
LOCK_SECONDS = 60

#: The common case of :meth:`Ratings.record` in one step: take the title's lock (as redis-py's
#: ``Lock`` takes it: the holder's token, ``NX``, a time to live), keep the result, place it in
#: the title's order and its players' histories; then, when it sorts last, read its players'
#: ratings. KEYS: lock, results, order, complete, players, then the players' histories.
#: ARGV: token, lock ms, game id, result JSON, ended at, then the player ids.
#: Replies {"busy"}, {"known"} (lock dropped), {"late", complete} (lock held) or {"last", ratings}.
_BEGIN = """
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return {'busy'} end
if redis.call('HSETNX', KEYS[2], ARGV[3], ARGV[4]) == 0 then
  redis.call('DEL', KEYS[1])
  return {'known'}
end
redis.call('ZADD', KEYS[3], ARGV[5], ARGV[3])
local players = {}
for i = 6, #KEYS do
  redis.call('ZADD', KEYS[i], ARGV[5], ARGV[3])
  players[#players + 1] = ARGV[i]
end
local last = redis.call('ZREVRANGE', KEYS[3], 0, 0)
if last[1] ~= ARGV[3] then return {'late', redis.call('EXISTS', KEYS[4])} end
return {'last', redis.call('HMGET', KEYS[5], unpack(players))}
"""
#: Its end: the players' ratings, their leaderboard places and the game's ratings after, then
#: the lock let go if still this holder's. KEYS: lock, players, leaderboard, after.
#: ARGV: token, game id, the ratings after (JSON), then per player: id, rating JSON, place
#: on the leaderboard ("" when not listed yet).
_FINISH = """
for i = 4, #ARGV, 3 do
  redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1])
  if ARGV[i + 2] ~= '' then redis.call('ZADD', KEYS[3], ARGV[i + 2], ARGV[i]) end
end
redis.call('HSET', KEYS[4], ARGV[2], ARGV[3])
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
"""


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
    record, ranks = as_rated(dict(record), ranks)  # a substituted seat is its first player's loss (issue 50)
    if any(player is not None and "bot" in player for player in record["players"]):
        return None  # a bot is no player: its strategy's seats would share one rating
    players = tuple(player["id"] for player in record["players"] if player)
    if len(players) < len(record["players"]) or len(set(players)) < 2:  # a seat left empty
        return None
    return Result(record["id"], record["game"], parse_time(record["updated_at"]).timestamp(),
                  players, tuple(ranks))


class Ratings:
    """The ratings store: results, ratings and leaderboards, all under ``<prefix>:ratings``."""

    def __init__(self, client: redis.Redis, prefix: str, min_games: int) -> None:
        self.redis = client
        self.prefix = f"{prefix}:ratings"
        self.min_games = min_games
        self.model = PlackettLuce()
        # Its keys span hash slots: one script only on a plain Redis (a cluster takes the lock).
        self._steps = None if isinstance(client, RedisCluster) else (LeanScript(client, _BEGIN),
                                                                     LeanScript(client, _FINISH))

    # keys
    def _results(self, title: str) -> str:
        return f"{self.prefix}:{title}:results"

    def _order(self, title: str) -> str:
        return f"{self.prefix}:{title}:order"

    def _players(self, title: str) -> str:
        return f"{self.prefix}:{title}:players"

    def _after(self, title: str) -> str:
        """Per game, the ratings its players left it with."""
        return f"{self.prefix}:{title}:after"

    def _history(self, title: str, player: str) -> str:
        """A player's games of the title, in the fold's order."""
        return f"{self.prefix}:{title}:history:{player}"

    def _complete(self, title: str) -> str:
        """Set once every result of the title has its ratings after and its place in its
        players' histories (a title folded before they were kept refolds whole once)."""
        return f"{self.prefix}:{title}:complete"

    def leaderboard_key(self, title: str) -> str:
        return f"{self.prefix}:{title}:leaderboard"

    def _lock_key(self, title: str) -> str:
        return f"{self.prefix}:{title}:lock"

    def _lock(self, title: str) -> Any:
        return self.redis.lock(self._lock_key(title), timeout=LOCK_SECONDS, blocking_timeout=60)

    # writing
    def record(self, result: Result) -> None:
        """Fold one game's result in (a result already folded changes nothing).

        A worker records every rated game that ends, so the usual case (the lock free, the
        result the title's newest) takes two script calls: one takes the lock, keeps the
        result and reads its players' ratings, one writes theirs and lets the lock go. They
        are the same reads and writes as below, in four fewer round trips (the worker's
        CPU went mostly to redis-py's layers around those: docs/performance.md, section 22).
        Anything else (the lock held, a late result) goes the way below, under the lock.
        """
        if self._steps is not None:
            begin, finish = self._steps
            title, token = result.title, secrets.token_hex(16)
            histories = [self._history(title, player) for player in result.players]
            reply = begin(keys=[self._lock_key(title), self._results(title), self._order(title),
                                self._complete(title), self._players(title), *histories],
                          args=[token, LOCK_SECONDS * 1000, result.game_id, result.to_json(), result.ended_at,
                                *result.players])
            step = reply[0].decode() if isinstance(reply[0], bytes) else reply[0]
            if step == "known":
                return
            if step == "last":
                current = {player: json.loads(found) if found else None
                           for player, found in zip(result.players, reply[1], strict=True)}
                after = self._apply(result, current)
                places = [str(ordinal(value)) if value["games"] >= self.min_games else "" for value in after.values()]
                finish(keys=[self._lock_key(title), self._players(title), self.leaderboard_key(title),
                             self._after(title)],
                       args=[token, result.game_id, json.dumps(after),
                             *(part for (player, value), place in zip(after.items(), places, strict=True)
                               for part in (player, json.dumps(value), place))])
                return
            if step == "late":  # the lock is this call's: refold under it, then let it go
                lock = self._lock(title)
                lock.local.token = token.encode()
                try:
                    self._fold_late(title, result, complete=bool(reply[1]))
                finally:
                    lock.release()
                return
        self._record_locked(result)

    def _record_locked(self, result: Result) -> None:
        """:meth:`record` under redis-py's lock, each step its own round trip."""
        title = result.title
        with self._lock(title):
            if not self.redis.hsetnx(self._results(title), result.game_id, result.to_json()):
                return
            order = self._order(title)
            pipe = self.redis.pipeline(transaction=False)
            pipe.zadd(order, {result.game_id: result.ended_at})
            for player in result.players:
                pipe.zadd(self._history(title, player), {result.game_id: result.ended_at})
            pipe.zrevrange(order, 0, 0)
            pipe.exists(self._complete(title))
            *_, last, complete = pipe.execute()
            if last and last[0].decode() == result.game_id:
                after = self._apply(result, self._read(title, result.players))
                self._write(title, after, {result.game_id: after})
            else:
                self._fold_late(title, result, bool(complete))

    def _fold_late(self, title: str, result: Result, complete: bool) -> None:
        """A result that sorts before others already folded: refold from its place (under the lock)."""
        try:
            if not complete:  # folded before the ratings after each game were kept
                raise _Incomplete(title)
            self._refold_from(title, result.game_id)
        except _Incomplete:  # once, the whole title: it keeps them from then on
            self._refold(title)

    def rebuild(self, results: Iterable[Result]) -> int:
        """Forget every rating and fold ``results`` again (``intrigue reindex``); how many."""
        for key in self.redis.scan_iter(match=f"{self.prefix}:*"):
            if not key.endswith(b":lock"):
                self.redis.delete(key)
        titles: set[str] = set()
        count = 0
        for result in results:
            pipe = self.redis.pipeline(transaction=False)
            pipe.hset(self._results(result.title), result.game_id, result.to_json())
            pipe.zadd(self._order(result.title), {result.game_id: result.ended_at})
            for player in result.players:
                pipe.zadd(self._history(result.title, player), {result.game_id: result.ended_at})
            pipe.execute()
            titles.add(result.title)
            count += 1
        for title in sorted(titles):
            with self._lock(title):
                self._refold(title)
        return count

    def _results_in(self, title: str, game_ids: list[str]) -> Iterable[Result]:
        """The results of ``game_ids``, in that order, read :data:`REFOLD_BATCH` at a time."""
        for start in range(0, len(game_ids), REFOLD_BATCH):
            chunk = game_ids[start:start + REFOLD_BATCH]
            for game_id, raw in zip(chunk, self.redis.hmget(self._results(title), chunk), strict=True):
                yield Result.from_json(game_id, raw)

    def _refold(self, title: str) -> None:
        """Fold every result of the title again, from no ratings at all."""
        self.redis.delete(self._players(title), self.leaderboard_key(title), self._after(title))
        ids = [raw.decode() for raw in self.redis.zrange(self._order(title), 0, -1)]
        state: dict[str, dict[str, Any]] = {}
        afters: dict[str, dict[str, dict[str, Any]]] = {}
        played: list[Result] = []
        for result in self._results_in(title, ids):
            after = self._apply(result, {player: state.get(player) for player in result.players})
            state.update(after)
            afters[result.game_id] = after
            played.append(result)
            if len(afters) >= REFOLD_BATCH:
                self._write(title, {}, afters, played)
                afters, played = {}, []
        self._write(title, state, afters, played, complete=True)

    def _refold_from(self, title: str, game_id: str) -> None:
        """Fold again the results from ``game_id``'s place on; each of their players starts
        from the ratings their game before it left them with."""
        order = self._order(title)
        rank = self.redis.zrank(order, game_id)
        assert rank is not None
        ids = [raw.decode() for raw in self.redis.zrange(order, rank, -1)]
        state: dict[str, dict[str, Any] | None] = {}
        afters: dict[str, dict[str, dict[str, Any]]] = {}
        for result in self._results_in(title, ids):
            unseen = [player for player in result.players if player not in state]
            state.update(self._before(title, result.game_id, unseen))
            after = self._apply(result, {player: state[player] for player in result.players})
            state.update(after)
            afters[result.game_id] = after
        self._write(title, {player: value for player, value in state.items() if value is not None}, afters)

    def _before(self, title: str, game_id: str, players: Sequence[str]) -> dict[str, dict[str, Any] | None]:
        """Each player's ratings as their game before ``game_id`` left them (None: none before)."""
        if not players:
            return {}
        pipe = self.redis.pipeline(transaction=False)
        for player in players:
            pipe.zrank(self._history(title, player), game_id)
        ranks = pipe.execute()
        if any(rank is None for rank in ranks):
            raise _Incomplete(title)
        later = [(player, rank) for player, rank in zip(players, ranks, strict=True) if rank > 0]
        for player, rank in later:
            pipe.zrange(self._history(title, player), rank - 1, rank - 1)
        found = {player: games[0].decode() for (player, _), games in zip(later, pipe.execute(), strict=True)}
        previous = [found.get(player) for player in players]  # None: the player's first game
        known = [game for game in previous if game is not None]
        raw = dict(zip(known, self.redis.hmget(self._after(title), known), strict=True)) if known else {}
        before: dict[str, dict[str, Any] | None] = {}
        for player, game in zip(players, previous, strict=True):
            if game is not None and raw.get(game) is None:
                raise _Incomplete(title)
            before[player] = json.loads(raw[game])[player] if game is not None else None
        return before

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

    def _write(self, title: str, ratings: Mapping[str, dict[str, Any]],
               afters: Mapping[str, Mapping[str, dict[str, Any]]], played: Sequence[Result] = (),
               complete: bool = False) -> None:
        """The players' current ``ratings`` and leaderboard places, and each game's ratings
        after it, in one transaction; the ``played`` results in their players' histories;
        ``complete`` marks the title's afters and histories all kept."""
        pipe = self.redis.pipeline(transaction=True)
        for result in played:
            for player in result.players:
                pipe.zadd(self._history(title, player), {result.game_id: result.ended_at})
        if ratings:
            pipe.hset(self._players(title), mapping={player: json.dumps(value) for player, value in ratings.items()})
            shown = {player: ordinal(value) for player, value in ratings.items() if value["games"] >= self.min_games}
            if shown:
                pipe.zadd(self.leaderboard_key(title), shown)
        if afters:
            pipe.hset(self._after(title), mapping={game: json.dumps(value) for game, value in afters.items()})
        if complete:
            pipe.set(self._complete(title), 1)
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


class _Incomplete(Exception):
    """A title's ratings after each game, or its players' histories, are not all kept."""


def ordinal(value: Mapping[str, Any]) -> float:
    """The conservative rating shown and sorted by: mu less three sigma."""
    return value["mu"] - 3 * value["sigma"]


def shown(value: Mapping[str, Any]) -> dict[str, Any]:
    return {"rating": round(ordinal(value), 3), "mu": round(value["mu"], 3), "sigma": round(value["sigma"], 3),
            "games": value["games"]}
