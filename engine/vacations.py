"""Vacations (issue 50): a player's days away, during which their seats' clocks stop.

Every player has ``INTRIGUE_VACATION_DAYS_PER_YEAR`` days a calendar year (UTC). Starting
one appends ``VacationStarted {seat, until}`` to each running game where the player holds
a seat and whose time control stops for vacations (``projections.community``), the pause
capped by what the game still accepts (its ``max_vacation_days``, all seats together);
ending it early appends ``VacationEnded {seat}`` to each game still paused for them and
gives back the whole days not used. The clocks are folded from those events, so a replay
and the audit see them. A game that starts while the player is away is not paused.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import redis

from engine.active_games import live_key
from engine.commit import MAX_RETRIES, CommitPath
from engine.errors import Conflict, NotFound
from engine.outcomes import Player
from events.envelope import format_at, parse_time
from events.store import Keys
from games.base import GameEvent
from projections.community import on_vacation, vacation_allowed, vacation_budget
from projections.record import Record, resigned, seat_of

DAY = 86400
#: The account's fields a vacation reads and writes, swapped together or not at all.
VACATION_FIELDS = ("vacation_until", "vacation_used", "vacation_year")
#: Compare-and-set of the vacation fields of one player's hash (one key: a cluster takes it
#: too). ARGV: the three fields as read ('' for absent), then the three to write ('' deletes).
_SWAP = """
local names = {'vacation_until', 'vacation_used', 'vacation_year'}
local have = redis.call('HMGET', KEYS[1], unpack(names))
for i = 1, 3 do
  if (have[i] or '') ~= ARGV[i] then return 0 end
end
for i = 1, 3 do
  if ARGV[i + 3] == '' then redis.call('HDEL', KEYS[1], names[i])
  else redis.call('HSET', KEYS[1], names[i], ARGV[i + 3]) end
end
return 1
"""
#: How often a start or an end is decided again after another request changed the account.
SWAP_TRIES = 5


def player_timezone(client: redis.Redis, keys: Keys, player_id: str) -> str:
    """The player's IANA time zone (``UTC`` when they set none): whose weekends pause their clock."""
    found = client.hget(keys.player(player_id), "timezone")
    return found.decode() if found else "UTC"


