"""The Redis Streams event store: one stream per game, append-only, version-checked.

Keys are named once, here. Every key of a game shares the hash tag ``{g:<id>}``, so
the whole game lives on one Redis Cluster shard and one Lua script can append to its
stream, bump its version and record an idempotency key atomically.

Stream entry ids are ``0-<seq>``: reading "after version N" is one XRANGE from
``(0-N`` and no separate index of sequence numbers is needed.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import orjson
import redis
from redis.cluster import RedisCluster

from events import archive
from events.buckets import TOKEN_BUCKET_LUA
from events.envelope import Envelope
from events.lean import LeanScript

#: Connections one process may open. Watchers share one (see events.watch), but an
#: event-loop API process serves many requests at once and redis-py's default cap
#: (100 per pool) would refuse some of them.
MAX_CONNECTIONS = 10_000


def connect(url: str, cluster: bool = False) -> redis.Redis:
    """A client for ``url`` sized for an API process serving many requests at once.

    With ``cluster`` (``url`` names a node of a Redis Cluster) it is a cluster client that
    finds the other nodes from this one and follows failovers; every key of one game
    carries the hash tag ``{g:<id>}``, so a game's scripts and pipelines stay on one shard.
    """
    if cluster:
        return RedisCluster.from_url(url, max_connections=MAX_CONNECTIONS)
    return redis.Redis.from_url(url, max_connections=MAX_CONNECTIONS)


def without_password(url: str) -> str:
    """A Redis URL fit to print: its password, if any, replaced by ``***``."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    return parts._replace(netloc=parts.netloc.replace(f":{parts.password}@", ":***@")).geturl()


class Keys:
    """Every Redis key the platform uses, defined in one place."""

    def __init__(self, prefix: str = "intrigue") -> None:
        self.prefix = prefix

    def events(self, game_id: str) -> str:
        return f"{self.prefix}:{{g:{game_id}}}:events"

    def meta(self, game_id: str) -> str:
        return f"{self.prefix}:{{g:{game_id}}}:meta"

    def idempotency(self, game_id: str) -> str:
        return f"{self.prefix}:{{g:{game_id}}}:idem"

    def seed(self, game_id: str) -> str:
        return f"{self.prefix}:{{g:{game_id}}}:seed"

    def snapshots(self, game_id: str) -> str:
        return f"{self.prefix}:{{g:{game_id}}}:snap"

    def feed(self, game_id: str) -> str:
        """The channel on which every append announces the game's new version."""
        return f"{self.prefix}:{{g:{game_id}}}:feed"

    def feed_pattern(self) -> str:
        return f"{self.prefix}:{{g:*}}:feed"

    def game_id_from_feed(self, channel: str) -> str:
        return channel[len(self.prefix) + 4:-len("}:feed")]

    def archive(self, game_id: str) -> str:
        """A finished game's stream in its compact form (see :mod:`events.archive`)."""
        return f"{self.prefix}:{{g:{game_id}}}:archive"

    def chat(self, game_id: str) -> str:
        """The game's table talk: a stream of its own, kept after the end (it is published then)."""
        return f"{self.prefix}:{{g:{game_id}}}:chat"

    def orders(self, game_id: str) -> str:
        """The seats' standing orders, by seat: private to each seat, never in the game's stream."""
        return f"{self.prefix}:{{g:{game_id}}}:orders"

    def orders_revision(self, game_id: str) -> str:
        """A counter every change of the orders bumps: an append names the one it decided with."""
        return f"{self.prefix}:{{g:{game_id}}}:orders:rev"

    def orders_log(self, game_id: str) -> str:
        """The seats' ``StandingOrdersSet`` events: a stream of their own, published with the log."""
        return f"{self.prefix}:{{g:{game_id}}}:orders:log"

    def events_pattern(self, kind: str = "events") -> str:
        return f"{self.prefix}:{{g:*}}:{kind}"

    def game_id_from_events_key(self, key: str) -> str:
        return key[len(self.prefix) + 4:key.rindex("}:")]

    # Global indexes (projections, rebuildable from the streams).
    def player(self, player_id: str) -> str:
        return f"{self.prefix}:player:{player_id}"

    def tokens(self) -> str:
        return f"{self.prefix}:tokens"

    def player_tokens(self, player_id: str) -> str:
        """A player's tokens by id: the hash of each and when it was issued (never the token)."""
        return f"{self.prefix}:player:{player_id}:tokens"

    def tokens_used(self, player_id: str) -> str:
        """When each of a player's tokens was last seen, by id (to the nearest minute)."""
        return f"{self.prefix}:player:{player_id}:tokens:used"

    def lobby(self, game: str | None = None) -> str:
        """Open games by creation time: all of them, or those of one game (``lobby:coup``)."""
        return f"{self.prefix}:lobby" if game is None else f"{self.prefix}:lobby:{game}"

    def unlisted(self) -> str:
        """Open games kept out of the lobby, by creation time (for the reconcile alone)."""
        return f"{self.prefix}:unlisted"

    def active(self) -> str:
        return f"{self.prefix}:active"

    def player_games(self, player_id: str) -> str:
        return f"{self.prefix}:player:{player_id}:games"

    def hosting(self, player_id: str) -> str:
        """Games the player created that still wait for players (for the open-games limit)."""
        return f"{self.prefix}:player:{player_id}:hosting"

    def inbox(self, player_id: str) -> str:
        return f"{self.prefix}:player:{player_id}:inbox"

    def deadlines(self) -> str:
        return f"{self.prefix}:deadlines"

    def chat_rate(self, player_id: str, window: int) -> str:
        return f"{self.prefix}:player:{player_id}:chat:{window}"

    def webhook(self, webhook_id: str) -> str:
        return f"{self.prefix}:webhook:{webhook_id}"

    def player_webhooks(self, player_id: str) -> str:
        return f"{self.prefix}:player:{player_id}:webhooks"

    def hooked_players(self) -> str:
        """Players with at least one webhook: the follow-up of a commit asks this set only."""
        return f"{self.prefix}:webhooks:players"

    def delivery(self, delivery_id: str) -> str:
        return f"{self.prefix}:delivery:{delivery_id}"

    def webhook_deliveries(self, webhook_id: str) -> str:
        return f"{self.prefix}:webhook:{webhook_id}:deliveries"

    def deliveries_due(self) -> str:
        """Pending deliveries by the time of their next attempt (epoch seconds)."""
        return f"{self.prefix}:webhooks:due"

    def due(self) -> str:
        """Games with a step due now, for the next drain job (epoch seconds)."""
        return f"{self.prefix}:due"

    def drain_queued(self) -> str:
        """Set while a drain job waits in the queue, so one job serves many due steps."""
        return f"{self.prefix}:due:queued"

    def deadlines_soon(self) -> str:
        """deadline_soon checks by the time they are due (epoch seconds): ``[game, seat, deadline]``."""
        return f"{self.prefix}:webhooks:soon"

    def creating(self) -> str:
        """Games whose creation was asked for and not yet indexed (epoch seconds)."""
        return f"{self.prefix}:creating"


