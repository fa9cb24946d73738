"""Ratings are a projection of the log: whatever order games end in, live numbers equal a rebuild's.

Games are played with the engine directly against a real redis-server; their results are
also handed to the ratings in a scrambled order (as two processes finishing games in the
same moment might), and ``rebuild_indexes`` (what ``intrigue reindex`` runs) must give the
very same numbers, float for float.
"""

from __future__ import annotations

import json
import random
import threading

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


def scrambled_results(engine: Engine, seed: int, games: int = 10) -> tuple[list[str], list[Result]]:
    """Rated games among five players (their ids), and their results in the order they ended."""
    pick = random.Random(seed)
    players = [engine.create_player(f"s{seed}-{i}")[0] for i in range(5)]
    results = []
    for _ in range(games):
        table = pick.sample(players, pick.choice([2, 3]))
        game_id = resign_game(engine, table, pick.sample(range(len(table)), len(table) - 1))
        result = result_of(engine.load(game_id), final_ranks(engine.load(game_id)))
        assert isinstance(result, Result)
        results.append(result)
    return [p.id for p in players], results


def test_a_late_result_refolds_only_the_games_after_it(engine: Engine, monkeypatch) -> None:
    ids, results = scrambled_results(engine, 11)
    live = players_and_ratings(engine, ids)
    engine.ratings.rebuild(results[:-3])
    folded: list[str] = []
    real_apply = engine.ratings._apply

    def counting_apply(result: Result, current: dict) -> dict:
        folded.append(result.game_id)
        return real_apply(result, current)

    def no_whole_refold(title: str) -> None:
        raise AssertionError(f"{title} refolded whole")

    monkeypatch.setattr(engine.ratings, "_apply", counting_apply)
    monkeypatch.setattr(engine.ratings, "_refold", no_whole_refold)
    for late in (results[-1], results[-3], results[-2]):  # the last two arrive late
        folded.clear()
        engine.ratings.record(late)
        since = [r.game_id for r in results[-3:] if r.ended_at >= late.ended_at and r.game_id in folded]
        assert folded == since  # the late one and those folded after it, no more
    assert players_and_ratings(engine, ids) == live


def test_a_title_folded_before_the_histories_were_kept_refolds_whole_once_then_keeps_them(engine: Engine) -> None:
    ids, results = scrambled_results(engine, 12)
    live = players_and_ratings(engine, ids)
    engine.ratings.rebuild(results[:-2])
    # As an older release left it: no ratings after each game, no histories, no mark.
    ratings = engine.ratings
    for key in engine.redis.scan_iter(match=f"{ratings.prefix}:coup:*"):
        if ":history:" in key.decode() or key.decode().endswith((":after", ":complete")):
            engine.redis.delete(key)
    ratings.record(results[-1])  # in order: applied on its own
    ratings.record(results[-2])  # late, on an incomplete title: refolded whole, and now complete
    assert engine.redis.exists(f"{ratings.prefix}:coup:complete")
    assert players_and_ratings(engine, ids) == live
    ratings.rebuild(results)
    assert players_and_ratings(engine, ids) == live


def test_a_result_that_finds_the_title_locked_waits_for_the_lock_then_folds(engine: Engine, monkeypatch) -> None:
    """The one-script path takes the title's lock as redis-py's does; held by another (a
    refold, say), the result goes the locked way and is folded once the lock is let go."""
    ids, results = scrambled_results(engine, 13, games=4)
    live = players_and_ratings(engine, ids)
    engine.ratings.rebuild(results[:-1])
    ratings = engine.ratings
    held = ratings._lock("coup")
    assert held.acquire(blocking=False)
    waiting = threading.Event()
    real = ratings._record_locked

    def spied(result: Result) -> None:
        waiting.set()
        real(result)

    monkeypatch.setattr(ratings, "_record_locked", spied)
    late = threading.Thread(target=ratings.record, args=(results[-1],))
    late.start()
    assert waiting.wait(10.0), "a locked title sends the result the locked way"
    assert engine.redis.hget(ratings._results("coup"), results[-1].game_id) is None  # not while held
    held.release()
    late.join(10.0)
    assert not late.is_alive()
    assert players_and_ratings(engine, ids) == live
    assert not engine.redis.exists(ratings._lock_key("coup"))


def test_the_one_script_path_lets_the_lock_go_whatever_the_result(engine: Engine) -> None:
    """Applied on its own, folded before, or late: no path leaves the title locked."""
    ids, results = scrambled_results(engine, 14, games=4)
    ratings = engine.ratings
    lock = ratings._lock_key("coup")
    assert not engine.redis.exists(lock)  # the worker's steps recorded them in order
    ratings.record(results[-1])  # known already
    assert not engine.redis.exists(lock)
    ratings.rebuild(results[:1] + results[2:])
    ratings.record(results[1])  # late: refolded from its place
    assert not engine.redis.exists(lock)
