"""The engine's guarantees, proven on a toy game against a real Redis (no HTTP, no worker process)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import orjson
import pytest

from bots import IsmctsBot
from bots.ismcts import Budget
from engine.core import Engine
from engine.errors import DomainError as Problem
from engine.seat_bots import observation_for
from engine.settings import Settings
from events.envelope import check_chain, seal, seed_commitment
from games.base import GameEvent, derive_rng
from games.registry import load
from projections.audit import AuditError, audit
from projections.projector import fold_all
from projections.views import feed_item, game_view
from service.answers import status_of


def started(engine: Engine, seats: int = 2, seconds: int = 60):
    players = [engine.create_player(f"p{i}")[0] for i in range(seats)]
    record = engine.create_game(players[0], "toy", seats, {}, {"seconds_per_move": seconds, "autoplay_after": 3,
                                                                "autoplay_seconds": 5})
    for player in players:
        engine.join(player, record["id"])
    return record["id"], players


def test_last_join_starts_the_game_and_commits_the_seed(engine: Engine) -> None:
    game_id, _ = started(engine)
    record = engine.load(game_id)
    assert record["status"] == "active" and record["awaiting"] == ["pick", "pick"]
    assert record["seed_hash"] == seed_commitment(engine.store.seed(game_id))
    check_chain(engine.store.read(game_id))


def test_sealed_pick_is_hidden_from_the_other_seat_until_revealed(engine: Engine) -> None:
    game_id, players = started(engine)
    engine.act(players[0], game_id, {"type": "pick", "number": 3})
    record = engine.load(game_id)
    other_pick = {**record, "state": {**record["state"], "picks": [1, None]}}
    assert game_view(record, 1) == game_view(other_pick, 1)  # seat 1 cannot tell a 3 from a 1
    assert game_view(record, None) == game_view(other_pick, None)
    assert game_view(record, 0) != game_view(other_pick, 0)
    picked = [e for e in engine.store.read(game_id) if e.type == "Picked"][0]
    assert feed_item(record, picked, 1)["data"] == {}
    assert feed_item(record, picked, 0)["data"] == {"number": 3}


def test_the_last_pick_s_commit_takes_the_system_step_as_a_batch_of_its_own(engine: Engine) -> None:
    game_id, players = started(engine)
    engine.act(players[0], game_id, {"type": "pick", "number": 3})
    done = engine.act(players[1], game_id, {"type": "pick", "number": 2})
    picked, revealed = done.events
    assert (picked.type, revealed.type) == ("Picked", "Revealed")
    assert picked.cause["kind"] == "player" and picked.cause["batch"] == picked.seq
    # The worker's step would have appended the same batch: its own cause, its own draws.
    assert revealed.cause == {"kind": "system", "batch": revealed.seq, "follows": picked.seq}
    assert done.record["state"]["score"] == [1, 0] and done.record["awaiting"] == ["pick", "pick"]
    assert orjson.dumps(engine.projector.cached(game_id)) == orjson.dumps(fold_all(engine.store.read(game_id)))
    assert engine.advance(game_id) == "nothing_due"  # nothing is left to a worker
    assert engine.redis.zscore(engine.keys.deadlines(), game_id) is not None  # the next picks' deadlines
    play_to_end(engine, game_id, players)
    assert audit(engine.store.read(game_id)).winners == engine.load(game_id)["winners"]


def test_a_worker_takes_the_system_step_a_commit_left(worker_engine: Engine) -> None:
    engine = worker_engine
    game_id, players = started(engine)
    engine.act(players[0], game_id, {"type": "pick", "number": 3})
    done = engine.act(players[1], game_id, {"type": "pick", "number": 2})
    assert done.record["awaiting"] == [None, None]
    assert engine.advance(game_id, done.record["version"]) == "resolved"
    assert engine.load(game_id)["state"]["score"] == [1, 0]
    version = engine.store.version(game_id)
    assert engine.advance(game_id, done.record["version"]) == "nothing_due"  # a repeated job does nothing
    assert engine.store.version(game_id) == version


def test_a_failing_system_step_leaves_the_action_standing_and_the_step_to_a_worker(
        engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    import tests.support.toy as toy

    game_id, players = started(engine)
    engine.act(players[0], game_id, {"type": "pick", "number": 3})
    real = toy.resolve

    def broken(state, rng):
        raise RuntimeError("a bug in the rules")

    monkeypatch.setattr(toy, "resolve", broken)
    done = engine.act(players[1], game_id, {"type": "pick", "number": 2})
    assert [e.type for e in done.events] == ["Picked"] and done.record["awaiting"] == [None, None]
    assert engine.redis.zscore(engine.keys.due(), game_id) is not None  # asked of a worker
    monkeypatch.setattr(toy, "resolve", real)
    assert engine.advance(game_id) == "resolved"
    play_to_end(engine, game_id, players)
    audit(engine.store.read(game_id))


def test_expired_deadline_plays_the_default_and_counts_a_miss(engine: Engine) -> None:
    game_id, players = started(engine, seconds=30)
    engine.act(players[0], game_id, {"type": "pick", "number": 3})
    version = engine.load(game_id)["version"]
    assert engine.advance(game_id, version) == "nothing_due"
    later = datetime.now(UTC) + timedelta(seconds=31)
    assert engine.advance(game_id, version, now=later) == "timed_out"
    record = engine.load(game_id)
    assert record["misses"] == [0, 1]
    # Both seats have picked: the timeout's commit takes the system step too.
    assert [e.type for e in engine.store.read(game_id, after=version)] == ["DeadlineMissed", "Picked", "Revealed"]


def test_three_misses_hand_the_seat_to_the_bot_until_its_player_acts(engine: Engine) -> None:
    game_id, players = started(engine, seconds=30)
    for _ in range(3):  # seat 0 picks 1, seat 1 misses and defaults to 1: a tie, nobody scores
        engine.act(players[0], game_id, {"type": "pick", "number": 1})
        record = engine.load(game_id)
        assert engine.advance(game_id, record["version"], now=datetime.now(UTC) + timedelta(seconds=31)) == "timed_out"
        assert engine.load(game_id)["awaiting"] == ["pick", "pick"]  # revealed in the timeout's commit
    record = engine.load(game_id)
    assert record["status"] == "active" and record["misses"] == [0, 3] and record["autoplay"] == [False, True]
    assert record["deadlines"][1] <= (datetime.now(UTC) + timedelta(seconds=6)).isoformat()
    engine.act(players[1], game_id, {"type": "pick", "number": 2})
    record = engine.load(game_id)
    assert record["autoplay"] == [False, False] and record["misses"] == [0, 0]


def test_rejected_actions_change_nothing(engine: Engine) -> None:
    game_id, players = started(engine)
    before = engine.store.version(game_id)
    with pytest.raises(Problem) as err:
        engine.act(players[0], game_id, {"type": "pick", "number": 9})
    assert status_of(err.value) == 422 and err.value.code == "bad_number"
    assert err.value.extra["legal_actions"][0] == {"type": "pick", "number": 1}
    with pytest.raises(Problem) as err:
        engine.act(players[0], game_id, {"type": "pick", "number": 1}, if_match=before - 1)
    assert status_of(err.value) == 409
    assert engine.store.version(game_id) == before


def test_idempotency_key_replays_the_first_result(engine: Engine) -> None:
    game_id, players = started(engine)
    first = engine.act(players[0], game_id, {"type": "pick", "number": 2}, idempotency_key="k1")
    again = engine.act(players[0], game_id, {"type": "pick", "number": 2}, idempotency_key="k1")
    assert [e.seq for e in first.events] == [e.seq for e in again.events]
    assert engine.store.version(game_id) == first.events[-1].seq
    with pytest.raises(Problem) as err:
        engine.act(players[0], game_id, {"type": "pick", "number": 3}, idempotency_key="k1")
    assert err.value.code == "idempotency_key_reused"


def play_to_end(engine: Engine, game_id: str, players) -> None:
    """Play the toy game to its end, then run the step its last commit asked of a worker (archiving)."""
    for _ in range(100):
        record = engine.load(game_id)
        if record["status"] == "finished":
            if engine.scheduler is not None:
                engine.drain_due()
            return
        if not any(record["awaiting"]):
            engine.advance(game_id, record["version"])
            continue
        for seat, kind in enumerate(record["awaiting"]):
            if kind:
                engine.act(players[seat], game_id, {"type": "pick", "number": 3 - seat % 3})
    raise AssertionError("game did not end")


def test_finished_game_reveals_seed_and_its_log_audits(engine: Engine) -> None:
    game_id, players = started(engine)
    play_to_end(engine, game_id, players)
    record = engine.load(game_id)
    assert record["status"] == "finished" and record["winners"] == [0]
    assert seed_commitment(record["seed"]) == record["seed_hash"]
    events = engine.store.read(game_id)
    report = audit(events)
    assert report.winners == [0]
    tampered = list(events)
    index = next(i for i, e in enumerate(tampered) if e.type == "Picked")
    forged = tampered[index].__class__(**{**tampered[index].__dict__, "data": {"number": 1}})
    tampered[index] = forged
    with pytest.raises(AuditError) as err:
        audit(tampered)
    assert err.value.seq == forged.seq


def test_a_snapshot_is_written_by_the_append_that_crosses_its_interval(engine: Engine, monkeypatch) -> None:
    """In the append's own step: no round trip of its own, and none for an append refused."""
    engine = Engine(engine.redis, engine.scheduler, snapshot_every=3)  # the toy game is short
    game_id, players = started(engine)

    def apart(*args: object, **kwargs: object) -> None:
        raise AssertionError("a snapshot written in a command of its own")

    monkeypatch.setattr(engine.redis, "hset", apart)
    stale = engine.load(game_id)
    for seat in (0, 1):  # a round: past the next snapshot
        engine.act(players[seat], game_id, {"type": "pick", "number": 3 - seat})
    engine.advance(game_id)
    version = engine.load(game_id)["version"]
    assert engine.load(game_id)["status"] == "active"
    snapshot = engine.store.latest_snapshot(game_id)
    assert snapshot is not None and snapshot[0] == 3 * (version // 3) > stale["version"]
    assert orjson.loads(snapshot[1]) == fold_all(engine.store.read(game_id)[:snapshot[0]])
    # An append refused for its version (the same events again, from the record before
    # them) writes nothing, its snapshot included.
    engine.redis.delete(engine.keys.snapshots(game_id))
    engine.redis.hdel(engine.keys.meta(game_id), "snapshot")
    again = [GameEvent(e.type, e.data, e.actor) for e in engine.store.read(game_id)[stale["version"]:]]
    assert engine.commits.commit(game_id, stale, again, {"kind": "player"}) is None
    assert engine.store.latest_snapshot(game_id) is None


def test_snapshots_and_replay_at_version_match_a_full_fold(engine: Engine) -> None:
    game_id, players = started(engine)
    for seat in (0, 1):  # a round: past the first snapshot (every 5 events here)
        engine.act(players[seat], game_id, {"type": "pick", "number": 3 - seat})
    engine.advance(game_id)
    live = engine.store.read(game_id)
    assert engine.store.latest_snapshot(game_id) is not None
    engine.projector.forget(game_id)
    assert engine.load(game_id) == fold_all(live)
    for version in range(1, len(live) + 1):
        assert engine.projector.at_version(game_id, version) == fold_all(live[:version])
    # Once finished, the game is archived without snapshots; loads and replays still match.
    play_to_end(engine, game_id, players)
    events = engine.store.read(game_id)
    assert engine.store.latest_snapshot(game_id) is None and events[:len(live)] == live
    engine.projector.forget(game_id)
    assert engine.load(game_id) == fold_all(events)
    for version in range(1, len(events) + 1):
        assert engine.projector.at_version(game_id, version) == fold_all(events[:version])


def test_indexes_rebuild_from_the_streams(engine: Engine) -> None:
    game_id, players = started(engine)
    inbox = engine.keys.inbox(players[0].id)
    assert engine.redis.zscore(inbox, game_id) is not None
    engine.redis.delete(inbox, engine.keys.deadlines())
    assert engine.rebuild_indexes() == 1
    assert engine.redis.zscore(inbox, game_id) is not None
    assert engine.redis.zscore(engine.keys.deadlines(), game_id) is not None


def test_replacing_a_sealed_bid_does_not_restart_the_other_clocks(engine: Engine) -> None:
    players = [engine.create_player(f"r{i}")[0] for i in range(3)]
    game_id = engine.create_game(players[0], "revolution", 3, {}, {"seconds_per_move": 600})["id"]
    for player in players:
        engine.join(player, game_id)
    started_record = engine.load(game_id)
    bids = load("revolution").legal_actions(started_record["state"], 0)
    engine.act(players[0], game_id, bids[0])
    after_first = engine.load(game_id)["deadlines"]
    engine.act(players[0], game_id, bids[1])  # seat 0 changes its mind
    record = engine.load(game_id)
    assert record["awaiting"] == [None, "bid", "bid"]
    assert record["deadlines"][1:] == after_first[1:] == started_record["deadlines"][1:]


def test_a_deadline_books_no_job_the_sweep_asks_for_it_when_its_index_entry_comes_due(engine: Engine) -> None:
    game_id, players = started(engine, seconds=30)
    registry_ = engine.scheduler.queue.scheduled_job_registry  # type: ignore[union-attr]
    assert registry_.get_job_ids() == [], "a deadline is an entry of the deadline index, not an RQ job"
    first = engine.redis.zscore(engine.keys.deadlines(), game_id)
    for _ in range(3):  # tied rounds resolve and every new deadline is later
        engine.act(players[0], game_id, {"type": "pick", "number": 1})
        engine.act(players[1], game_id, {"type": "pick", "number": 1})
        engine.drain_due()
    record = engine.load(game_id)
    assert record["status"] == "active" and registry_.get_job_ids() == []
    due = min(datetime.fromisoformat(d) for d in record["deadlines"] if d is not None)
    assert engine.redis.zscore(engine.keys.deadlines(), game_id) == due.timestamp() > first
    # Asked for by the old time, the step finds nothing due; the sweep waits for the new one.
    assert engine.advance(game_id, now=datetime.fromtimestamp(first, UTC)) == "nothing_due"
    assert engine.sweep(now=due - timedelta(seconds=1)) == 0
    assert engine.sweep(now=due) == 1
    assert engine.redis.zscore(engine.keys.due(), game_id) is not None  # the drain job's step, run at that time:
    assert engine.advance(game_id, now=due) == "timed_out"


def test_a_coup_game_left_to_its_clocks_ends_and_audits_with_the_ismcts_takeover(engine: Engine) -> None:
    """Every seat misses every deadline: defaults, then the strong bot, to the end; the log audits.

    Each takeover move is the one ISMCTS picks from the seat's own view and redacted history
    (an iteration budget alone makes the search repeatable), drawn from the bot's own stream:
    Coup's exchange shuffles the court deck, so a bot that consumed the rules' generator
    would leave a log that no audit can replay.
    """
    budget = Budget(iterations=20, milliseconds=None)
    engine = Engine(engine.redis, engine.scheduler, snapshot_every=5,
                    settings=Settings(bot_iterations=20, bot_milliseconds=600_000))
    players = [engine.create_player(f"c{i}")[0] for i in range(3)]
    record = engine.create_game(players[0], "coup", 3, {}, {"seconds_per_move": 60, "autoplay_after": 1,
                                                             "autoplay_seconds": 60})
    for player in players:
        engine.join(player, record["id"])
    game_id, far = record["id"], datetime.now(UTC) + timedelta(days=1)
    for _ in range(2000):
        record = engine.load(game_id)
        if record["status"] == "finished":
            break
        due = far if any(record["awaiting"]) else None
        assert engine.advance(game_id, record["version"], now=due) in ("timed_out", "resolved")
    assert record["status"] == "finished" and len(record["winners"]) == 1
    events = engine.store.read(game_id)
    causes = [e.cause["kind"] for e in events if e.type == "DeadlineMissed"]
    assert causes[:3] == ["timeout"] * 3 and causes.count("bot") >= 3
    assert audit(events).winners == record["winners"]
    takeovers = [e for e in events if e.cause.get("kind") == "bot" and e.type == "DeadlineMissed"]
    for missed in takeovers[:8]:
        before = fold_all(events[:missed.seq - 1])
        assert missed.cause["strategy"] == "ismcts"
        seat = missed.cause["seat"]
        pick = IsmctsBot(budget).choose(observation_for(before, events[:missed.seq - 1], seat),
                                        derive_rng(record["seed"], missed.seq, "bot"))
        assert pick == missed.cause["action"], f"event {missed.seq}"
    # A bot move swapped for one the rules refuse is caught, even with the chain re-sealed.
    index = takeovers[0].seq - 1
    resealed, prev = list(events[:index]), events[index - 1].hash
    for event in events[index:]:
        cause = event.cause
        if event.cause.get("batch") == events[index].seq:
            cause = {**cause, "action": {"type": "assassinate", "target": 7}}
        resealed.append(seal(event.seq, event.type, event.at, event.actor, event.data, cause, prev))
        prev = resealed[-1].hash
    with pytest.raises(AuditError) as err:
        audit(resealed)
    assert err.value.seq == events[index].seq


def test_the_committer_and_the_record_it_hands_to_workers_equal_a_replay_of_the_log(worker_engine: Engine) -> None:
    """Dict order included (issue 27: a five-seat Ideology log failed the audit at a
    consolidation, decided by a worker from a record folded from drafts, not from the log)."""
    from events.store import HANDOFF_FIELD

    engine = worker_engine

    players = [engine.create_player(f"i{i}")[0] for i in range(3)]
    game_id = engine.create_game(players[0], "ideology", 3, {}, {"seconds_per_move": 600})["id"]
    for player in players:
        engine.join(player, game_id)
    rules = load("ideology")
    handed = None
    for _ in range(20):  # every seat keeps its hand, until a step falls to the workers
        record = engine.load(game_id)
        waiting = [seat for seat, kind in enumerate(record["awaiting"]) if kind is not None]
        if not waiting:
            handed = engine.redis.hget(engine.keys.meta(game_id), HANDOFF_FIELD)
            break
        engine.act(players[waiting[0]], game_id, rules.on_timeout(record["state"], waiting[0]))
    assert handed is not None
    replayed = fold_all(engine.store.read(game_id))
    assert handed == orjson.dumps(replayed)
    assert orjson.dumps(engine.projector.cached(game_id)) == orjson.dumps(replayed)


def test_an_announcement_of_events_this_process_appended_is_not_parsed_again(
        engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    import projections.projector as projector_module

    game_id, players = started(engine)
    done = engine.act(players[0], game_id, {"type": "pick", "number": 1})
    lines = [event.to_json().encode() for event in done.events]
    parsed: list[bytes] = []
    real = projector_module.Envelope.from_json
    monkeypatch.setattr(projector_module.Envelope, "from_json", lambda line: parsed.append(line) or real(line))
    engine.projector.announced(game_id, done.events[-1].seq, lines)
    assert parsed == []  # the appender's own events: known already
    # Events the process has not kept (another process appended them) are parsed and kept.
    engine.projector._tails.pop(game_id)
    engine.projector.announced(game_id, done.events[-1].seq, lines)
    assert parsed == lines
    assert engine.projector.read(game_id, done.events[0].seq - 1, known=done.events[-1].seq) == list(done.events)


def test_an_own_append_announced_before_its_reply_is_pushed_without_a_second_fold(
        engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    """The listener may hear a commit of this process before the committer gets its reply:
    it then pushes the committer's own record and events, and neither parses nor folds."""
    import projections.projector as projector_module

    game_id, players = started(engine)
    # The real listener hears the same append at a moment of its own: it only wakes here, so
    # that what the overtaking announcement does is all that is measured.
    monkeypatch.setattr(engine.watcher, "_on_events", None)
    pushed: list[tuple[bool, int, object, list]] = []
    appending = False
    with engine.watch(game_id) as watch:
        watch.pusher = lambda before, record, events: pushed.append((appending, before, record, list(events)))
        real_append = engine.store.append
        heard: list[object] = []

        def append_then_overtake(game, version, envelopes, *args, **kwargs):
            nonlocal appending
            result = real_append(game, version, envelopes, *args, **kwargs)
            # What the listener does when the announcement arrives first.
            appending = True
            engine.commits.announced(game, version + len(envelopes), [event.to_json().encode() for event in envelopes])
            appending = False
            heard.append(engine.projector.cached(game))
            return result

        monkeypatch.setattr(engine.store, "append", append_then_overtake)
        parsed: list[bytes] = []
        real_parse = projector_module.Envelope.from_json
        monkeypatch.setattr(projector_module.Envelope, "from_json",
                            lambda line: parsed.append(line) or real_parse(line))
        import projections.record as record_module
        folded: list[int] = []
        real_fold = record_module.fold
        monkeypatch.setattr(projector_module, "fold", lambda record, event: folded.append(event.seq)
                            or real_fold(record, event))
        done = engine.act(players[0], game_id, {"type": "pick", "number": 1})
    assert parsed == [] and folded == []
    # The listener pushed the committer's own record (a stream's push skips what it delivered).
    (from_listener, before, record, events), *_ = pushed
    assert from_listener and before == done.events[0].seq - 1 and events == list(done.events)
    assert record is done.record and heard == [done.record]
    assert engine.commits.in_flight == {}


def test_an_announcement_that_only_looks_like_an_own_append_is_parsed(engine: Engine) -> None:
    """Another process's append at the same version (this one's then failed) is not taken
    for this process's: only the very last event's stored JSON identifies an own append."""
    game_id, players = started(engine)
    done = engine.act(players[0], game_id, {"type": "pick", "number": 1})
    lines = [event.to_json().encode() for event in done.events]
    engine.commits.in_flight[b"another event"] = (game_id, done.events[0].seq - 1, {"version": -1}, [])
    engine.projector._tails.pop(game_id)
    engine.commits.announced(game_id, done.events[-1].seq, lines)
    assert engine.projector.remembered(game_id, done.events[0].seq - 1, done.events[-1].seq) == list(done.events)
    assert engine.projector.cached(game_id)["version"] == done.events[-1].seq


def test_a_view_built_on_the_versions_shared_table_part_is_the_view_built_alone(engine: Engine) -> None:
    """The streams of a version share its seat-independent part (service.view_cache): each
    seat's view, the operator's and a spectator's must be the very same, key order included."""
    import random

    from projections.views import OPERATOR, table_view

    players = [engine.create_player(f"p{i}")[0] for i in range(3)]
    record = engine.create_game(players[0], "coup", 3, {}, {"seconds_per_move": 60, "autoplay_after": 3,
                                                             "autoplay_seconds": 5})
    for player in players:
        engine.join(player, record["id"])
    rules, chance = load("coup"), random.Random(7)
    clock = datetime(2030, 1, 1, tzinfo=UTC)
    for _ in range(30):
        record = engine.load(record["id"])
        table = table_view(record, clock)
        for seat in (0, 1, 2, None, OPERATOR):
            alone = game_view(record, seat, clock)
            shared = game_view(record, seat, table=table)
            assert list(shared) == list(alone) and orjson.dumps(shared) == orjson.dumps(alone)
        assert table == table_view(record, clock)  # a view does not change the part it shares
        movers = [seat for seat, kind in enumerate(record["awaiting"]) if kind is not None]
        if record["status"] != "active" or not movers:
            break
        seat = chance.choice(movers)
        engine.act(players[seat], record["id"], chance.choice(rules.legal_actions(record["state"], seat)))
