"""Time banks: a seat past its move deadline spends its reserve, and only then gets the default."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from engine.core import Engine
from events.envelope import parse_time
from projections.record import reserve_left
from projections.views import game_view


def iso(moment: datetime) -> str:
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def test_overtime_is_taken_from_the_reserve_and_the_default_waits_for_it(engine: Engine,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    players = [engine.create_player(f"bank{i}")[0] for i in range(2)]
    created = engine.create_game(players[0], "toy", 2, {}, {"seconds_per_move": 30, "reserve_seconds": 60})
    for player in players:
        engine.join(player, created["id"])
    game_id = created["id"]
    record = engine.load(game_id)
    assert record["reserve"] == [60.0, 60.0]
    move_deadline = parse_time(record["move_deadlines"][1])
    # The default lands at the move deadline plus the whole reserve.
    assert parse_time(record["deadlines"][1]) == move_deadline + timedelta(seconds=60)
    assert game_view(record, 0)["reserve"] == [60.0, 60.0]

    engine.act(players[0], game_id, {"type": "pick", "number": 3})
    # Seat 1 answers 20 s after its move deadline: those 20 s come out of its reserve.
    late = move_deadline + timedelta(seconds=20)
    monkeypatch.setattr("engine.commit.utc_now", lambda: iso(late))
    engine.act(players[1], game_id, {"type": "pick", "number": 2})  # its commit reveals both picks too
    assert engine.advance(game_id) == "nothing_due"
    record = engine.load(game_id)
    assert record["reserve"] == [60.0, 40.0] and record["misses"] == [0, 0]
    assert parse_time(record["deadlines"][1]) == late + timedelta(seconds=30 + 40)

    # Past the move deadline the reserve runs down in the view (both seats owe a pick since
    # ``late``), and no default is due yet.
    assert engine.advance(game_id, now=late + timedelta(seconds=31)) == "nothing_due"
    assert reserve_left(record, late + timedelta(seconds=40)) == [50.0, 30.0]
    assert game_view(record, None, clock=late + timedelta(seconds=40))["reserve"] == [50.0, 30.0]

    # Once the reserve is gone the default is played: a miss, and no reserve left.
    gone = late + timedelta(seconds=70, milliseconds=1)
    monkeypatch.setattr("engine.commit.utc_now", lambda: iso(gone))
    assert engine.advance(game_id, now=gone) == "timed_out"
    record = engine.load(game_id)
    assert record["misses"] == [0, 1]
    assert record["reserve"][1] == 0.0
    # Seat 0 still owes its pick and its clock runs on: 40 s past its move deadline.
    assert reserve_left(record, gone)[0] == pytest.approx(20.0, abs=0.01)


def test_the_bot_takes_over_after_three_defaults_not_three_overtimes(engine: Engine,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    players = [engine.create_player(f"over{i}")[0] for i in range(2)]
    created = engine.create_game(players[0], "toy", 2, {}, {"seconds_per_move": 10, "reserve_seconds": 1000,
                                                           "autoplay_after": 3})
    for player in players:
        engine.join(player, created["id"])
    game_id = created["id"]
    for _ in range(3):  # seat 1 answers late three times, inside its reserve: no default, no miss
        record = engine.load(game_id)
        late = parse_time(record["move_deadlines"][1]) + timedelta(seconds=5)
        monkeypatch.setattr("engine.commit.utc_now", lambda late=late: iso(late))
        engine.act(players[0], game_id, {"type": "pick", "number": 1})
        engine.act(players[1], game_id, {"type": "pick", "number": 1})  # and the reveal, in its commit
    record = engine.load(game_id)
    assert record["misses"] == [0, 0] and record["autoplay"] == [False, False]
    assert record["reserve"][1] == pytest.approx(1000 - 15, abs=0.01)
