"""One rendering of a game view per game, version and seat, shared by every stream of a process.

A thousand spectators (or one seat's many tabs) watching a busy game are woken by the same
append and would each build and serialise the same view. The first renders it; the others,
woken with it, send the same bytes. An entry serves only while fresh (a view shows the
seats' time banks as of its rendering), so a stream opened long after a version was
rendered gets a view of now.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from typing import Any

from projections.views import game_view
from service.answers import dump_bytes

#: Views one process keeps.
CAPACITY = 4096
#: How long a rendering serves the watchers woken with it.
FRESH_SECONDS = 1.0


class ViewCache:
    """An LRU of rendered views keyed by ``(game, version, seat)``."""

    def __init__(self, capacity: int = CAPACITY, fresh_seconds: float = FRESH_SECONDS) -> None:
        self.capacity = capacity
        self.fresh_seconds = fresh_seconds
        self._views: OrderedDict[tuple[str, int, Any], tuple[bytes, float]] = OrderedDict()
        self._lock = threading.Lock()
        self._rendering: dict[tuple[str, int, Any], threading.Lock] = {}

    def rendered(self, record: dict[str, Any], seat: int | None | str) -> bytes:
        """The JSON of ``game_view(record, seat)``, rendered once for every watcher of that seat:
        watchers asking while it is rendered wait for that rendering."""
        key = (record["id"], record["version"], seat)
        with self._lock:
            found = self._fresh(key)
            if found is not None:
                return found
            rendering = self._rendering.setdefault(key, threading.Lock())
        with rendering:
            with self._lock:
                found = self._fresh(key)
            if found is not None:
                return found
            body = dump_bytes(game_view(record, seat))
            with self._lock:
                self._views[key] = (body, time.monotonic() + self.fresh_seconds)
                self._views.move_to_end(key)
                while len(self._views) > self.capacity:
                    self._views.popitem(last=False)
                self._rendering.pop(key, None)
        return body

    def _fresh(self, key: tuple[str, int, Any]) -> bytes | None:
        found = self._views.get(key)
        if found is None or found[1] <= time.monotonic():
            return None
        self._views.move_to_end(key)
        return found[0]


#: The process's cache (each API process renders for its own watchers).
VIEWS = ViewCache()
