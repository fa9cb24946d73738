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

from collections.abc import Sequence

import redis

from engine.errors import Limited
from engine.settings import Bucket
from events.buckets import TOKEN_BUCKET_LUA
from events.lean import LeanScript
from events.store import Gate

# KEYS: the bucket. ARGV: tokens per second, capacity. Returns "0" (spent one token) or
# the seconds to wait before one is there (as a string: Lua numbers become integers).
_TAKE = TOKEN_BUCKET_LUA + "return tostring(take_token(KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2])))\n"

# KEYS: the buckets. ARGV: each bucket's tokens per second and capacity, in turn. Spends one
# token of each when every one has a token, else none; returns "0" or the longest wait.
_TAKE_ALL = TOKEN_BUCKET_LUA + """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local gates = {}
for i, key in ipairs(KEYS) do gates[i] = {key, ARGV[2 * i - 1], ARGV[2 * i]} end
local wait = take_all_tokens(gates, now)
return tostring(wait)
"""

# KEYS: the buckets. ARGV: each bucket's tokens per second and capacity, in turn. Spends
# nothing; returns each bucket's tokens now (as strings), for the answer's RateLimit header.
_LEFT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local left = {}
for i, key in ipairs(KEYS) do
  local rate, burst = tonumber(ARGV[2 * i - 1]), tonumber(ARGV[2 * i])
  local held = redis.call('HMGET', key, 'tokens', 'at')
  local tokens, at = tonumber(held[1]), tonumber(held[2])
  if tokens == nil or at == nil then tokens, at = burst, now end
  left[i] = tostring(math.min(burst, tokens + math.max(0, now - at) * rate))
end
return left
"""


class RateLimiter:
    """Takes tokens from buckets kept in Redis, one round trip per take."""

    def __init__(self, client: redis.Redis, prefix: str = "intrigue") -> None:
        self.redis = client
        self.prefix = prefix
        self._take = LeanScript(client, _TAKE)
        self._take_all = LeanScript(client, _TAKE_ALL)
        self._left = LeanScript(client, _LEFT)

    def key(self, bucket: Bucket, subject: str) -> str:
        return f"{self.prefix}:limit:{bucket.name}:{subject}"

    def gate(self, bucket: Bucket, subject: str) -> Gate | None:
        """The append's gate that spends ``subject``'s token of ``bucket`` (None: no limit)."""
        return Gate(self.key(bucket, subject), bucket.rate, bucket.burst, bucket.name) if bucket.rate > 0 else None

    def allow(self, bucket: Bucket, subject: str) -> float:
        """0 if the request may go ahead, else the seconds to wait before retrying."""
        gate = self.gate(bucket, subject)
        return self.spend(gate) if gate is not None else 0.0

    def gates(self, asked: list[tuple[Bucket, str]]) -> tuple[Gate, ...]:
        """The gates of the ``(bucket, subject)`` pairs whose limit is on, for an append to spend."""
        return tuple(gate for bucket, subject in asked if (gate := self.gate(bucket, subject)) is not None)

    def allow_all(self, asked: list[tuple[Bucket, str]]) -> tuple[float, str]:
        """One token of each ``(bucket, subject)`` in one round trip, all or none: (0, "") if
        spent, else the seconds to wait and the name of a bucket that was empty."""
        return self.spend_all(self.gates(asked))

    def spend_all(self, gates: Sequence[Gate]) -> tuple[float, str]:
        """:meth:`allow_all` for gates (those an append did not get to spend)."""
        if not gates:
            return 0.0, ""
        if len(gates) == 1:
            return self.spend(gates[0]), gates[0].name
        if not _same_node(self.redis):  # buckets of several hash slots: one script each
            for gate in gates:
                wait = self.spend(gate)
                if wait:
                    return wait, gate.name
            return 0.0, ""
        args = [value for gate in gates for value in (gate.rate, gate.burst)]
        wait = float(self._take_all(keys=[gate.key for gate in gates], args=args))
        if not wait:
            return 0.0, ""
        return wait, self.empty_bucket(gates)

    def left(self, gates: Sequence[Gate]) -> list[float]:
        """The tokens each gate's bucket holds now, spending none: one round trip (one per
        bucket on a cluster, where they live in several hash slots)."""
        if not gates:
            return []
        groups = [list(gates)] if _same_node(self.redis) else [[gate] for gate in gates]
        found: list[float] = []
        for group in groups:
            args = [value for gate in group for value in (gate.rate, gate.burst)]
            found += [float(value) for value in self._left(keys=[gate.key for gate in group], args=args)]
        return found

    def empty_bucket(self, gates: Sequence[Gate]) -> str:
        """The name of a bucket among ``gates`` that had no token (for a refusal's wording)."""
        empty = [gate.name for gate in gates if float(self.redis.hget(gate.key, "tokens") or gate.burst) < 1]
        return (empty or [gates[0].name])[-1]

    def spend(self, gate: Gate) -> float:
        """:meth:`allow` for a gate's bucket (one an append did not get to spend)."""
        return float(self._take(keys=[gate.key], args=[gate.rate, gate.burst]))


def _same_node(client: redis.Redis) -> bool:
    """Whether one script may touch keys of any hash slot (not on a Redis Cluster)."""
    return isinstance(client, redis.Redis)


def limited(bucket_name: str, wait: float) -> Limited:
    """The refusal of a request whose token of ``bucket_name`` is not there yet: the client
    address's ceiling over all its tokens has a code of its own."""
    if bucket_name == "address":
        return Limited("address_rate_limited", f"too many requests from your address, all its tokens together; "
                                               f"retry in {wait:.2f} s", retry_after=round(wait, 3), policy="address")
    return Limited("rate_limited", f"too many requests ({bucket_name}); retry in {wait:.2f} s",
                   retry_after=round(wait, 3), policy=bucket_name)
