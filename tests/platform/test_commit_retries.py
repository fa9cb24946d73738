"""The commit path's retries are counted: orders that keep changing under an append end in "busy"."""

from __future__ import annotations

import pytest

from engine.commit import MAX_STALE_RETRIES
from engine.core import Engine
from engine.errors import Conflict
from tests.platform.test_engine import started


def test_orders_changing_under_every_append_end_in_busy_with_nothing_appended(
        engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    game_id, players = started(engine)
    revision_key = engine.keys.orders_revision(game_id)
    reads = []
    read = engine.orders.refresh

    def read_then_race(gid: str) -> None:
        """Read the orders, then let a PUT land before the append, every time."""
        read(gid)
        reads.append(gid)
        engine.redis.incr(revision_key)

    monkeypatch.setattr(engine.orders, "refresh", read_then_race)
    engine.orders._known.pop(game_id, None)  # this process reads them before its first commit
    before = engine.load(game_id)["version"]
    with pytest.raises(Conflict) as refused:
        engine.act(players[0], game_id, {"type": "pick", "number": 3})
    assert refused.value.code == "busy"
    assert engine.store.version(game_id) == before
    assert len(reads) == MAX_STALE_RETRIES  # the first read, then one after each refused append but the last


def test_an_append_refused_once_for_changed_orders_lands_on_the_next_try(
        engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    game_id, players = started(engine)
    revision_key = engine.keys.orders_revision(game_id)
    engine.act(players[1], game_id, {"type": "pick", "number": 1})  # this process holds the orders now
    engine.redis.incr(revision_key)  # a change it has not heard of yet (no announcement)
    done = engine.act(players[0], game_id, {"type": "pick", "number": 2})
    assert done.record["version"] == engine.store.version(game_id)
    assert engine.orders.guard(game_id)[1] == engine.redis.get(revision_key).decode()
