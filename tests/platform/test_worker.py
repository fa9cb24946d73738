"""The worker process's own plumbing: its Redis connections and the crash repair of indexes."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta

import pytest
from redis import Redis
from rq.worker import SimpleWorker

from engine.core import STALE_DUE_SECONDS, Engine
from engine.scheduling import BOTS_QUEUE, DRAIN_LINGER_SECONDS, QUEUED_MARK_MS, make_queue
from engine.settings import Settings
from engine.webhooks import QUEUE_NAME as WEBHOOK_QUEUE
from service.embedded import EmbeddedRedis
from tests.platform.test_engine import started
from workers import runner
from workers.jobs import install_engine
from workers.runner import DEADLINE_GRACE, Sweeper, build_worker


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


def test_the_sweep_asks_again_for_a_step_whose_job_was_lost(worker_engine: Engine) -> None:
    """A worker that died holding the job, or a queue that lost it: the step still happens."""
    engine = worker_engine  # the system step is left to the workers
    game_id, players = started(engine)
    engine.act(players[0], game_id, {"type": "pick", "number": 3})
    done = engine.act(players[1], game_id, {"type": "pick", "number": 2})
    queue = engine.scheduler.queue
    assert done.record["awaiting"] == [None, None] and queue.count == 1  # the resolve job, due now
    queue.empty()  # lost
    # Until the step is late, a worker may be taking it: the sweep leaves it alone.
    assert engine.sweep(now=datetime.now(UTC) + timedelta(seconds=STALE_DUE_SECONDS / 2)) == 0
    assert queue.count == 0
    assert engine.sweep(now=datetime.now(UTC) + timedelta(seconds=STALE_DUE_SECONDS + 1)) == 1
    assert queue.count == 1
    install_engine(engine)
    SimpleWorker([queue], connection=queue.connection, serializer=queue.serializer).work(burst=True)
    record = engine.load(game_id)
    assert record["version"] > done.record["version"] and record["state"]["score"] == [1, 0]
    # Nothing is due any more: the next sweep asks for nothing.
    assert engine.sweep(now=datetime.now(UTC) + timedelta(seconds=STALE_DUE_SECONDS + 1)) == 0


def test_a_creation_cut_off_before_indexing_reaches_the_lobby_on_the_next_passes(engine: Engine, monkeypatch) -> None:
    """The append landed but its index updates did not (the process died): nobody could find the game."""
    creator, _ = engine.create_player("creator")
    real_queue = engine.follow_ups.queue

    def queue_nothing(pipe, record, before, **options):
        return real_queue(engine.redis.pipeline(), record, before, **options)  # written to a pipe never sent

    def die(*args, **kwargs) -> None:
        raise ConnectionError("the process died here")

    with monkeypatch.context() as patch:
        patch.setattr(engine.follow_ups, "queue", queue_nothing)
        patch.setattr(engine.follow_ups, "finish", die)
        try:
            engine.create_game(creator, "toy", 2, {}, {"seconds_per_move": 60})
        except ConnectionError:
            pass
    (game_id,) = [raw.decode() for raw in engine.redis.zrange(engine.keys.creating(), 0, -1)]
    assert engine.store.version(game_id) == 1 and engine.redis.zscore(engine.keys.lobby(), game_id) is None
    _, suspects = engine.reconcile()
    repaired, _ = engine.reconcile(suspects)
    assert repaired == 1 and engine.redis.zscore(engine.keys.lobby(), game_id) is not None
    assert engine.redis.zcard(engine.keys.creating()) == 0


def test_reconcile_reads_only_games_in_play_and_forgets_creations_that_never_appended(engine: Engine) -> None:
    """Its cost follows the games in play; finished games are never read again."""
    open_game = engine.create_game(engine.create_player("host")[0], "toy", 2, {}, {"seconds_per_move": 60})["id"]
    active_game, players = started(engine)
    finished_game, finishers = started(engine)
    for _ in range(2):  # seat 0 wins two rounds; each resolve runs in place of the worker
        engine.act(finishers[0], finished_game, {"type": "pick", "number": 3})
        engine.act(finishers[1], finished_game, {"type": "pick", "number": 1})
        engine.advance(finished_game)
    assert engine.load(finished_game)["status"] == "finished"
    # A creation whose process died between saving the seed and appending, long ago.
    engine.redis.zadd(engine.keys.creating(), {"deadbeef0000": 1.0})
    engine.store.save_seed("deadbeef0000", "00" * 32)
    assert engine.upkeep._reconcile_candidates() == sorted([open_game, active_game])
    assert engine.redis.zcard(engine.keys.creating()) == 0
    assert engine.redis.get(engine.keys.seed("deadbeef0000")) is None


def test_the_sweeper_wakes_at_the_next_deadline_not_at_its_period(engine: Engine) -> None:
    """Live games on short clocks: a deadline's default lands milliseconds after it, not a second."""
    sweeper = Sweeper(engine, sweep_seconds=1.0)
    assert sweeper.next_wait(datetime.now(UTC)) == 1.0  # nothing booked: the period
    game_id, _ = started(engine, seconds=60)
    swept_at = datetime.now(UTC)
    soon = swept_at + timedelta(seconds=0.25)
    engine.redis.zadd(engine.keys.deadlines(), {game_id: soon.timestamp()})
    assert 0.1 < sweeper.next_wait(swept_at) <= 0.25 + DEADLINE_GRACE
    # A deadline that fell due between the sweep's clock reading and now is swept at once.
    swept_at = datetime.now(UTC) - timedelta(seconds=0.1)
    engine.redis.zadd(engine.keys.deadlines(), {game_id: (swept_at + timedelta(seconds=0.05)).timestamp()})
    assert sweeper.next_wait(swept_at) == DEADLINE_GRACE
    # Once swept, it is the sweep's business; the sweeper does not spin on it.
    assert engine.seconds_to_next_deadline(now=soon) is None


