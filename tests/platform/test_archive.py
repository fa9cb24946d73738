"""Finished games are archived compactly and still read, replay and verify as before."""

from __future__ import annotations

import json
import zlib

import pytest
import redis

from engine.core import Engine
from events import archive
from events.envelope import ChainError
from projections.audit import audit
from projections.projector import fold_all
from tests.platform.test_engine import started


def finish(engine: Engine, game_id: str, players, key_prefix: str = "k") -> None:
    """Seat 0 picks 3 and seat 1 picks 1 until seat 0 has won; every post carries a key.

    Then the worker's step that the last commit asked for runs (it archives the game).
    """
    for turn in range(10):
        record = engine.load(game_id)
        if record["status"] == "finished":
            if engine.scheduler is not None:
                engine.drain_due()
            return
        if not any(record["awaiting"]):
            engine.advance(game_id)
            continue
        for seat, kind in enumerate(record["awaiting"]):
            if kind:
                engine.act(players[seat], game_id, {"type": "pick", "number": 3 if seat == 0 else 1},
                           idempotency_key=f"{key_prefix}-{turn}-{seat}")
    raise AssertionError("the game did not end")


def game_keys(engine: Engine, game_id: str) -> set[str]:
    return {key.decode() for key in engine.redis.scan_iter(match=f"*{{g:{game_id}}}*")}


def test_a_finished_game_keeps_only_its_archive_meta_and_nothing_a_live_game_needs(engine: Engine) -> None:
    game_id, players = started(engine, seconds=3600)
    live_keys = game_keys(engine, game_id)
    assert {engine.keys.events(game_id), engine.keys.seed(game_id)} <= live_keys
    before_end = engine.store.read(game_id)
    finish(engine, game_id, players)
    assert game_keys(engine, game_id) == {engine.keys.meta(game_id), engine.keys.archive(game_id)}
    assert set(engine.redis.hkeys(engine.keys.meta(game_id))) == {b"version", b"indexed", b"card"}
    # Nothing of it is left in the indexes of games in play or awaiting someone.
    assert not engine.redis.sismember(engine.keys.active(), game_id)
    for key in (engine.keys.deadlines(), engine.keys.lobby(), engine.keys.inbox(players[0].id)):
        assert engine.redis.zscore(key, game_id) is None
    events = engine.store.read(game_id)
    assert events[:len(before_end)] == before_end


def test_the_last_move_leaves_the_archiving_to_a_worker(engine: Engine) -> None:
    """The commit that ends a game answers at once; it asks a worker to archive it, durably."""
    game_id, players = started(engine)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(engine, "drain_due", lambda: 0)  # no worker yet
        finish(engine, game_id, players)
    assert engine.load(game_id)["status"] == "finished"
    assert not engine.store.is_archived(game_id) and engine.redis.exists(engine.keys.events(game_id))
    # Asked for in the commit's own round trip: the due set holds it, and a drain job is queued.
    assert engine.redis.zscore(engine.keys.due(), game_id) is not None
    assert "workers.jobs.drain" in [job.func_name for job in engine.scheduler.queue.get_jobs()]
    assert engine.drain_due() == 1
    assert engine.store.is_archived(game_id) and not engine.redis.exists(engine.keys.events(game_id))
    assert engine.advance(game_id) == "archived"  # a second step finds nothing to do
    assert engine.store.archive(game_id) is False


def test_another_process_reads_the_archive_byte_for_byte_and_it_audits(engine: Engine) -> None:
    game_id, players = started(engine)
    finish(engine, game_id, players)
    cold = Engine(redis.Redis(connection_pool=redis.ConnectionPool(**engine.redis.connection_pool.connection_kwargs)))
    events = cold.store.read(game_id)
    assert [e.to_json() for e in events] == [e.to_json() for e in engine.store.read(game_id)]
    assert audit(events).winners == [0]
    assert cold.load(game_id) == fold_all(events) and cold.load(game_id)["status"] == "finished"
    assert cold.store.read(game_id, after=3, upto=6) == events[3:6]
    assert cold.store.read(game_id, after=2, count=2) == events[2:4]
    assert cold.projector.at_version(game_id, 4) == fold_all(events[:4])
    assert cold.store.game_ids() == [game_id]


