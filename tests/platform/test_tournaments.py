"""Tournaments on a real Redis, the engine called directly, the clock in the test's hands:
the start at ``starts_at`` (or the cancellation), the webhooks of a round and of the end,
a game's end told again by the sweep when nobody told it, and the stream's fold."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from engine.core import Engine
from engine.errors import Conflict
from engine.outcomes import Player
from engine.tournament_hooks import DISPATCH_TOURNAMENT, dispatch
from engine.tournament_state import check_pairings, replay
from engine.tournaments import PLAY_OUT
from tests.platform.test_webhooks import Answering
from workers.jobs import install_engine, play_out
from workers.runner import Sweeper


def settings(**changes: Any) -> dict[str, Any]:
    starts = datetime.now(UTC) + timedelta(hours=2)
    return {"game": "coup", "seats_per_table": 2, "rounds": 2, "time_control": {"seconds_per_move": 86400},
            "options": {}, "starts_at": starts, "min_players": 2, "max_players": None, "rated": False,
            "round_seconds": 3600, "name": None, **changes}


def players(engine: Engine, count: int) -> list[Player]:
    return [engine.create_player(f"p{i}")[0] for i in range(count)]


def test_at_starts_at_it_starts_with_enough_players_and_is_cancelled_with_too_few(engine: Engine) -> None:
    host, *others = players(engine, 3)
    full = engine.tournaments.create(host, settings())
    thin = engine.tournaments.create(host, settings(min_players=3))
    for player in (host, *others):
        engine.tournaments.join(player, full["id"])
    engine.tournaments.join(others[0], thin["id"])
    starts = datetime.fromisoformat(full["starts_at"])
    assert engine.tournaments.sweep(now=starts - timedelta(seconds=1)) == 0
    assert engine.tournaments.sweep(now=starts + timedelta(seconds=1)) == 2
    running, cancelled = engine.tournaments.view(full["id"]), engine.tournaments.view(thin["id"])
    assert running["status"] == "running" and cancelled["status"] == "cancelled"
    assert sorted(len(t["players"]) for t in running["rounds_played"][0]["tables"]) == [2]
    (bye,) = running["rounds_played"][0]["byes"]  # three at two seats: one bye, worth a win's point at once
    assert {row["player"]["id"]: row["points"] for row in running["standings"]} == {
        player.id: (1 if player.id == bye else 0) for player in (host, *others)}
    with pytest.raises(Conflict) as late:
        engine.tournaments.join(others[1], thin["id"])
    assert late.value.code == "tournament_cancelled"
    assert check_pairings(engine.tournaments.events(full["id"])) == []


def test_a_round_and_the_end_are_sent_to_the_players_webhooks(engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    receiver = Answering(204)
    monkeypatch.setattr(engine.hooks, "private_ok", True)  # INTRIGUE_WEBHOOKS_ALLOW_PRIVATE=1
    host, guest = players(engine, 2)
    hook = engine.create_webhook(guest.id, receiver.url, ["tournament_round", "tournament_over"])
    tid = engine.tournaments.create(host, settings(rounds=1))["id"]
    engine.tournaments.join(host, tid)
    engine.tournaments.join(guest, tid)
    engine.tournaments.start(host, tid)
    queued = engine.hooks.queue.jobs  # type: ignore[union-attr]  # the engine fixture has a queue
    asked = [job.args for job in queued if job.func_name == DISPATCH_TOURNAMENT]
    assert asked == [[guest.id, "tournament_round", tid, 1, 5]]  # created, two joins, started and paired
    assert dispatch(engine.hooks, *asked[0]) == 1
    game_id = engine.tournaments.view(tid)["rounds_played"][0]["tables"][0]["game"]
    engine.resign(guest, game_id)  # the only other seat: the game, the round and the tournament end
    assert engine.tournaments.view(tid)["status"] == "finished"
    over = [job.args for job in engine.hooks.queue.jobs  # type: ignore[union-attr]  # as above
            if job.func_name == DISPATCH_TOURNAMENT and job.args[1] == "tournament_over"]
    assert len(over) == 1 and dispatch(engine.hooks, *over[0]) == 1
    sent = engine.webhook_deliveries(guest.id, hook["id"])
    assert {(d["type"], d["tournament"], d["status"]) for d in sent} == {
        ("tournament_round", tid, "delivered"), ("tournament_over", tid, "delivered")}
    body = json.loads(engine.redis.hget(engine.keys.delivery(sent[0]["id"]), "body"))
    assert set(body) == {"id", "type", "tournament", "round", "version", "created_at"}


def test_a_game_end_nobody_told_is_told_by_the_sweep(engine: Engine) -> None:
    host, guest = players(engine, 2)
    tid = engine.tournaments.create(host, settings(rounds=2))["id"]
    engine.tournaments.join(host, tid)
    engine.tournaments.join(guest, tid)
    engine.tournaments.start(host, tid)
    game_id = engine.tournaments.view(tid)["rounds_played"][0]["tables"][0]["game"]
    engine.follow_ups.on_game_end = None  # the process that ended it died before telling the tournament
    engine.resign(host, game_id)
    assert engine.tournaments.view(tid)["rounds_played"][0]["tables"][0]["ranks"] is None
    engine.follow_ups.on_game_end = engine.tournaments.game_ended
    deadline = datetime.fromisoformat(engine.tournaments.view(tid)["rounds_played"][0]["deadline"])
    engine.tournaments.sweep(now=deadline + timedelta(seconds=1))
    shown = engine.tournaments.view(tid)
    assert shown["rounds_played"][0]["tables"][0]["ranks"] == [2, 0]  # resigned: last
    # Round 2 of two players who already met: the same table again, the only pairing there is.
    assert [t["players"] for t in shown["rounds_played"][1]["tables"]] == [[guest.id, host.id]]
    standings = shown["standings"]
    assert [(row["player"]["id"], row["points"]) for row in standings] == [(guest.id, 1.0), (host.id, 0.0)]
    state = replay(engine.tournaments.events(tid))
    assert state is not None and state["version"] == shown["version"]


def test_the_listings_and_the_due_set_rebuild_from_the_streams(engine: Engine) -> None:
    host, guest = players(engine, 2)
    waiting = engine.tournaments.create(host, settings())["id"]
    running = engine.tournaments.create(host, settings())["id"]
    for player in (host, guest):
        engine.tournaments.join(player, running)
    engine.tournaments.start(host, running)
    keys = engine.tournaments.keys
    before = {key: engine.redis.zrange(key, 0, -1, withscores=True)
              for key in (keys.due(), keys.listing("open"), keys.listing("running"))}
    engine.redis.delete(*before)
    assert engine.tournaments.rebuild_indexes() == 2
    after = {key: engine.redis.zrange(key, 0, -1, withscores=True) for key in before}
    assert {key: [m for m, _ in found] for key, found in after.items()} == {
        key: [m for m, _ in found] for key, found in before.items()}
    assert [m.decode() for m, _ in after[keys.listing("open")]] == [waiting]
    assert after[keys.due()] and all(score == pytest.approx(old, abs=1) for (_, score), (_, old)
                                     in zip(after[keys.due()], before[keys.due()], strict=True))


def test_the_workers_sweep_starts_it_and_a_bot_worker_plays_out_a_round_at_its_deadline(engine: Engine) -> None:
    host, guest = players(engine, 2)
    tid = engine.tournaments.create(host, settings(rounds=1))["id"]
    engine.tournaments.join(host, tid)
    engine.tournaments.join(guest, tid)
    starts = datetime.fromisoformat(engine.tournaments.view(tid)["starts_at"])
    Sweeper(engine).sweep_tournaments(starts + timedelta(seconds=1))  # the worker's sweep, at that moment
    round_one = engine.tournaments.view(tid)["rounds_played"][0]
    game_id = round_one["tables"][0]["game"]
    assert engine.load(game_id)["status"] == "active"
    deadline = datetime.fromisoformat(round_one["deadline"])
    Sweeper(engine).sweep_tournaments(deadline + timedelta(seconds=1))
    asked = [job for job in engine.scheduler.bots.jobs  # type: ignore[union-attr]  # the fixture has one
             if job.func_name == PLAY_OUT]
    assert [job.args for job in asked] == [[game_id]]
    install_engine(engine)
    assert play_out(game_id) == "over"  # what the bot worker runs
    assert engine.load(game_id)["status"] == "finished"
    assert engine.tournaments.view(tid)["status"] == "finished"


def test_the_list_pages_like_the_lobby(engine: Engine) -> None:
    (host,) = players(engine, 1)
    made = [engine.tournaments.create(host, settings(name=f"T{i}"))["id"] for i in range(3)]
    first = engine.tournaments.page("open", 2, None)
    assert [card["id"] for card in first.cards] == made[:2] and first.next_cursor is not None
    second = engine.tournaments.page("open", 2, first.next_cursor)
    assert [card["id"] for card in second.cards] == made[2:] and second.next_cursor is None
    assert engine.tournaments.page("running", 2, None).cards == []
