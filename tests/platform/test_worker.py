"""The worker process's own plumbing: its Redis connections and the crash repair of indexes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from rq.worker import SimpleWorker

from service.embedded import EmbeddedRedis
from service.engine import Engine
from tests.platform.test_engine import started
from workers.jobs import install_engine
from workers.runner import build_worker


def test_the_dequeue_never_reuses_a_connection_with_a_short_socket_timeout(platform_redis: EmbeddedRedis) -> None:
    """RQ blocks for minutes on an empty queue; a 5 s socket under it fails and backs off."""
    worker, engine = build_worker(platform_redis.url)
    engine.sweep()  # the engine's client opens its connections first, as the sweep thread does
    engine.reconcile()
    connection = worker.connection.connection_pool.get_connection()
    try:
        assert connection.socket_timeout is not None and connection.socket_timeout > worker.dequeue_timeout
    finally:
        worker.connection.connection_pool.release(connection)
    assert worker.connection is not engine.redis


def test_reconcile_repairs_only_what_still_lags_on_the_next_pass(engine: Engine) -> None:
    """A commit in flight lags for a moment; a crash between append and follow-up lags for good."""
    game_id, players = started(engine)
    player0 = players[0]
    meta = engine.keys.meta(game_id)
    inbox = engine.keys.inbox(player0.id)
    assert engine.redis.zscore(inbox, game_id) is not None
    # As if the API process died right after the append: the index still shows the old state.
    engine.act(player0, game_id, {"type": "pick", "number": 2})
    engine.redis.hset(meta, "indexed", 1)
    engine.redis.zadd(inbox, {game_id: 1.0})
    repaired, suspects = engine.reconcile()
    assert repaired == 0 and game_id in suspects
    assert engine.redis.zscore(inbox, game_id) == 1.0  # a first sighting repairs nothing
    repaired, suspects = engine.reconcile(suspects)
    assert repaired == 1 and suspects == {}
    assert engine.redis.zscore(inbox, game_id) is None  # seat 0 has picked: nothing awaits it
    assert engine.redis.hget(meta, "indexed") == engine.redis.hget(meta, "version")
    # A game that moved on between passes is a commit in flight, not a crash: left alone.
    engine.redis.hset(meta, "indexed", 1)
    _, suspects = engine.reconcile()
    engine.act(players[1], game_id, {"type": "pick", "number": 1})
    engine.redis.hset(meta, "indexed", 1)
    repaired, suspects = engine.reconcile(suspects)
    assert repaired == 0 and game_id in suspects


def test_the_sweep_asks_again_for_a_step_whose_job_was_lost(engine: Engine) -> None:
    """A worker that died holding the job, or a queue that lost it: the step still happens."""
    game_id, players = started(engine)
    engine.act(players[0], game_id, {"type": "pick", "number": 3})
    done = engine.act(players[1], game_id, {"type": "pick", "number": 2})
    queue = engine.scheduler.queue
    assert done.record["awaiting"] == [None, None] and queue.count == 1  # the resolve job, due now
    queue.empty()  # lost
    assert engine.sweep(now=datetime.now(UTC) + timedelta(seconds=1)) == 1
    assert queue.count == 1
    install_engine(engine)
    SimpleWorker([queue], connection=queue.connection, serializer=queue.serializer).work(burst=True)
    record = engine.load(game_id)
    assert record["version"] > done.record["version"] and record["state"]["score"] == [1, 0]
    # Nothing is due any more: the next sweep asks for nothing.
    assert engine.sweep(now=datetime.now(UTC) + timedelta(seconds=1)) == 0
