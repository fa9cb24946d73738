"""Bot seats in the engine: the request asked for each awaited bot seat, what the bot is shown, stale requests."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import orjson
import pytest

from bots import Observation
from engine.core import BOT_STALL_SECONDS, Engine, Player
from engine.scheduling import BOTS_QUEUE, make_queue
from engine.seat_bots import observation_for
from engine.settings import Settings
from projections.views import game_view
from service.seat_client import SeatHistory, observation_from_feed


@pytest.fixture()
def engine(engine: Engine) -> Engine:
    """The platform's engine with a small ISMCTS budget: a bot seat decides in a blink."""
    return Engine(engine.redis, engine.scheduler, snapshot_every=5,
                  settings=Settings(bot_iterations=30, bot_milliseconds=200))


def _canonical(observation: Observation) -> bytes:
    return orjson.dumps({"game": observation.game, "seat": observation.seat, "view": observation.view,
                         "legal": list(observation.legal_actions),
                         "history": [(e.type, e.data, e.actor) for e in observation.history]},
                        option=orjson.OPT_SORT_KEYS)


def _feed_observation(engine: Engine, game_id: str, seat: int) -> Observation:
    """What a client of ``seat`` would build: its game view and its whole feed, read as the API reads them."""
    history = SeatHistory()
    after, cursor = 0, None
    while True:
        items, after, cursor, full, _ = engine.feed_page(game_id, seat, after, cursor, 1, 500)
        for item in items:
            history.add(item)
        if not full:
            break
    return observation_from_feed(game_view(engine.load(game_id), seat), history)


def _bot_game(engine: Engine, game: str = "coup") -> tuple[str, Player]:
    person = engine.create_player("person")[0]
    record = engine.create_game(person, game, 3, {}, {"seconds_per_move": 3600}, {"1": "random", "2": "ismcts"})
    assert record["status"] == "open" and record["players"][0] is None
    engine.join(person, record["id"])
    return record["id"], person


def test_every_commit_that_leaves_a_bot_seat_awaited_asks_the_bots_queue_and_stale_jobs_do_nothing(
        engine: Engine) -> None:
    game_id, person = _bot_game(engine)
    turns = engine.scheduler.bot_queue
    rng = random.Random(5)
    played = stale = 0
    for _ in range(400):
        record = engine.load(game_id)
        if record["status"] == "finished":
            break
        version = record["version"]
        awaited = [seat for seat, kind in enumerate(record["awaiting"]) if kind is not None]
        if not awaited:
            assert engine.advance(game_id) == "resolved"
            continue
        asked = set(turns.waiting())
        turns.redis.delete(turns.due)  # what the next commit asks for is seen afresh
        for seat in (1, 2):
            assert ((game_id, seat) in asked) == (seat in awaited), (version, seat, awaited)
        if 0 in awaited and rng.random() < 0.5 or awaited == [0]:
            legal = game_view(record, 0)["legal_actions"]
            engine.act(person, game_id, rng.choice(legal))
            continue
        seat = next(s for s in awaited if s != 0)
        assert engine.play_bot_seat(game_id, version, seat) == "played"
        played += 1
        # The same job again, or the other bot seat's job for that version: the game moved on.
        for again in (1, 2):
            before = engine.version(game_id)
            assert engine.play_bot_seat(game_id, version, again) == "stale"
            assert engine.version(game_id) == before
            stale += 1
    assert engine.load(game_id)["status"] == "finished" and played > 5 and stale > 10
    # A job for a seat that is not a bot's, or for a finished game, does nothing either.
    assert engine.play_bot_seat(game_id, engine.version(game_id), 0) == "stale"


def test_a_game_step_never_plays_a_bot_seat_its_decision_waits_for_the_bots_queue(engine: Engine) -> None:
    """The games queue's step (``advance``, the drain) leaves a bot seat's decision to the bot workers,
    so a search never holds up a step or a deadline of any game."""
    game_id, person = _bot_game(engine)
    for _ in range(200):
        record = engine.load(game_id)
        awaited = [seat for seat, kind in enumerate(record["awaiting"]) if kind is not None]
        if awaited and 0 not in awaited:
            break
        if not awaited:
            engine.advance(game_id)
        else:
            engine.act(person, game_id, game_view(record, 0)["legal_actions"][0])
    else:
        raise AssertionError("no bot seat was ever awaited alone")
    assert engine.advance(game_id) == "nothing_due"
    engine.drain_due()
    assert engine.version(game_id) == record["version"]
    asked = engine.scheduler.bot_queue.waiting()
    assert all((game_id, seat) in asked for seat in awaited)


def test_a_person_seat_is_never_played_by_a_bot_job(engine: Engine) -> None:
    game_id, _ = _bot_game(engine)
    record = engine.load(game_id)
    assert engine.play_bot_seat(game_id, record["version"], 0) in ("not_a_bot", "nothing_to_do")
    assert engine.version(game_id) == record["version"]