def test_one_changed_byte_in_an_archive_is_caught(engine: Engine) -> None:
    game_id, players = started(engine)
    finish(engine, game_id, players)
    text = zlib.decompress(engine.redis.get(engine.keys.archive(game_id))).decode()
    header, *rows = text.split("\n")
    forged = [row.replace('"number":1', '"number":2', 1) for row in rows]
    assert forged != rows
    with pytest.raises(ChainError):
        archive.unpack(zlib.compress("\n".join([header, *forged]).encode()))
    with pytest.raises(ChainError):
        archive.unpack(zlib.compress("\n".join([json.dumps({**json.loads(header), "count": 1}), *rows]).encode()))


def test_a_retried_post_after_the_end_is_answered_from_the_archive(engine: Engine) -> None:
    game_id, players = started(engine)
    finish(engine, game_id, players, key_prefix="retry")
    events = engine.store.read(game_id)
    last_player_batch = max((e for e in events if e.cause.get("kind") == "player"), key=lambda e: e.seq)
    seat, key = last_player_batch.actor, last_player_batch.cause["key"]
    again = engine.act(players[seat], game_id, last_player_batch.cause["action"], idempotency_key=key)
    # The batch, and the system step its commit took (the toy's reveal that ended the game),
    # as the first post's answer had them.
    batch = [e for e in events if last_player_batch.cause["batch"] in (e.cause.get("batch"), e.cause.get("follows"))]
    assert [e.type for e in batch] == ["Picked", "Revealed", "GameEnded"]
    assert again.events == batch
    from engine.errors import DomainError as Problem

    with pytest.raises(Problem) as reused:
        engine.act(players[seat], game_id, {"type": "pick", "number": 2}, idempotency_key=key)
    assert reused.value.code == "idempotency_key_reused"
    with pytest.raises(Problem) as over:
        engine.act(players[seat], game_id, {"type": "pick", "number": 2}, idempotency_key="never-used")
    assert over.value.code == "game_over"


def test_the_archive_repeats_nothing_and_rebuilds_a_game_whose_archiving_was_cut_off(engine: Engine,
                                                                                     monkeypatch) -> None:
    """The API process died between the last append and archiving: the reconcile finishes the job."""
    game_id, players = started(engine)
    with monkeypatch.context() as patch:
        patch.setattr(engine.follow_ups, "archive", lambda game_id, record: None)
        finish(engine, game_id, players)
    assert engine.redis.exists(engine.keys.events(game_id)) and not engine.store.is_archived(game_id)
    engine.rebuild_indexes()
    assert engine.store.is_archived(game_id) and not engine.redis.exists(engine.keys.events(game_id))
    assert engine.store.archive(game_id) is False  # archiving twice does nothing
    assert audit(engine.store.read(game_id)).finished


def test_an_engine_without_a_scheduler_archives_too(engine: Engine) -> None:
    bare = Engine(engine.redis, None)
    game_id, players = started(bare)
    finish(bare, game_id, players)
    assert bare.store.is_archived(game_id)