#: Largest batch of events (bytes of JSON) an append publishes whole on the feed channel;
#: a larger one publishes its version alone and watchers read the stream.
FEED_EVENTS_BYTES = 65536

# KEYS: events stream, meta hash, idempotency hash, then the keys the index commands touch
# and the gate's bucket, if any.
# ARGV: expected version, idempotency field ("" for none), idempotency record, feed channel,
# index commands (a JSON array of commands, each an array of strings; "[]" for none), the
# the gates' buckets (a JSON array of [key, rate, burst]; "" for none), the guard's key ("" for
# none) and the value it must hold (a missing key holds '0'),
# the cap's sorted set ("" for none) and its ceiling, events (JSON)...
# A cap refuses the append ('full', the set's size) when its sorted set already holds its
# ceiling of members: a creator's open games are counted and the game created in one step.
# A guard refuses it ('stale', the value held) when its key holds another value than the one
# the appender decided with: the standing orders' revision (see engine.orders).
# The gates spend the actor's rate-limit tokens (one of each bucket, all or none) once the
# append is known to go ahead (not a duplicate, not stale), and refuse it ('limited', the
# seconds to wait, the position from 1 of a bucket without a token) when one has none.
# The index commands run only once the append has succeeded, in the same atomic step, and
# their replies follow the append's own.
# The new version is published on the feed channel, so watchers wake without polling; up to
# FEED_EVENTS_BYTES of events, the events themselves follow it, a line each (canonical JSON
# has no raw newline), so a process that did not append learns them without reading the stream.
_APPEND = TOKEN_BUCKET_LUA + """
local version = tonumber(redis.call('HGET', KEYS[2], 'version') or '0')
if ARGV[2] ~= '' then
  local seen = redis.call('HGET', KEYS[3], ARGV[2])
  if seen then return {'duplicate', seen} end
end
if version ~= tonumber(ARGV[1]) then return {'conflict', tostring(version)} end
if ARGV[7] ~= '' then
  local revision = redis.call('GET', ARGV[7]) or '0'
  if revision ~= ARGV[8] then return {'stale', revision} end
end
if ARGV[9] ~= '' then
  local held = redis.call('ZCARD', ARGV[9])
  if held >= tonumber(ARGV[10]) then return {'full', tostring(held)} end
end
if ARGV[6] ~= '' then
  local gates = cjson.decode(ARGV[6])
  local t = redis.call('TIME')
  local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
  local wait, empty = take_all_tokens(gates, now)
  if wait > 0 then return {'limited', tostring(wait), empty} end
end
for i = FIRST_EVENT, #ARGV do
  redis.call('XADD', KEYS[1], '0-' .. (version + i - FIRST_EVENT + 1), 'e', ARGV[i])
end
local new_version = version + #ARGV - FIRST_EVENT + 1
redis.call('HSET', KEYS[2], 'version', new_version)
if ARGV[2] ~= '' then redis.call('HSET', KEYS[3], ARGV[2], ARGV[3]) end
local announced = tostring(new_version)
local size = 0
for i = FIRST_EVENT, #ARGV do size = size + #ARGV[i] end
if size <= FEED_EVENTS_BYTES then
  announced = announced .. '\\n' .. table.concat(ARGV, '\\n', FIRST_EVENT)
end
redis.call('PUBLISH', ARGV[4], announced)
local reply = {'ok', tostring(new_version)}
for _, command in ipairs(cjson.decode(ARGV[5])) do
  reply[#reply + 1] = redis.call(unpack(command))
end
return reply
""".replace("FEED_EVENTS_BYTES", str(FEED_EVENTS_BYTES)).replace("FIRST_EVENT", "11")