def test_the_bot_is_shown_exactly_its_seats_view_and_feed(engine: Engine) -> None:
    """The worker's observation, built from the stored events, equals a client's from the seat's feed."""
    compared = 0
    for game in ("coup", "revolution", "ideology", "pax"):
        game_id, person = _bot_game(engine, game)
        rng = random.Random(game)
        for step in range(40):
            record = engine.load(game_id)
            if record["status"] == "finished":
                break
            awaited = [seat for seat, kind in enumerate(record["awaiting"]) if kind is not None]
            if not awaited:
                engine.advance(game_id)
                continue
            seat = rng.choice(awaited)
            if seat != 0 and step % 3 == 0:
                from_store = observation_for(record, engine.store.read(game_id), seat)
                assert _canonical(from_store) == _canonical(_feed_observation(engine, game_id, seat)), (game, step)
                compared += 1
            if seat == 0:
                engine.act(person, game_id, rng.choice(game_view(record, 0)["legal_actions"]))
            else:
                engine.play_bot_seat(game_id, record["version"], seat)
    assert compared >= 8


class _RivalMovesDuringTheSearch:
    """A strategy whose search is overtaken: ``meanwhile`` commits another seat's action, then it picks."""

    name = "random"

    def __init__(self, meanwhile: Callable[[], None]) -> None:
        self.meanwhile = meanwhile

    def choose(self, observation: Observation, rng: random.Random) -> dict[str, Any]:
        self.meanwhile()
        return dict(observation.legal_actions[0])


def _revolution_bid_round(engine: Engine) -> tuple[str, Player, dict[str, Any]]:
    game_id, person = _bot_game(engine, "revolution")
    record = engine.load(game_id)
    assert all(kind is not None for kind in record["awaiting"]), "a bid round awaits every seat"
    bids = [a for a in game_view(record, 0)["legal_actions"] if a["type"] == "bid"]
    engine.act(person, game_id, bids[0])
    return game_id, person, bids[1]


def test_a_decision_overtaken_by_a_move_it_cannot_see_still_lands(engine: Engine,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A rival replacing its sealed bid changes nothing the bot seat sees: its bid stands."""
    game_id, person, other_bid = _revolution_bid_round(engine)
    version = engine.version(game_id)
    strategy = _RivalMovesDuringTheSearch(lambda: engine.act(person, game_id, other_bid))
    monkeypatch.setattr("engine.bot_turns.make_bot", lambda name, budget: strategy)
    assert engine.play_bot_seat(game_id, version, 1) == "played"
    events = engine.store.read(game_id, after=version)
    assert [(e.actor, e.cause["kind"]) for e in events[:2]] == [(0, "player"), (1, "bot")]


def test_a_decision_overtaken_by_a_move_it_can_see_is_dropped(engine: Engine,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The other bot seat bidding meanwhile changes what seat 1 sees: its stale decision is not posted."""
    game_id, _, _ = _revolution_bid_round(engine)
    version = engine.version(game_id)
    inner = _RivalMovesDuringTheSearch(lambda: None)  # seat 2's bot (ismcts here) just bids
    strategy = _RivalMovesDuringTheSearch(lambda: engine.play_bot_seat(game_id, version, 2))
    monkeypatch.setattr("engine.bot_turns.make_bot", lambda name, budget: strategy if name == "random" else inner)
    assert engine.play_bot_seat(game_id, version, 1) == "stale"
    assert [(e.actor, e.cause["kind"]) for e in engine.store.read(game_id, after=version)] == [(2, "bot")]


def test_the_sweep_asks_again_for_a_bot_seat_whose_job_was_lost(engine: Engine) -> None:
    game_id, person = _bot_game(engine)
    for _ in range(50):
        record = engine.load(game_id)
        awaited_bots = [seat for seat in (1, 2) if record["awaiting"][seat] is not None]
        if awaited_bots:
            break
        if any(record["awaiting"]):
            engine.act(person, game_id, game_view(record, 0)["legal_actions"][0])
        else:
            engine.advance(game_id)
    turns = engine.scheduler.bot_queue
    turns.redis.delete(turns.due, turns.mark)  # the requests were lost
    make_queue(engine.redis, BOTS_QUEUE).empty()
    wanted = {(game_id, seat) for seat in awaited_bots}
    assert wanted
    engine.reconcile(now=time.time() + 30)  # not long enough: a search may still be running
    assert not wanted & set(turns.waiting())
    engine.reconcile(now=time.time() + BOT_STALL_SECONDS + 5)
    assert wanted <= set(turns.waiting())
    assert make_queue(engine.redis, BOTS_QUEUE).count == 1, "one drain job serves them"
    assert engine.play_bot_seat(game_id, record["version"], awaited_bots[0]) == "played"
