"""Loads game records: the newest snapshot, plus the events after it.

Snapshots are written every ``snapshot_every`` events, so the cost of loading a
game does not grow with its length. A small per-process cache keeps recent records,
so a request usually folds only the events it has not seen yet.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

import orjson

from events.envelope import Envelope
from events.store import EventStore
from projections.record import Record, fold


class Projector:
    def __init__(self, store: EventStore, snapshot_every: int = 50, cache_size: int = 2048) -> None:
        self.store = store
        self.snapshot_every = snapshot_every
        self.cache_size = cache_size
        self._cache: OrderedDict[str, Record] = OrderedDict()
        self._lock = threading.Lock()

    def load(self, game_id: str) -> Record | None:
        """The current record of a game, or None if there is no such game."""
        with self._lock:
            record = self._cache.get(game_id)
        if record is None:
            snap = self.store.latest_snapshot(game_id)
            record = orjson.loads(snap[1]) if snap else None
        after = record["version"] if record else 0
        events = self.store.read(game_id, after=after)
        if record is None and not events:
            return None
        for event in events:
            record = fold(record, event)
        assert record is not None
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
        with self._lock:
            self._cache[game_id] = record
            self._cache.move_to_end(game_id)
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)

    def forget(self, game_id: str) -> None:
        with self._lock:
            self._cache.pop(game_id, None)

    def maybe_snapshot(self, game_id: str, before: int, record: Record) -> None:
        """Write a snapshot when the version crossed a multiple of ``snapshot_every``."""
        if record["version"] // self.snapshot_every > before // self.snapshot_every:
            self.store.save_snapshot(game_id, record["version"], orjson.dumps(record).decode())


def fold_all(events: list[Envelope]) -> Record | None:
    record: Record | None = None
    for event in events:
        record = fold(record, event)
    return record
