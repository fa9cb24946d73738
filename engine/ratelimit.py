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

import redis

from engine.errors import Limited
from engine.settings import Bucket
from events.buckets import TOKEN_BUCKET_LUA
from events.lean import LeanScript
from events.store import Gate

# KEYS: the bucket. ARGV: tokens per second, capacity. Returns "0" (spent one token) or
# the seconds to wait before one is there (as a string: Lua numbers become integers).
_TAKE = TOKEN_BUCKET_LUA + "return tostring(take_token(KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2])))\n"


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