# KEYS: events stream, archive. ARGV: low id, high id, count (0: all).
# The events in range from the stream; once the game is archived, the archive instead.
_READ = """
local entries
if ARGV[3] == '0' then
  entries = redis.call('XRANGE', KEYS[1], ARGV[1], ARGV[2])
else
  entries = redis.call('XRANGE', KEYS[1], ARGV[1], ARGV[2], 'COUNT', ARGV[3])
end
if #entries > 0 then return {'stream', entries} end
local archived = redis.call('GET', KEYS[2])
if archived then return {'archive', archived} end
return {'stream', entries}
"""

#: The field of a game's meta hash holding its record (JSON) as of the last commit that made a
#: system step due: where the worker taking that step starts (see Projector.load_many).
HANDOFF_FIELD = "handoff"
#: The largest record handed over (its JSON): Pax Porfiriana's, the largest, is about 50 KB.
HANDOFF_MAX_BYTES = 262144

# KEYS: events stream, archive, idempotency hash, snapshots, seed, meta. ARGV: archive blob,
# the number of events it holds. Swaps a finished stream for its archive and drops what
# only a live game needs, unless an event was appended since the archive was packed.
_ARCHIVE = """
if redis.call('XLEN', KEYS[1]) ~= tonumber(ARGV[2]) then return 0 end
redis.call('SET', KEYS[2], ARGV[1])
redis.call('DEL', KEYS[1], KEYS[3], KEYS[4], KEYS[5])
-- job_due: kept by versions that booked deadline jobs; indexed_at: the upkeep's stall check, live games only
redis.call('HDEL', KEYS[6], 'job_due', 'snapshot', 'indexed_at', 'HANDOFF_FIELD')
return 1
""".replace("HANDOFF_FIELD", HANDOFF_FIELD)

#: Archived games whose events one process keeps unpacked (archives never change).
ARCHIVE_CACHE = 256


@dataclass(frozen=True)
class AppendResult:
    """What an append did: ``ok``, ``conflict`` (someone else moved the game on), ``duplicate``,
    ``limited`` (a gate had no token: ``wait`` seconds until one; ``empty`` is that gate),
    ``full`` (its cap was reached: ``version`` holds the count) or ``stale`` (its guard's key
    moved: the standing orders changed since the appender read them)."""

    status: str
    version: int | None = None
    record: dict[str, Any] | None = None
    wait: float | None = None
    empty: Gate | None = None
    #: The replies of the index commands that ran with the append (see :class:`IndexCommands`).
    replies: Sequence[Any] = ()