def test_a_drain_loads_its_games_together_as_each_would_load_alone(engine: Engine) -> None:
    """Cached and current, cached and behind, never seen (with snapshots), archived, and unknown."""
    games = {}
    for name in ("current", "behind", "unseen", "archived"):
        games[name] = started(engine)
    for name in ("behind", "unseen"):  # past the fixture's snapshot interval (5 events)
        game_id, players = games[name]
        for _ in range(3):
            engine.act(players[0], game_id, {"type": "pick", "number": 1})
            engine.act(players[1], game_id, {"type": "pick", "number": 1})
            engine.drain_due()
    finish(engine, *games["archived"])
    other = Engine(engine.redis, engine.scheduler, snapshot_every=5)  # another worker, its own cache
    other.load(games["current"][0])
    other.load(games["behind"][0])
    other.load(games["archived"][0])
    game_id, players = games["behind"]
    engine.act(players[0], game_id, {"type": "pick", "number": 2})  # "behind" moves on without it
    assert engine.redis.hget(engine.keys.meta(games["unseen"][0]), "snapshot") is not None
    ids = [game_id for game_id, _ in games.values()] + ["no-such-game"]
    loaded = other.projector.load_many(ids)
    assert list(loaded) == ids
    for game_id in ids:
        assert loaded[game_id] == Engine(engine.redis, None).load(game_id) if game_id != "no-such-game" else (
            loaded[game_id] is None)
    assert loaded[games["archived"][0]]["status"] == "finished"
    assert other.projector.cached(games["behind"][0]) == loaded[games["behind"][0]]


def test_a_worker_starts_from_the_record_the_due_commit_handed_over(worker_engine: Engine,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The commit that makes a system step due leaves its record in the game's meta hash; a
    worker's drain starts from it and folds only what came after, never the events before."""
    engine = worker_engine  # the system step is left to the workers
    import orjson

    from events.store import HANDOFF_FIELD
    from projections import projector

    folded: list[int] = []
    real_fold = projector.fold
    monkeypatch.setattr(projector, "fold", lambda record, event: folded.append(event.seq) or real_fold(record, event))
    game_id, players = started(engine)
    engine.act(players[0], game_id, {"type": "pick", "number": 1})
    engine.act(players[1], game_id, {"type": "pick", "number": 1})  # nobody awaited: the round is due
    record = engine.load(game_id)
    assert not any(record["awaiting"]) and engine.redis.zscore(engine.keys.due(), game_id) is not None
    handed = orjson.loads(engine.redis.hget(engine.keys.meta(game_id), HANDOFF_FIELD))
    assert handed == orjson.loads(orjson.dumps(record))

    worker = Engine(engine.redis, engine.scheduler)  # a worker that never saw the game
    folded.clear()
    assert worker.projector.load_many([game_id]) == {game_id: handed} and folded == []
    assert worker.drain_due() == 1  # the step is decided on the handed record
    after_step = Engine(engine.redis, None).load(game_id)
    assert after_step["version"] > record["version"] and worker.load(game_id) == after_step

    # A handoff behind the stream: the drain folds the rest. A newer cached record wins over it.
    engine.act(players[0], game_id, {"type": "pick", "number": 2})
    late, current = Engine(engine.redis, engine.scheduler), Engine(engine.redis, None).load(game_id)
    folded.clear()
    assert late.projector.load_many([game_id])[game_id] == current
    assert folded == list(range(record["version"] + 1, current["version"] + 1))
    folded.clear()
    assert late.projector.load_many([game_id])[game_id]["version"] == engine.load(game_id)["version"]
    assert folded == []


def test_a_record_past_the_cap_is_not_handed_over_and_the_worker_folds(worker_engine: Engine,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    engine = worker_engine  # the system step is left to the workers
    from events import store
    from events.store import HANDOFF_FIELD

    monkeypatch.setattr(store, "HANDOFF_MAX_BYTES", 100)
    game_id, players = started(engine)
    engine.act(players[0], game_id, {"type": "pick", "number": 1})
    engine.act(players[1], game_id, {"type": "pick", "number": 1})
    assert engine.redis.zscore(engine.keys.due(), game_id) is not None
    assert engine.redis.hget(engine.keys.meta(game_id), HANDOFF_FIELD) is None
    due_at = Engine(engine.redis, None).load(game_id)
    worker = Engine(engine.redis, engine.scheduler)
    assert worker.projector.load_many([game_id])[game_id] == due_at
    assert worker.drain_due() == 1 and Engine(engine.redis, None).load(game_id)["version"] > due_at["version"]
