"""Resigning, platform-wide: in every registered game a resigned seat is played by the
takeover bot to the end, never wins, ranks last, and the log still passes the audit.

The platform decides this around each game's own outcome (``projections.record.platform_outcome``
and ``final_ranks``): no game module knows about resignations, so no protocol change is
needed and every game is covered by the same test.
"""

from __future__ import annotations

import random
import time
from dataclasses import replace

import pytest

from engine.core import Engine
from engine.settings import Settings
from games import registry
from games.base import Outcome
from projections.audit import audit
from projections.record import final_ranks, platform_outcome

REAL_GAMES = [name for name in registry.available() if name != "toy"]


def seats_for(name: str) -> int:
    rules = registry.load(name)
    return max(rules.MIN_SEATS, min(3, rules.MAX_SEATS))


@pytest.mark.parametrize("name", REAL_GAMES)
def test_a_resigned_seat_is_played_to_the_end_and_ranks_last(engine: Engine, name: str) -> None:
    seats = seats_for(name)
    rules = registry.load(name)
    players = [engine.create_player(f"p{i}")[0] for i in range(seats)]
    options = dict(getattr(rules, "PLAYOUT_OPTIONS", {}))
    game_id = engine.create_game(players[0], name, seats, options, {"seconds_per_move": 3600})["id"]
    engine.join(players[1], game_id)
    engine.leave(players[1], game_id)  # the audit replays a seat left and taken again too
    for player in players:
        engine.join(player, game_id)
    engine.resign(players[0], game_id)
    pick = random.Random(f"resign-{name}")
    for _ in range(20_000):
        record = engine.load(game_id)
        if record["status"] == "finished":
            break
        awaited = [seat for seat, kind in enumerate(record["awaiting"]) if kind is not None]
        humans = [seat for seat in awaited if seat != 0]
        if not humans:  # a system step, or the resigned seat's decision: the worker's
            assert engine.advance(game_id) != "nothing_due"
            continue
        seat = pick.choice(humans)
        legal = rules.legal_actions(record["state"], seat)
        engine.act(players[seat], game_id, pick.choice(legal))
    else:
        raise AssertionError(f"{name} did not end")
    record = engine.load(game_id)
    assert 0 not in record["winners"] and record["winners"]
    ranks = final_ranks(record)
    assert ranks[0] > max(ranks[1:])
    events = engine.store.read(game_id)
    bot_moves = [e for e in events if e.cause.get("kind") == "bot" and e.actor == 0]
    assert bot_moves, "the takeover bot played the resigned seat"
    assert audit(events).winners == record["winners"]


def test_a_seat_the_bot_carries_to_victory_hands_the_win_to_the_seats_still_in(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Should the game's own outcome name a resigned seat, the seats still in share the win."""
    record = {"game": "coup", "seats": 3, "state": {}, "resigned": [1],
              "players": [{"id": "a"}, {"id": "b"}, {"id": "c"}]}
    monkeypatch.setattr(registry.load("coup"), "outcome", lambda state: Outcome((1,), "last_standing"))
    outcome = platform_outcome(record)
    assert outcome is not None and outcome.winners == (0, 2) and outcome.reason == "last_standing"
    # The later a seat resigned, the better its place: seat 1 resigned after seat 2.
    assert final_ranks({**record, "winners": [0], "resigned": [2, 1]}) == [0, 2, 3]


def test_a_game_whose_people_all_resigned_ends_though_bots_are_still_in(engine: Engine) -> None:
    person = engine.create_player("person")[0]
    game_id = engine.create_game(person, "coup", 3, {}, {"seconds_per_move": 3600},
                                 bots={"1": "random", "2": "random"})["id"]
    engine.join(person, game_id)
    record = engine.load(game_id)
    assert record["status"] == "active" and record["rated"] is False  # a game with bots is unrated by default
    done = engine.resign(person, game_id)
    assert (done.record["status"], done.record["winners"], done.record["reason"]) == ("finished", [1, 2], "resigned")
    assert final_ranks(done.record) == [2, 0, 0]


def test_a_rematch_of_a_game_with_bots_seats_the_same_bots_and_invites_the_people(engine: Engine) -> None:
    person = engine.create_player("person")[0]
    game_id = engine.create_game(person, "coup", 3, {}, {"seconds_per_move": 3600},
                                 bots={"1": "random", "2": "ismcts"})["id"]
    engine.join(person, game_id)
    engine.resign(person, game_id)
    joined = engine.rematch(person, game_id)
    again = joined.record
    assert again["id"] != game_id and again["rematch_of"] == game_id and again["status"] == "active"
    assert again["bots"] == {"1": "random", "2": "ismcts"} and again["invite"] == [person.id]
    assert [p["id"] for p in again["players"]][0] == person.id and again["rated"] is False


def test_a_game_with_bots_moves_no_rating_even_when_created_rated(engine: Engine) -> None:
    from engine.ratings import result_of
    from projections.record import final_ranks

    person = engine.create_player("person")[0]
    game_id = engine.create_game(person, "coup", 3, {}, {"seconds_per_move": 3600},
                                 bots={"1": "random", "2": "random"}, rated=True)["id"]
    engine.join(person, game_id)
    record = engine.resign(person, game_id).record
    assert record["rated"] is True and result_of(record, final_ranks(record)) is None


def test_an_unlisted_game_nobody_joins_expires_like_a_listed_one(engine: Engine) -> None:
    short = Engine(engine.redis, engine.scheduler, settings=replace(Settings(), open_game_ttl=60))
    host = short.create_player("host")[0]
    game_id = short.create_game(host, "coup", 2, {}, {"seconds_per_move": 60}, unlisted=True)["id"]
    assert short.redis.zscore(short.keys.lobby(), game_id) is None
    assert short.expire_open_games(now=time.time() + 120) == [game_id]
    assert (short.load(game_id)["status"], short.load(game_id)["reason"]) == ("finished", "expired")
    assert short.redis.zscore(short.keys.unlisted(), game_id) is None
