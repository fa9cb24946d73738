"""Ratings are a projection of the log: whatever order games end in, live numbers equal a rebuild's.

Games are played with the engine directly against a real redis-server; their results are
also handed to the ratings in a scrambled order (as two processes finishing games in the
same moment might), and ``rebuild_indexes`` (what ``intrigue reindex`` runs) must give the
very same numbers, float for float.
"""

from __future__ import annotations

import json
import random

from engine.core import Engine
from engine.ratings import Result, result_of
from projections.record import final_ranks


def players_and_ratings(engine: Engine, ids: list[str]) -> dict[str, dict]:
    return {pid: engine.player_profile(pid)["ratings"] for pid in ids}


def resign_game(engine: Engine, players: list, loser_order: list[int], rated: bool = True) -> str:
    game_id = engine.create_game(players[0], "coup", len(players), {}, {"seconds_per_move": 3600}, rated=rated)["id"]
    for player in players:
        engine.join(player, game_id)
    for seat in loser_order:
        engine.resign(players[seat], game_id)
    record = engine.load(game_id)
    assert record["status"] == "finished"
    engine.advance(game_id)  # the worker's step after the end: folds the ratings, archives
    return game_id


def test_resigned_seats_rank_last_and_the_winner_gains(engine: Engine) -> None:
    players = [engine.create_player(f"p{i}")[0] for i in range(3)]
    resign_game(engine, players, [2, 1])  # seat 2 first, then seat 1: seat 0 wins
    ratings = players_and_ratings(engine, [p.id for p in players])
    coup = [ratings[p.id]["coup"] for p in players]
    assert coup[0]["mu"] > coup[1]["mu"] > coup[2]["mu"] and coup[0]["mu"] > 25 > coup[2]["mu"]
    assert [r["games"] for r in coup] == [1, 1, 1]
    unrated = resign_game(engine, players, [0, 1], rated=False)
    assert players_and_ratings(engine, [p.id for p in players]) == ratings  # an unrated game moves nothing
    assert engine.load(unrated)["rated"] is False


def test_ratings_equal_a_rebuild_from_the_logs_whatever_the_order_results_arrive(engine: Engine) -> None:
    pick = random.Random(7)
    players = [engine.create_player(f"q{i}")[0] for i in range(5)]
    games = []
    for _ in range(8):
        table = pick.sample(players, pick.choice([2, 3]))
        order = pick.sample(range(len(table)), len(table) - 1)
        games.append(resign_game(engine, table, order))
    ids = [p.id for p in players]
    live = players_and_ratings(engine, ids)
    assert any(ratings for ratings in live.values())
    # The same results handed over late and out of order (refolds): still the same numbers.
    results = [result_of(engine.load(g), final_ranks(engine.load(g))) for g in games]
    engine.ratings.rebuild([])
    for result in pick.sample(results, len(results)):
        assert isinstance(result, Result)
        engine.ratings.record(result)
    assert players_and_ratings(engine, ids) == live
    engine.ratings.record(results[0])  # a result folded twice changes nothing
    assert players_and_ratings(engine, ids) == live
    engine.rebuild_indexes()  # intrigue reindex
    rebuilt = players_and_ratings(engine, ids)
    assert json.dumps(rebuilt, sort_keys=True) == json.dumps(live, sort_keys=True)


def test_the_leaderboard_lists_players_with_enough_games_best_first(engine: Engine) -> None:
    engine.ratings.min_games = 2
    players = [engine.create_player(f"l{i}")[0] for i in range(3)]
    resign_game(engine, players[:2], [1])
    assert engine.leaderboard("coup", 0, 10) == ([], None)  # one game each: not yet listed
    resign_game(engine, players[:2], [1])
    resign_game(engine, [players[2], players[0]], [0])
    entries, next_offset = engine.leaderboard("coup", 0, 1)
    assert [e["player"] for e in entries] == [players[0].id] and next_offset == 1
    assert entries[0]["rank"] == 1 and entries[0]["games"] == 3 and entries[0]["name"] == "l0"
    second, last = engine.leaderboard("coup", 1, 5)
    assert [e["player"] for e in second] == [players[1].id] and last is None  # l2 has one game