def test_seats_past_their_deadline_together_time_out_one_step_after_another(engine: Engine) -> None:
    """Each default is its own step; the next one is asked for at once, not at the next sweep."""
    game_id, _ = started(engine, seconds=0)  # both picks are due the moment the game starts
    queue = engine.scheduler.queue
    due = engine.keys.due()
    assert engine.redis.zrange(due, 0, -1) == [game_id.encode()]
    assert [job.func_name for job in queue.jobs] == ["workers.jobs.drain"]
    engine.redis.zrem(due, game_id)  # as a drain job takes it
    assert engine.advance(game_id) == "timed_out"
    record = engine.load(game_id)
    assert [a is not None for a in record["awaiting"]].count(True) == 1
    assert engine.redis.zrange(due, 0, -1) == [game_id.encode()]  # the next default is due at once


def test_intrigue_reindex_rebuilds_every_index_from_the_streams_with_progress(engine: Engine,
                                                                             platform_redis: EmbeddedRedis) -> None:
    """The indexes are projections: wiped, the command brings back the lobby, inboxes and deadlines."""
    import os
    import subprocess
    import sys

    from tests.integration.conftest import ROOT

    host, _ = engine.create_player("host")
    open_game = engine.create_game(host, "toy", 2, {}, {"seconds_per_move": 60})["id"]
    active_game, players = started(engine)
    lobby, inbox = engine.keys.lobby(), engine.keys.inbox(players[0].id)
    before = (engine.redis.zrange(lobby, 0, -1, withscores=True), engine.redis.zrange(inbox, 0, -1, withscores=True),
              engine.redis.zrange(engine.keys.deadlines(), 0, -1, withscores=True))
    engine.redis.delete(lobby, inbox, engine.keys.deadlines(), engine.keys.active())
    # The command runs in a process that hosts the toy game too (cards name a game's public options).
    command = ("from games import registry; registry.GAMES['toy'] = 'tests.support.toy'; "
               "from service.cli import main; raise SystemExit(main(['reindex']))")
    done = subprocess.run([sys.executable, "-c", command], cwd=ROOT, capture_output=True, text=True,
                          timeout=60, env={**os.environ, "REDIS_URL": platform_redis.url,
                                           "INTRIGUE_LOG_LEVEL": "WARNING"})
    assert done.returncode == 0, done.stderr
    assert "rebuilt the indexes of 2 game(s)" in done.stdout
    assert "reindex: 2/2 games" in done.stderr
    after = (engine.redis.zrange(lobby, 0, -1, withscores=True), engine.redis.zrange(inbox, 0, -1, withscores=True),
             engine.redis.zrange(engine.keys.deadlines(), 0, -1, withscores=True))
    assert after == before
    assert [member.decode() for member, _ in after[0]] == [open_game]
    assert engine.redis.smembers(engine.keys.active()) == {active_game.encode()}


