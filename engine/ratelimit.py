"""Limits that hold across API processes: token buckets kept in Redis.

Every API process shares the same buckets, so adding processes does not multiply a
client's allowance, and a bucket is keyed by what the caller *is* (a player id, or the
client address for calls without a known token), never by how a header is spelt. A
bucket is one small hash that expires once it would be full again, so idle clients
cost nothing and nothing is ever cleared wholesale.

The bucket is refilled and spent by one Lua script that reads the server's clock
(``TIME``), so processes whose clocks differ still agree; each bucket is a single key,
which a Redis Cluster serves from one shard.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import redis

from engine.errors import Limited
from events.buckets import TOKEN_BUCKET_LUA
from events.lean import LeanScript
from events.store import Gate

# KEYS: the bucket. ARGV: tokens per second, capacity. Returns "0" (spent one token) or
# the seconds to wait before one is there (as a string: Lua numbers become integers).
_TAKE = TOKEN_BUCKET_LUA + "return tostring(take_token(KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2])))\n"


@dataclass(frozen=True)
class Bucket:
    """``rate`` tokens a second up to ``burst``; a rate of 0 means no limit."""

    name: str
    rate: float
    burst: float

    @classmethod
    def per_hour(cls, name: str, count: float) -> Bucket:
        """``count`` an hour, all of which may be spent at once."""
        return cls(name, count / 3600, count)


@dataclass(frozen=True)
class Limits:
    """What an operator sets (see the README's configuration table); 0 turns a limit off."""

    #: Requests per second per player (``INTRIGUE_RATE_LIMIT``); bursts of twice that.
    player_rate: float = 50
    #: Requests per second per client address for calls without a known token.
    anonymous_rate: float = 20
    #: Registrations (``POST /v1/players``) per client address per hour.
    registrations_per_hour: float = 30
    #: Games one player may create per hour.
    games_per_hour: float = 120
    #: Games one player has created that still wait for players.
    open_games: int = 10
    #: Proxies in front of the API that append the client to ``X-Forwarded-For``.
    trusted_proxies: int = 0

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None, **overrides: float | None) -> Limits:
        env = os.environ if environ is None else environ
        values = {
            "player_rate": float(env.get("INTRIGUE_RATE_LIMIT", cls.player_rate)),
            "anonymous_rate": float(env.get("INTRIGUE_ANONYMOUS_RATE_LIMIT", cls.anonymous_rate)),
            "registrations_per_hour": float(env.get("INTRIGUE_REGISTRATIONS_PER_HOUR", cls.registrations_per_hour)),
            "games_per_hour": float(env.get("INTRIGUE_GAMES_PER_HOUR", cls.games_per_hour)),
            "open_games": int(env.get("INTRIGUE_OPEN_GAMES_PER_PLAYER", cls.open_games)),
            "trusted_proxies": int(env.get("INTRIGUE_TRUSTED_PROXIES", cls.trusted_proxies)),
        }
        values.update({key: value for key, value in overrides.items() if value is not None})
        return cls(**values)  # type: ignore[arg-type]

    @classmethod
    def off(cls) -> Limits:
        """No limits at all (benchmarks measure clients rather than police them)."""
        return cls(player_rate=0, anonymous_rate=0, registrations_per_hour=0, games_per_hour=0, open_games=0)

    def player(self) -> Bucket:
        return Bucket("player", self.player_rate, 2 * self.player_rate)

    def anonymous(self) -> Bucket:
        return Bucket("anonymous", self.anonymous_rate, 2 * self.anonymous_rate)

    def registrations(self) -> Bucket:
        return Bucket.per_hour("register", self.registrations_per_hour)

    def game_creations(self) -> Bucket:
        return Bucket.per_hour("create", self.games_per_hour)


class RateLimiter:
    """Takes tokens from buckets kept in Redis, one round trip per take."""

    def __init__(self, client: redis.Redis, prefix: str = "intrigue") -> None:
        self.redis = client
        self.prefix = prefix
        self._take = LeanScript(client, _TAKE)

    def key(self, bucket: Bucket, subject: str) -> str:
        return f"{self.prefix}:limit:{bucket.name}:{subject}"

    def gate(self, bucket: Bucket, subject: str) -> Gate | None:
        """The append's gate that spends ``subject``'s token of ``bucket`` (None: no limit)."""
        return Gate(self.key(bucket, subject), bucket.rate, bucket.burst, bucket.name) if bucket.rate > 0 else None

    def allow(self, bucket: Bucket, subject: str) -> float:
        """0 if the request may go ahead, else the seconds to wait before retrying."""
        gate = self.gate(bucket, subject)
        return self.spend(gate) if gate is not None else 0.0

    def spend(self, gate: Gate) -> float:
        """:meth:`allow` for a gate's bucket (one an append did not get to spend)."""
        return float(self._take(keys=[gate.key], args=[gate.rate, gate.burst]))


def limited(bucket_name: str, wait: float) -> Limited:
    """The refusal of a request whose token of ``bucket_name`` is not there yet."""
    return Limited("rate_limited", f"too many requests ({bucket_name}); retry in {wait:.2f} s",
                   retry_after=round(wait, 3))
