"""One rendering of a game view per game, version and seat, shared by every stream of a process.

A thousand spectators (or one seat's many tabs) watching a busy game are woken by the same
append and would each build and serialise the same view. The first renders it; the others,
woken with it, send the same bytes. An entry serves only while fresh (a view shows the
seats' time banks as of its rendering), so a stream opened long after a version was
rendered gets a view of now.

It takes no lock. In the API's gevent worker nothing switches greenlets while a view is
rendered (building it and serialising it wait on nothing), so every watcher woken with a
version finds the first one's rendering. Under real threads two callers may render the same
view at once: that costs a rendering, never a wrong answer, since both render the same
record. Each of the ordered dictionary's own operations is atomic under the interpreter's
lock. The locks this used to take (three round trips through gevent's lock, and a new lock
per rendering) cost the API about 2% of its time (docs/performance.md, section 17).
"""

from __future__ import annotations

import time
from collections import OrderedDict
from typing import Any

from projections.views import game_view, table_view
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
        #: The part of a version's views that every seat shares (projections.views.table_view):
        #: built once for the seats rendered while it is fresh, not once per seat.
        self._tables: OrderedDict[tuple[str, int], tuple[dict[str, Any], float]] = OrderedDict()

    def rendered(self, record: dict[str, Any], seat: int | None | str) -> bytes:
        """The JSON of ``game_view(record, seat)``, rendered once for every watcher of that seat
        that asks while it is fresh."""
        key = (record["id"], record["version"], seat)
        views = self._views
        now = time.monotonic()
        found = views.get(key)
        if found is not None and found[1] > now:
            try:
                views.move_to_end(key)
            except KeyError:  # another thread evicted it meanwhile: it was served all the same
                pass
            return found[0]
        body = dump_bytes(game_view(record, seat, table=self._table(record, now)))
        _keep(views, key, (body, now + self.fresh_seconds), self.capacity)
        return body

    def _table(self, record: dict[str, Any], now: float) -> dict[str, Any]:
        """This version's shared part, as fresh as the renderings that use it."""
        key = (record["id"], record["version"])
        found = self._tables.get(key)
        if found is not None and found[1] > now:
            return found[0]
        table = table_view(record)
        _keep(self._tables, key, (table, now + self.fresh_seconds), self.capacity // 4)
        return table


def _keep(entries: OrderedDict[Any, Any], key: Any, value: Any, capacity: int) -> None:
    """Store ``value`` as the newest entry, then evict the oldest past ``capacity``."""
    entries[key] = value
    entries.move_to_end(key)  # a stale entry replaced would otherwise keep its old place
    while len(entries) > capacity:
        try:
            entries.popitem(last=False)
        except KeyError:  # emptied by another thread between the test and the pop
            break


#: The process's cache (each API process renders for its own watchers).
VIEWS = ViewCache()
