"""Leases on event streams: how many a player and a client address hold open at once, over
every API process.

A stream holds a lease in one sorted set per subject (its player, its address) scored by
when the lease runs out; it renews the lease while it runs and drops it when it ends. A
process that dies leaves its leases to run out, so a crash never locks a client out for
longer than :data:`LEASE_SECONDS`. Opening a stream counts the live leases and adds one in
one script: concurrent opens never pass the ceiling together.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field

import redis

from engine.errors import Limited
from events.buckets import TOKEN_BUCKET_LUA
from events.lean import LeanScript
from events.store import Gate

#: How long a lease lasts unless renewed; a stream renews it at half that.
LEASE_SECONDS = 60.0
#: What a refused client is told to wait before trying again.
RETRY_AFTER_SECONDS = 5.0

#: ``open_lease(first, member, life, ceilings, now)``: drops the leases that ran out of the
#: sets KEYS[first..], then adds ``member`` (running out ``life`` seconds from ``now``) to every
#: one if none is at its ceiling; returns 0, else the position (from 1) of the first full set.
_LEASE_LUA = """
local function open_lease(first, member, life, ceilings, now)
  for i = first, #KEYS do
    redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now)
    if redis.call('ZCARD', KEYS[i]) >= tonumber(ceilings[i - first + 1]) then return i - first + 1 end
  end
  for i = first, #KEYS do
    redis.call('ZADD', KEYS[i], now + life, member)
    redis.call('EXPIRE', KEYS[i], math.ceil(life) * 2)
  end
  return 0
end
"""

# KEYS: the subjects' lease sets. ARGV: the lease's member, its life in seconds, then each set's
# ceiling. Returns what open_lease returns.
_OPEN = _LEASE_LUA + """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
return open_lease(1, ARGV[1], tonumber(ARGV[2]), {unpack(ARGV, 3)}, now)
"""

# KEYS: the lease sets. ARGV: the member, its life in seconds. Pushes the lease's end on.
_RENEW = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, 'XX', now + tonumber(ARGV[2]), ARGV[1])
  redis.call('EXPIRE', key, math.ceil(tonumber(ARGV[2])) * 2)
end
return 0
"""

# The caller's request tokens, then the lease, in one step (a stream opened through the
# front's fast handler, service/front.py). KEYS: the gates' buckets, then the subjects' lease sets. ARGV: how many
# gates, each gate's tokens per second and capacity, then _OPEN's arguments. Spends one token
# of each bucket when every one has a token, else nothing: returns {"wait", seconds}; then
# takes the lease as _OPEN does, the tokens spent either way: {"full", position} or {"ok"}.
_OPEN_GATED = TOKEN_BUCKET_LUA + _LEASE_LUA + """
local gates, count = {}, tonumber(ARGV[1])
for i = 1, count do gates[i] = {KEYS[i], ARGV[2 * i], ARGV[2 * i + 1]} end
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local wait = take_all_tokens(gates, now)
if wait > 0 then return {'wait', tostring(wait)} end
local first = 2 * count + 2
local full = open_lease(count + 1, ARGV[first], tonumber(ARGV[first + 1]), {unpack(ARGV, first + 2)}, now)
if full > 0 then return {'full', full} end
return {'ok'}
"""


class TokensShort(Exception):
    """A gated open found a bucket empty: nothing was spent and no lease taken."""

    def __init__(self, wait: float) -> None:
        super().__init__(wait)
        self.wait = wait


@dataclass
class Lease:
    """One open stream's place in its subjects' sets; :meth:`release` is safe to call twice."""

    leases: StreamLeases
    keys: list[str]
    member: str
    renew_at: float = field(default=0.0)
    released: bool = False

    def renew_if_due(self) -> None:
        """Push the lease's end on once half its life has passed (cheap to call often)."""
        if self.released or time.monotonic() < self.renew_at:
            return
        self.leases.renew(self)

    def release(self) -> None:
        if not self.released:
            self.released = True
            self.leases.release(self)