class IndexCommands:
    """Index updates to run inside an append, after it succeeds: a pipeline's few methods.

    The engine's follow-up writes the same calls to a pipeline or to this; here they
    become arguments of the append script, so an action is one command (not one per
    index) and its indexes move in the same atomic step as its events, or not at all.
    """

    def __init__(self) -> None:
        self.commands: list[list[str]] = []

    def __len__(self) -> int:
        return len(self.commands)

    def keys(self) -> list[str]:
        return [command[1] for command in self.commands]

    def _add(self, *parts: Any) -> None:
        self.commands.append([part if isinstance(part, str) else repr(part) for part in parts])

    def zadd(self, name: str, mapping: Mapping[str, float], nx: bool = False) -> None:
        flat = [part for member, score in mapping.items() for part in (float(score), member)]
        self._add("ZADD", name, *(["NX"] if nx else []), *flat)

    def zrem(self, name: str, *members: str) -> None:
        self._add("ZREM", name, *members)

    def sadd(self, name: str, *members: str) -> None:
        self._add("SADD", name, *members)

    def srem(self, name: str, *members: str) -> None:
        self._add("SREM", name, *members)

    def hset(self, name: str, mapping: Mapping[str, Any]) -> None:
        self._add("HSET", name, *(str(part) for pair in mapping.items() for part in pair))

    def publish(self, channel: str, message: str) -> None:
        self._add("PUBLISH", channel, message)

    def set(self, name: str, value: Any, nx: bool = False, px: int | None = None) -> None:
        self._add("SET", name, str(value), *(["NX"] if nx else []), *(["PX", px] if px is not None else []))

    def smismember(self, name: str, members: Sequence[str]) -> None:
        self._add("SMISMEMBER", name, *members)


@dataclass(frozen=True)
class Cap:
    """A sorted set an append refuses to grow past ``ceiling`` members (see ``_APPEND``).

    Its key must live where the game's keys do, as a gate's (not on a Redis Cluster).
    """

    key: str
    ceiling: int


@dataclass(frozen=True)
class Gate:
    """A rate-limit bucket an append spends one token of, in its own step (see ``_APPEND``).

    ``name`` is the bucket's, for the refusal's text. The bucket's key must live where the
    game's keys do: not on a Redis Cluster, whose script may touch one hash slot only.
    """

    key: str
    rate: float
    burst: float
    name: str = "player"