class Vacations:
    def __init__(self, client: redis.Redis, keys: Keys, commits: CommitPath, days_per_year: int,
                 clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self.redis = client
        self.keys = keys
        self.commits = commits
        self.days_per_year = days_per_year
        self.clock = clock
        self._swap = client.register_script(_SWAP)

    # ------------------------------------------------------------------ the account
    def account(self, player: Player) -> dict[str, Any]:
        """``GET /v1/me``: who the caller is, their time zone and their vacation."""
        fields = self._fields(player.id)
        now = self.clock()
        until = fields.get("vacation_until")
        return {"id": player.id, "name": player.name, "timezone": fields.get("timezone") or "UTC",
                "vacation_until": until if until and parse_time(until) > now else None,
                "vacation_days_left": self._left(fields, now), "vacation_days_per_year": self.days_per_year}

    def _fields(self, player_id: str) -> dict[str, str]:
        raw = self.redis.hgetall(self.keys.player(player_id))
        if not raw:
            raise NotFound("player_not_found", "there is no player with this id")
        return {key.decode(): value.decode() for key, value in raw.items()}

    def _left(self, fields: dict[str, str], now: datetime) -> int:
        used = int(fields.get("vacation_used") or 0) if fields.get("vacation_year") == str(now.year) else 0
        return max(0, self.days_per_year - used)

    def set_timezone(self, player: Player, zone: str) -> dict[str, Any]:
        """Keep the caller's IANA time zone (checked by the caller): weekends are theirs from now on."""
        self.redis.hset(self.keys.player(player.id), "timezone", zone)
        return self.account(player)

    # ------------------------------------------------------------------ a vacation
    def _decide_and_swap(self, player_id: str,
                         decide: Callable[[dict[str, str], datetime], dict[str, str]]) -> dict[str, str]:
        """Read the account, ``decide`` its new vacation fields (or raise), and write them only if
        nobody changed them meanwhile, else decide again: two racing starts cannot both spend
        the same days."""
        for _ in range(SWAP_TRIES):
            fields = self._fields(player_id)
            new = decide(fields, self.clock())
            if self._swap(keys=[self.keys.player(player_id)],
                          args=[*(fields.get(name, "") for name in VACATION_FIELDS),
                                *(new.get(name, "") for name in VACATION_FIELDS)]):
                return new
        raise Conflict("busy", "your account changed while this was decided; try again")

    def start(self, player: Player, days: int) -> dict[str, Any]:
        """Start a vacation of ``days`` now, and stop the player's clocks in every game that allows it."""

        def decide(fields: dict[str, str], now: datetime) -> dict[str, str]:
            until = fields.get("vacation_until")
            if until and parse_time(until) > now:
                raise Conflict("on_vacation",
                               f"you are on vacation until {until}; end it first (DELETE /v1/me/vacation)")
            left = self._left(fields, now)
            if days > left:
                raise Conflict("not_enough_vacation", f"you have {left} vacation days left this year, not {days}")
            return {"vacation_until": format_at(now + timedelta(days=days)), "vacation_year": str(now.year),
                    "vacation_used": str(self.days_per_year - left + days)}

        ends = self._decide_and_swap(player.id, decide)["vacation_until"]
        for game_id in self._games(player.id):
            self._append(game_id, lambda record: self._start_in(record, player.id, ends))
        return self.account(player)

    def end(self, player: Player) -> dict[str, Any]:
        """End the caller's vacation now: the whole days not used are given back, the clocks run again."""

        def decide(fields: dict[str, str], now: datetime) -> dict[str, str]:
            until = fields.get("vacation_until")
            if not until or parse_time(until) <= now:
                raise Conflict("not_on_vacation", "you are not on vacation")
            back = math.floor((parse_time(until) - now).total_seconds() / DAY)
            this_year = fields.get("vacation_year") == str(now.year)
            used = max(0, int(fields.get("vacation_used") or 0) - back) if this_year else 0
            return {"vacation_used": str(used), "vacation_year": fields.get("vacation_year", "")}

        self._decide_and_swap(player.id, decide)
        for game_id in self._games(player.id):
            self._append(game_id, lambda record: self._end_in(record, player.id))
        return self.account(player)

    def _games(self, player_id: str) -> list[str]:
        return [raw.decode() for raw in self.redis.zrange(live_key(self.keys, player_id), 0, -1)]

    def _start_in(self, record: Record, player_id: str, ends: str) -> list[GameEvent]:
        seat = seat_of(record, player_id)
        if (seat is None or record["status"] != "active" or seat in resigned(record) or record["autoplay"][seat]
                or not vacation_allowed(record["time_control"])):
            return []
        now = self.clock()
        budget = vacation_budget(record)
        until = min(parse_time(ends), now + timedelta(seconds=budget))
        if until <= now:
            return []  # the game has accepted all the pause it takes
        return [GameEvent("VacationStarted", {"seat": seat, "until": format_at(until)}, actor=seat)]

    def _end_in(self, record: Record, player_id: str) -> list[GameEvent]:
        seat = seat_of(record, player_id)
        if seat is None or record["status"] != "active" or on_vacation(record, seat, self.clock()) is None:
            return []
        return [GameEvent("VacationEnded", {"seat": seat}, actor=seat)]

    def _append(self, game_id: str, decide: Callable[[Record], list[GameEvent]]) -> None:
        """Append what ``decide`` says on the game's current record; a race decides again."""
        for _ in range(MAX_RETRIES):
            record = self.commits.load(game_id)
            drafts = decide(record)
            if not drafts:
                return
            if self.commits.commit(game_id, record, drafts, {"kind": "vacation"}) is not None:
                return
        raise Conflict("busy", "a game changed too often while your vacation was noted; try again")
