"""The bots' due set: one request per (game, seat), stale ones dropped before any search,
oldest first, and the budget shared by the decisions waiting together."""

from __future__ import annotations

from typing import Any

import pytest

from bots.ismcts import Budget
from engine.bot_queue import MIN_SHARE, drain_bot_queue, shared_budget
from engine.core import Engine, Player
from engine.scheduling import BOTS_QUEUE, make_queue
from engine.seat_bots import observation_for
from engine.settings import Settings
from projections.views import game_view


@pytest.fixture()
def engine(engine: Engine) -> Engine:
    return Engine(engine.redis, engine.scheduler, snapshot_every=5,
                  settings=Settings(bot_iterations=30, bot_milliseconds=200))


class _Counted:
    """A bot that plays the first legal action and notes each decision it was asked: (game, seat, budget)."""

    def __init__(self, searched: list[tuple[str, int, Budget]], asked: dict[str, Any], budget: Budget) -> None:
        self.searched, self.asked, self.budget = searched, asked, budget

    def choose(self, observation: Any, rng: Any) -> Any:
        self.searched.append((self.asked["game"], observation.seat, self.budget))
        return observation.legal_actions[0]


@pytest.fixture()
def searched(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int, Budget]]:
    """Every search a bot seat makes, as (game, seat, its budget), in order."""
    found: list[tuple[str, int, Budget]] = []
    asked: dict[str, Any] = {}

    def observed(record: Any, events: Any, seat: int) -> Any:
        asked["game"] = record["id"]
        return observation_for(record, events, seat)

    monkeypatch.setattr("engine.bot_turns.observation_for", observed)
    monkeypatch.setattr("engine.bot_turns.make_bot", lambda name, budget: _Counted(found, asked, budget))
    return found


def _bid_round(engine: Engine, name: str) -> tuple[str, Player]:
    """A Revolution! game of a person (seat 0) and two bot seats, every seat owing its bid."""
    person = engine.create_player(name)[0]
    record = engine.create_game(person, "revolution", 3, {}, {"seconds_per_move": 3600},
                                {"1": "random", "2": "random"})
    engine.join(person, record["id"])
    return record["id"], person


def test_asking_again_keeps_one_request_per_seat_and_one_drain_job(engine: Engine) -> None:
    game_id, _ = _bid_round(engine, "asker")
    turns = engine.scheduler.bot_queue
    assert turns.waiting() == [(game_id, 1), (game_id, 2)]
    for version in range(1000):  # what a loop of a thousand commits used to queue, a job each
        engine.scheduler.enqueue_bot(game_id, version, 1)
    assert turns.waiting() == [(game_id, 1), (game_id, 2)]
    assert make_queue(engine.redis, BOTS_QUEUE).count == 1


def test_a_stale_request_is_dropped_before_any_search(engine: Engine, searched: list[Any]) -> None:
    game_id, person = _bid_round(engine, "stale")
    engine.act(person, game_id, game_view(engine.load(game_id), 0)["legal_actions"][0])
    # Seat 1's bid is made by other means while its request waits (a request that raced it, say).
    assert engine.play_bot_seat(game_id, None, 1) == "played"
    searched.clear()
    turns = engine.scheduler.bot_queue
    assert turns.waiting()[:2] == [(game_id, 1), (game_id, 2)]
    outcomes = drain_bot_queue(turns, engine)
    assert outcomes["nothing_to_do"] >= 1, outcomes
    assert searched and searched[0][:2] == (game_id, 2), "seat 1's stale request cost no search"


def test_a_game_that_loops_delays_another_games_bot_by_one_search_at_most(engine: Engine,
                                                                         searched: list[Any]) -> None:
    looping, person = _bid_round(engine, "looper")
    engine.act(person, looping, game_view(engine.load(looping), 0)["legal_actions"][0])
    other, _ = _bid_round(engine, "bystander")
    for _ in range(19):  # the looping seat replaces its sealed bid: each a commit that asks again
        bids = game_view(engine.load(looping), 0)["legal_actions"]
        engine.act(person, looping, bids[-1])
    turns = engine.scheduler.bot_queue
    assert turns.waiting() == [(looping, 1), (looping, 2), (other, 1), (other, 2)]
    drain_bot_queue(turns, engine)
    order = [entry[:2] for entry in searched]
    assert order[:4] == [(looping, 1), (looping, 2), (other, 1), (other, 2)], "each seat once, in the order asked"
    assert engine.load(other)["awaiting"][1:] == [None, None]


def test_decisions_waiting_together_share_one_budget() -> None:
    whole = Budget(iterations=5000, milliseconds=400.0)
    assert shared_budget(whole, asked_at=100.0, behind=0, now=100.0) == whole
    quarter = shared_budget(whole, asked_at=100.0, behind=3, now=100.0)
    assert quarter.milliseconds == pytest.approx(100.0) and quarter.iterations == 1250
    # Half the window spent waiting: what is left is split with the one behind.
    assert shared_budget(whole, asked_at=100.0, behind=1, now=100.2).milliseconds == pytest.approx(100.0)
    late = shared_budget(whole, asked_at=100.0, behind=50, now=105.0)
    assert late.milliseconds == pytest.approx(400.0 * MIN_SHARE) and late.iterations == 500
    assert shared_budget(Budget(iterations=100, milliseconds=None), 0.0, 9, 5.0).iterations == 100


def test_the_drain_shares_the_budget_between_the_decisions_waiting(engine: Engine, searched: list[Any]) -> None:
    games = [_bid_round(engine, f"table-{index}")[0] for index in range(3)]
    drain_bot_queue(engine.scheduler.bot_queue, engine)
    budgets = [budget.milliseconds for _, _, budget in searched[:6]]
    assert {entry[:2] for entry in searched[:6]} == {(game, seat) for game in games for seat in (1, 2)}
    assert budgets[0] <= 200.0 / 6 + 1, "the first of six waiting together gets about a sixth"
    assert budgets[-1] > budgets[0], "the last, alone, gets what is left of its window"