class EventStore:
    """Appends and reads the events of games; knows nothing about rules."""

    def __init__(self, client: redis.Redis, keys: Keys | None = None) -> None:
        self.redis = client
        self.keys = keys or Keys()
        self._append = LeanScript(client, _APPEND)
        self._read = LeanScript(client, _READ)
        self._archive = LeanScript(client, _ARCHIVE)
        self._archived: OrderedDict[str, list[Envelope]] = OrderedDict()
        self._archived_lock = threading.Lock()

    def append(self, game_id: str, expected_version: int, events: Sequence[Envelope],
               idempotency: tuple[str, dict[str, Any]] | None = None,
               index: IndexCommands | None = None, gates: Sequence[Gate] = (),
               cap: Cap | None = None, guard: tuple[str, str] | None = None) -> AppendResult:
        """Append ``events`` if the game is still at ``expected_version``; all or nothing.

        The ``index`` commands run after a successful append, in the same step; their
        replies are the result's ``replies``. The ``gates`` spend a rate-limit token each
        when the append goes ahead, all or none, or refuse it (``limited``). (Neither with a
        Redis Cluster: they may name keys of other hash slots.) A ``cap`` refuses it
        (``full``) when its set is full; a ``guard`` (a key of the game's and the value it
        must hold) refuses it (``stale``) when the key holds another.
        """
        keys, args = self._append_call(game_id, expected_version, events, idempotency, index, gates, cap, guard)
        return self.parse_append(self._append(keys=keys, args=args), gates)

    def _append_call(self, game_id: str, expected_version: int, events: Sequence[Envelope],
                     idempotency: tuple[str, dict[str, Any]] | None,
                     index: IndexCommands | None = None, gates: Sequence[Gate] = (),
                     cap: Cap | None = None, guard: tuple[str, str] | None = None) -> tuple[list[str], list[Any]]:
        if not events:
            raise ValueError("nothing to append")
        if events[0].seq != expected_version + 1:
            raise ValueError("events must continue the stream")
        field, record = idempotency if idempotency else ("", {})
        keys = [self.keys.events(game_id), self.keys.meta(game_id), self.keys.idempotency(game_id)]
        commands = "[]"
        if index is not None and index.commands:
            keys += index.keys()  # declared, as a script should, though only a plain Redis runs them
            commands = orjson.dumps(index.commands).decode()
        gate_args: list[Any] = ["", "", ""]
        if guard is not None:
            keys.append(guard[0])
            gate_args[1:] = list(guard)
        if gates:
            keys += [gate.key for gate in gates]
            gate_args[0] = orjson.dumps([[gate.key, float(gate.rate), float(gate.burst)] for gate in gates]).decode()
        cap_args: list[Any] = ["", 0]
        if cap is not None:
            keys.append(cap.key)
            cap_args = [cap.key, cap.ceiling]
        args = [expected_version, field, json.dumps(record), self.keys.feed(game_id), commands, *gate_args,
                *cap_args, *(e.to_json() for e in events)]
        return keys, args

    @staticmethod
    def parse_append(reply: Sequence[Any], gates: Sequence[Gate] = ()) -> AppendResult:
        status, value, *rest = reply
        status = status.decode() if isinstance(status, bytes) else status
        if status == "duplicate":
            return AppendResult("duplicate", record=json.loads(value))
        if status == "limited":
            return AppendResult("limited", wait=float(value), empty=gates[int(rest[0]) - 1])
        if status == "full":
            return AppendResult("full", version=int(value))
        if status == "stale":
            return AppendResult("stale")
        return AppendResult(status, version=int(value), replies=rest)

    def idempotent_result(self, game_id: str, field: str) -> dict[str, Any] | None:
        raw = self.redis.hget(self.keys.idempotency(game_id), field)
        return json.loads(raw) if raw else None

    def version(self, game_id: str) -> int:
        return int(self.redis.hget(self.keys.meta(game_id), "version") or 0)

    def exists(self, game_id: str) -> bool:
        return bool(self.redis.exists(self.keys.meta(game_id)))

    def read(self, game_id: str, after: int = 0, upto: int | None = None,
             count: int | None = None) -> list[Envelope]:
        """Events with ``after < seq <= upto``, in order."""
        if upto is not None and upto <= after:
            return []
        archived = self._archived_events(game_id)
        if archived is None:
            high = f"0-{upto}" if upto is not None else "+"
            source, found = self._read(keys=[self.keys.events(game_id), self.keys.archive(game_id)],
                                       args=[f"(0-{after}", high, count or 0])
            if source in (b"stream", "stream"):
                return [Envelope.from_json(fields[1]) for _, fields in found]
            archived = self._unpacked(game_id, found)
        chosen = archived[after:upto]
        return chosen[:count] if count is not None else chosen

    def read_many(self, starts: Mapping[str, int]) -> dict[str, list[Envelope]]:
        """For each game, its events after ``starts[game]``, in one round trip (a pipeline).

        A worker's drain loads the games it popped together instead of one read each. A
        Redis Cluster reads them one by one (a pipelined script per hash slot buys little).
        """
        if isinstance(self.redis, RedisCluster):
            return {game_id: self.read(game_id, after=after) for game_id, after in starts.items()}
        found: dict[str, list[Envelope]] = {}
        asked: list[tuple[str, int]] = []
        pipe = self.redis.pipeline(transaction=False)
        for game_id, after in starts.items():
            archived = self._archived_events(game_id)
            if archived is not None:
                found[game_id] = archived[after:]
                continue
            # Plain commands, not the read script: a pipeline with a script asks SCRIPT EXISTS
            # first (one more round trip). The archive swap is one script, so a game with no
            # entries after ``after`` either has none yet or is archived, as EXISTS tells.
            pipe.xrange(self.keys.events(game_id), f"(0-{after}", "+")
            pipe.exists(self.keys.archive(game_id))
            asked.append((game_id, after))
        replies = pipe.execute() if asked else []
        for (game_id, after), entries, archived_now in zip(asked, replies[::2], replies[1::2], strict=True):
            if entries or not archived_now:
                found[game_id] = [Envelope.from_json(fields[b"e"]) for _, fields in entries]
            else:
                found[game_id] = self.read(game_id, after=after)
        return found

    def _archived_events(self, game_id: str) -> list[Envelope] | None:
        """The events of an archived game this process has already unpacked, else None."""
        with self._archived_lock:
            return self._archived.get(game_id)

    def _unpacked(self, game_id: str, blob: bytes) -> list[Envelope]:
        events = archive.unpack(blob)
        with self._archived_lock:
            self._archived[game_id] = events
            while len(self._archived) > ARCHIVE_CACHE:
                self._archived.popitem(last=False)
        return events

    def archive(self, game_id: str) -> bool:
        """Swap a finished game's stream for its compact archive; drop its live-only keys.

        Returns whether this call archived it (False: already archived, or an event
        arrived meanwhile). Readers see the stream or the archive, never neither: the
        swap is one script.
        """
        entries = self.redis.xrange(self.keys.events(game_id))
        if not entries:
            return False
        events = [Envelope.from_stored(fields[b"e"]) for _, fields in entries]
        game = self.keys
        done = self._archive(
            keys=[game.events(game_id), game.archive(game_id), game.idempotency(game_id), game.snapshots(game_id),
                  game.seed(game_id), game.meta(game_id)],
            args=[archive.pack(events), len(events)])
        return bool(done)

    def is_archived(self, game_id: str) -> bool:
        return bool(self.redis.exists(self.keys.archive(game_id)))

    def save_seed(self, game_id: str, seed: str, pipe: redis.client.Pipeline | None = None) -> None:
        (pipe or self.redis).set(self.keys.seed(game_id), seed)

    def delete_seed(self, game_id: str) -> None:
        """Forget the seed of a game whose first append never happened (nothing else refers to it)."""
        self.redis.delete(self.keys.seed(game_id))

    def seed(self, game_id: str) -> str:
        raw = self.redis.get(self.keys.seed(game_id))
        if raw is None:
            raise KeyError(game_id)
        return raw.decode()

    def queue_snapshot(self, pipe: redis.client.Pipeline | IndexCommands, game_id: str, version: int,
                       payload: str) -> None:
        """Keep every snapshot (one per K events) so a replay at any version is cheap: the two
        writes go on ``pipe``, a commit's index updates."""
        pipe.hset(self.keys.snapshots(game_id), mapping={str(version): payload})
        pipe.hset(self.keys.meta(game_id), mapping={"snapshot": version})

    @staticmethod
    def handoff_fields(record: Mapping[str, Any]) -> dict[str, str]:
        """The meta-hash field that hands ``record`` to the worker taking its game's next step
        (read back by :meth:`handoffs`); none for a record past :data:`HANDOFF_MAX_BYTES`,
        which an append script would carry twice over, escaped: its worker folds instead."""
        handed = orjson.dumps(record)
        return {HANDOFF_FIELD: handed.decode()} if len(handed) <= HANDOFF_MAX_BYTES else {}

    def handoffs(self, game_ids: Sequence[str]) -> dict[str, bytes]:
        """The record each game's last due-making commit left for the workers (one pipeline;
        a Redis Cluster's pipeline asks each node for its own games)."""
        if not game_ids:
            return {}
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.hget(self.keys.meta(game_id), HANDOFF_FIELD)
        return {game_id: raw for game_id, raw in zip(game_ids, pipe.execute(), strict=True) if raw is not None}

    def latest_snapshots(self, game_ids: Sequence[str]) -> dict[str, tuple[int, str]]:
        """The newest snapshot of each game that has one: two round trips for them all."""
        if isinstance(self.redis, RedisCluster):
            return {game_id: snap for game_id in game_ids if (snap := self.latest_snapshot(game_id)) is not None}
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.hget(self.keys.meta(game_id), "snapshot")
        versions = {game_id: int(raw) for game_id, raw in zip(game_ids, pipe.execute(), strict=True)
                    if raw is not None}
        if not versions:
            return {}
        for game_id, version in versions.items():
            pipe.hget(self.keys.snapshots(game_id), str(version))
        return {game_id: (version, payload.decode())
                for (game_id, version), payload in zip(versions.items(), pipe.execute(), strict=True) if payload}

    def latest_snapshot(self, game_id: str, at_most: int | None = None) -> tuple[int, str] | None:
        """The newest snapshot at or below ``at_most`` (default: the newest of all)."""
        if at_most is None:
            raw = self.redis.hget(self.keys.meta(game_id), "snapshot")
            if raw is None:
                return None
            version = int(raw)
        else:
            versions = [int(v) for v in self.redis.hkeys(self.keys.snapshots(game_id)) if int(v) <= at_most]
            if not versions:
                return None
            version = max(versions)
        payload = self.redis.hget(self.keys.snapshots(game_id), str(version))
        return (version, payload.decode()) if payload else None

    def game_ids(self) -> list[str]:
        """Every game in the store, found by scanning stream keys (for index rebuilds)."""
        return sorted({self.keys.game_id_from_events_key(k.decode())
                       for kind in ("events", "archive")
                       for k in self.redis.scan_iter(match=self.keys.events_pattern(kind), count=500)})
