"""Standing orders inside the engine: two processes, the append's guard, the worker's commits."""

from __future__ import annotations

import redis

from engine.core import Engine
from engine.scheduling import JobScheduler, make_queue

DECK = ["duke", "contessa", "duke", "captain", "ambassador", "assassin",
        "captain", "contessa", "ambassador", "assassin", "duke", "captain", "contessa", "ambassador", "assassin"]
PASS_UNLESS_TARGETED = {"decision": "react", "when": {"targeted": False}, "answer": {"type": "pass"}}


def _coup(engine: Engine) -> tuple[list, str]:
    players = [engine.create_player(f"p{i}")[0] for i in range(3)]
    game_id = engine.create_game(players[0], "coup", 3, {"deck": DECK}, {"seconds_per_move": 60})["id"]
    for player in players:
        engine.join(player, game_id)
    return players, game_id


def test_orders_set_on_another_process_answer_this_ones_next_commit(engine: Engine) -> None:
    players, game_id = _coup(engine)
    engine.act(players[0], game_id, {"type": "income"})  # this process now holds the game (and no orders)
    other = Engine(redis.Redis(connection_pool=engine.redis.connection_pool),
                   JobScheduler(make_queue(engine.redis)))
    try:
        other.orders.replace(players[2].id, other.load(game_id), [PASS_UNLESS_TARGETED])
        other.orders.replace(players[0].id, other.load(game_id), [PASS_UNLESS_TARGETED])
    finally:
        other.watcher.stop()
    done = engine.act(players[1], game_id, {"type": "tax"})
    passed = [(e.actor, e.cause.get("order", {}).get("index")) for e in done.events if e.type == "Passed"]
    assert passed == [(0, 0), (2, 0)]  # seat by seat
    assert done.record["awaiting"] == [None, None, "turn"]


def test_setting_orders_leaves_the_game_stream_and_its_version_alone(engine: Engine) -> None:
    players, game_id = _coup(engine)
    version, events = engine.version(game_id), engine.read_events(game_id)
    engine.orders.replace(players[1].id, engine.load(game_id), [PASS_UNLESS_TARGETED])
    engine.orders.clear(players[1].id, engine.load(game_id))
    assert engine.version(game_id) == version
    assert engine.read_events(game_id) == events
    assert [e.type for e in engine.orders.log(game_id)] == ["StandingOrdersSet", "StandingOrdersSet"]
    assert [e.data["version"] for e in engine.orders.log(game_id)] == [version, version]


def test_a_workers_step_that_opens_a_decision_is_answered_there(worker_engine: Engine) -> None:
    engine = worker_engine
    players, game_id = _coup(engine)
    income_once = {"decision": "turn", "answer": {"type": "income"}, "once": True}
    engine.orders.replace(players[1].id, engine.load(game_id), [PASS_UNLESS_TARGETED, income_once])
    engine.orders.replace(players[2].id, engine.load(game_id), [PASS_UNLESS_TARGETED])
    done = engine.act(players[0], game_id, {"type": "tax"})
    assert done.record["awaiting"] == [None, None, None]  # both passed by order; closing the window is a worker's
    assert engine.advance(game_id) == "resolved"
    record = engine.load(game_id)
    assert record["awaiting"] == [None, None, "turn"]  # seat 1's turn opened in the worker's step, and its order played
    income = [e for e in engine.read_events(game_id) if e.type == "ActionDeclared" and e.actor == 1]
    assert income[0].cause["order"]["answer"] == {"type": "income"}
    assert engine.orders.of_player(players[1].id, engine.load(game_id)) == [{**PASS_UNLESS_TARGETED, "once": False}]