def test_one_drain_job_runs_the_steps_of_every_game_due(worker_engine: Engine) -> None:
    """Steps due together cost one queued job, not one each; the job runs them all."""
    engine = worker_engine  # the system step is left to the workers
    games = []
    for _ in range(3):
        game_id, players = started(engine)
        games.append(game_id)
        engine.act(players[0], game_id, {"type": "pick", "number": 3})
        engine.act(players[1], game_id, {"type": "pick", "number": 2})
    queue = engine.scheduler.queue
    assert [job.func_name for job in queue.jobs] == ["workers.jobs.drain"]
    assert set(engine.redis.zrange(engine.keys.due(), 0, -1)) == {g.encode() for g in games}
    install_engine(engine)
    SimpleWorker([queue], connection=queue.connection, serializer=queue.serializer).work(burst=True)
    assert engine.redis.zcard(engine.keys.due()) == 0
    for game_id in games:
        assert engine.load(game_id)["state"]["score"] == [1, 0]


def test_a_lingering_drain_job_runs_the_steps_that_fall_due_meanwhile_and_none_are_queued(
        worker_engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    """While one drain job lingers it holds the mark: the commits meanwhile queue no job of
    their own, and it runs their steps; once it ends, the next step queues a job again."""
    engine = worker_engine  # the system step is left to the workers
    queue = engine.scheduler.queue
    games = [started(engine) for _ in range(3)]
    # The job starts as the commit that queued it left things: the mark taken.
    engine.redis.set(engine.keys.drain_queued(), 1, px=QUEUED_MARK_MS)
    stepped: list[str] = []
    all_stepped = threading.Event()
    run_due = engine.upkeep._run_due

    def counting(game_ids: list[str]) -> int:
        done = run_due(game_ids)
        stepped.extend(game_ids)
        if len(stepped) == len(games):
            all_stepped.set()
        return done

    monkeypatch.setattr(engine.upkeep, "_run_due", counting)
    ran: list[int] = []
    drain = threading.Thread(target=lambda: ran.append(engine.drain_due(linger=30.0, idle=2.0)))
    drain.start()
    for game_id, players in games:
        engine.act(players[0], game_id, {"type": "pick", "number": 3})
        engine.act(players[1], game_id, {"type": "pick", "number": 2})
    assert all_stepped.wait(10.0), "the lingering job ran every step that fell due"
    assert all(engine.load(game_id)["state"]["score"] == [1, 0] for game_id, _ in games)
    assert queue.count == 0, "the lingering job took them: no job was queued"
    drain.join(10.0)  # nothing more falls due: it ends after its idle wait
    assert not drain.is_alive() and ran == [3]
    assert not engine.redis.exists(engine.keys.drain_queued())
    game_id, players = started(engine)
    engine.act(players[0], game_id, {"type": "pick", "number": 3})
    engine.act(players[1], game_id, {"type": "pick", "number": 2})
    assert [job.func_name for job in queue.jobs] == ["workers.jobs.drain"]


def test_a_lingering_drain_job_gives_way_to_a_job_waiting_in_another_queue(worker_engine: Engine) -> None:
    """A worker that also serves bots or webhooks is not held by a drain while their jobs wait."""
    engine = worker_engine
    other = make_queue(engine.redis, BOTS_QUEUE)
    other.enqueue("os.getpid")
    game_id, players = started(engine)
    engine.act(players[0], game_id, {"type": "pick", "number": 3})
    engine.act(players[1], game_id, {"type": "pick", "number": 2})
    started_at = time.monotonic()
    assert engine.drain_due(linger=60.0, idle=30.0, yield_to=[other.key]) == 1
    assert time.monotonic() - started_at < 20.0, "it ran what was due and went, without waiting for more"
    assert engine.load(game_id)["state"]["score"] == [1, 0]
    assert not engine.redis.exists(engine.keys.drain_queued())


def test_the_worker_process_lingers_its_drain_jobs_except_in_a_burst(platform_redis: EmbeddedRedis,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """``run_worker`` tells its jobs to linger, and which of its queues they give way to."""
    installed: dict[str, object] = {}
    monkeypatch.setattr(runner, "install_engine", lambda engine, **how: installed.update(how))
    monkeypatch.setattr(runner, "Sweeper", lambda *_, **__: type("Idle", (), {"start": lambda self: None,
                                                                            "stopping": threading.Event()})())
    runner.run_worker(platform_redis.url, Settings(), burst=True, queues=("games",))
    assert installed == {"linger": 0.0, "yield_to": ()}
    monkeypatch.setattr(SimpleWorker, "work", lambda self, **_: True)
    runner.run_worker(platform_redis.url, Settings(), queues=("games", "bots", "webhooks"))
    assert installed["linger"] == DRAIN_LINGER_SECONDS
    assert installed["yield_to"] == (make_queue(Redis(), BOTS_QUEUE).key, make_queue(Redis(), WEBHOOK_QUEUE).key)


def test_index_updates_of_a_commit_that_lost_the_race_never_run(engine: Engine) -> None:
    """They run inside the append, after its version check: a commit that loses leaves the indexes alone."""
    game_id, players = started(engine)
    stale = engine.load(game_id)
    engine.act(players[0], game_id, {"type": "pick", "number": 3})  # another writer moves first
    drafts = engine.moves.decide(stale, 1, {"type": "pick", "number": 2}, None)
    assert engine.commits.commit(game_id, stale, drafts, {"kind": "player"}) is None  # a stale record: lost
    inbox = engine.keys.inbox(players[1].id)
    assert engine.redis.zscore(inbox, game_id) is not None, "seat 1 still owes its pick"
    assert engine.redis.zscore(engine.keys.inbox(players[0].id), game_id) is None
    meta = engine.keys.meta(game_id)
    assert engine.redis.hget(meta, "indexed") == engine.redis.hget(meta, "version")


def test_a_commit_asks_for_its_workers_step_only_after_its_answer(worker_engine: Engine) -> None:
    """Asked to answer first (as the web app does), the engine returns the drain job to queue
    once the caller has its answer.

    The step itself was recorded in the commit's own round trip (the due set), so the
    request to the worker can wait; until it runs, nothing is queued.
    """
    engine = worker_engine  # the system step is left to the workers
    game_id, players = started(engine)
    engine.act(players[0], game_id, {"type": "pick", "number": 3}, answer_first=True)
    done = engine.act(players[1], game_id, {"type": "pick", "number": 2}, answer_first=True)
    owed = done.after_answer
    queue = engine.scheduler.queue
    assert done.record["awaiting"] == [None, None]
    assert engine.redis.zscore(engine.keys.due(), game_id) is not None and queue.count == 0
    for work in owed:
        work()
    assert [job.func_name for job in queue.jobs] == ["workers.jobs.drain"]


def test_the_sweep_queues_a_drain_for_steps_left_in_the_due_set(worker_engine: Engine) -> None:
    """The process that owed the drain job died after its commit: the next sweep asks for it."""
    engine = worker_engine  # the system step is left to the workers
    game_id, players = started(engine)
    engine.act(players[0], game_id, {"type": "pick", "number": 3}, answer_first=True)
    engine.act(players[1], game_id, {"type": "pick", "number": 2}, answer_first=True)  # owed, never run: it died
    queue = engine.scheduler.queue
    engine.redis.zrem(engine.keys.deadlines(), game_id)  # only the due set remembers it (as for archiving)
    assert queue.count == 0
    assert engine.sweep(now=datetime.now(UTC)) == 0 and queue.count == 0  # not stale yet
    engine.sweep(now=datetime.now(UTC) + timedelta(seconds=STALE_DUE_SECONDS + 1))
    assert [job.func_name for job in queue.jobs] == ["workers.jobs.drain"]
    install_engine(engine)
    SimpleWorker([queue], connection=queue.connection, serializer=queue.serializer).work(burst=True)
    assert engine.load(game_id)["state"]["score"] == [1, 0]


def test_the_web_app_asks_for_the_step_when_the_server_closes_the_answer(platform_redis: EmbeddedRedis) -> None:
    """The answer goes out first; the server's ``close()`` of it (PEP 3333) queues the drain job."""
    from service.app import create_app

    app = create_app(redis_url=platform_redis.url, rate_limit=0)
    engine: Engine = app.extensions["intrigue"]
    engine.redis.flushall()
    players, tokens = zip(*(engine.create_player(f"p{i}") for i in range(2)), strict=True)
    game_id = engine.create_game(players[0], "toy", 2, {}, {"seconds_per_move": 60})["id"]
    for player in players:
        engine.join(player, game_id)
    client = app.test_client()
    # Seat 0 wins two reveals (each taken by the second pick's commit): the last commit ends
    # the game, and archiving it is owed to a worker.
    posts = [client.post(f"/v1/games/{game_id}/actions", json={"type": "pick", "number": number},
                         headers={"Authorization": f"Bearer {token}"})
             for _ in range(2) for token, number in zip(tokens, (3, 2), strict=True)]
    assert [post.status_code for post in posts] == [200] * 4
    assert posts[-1].get_json()["game"]["status"] == "finished"
    queue = engine.scheduler.queue
    assert queue.count == 0  # answered, not yet closed
    for post in posts:
        post.close()
    assert [job.func_name for job in queue.jobs] == ["workers.jobs.drain"]


def test_a_step_taken_twice_finds_the_game_archived_by_the_first_and_does_nothing(
        worker_engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two workers load the same step (the sweep asked for it again while a drain ran it):
    the first ends the game and it is archived; the second, holding the step as it loaded
    it, finds no seed and stops instead of failing."""
    engine = worker_engine  # the system steps are left to the workers
    game_id, players = started(engine)
    for round_ in range(2):  # seat 0 wins both rounds: the second reveal ends the game
        engine.act(players[0], game_id, {"type": "pick", "number": 3})
        engine.act(players[1], game_id, {"type": "pick", "number": 2})
        if round_ == 0:
            assert engine.advance(game_id) == "resolved"
    late = Engine(engine.redis, engine.scheduler)  # a second worker process
    step = late.projector.load(game_id)
    assert step["status"] == "active" and step["awaiting"] == [None, None]
    assert engine.advance(game_id) == "resolved"  # the first worker takes the step: the game ends
    engine.drain_due()  # and its last commit asked for the archiving
    assert engine.store.is_archived(game_id)
    version = engine.store.version(game_id)
    monkeypatch.setattr(late.projector, "load", lambda _game_id: step)
    assert late.advance(game_id) == "raced"
    assert engine.store.version(game_id) == version and engine.load(game_id)["status"] == "finished"


def test_an_open_game_nobody_joins_expires_with_an_event_leaves_the_lobby_and_frees_its_creator(
        engine: Engine) -> None:
    """The sweep ends it after INTRIGUE_OPEN_GAME_TTL seconds; a game that filled in time is left alone."""
    from dataclasses import replace

    from engine.settings import Settings

    short = Engine(engine.redis, engine.scheduler, settings=replace(Settings(), open_game_ttl=0.2))
    host, _ = short.create_player("host")
    waiting = short.create_game(host, "toy", 2, {}, {"seconds_per_move": 60}, max_open=1)["id"]
    filled, _ = started(short)
    sweeper = Sweeper(short, sweep_seconds=0.02)
    sweeper.start()
    try:
        give_up = time.monotonic() + 10
        while short.load(waiting)["status"] == "open":
            assert time.monotonic() < give_up, "the open game never expired"
            sweeper.stopping.wait(0.02)
    finally:
        sweeper.stopping.set()
        sweeper.join(timeout=10)
    record = short.load(waiting)
    assert (record["status"], record["winners"], record["reason"]) == ("finished", [], "expired")
    last = short.read_events(waiting)[-1]
    assert (last.type, last.data["reason"], last.cause["kind"]) == ("GameEnded", "expired", "system")
    assert short.redis.zscore(short.keys.lobby(), waiting) is None
    assert short.redis.zscore(short.keys.lobby("toy"), waiting) is None
    assert short.open_games_of(host.id) == 0
    assert short.create_game(host, "toy", 2, {}, {"seconds_per_move": 60}, max_open=1)["status"] == "open"
    assert short.load(filled)["status"] == "active"
    assert "expires" in short.transcript(waiting)


def test_open_games_never_expire_with_a_ttl_of_zero(engine: Engine) -> None:
    from dataclasses import replace

    from engine.settings import Settings

    never = Engine(engine.redis, engine.scheduler, settings=replace(Settings(), open_game_ttl=0))
    game_id = never.create_game(never.create_player("host")[0], "toy", 2, {}, {"seconds_per_move": 60})["id"]
    assert never.expire_open_games(now=time.time() + 10 * 365 * 86400) == []
    assert never.load(game_id)["status"] == "open"
    assert Settings.from_env({"INTRIGUE_OPEN_GAME_TTL": "60"}).open_game_ttl == 60
    assert Settings().open_game_ttl == 7 * 86400