class StreamLeases:
    """Counts the streams each subject holds open, in Redis, shared by every API process."""

    def __init__(self, client: redis.Redis, prefix: str = "intrigue", lease_seconds: float = LEASE_SECONDS) -> None:
        self.redis = client
        self.prefix = prefix
        self.lease_seconds = lease_seconds
        self._open = LeanScript(client, _OPEN)
        self._renew = LeanScript(client, _RENEW)
        self._open_gated = LeanScript(client, _OPEN_GATED)
        #: On a Redis Cluster the subjects' sets live in different hash slots: one script per set.
        self._one_slot = isinstance(client, redis.Redis)

    @property
    def one_node(self) -> bool:
        """Whether one script may take a lease and spend a caller's tokens (not on a cluster)."""
        return self._one_slot

    def key(self, subject: str) -> str:
        return f"{self.prefix}:streams:{subject}"

    def open(self, ceilings: list[tuple[str, int]]) -> Lease:
        """A lease in each subject's set (a ceiling of 0 is no ceiling), or ``Limited`` (429)."""
        asked = [(self.key(subject), ceiling) for subject, ceiling in ceilings if ceiling > 0]
        lease = Lease(self, [key for key, _ in asked], secrets.token_hex(8))
        groups = [asked] if self._one_slot else [[one] for one in asked]
        taken: list[str] = []
        for group in groups:
            if not group:
                continue
            full = int(self._open(keys=[key for key, _ in group],
                                  args=[lease.member, self.lease_seconds, *(ceiling for _, ceiling in group)]))
            if full:
                for key in taken:  # a cluster's earlier sets: give their places back
                    self.redis.zrem(key, lease.member)
                raise _too_many(group[full - 1])
            taken += [key for key, _ in group]
        lease.renew_at = time.monotonic() + self.lease_seconds / 2
        return lease

    def open_gated(self, gates: list[Gate], ceilings: list[tuple[str, int]]) -> Lease:
        """The ``gates``' tokens spent, then :meth:`open`, in one round trip on a plain Redis.

        Raises :class:`TokensShort` (nothing spent, no lease) when a bucket is empty, and
        ``Limited`` as :meth:`open` does, the tokens spent, when a ceiling is reached. A
        cluster's keys span hash slots: there the caller spends the tokens on its own first.
        """
        if not self._one_slot:
            raise ValueError("a gated open needs every key on one node (not a Redis Cluster)")
        asked = [(self.key(subject), ceiling) for subject, ceiling in ceilings if ceiling > 0]
        lease = Lease(self, [key for key, _ in asked], secrets.token_hex(8))
        reply = self._open_gated(keys=[*(gate.key for gate in gates), *(key for key, _ in asked)],
                                 args=[len(gates), *(value for gate in gates for value in (gate.rate, gate.burst)),
                                       lease.member, self.lease_seconds, *(ceiling for _, ceiling in asked)])
        kind = reply[0].decode() if isinstance(reply[0], bytes) else reply[0]
        if kind == "wait":
            raise TokensShort(float(reply[1]))
        if kind == "full":
            raise _too_many(asked[int(reply[1]) - 1])
        lease.renew_at = time.monotonic() + self.lease_seconds / 2
        return lease

    def renew(self, lease: Lease) -> None:
        if lease.keys:
            for keys in ([lease.keys] if self._one_slot else [[key] for key in lease.keys]):
                self._renew(keys=keys, args=[lease.member, self.lease_seconds])
        lease.renew_at = time.monotonic() + self.lease_seconds / 2

    def release(self, lease: Lease) -> None:
        if not lease.keys:
            return
        pipe = self.redis.pipeline(transaction=False)
        for key in lease.keys:
            pipe.zrem(key, lease.member)
        pipe.execute()

    def held(self, subject: str) -> int:
        """Leases ``subject`` holds, live or run out and not yet dropped (for tests and operators)."""
        return int(self.redis.zcard(self.key(subject)))


def _too_many(full: tuple[str, int]) -> Limited:
    """The refusal of a stream whose subject's set (key, ceiling) is full."""
    key, ceiling = full
    return Limited("too_many_streams",
                   f"too many event streams open at once (at most {ceiling} for your "
                   f"{'player' if ':player:' in key else 'address'}); close one first",
                   retry_after=RETRY_AFTER_SECONDS, policy="streams")
