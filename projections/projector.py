"""Loads game records: the newest snapshot, plus the events after it.

Snapshots are written every ``snapshot_every`` events, so the cost of loading a
game does not grow with its length. A small per-process cache keeps recent records,
so a request usually folds only the events it has not seen yet.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

import orjson
import redis

from events.envelope import Envelope
from events.store import EventStore, IndexCommands
from projections.record import Record, fold

#: Recent events kept per cached game.
TAIL_LENGTH = 64


class Projector:
    def __init__(self, store: EventStore, snapshot_every: int = 50, cache_size: int = 2048) -> None:
        self.store = store
        self.snapshot_every = snapshot_every
        self.cache_size = cache_size
        self._cache: OrderedDict[str, Record] = OrderedDict()
        #: The latest events of cached games, contiguous, so the feeds of several seats
        #: woken by one append read the stream once per process, not once each.
        self._tails: dict[str, list[Envelope]] = {}
        self._lock = threading.Lock()

    def load(self, game_id: str) -> Record | None:
        """The current record of a game, or None if there is no such game."""
        with self._lock:
            record = self._cache.get(game_id)
        if record is None:
            snap = self.store.latest_snapshot(game_id)
            record = orjson.loads(snap[1]) if snap else None
        after = record["version"] if record else 0
        return self._brought_up_to_date(game_id, record, self.store.read(game_id, after=after))

    def load_many(self, game_ids: list[str]) -> dict[str, Record | None]:
        """:meth:`load` for several games, with one read of the store for them all.

        A worker's drain: each game starts from the record its last due-making commit
        handed over (one round trip for them all) when that is newer than the cached one,
        so the worker folds only what followed it, not every event another process
        appended. Games with neither cost one more round trip for all of them (their
        snapshots), as :meth:`load` does for one.
        """
        with self._lock:
            records: dict[str, Record | None] = {game_id: self._cache.get(game_id) for game_id in game_ids}
        for game_id, payload in self.store.handoffs(game_ids).items():
            handed = orjson.loads(payload)
            known = records[game_id]
            if known is None or handed["version"] > known["version"]:
                records[game_id] = handed
        missing = [game_id for game_id, record in records.items() if record is None]
        for game_id, (_, snapshot) in (self.store.latest_snapshots(missing) if missing else {}).items():
            records[game_id] = orjson.loads(snapshot)
        batches = self.store.read_many({game_id: record["version"] if record else 0
                                        for game_id, record in records.items()})
        return {game_id: self._brought_up_to_date(game_id, record, batches[game_id])
                for game_id, record in records.items()}

    def _brought_up_to_date(self, game_id: str, record: Record | None, events: list[Envelope]) -> Record | None:
        """``record`` (cached, from a snapshot, or None) with the ``events`` read after it, cached."""
        if record is None and not events:
            return None
        self.remember_events(game_id, events)
        for event in events:
            record = fold(record, event)
        assert record is not None
        self.remember(game_id, record)
        return record

    def cached(self, game_id: str) -> Record | None:
        """The newest record this process knows, without asking the store (it may be behind).

        Events announced since the record was cached (see :meth:`announced`) are folded in,
        so a process usually decides on the current record even when another one appended.
        """
        with self._lock:
            record = self._cache.get(game_id)
            tail = self._tails.get(game_id)
        if record is None or not tail or tail[-1].seq <= record["version"] or tail[0].seq > record["version"] + 1:
            return record
        return self._fold_in(game_id, record, tail)

    def announced(self, game_id: str, version: int, lines: list[bytes]) -> None:
        """Events (JSON, in order, the last at ``version``) that an append published with its
        notification.

        Kept as the game's tail when this process has the game at hand (a cached record or
        tail), so its feeds and its next decision need no read of the stream. The process
        that appended them knows them already and parses nothing.
        """
        with self._lock:
            if game_id not in self._cache and game_id not in self._tails:
                return
            tail = self._tails.get(game_id)
            if tail and tail[-1].seq >= version and tail[0].seq <= version - len(lines) + 1:
                return
        self.remember_events(game_id, [Envelope.from_json(line) for line in lines])

    def remembered(self, game_id: str, after: int, through: int) -> list[Envelope] | None:
        """Every event this process holds after ``after``, if they follow on from it and reach
        ``through``; else None (never a read of the store)."""
        with self._lock:
            tail = self._tails.get(game_id)
        if not tail or tail[0].seq > after + 1 or tail[-1].seq < through:
            return None
        return tail[after + 1 - tail[0].seq:]  # the tail is contiguous: a slice, not a scan

    def load_after(self, game_id: str, events: list[Envelope]) -> Record | None:
        """The record with ``events`` (just read from the stream, in order) folded in.

        A feed that has read the new events folds them into the cached record instead of
        reading them a second time; without a cached record that they continue, it loads.
        """
        record = self.cached(game_id)
        if record is None or not events or events[0].seq > record["version"] + 1:
            return self.load(game_id)
        return self._fold_in(game_id, record, events)

    def _fold_in(self, game_id: str, record: Record, events: list[Envelope]) -> Record:
        """``record`` with those of ``events`` (contiguous with it) that it lacks, cached."""
        for event in events:
            if event.seq > record["version"]:
                record = fold(record, event)
        self.remember(game_id, record)
        return record

    def at_version(self, game_id: str, version: int) -> Record | None:
        """The record as it stood right after event ``version`` (for replays)."""
        snap = self.store.latest_snapshot(game_id, at_most=version)
        record = orjson.loads(snap[1]) if snap else None
        after = record["version"] if record else 0
        for event in self.store.read(game_id, after=after, upto=version):
            record = fold(record, event)
        return record

    def remember(self, game_id: str, record: Record) -> None:
        """Cache ``record`` unless a newer one already is (folds can finish out of order)."""
        with self._lock:
            known = self._cache.get(game_id)
            if known is not None and known["version"] > record["version"]:
                self._cache.move_to_end(game_id)
                return
            self._cache[game_id] = record
            self._cache.move_to_end(game_id)
            while len(self._cache) > self.cache_size:
                evicted, _ = self._cache.popitem(last=False)
                self._tails.pop(evicted, None)

    def remember_events(self, game_id: str, events: list[Envelope]) -> None:
        """Keep ``events`` (just appended or read, in order) as the game's recent tail."""
        if not events:
            return
        with self._lock:
            tail = self._tails.get(game_id)
            if tail and tail[0].seq <= events[0].seq and events[-1].seq <= tail[-1].seq:
                return  # known already (an announcement can overtake the appender's own note)
            if tail and tail[-1].seq + 1 == events[0].seq:
                tail = tail + events
            elif tail and tail[0].seq <= events[0].seq <= tail[-1].seq + 1:
                tail = tail[:events[0].seq - tail[0].seq] + events
            else:
                tail = list(events)
            self._tails[game_id] = tail[-TAIL_LENGTH:]

    def read(self, game_id: str, after: int, known: int | None = None, count: int | None = None) -> list[Envelope]:
        """Events after ``after``, like the store's read, from memory when that is surely complete.

        ``known`` is a version the stream is known to have reached (a notification said
        so): when the tail holds every event from ``after`` up to it, no read is needed.
        Without ``known`` the store is read.
        """
        if known is not None:
            if known <= after:
                return []
            held = self.remembered(game_id, after, known)
            if held is not None:
                return held[:count] if count is not None else held
        events = self.store.read(game_id, after=after, count=count)
        self.remember_events(game_id, events)
        return events

    def forget(self, game_id: str) -> None:
        with self._lock:
            self._cache.pop(game_id, None)
            self._tails.pop(game_id, None)

    def queue_snapshot(self, pipe: redis.client.Pipeline | IndexCommands, game_id: str, before: int,
                       record: Record) -> None:
        """Add to ``pipe`` (a commit's index updates) a snapshot of ``record`` when its version
        crossed a multiple of ``snapshot_every``: written by the append that makes it true, or
        not at all, and in no round trip of its own."""
        if record["version"] // self.snapshot_every > before // self.snapshot_every:
            self.store.queue_snapshot(pipe, game_id, record["version"], orjson.dumps(record).decode())


def fold_all(events: list[Envelope]) -> Record | None:
    record: Record | None = None
    for event in events:
        record = fold(record, event)
    return record
