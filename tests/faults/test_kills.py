"""SIGKILL the workers, the API processes and Redis while games are played; nothing acknowledged is lost.

Each test plays concurrent three-seat Coup games over HTTP with one-second clocks
(seats sometimes let their clock run out, so the workers' deadlines matter), while a
killer thread SIGKILLs a random process of the fleet and starts it again. Then, with
the fleet left alone, every game plays to its end. The checks, read from the streams:
every acknowledged action is in its stream at the versions its answer gave, no
Idempotency-Key is applied twice, every game ends and its log verifies; the figures
are printed (``-s`` shows them).
"""

from __future__ import annotations

import random
import threading
import time

import redis

from engine.core import Engine
from tests.support.faults import Fleet, Killer, Ledger, Player, Verdict, check, play_game

TIME_CONTROL = {"seconds_per_move": 1, "autoplay_after": 2, "autoplay_seconds": 1}


def run(fleet: Fleet, scale, targets, skip: float) -> Verdict:
    ledger = Ledger()
    tables = []
    for table in range(scale.games):
        rng = random.Random(table)
        players = [Player.register(fleet.bases, f"t{table}s{seat}", random.Random(table * 10 + seat))
                   for seat in range(3)]
        game_id = players[0].call("POST", "/v1/games", {"game": "coup", "seats": 3, "options": {},
                                                        "time_control": TIME_CONTROL}).json()["id"]
        for player in players:
            assert player.call("POST", f"/v1/games/{game_id}/join").status_code == 200
        tables.append((game_id, players, rng))
    until = time.monotonic() + scale.kill_seconds + scale.drain_seconds
    threads = [threading.Thread(target=play_game, args=(players, game_id, ledger, rng, skip, until), daemon=True)
               for game_id, players, rng in tables]
    killer = Killer(fleet, targets, scale.kill_period)
    killer.start()
    for thread in threads:
        thread.start()
    killer.join(timeout=scale.kill_seconds)
    killer.stopping.set()
    killer.join()
    assert killer.error is None, killer.error
    for thread in threads:
        thread.join(timeout=max(0.0, until - time.monotonic()) + 30)
    engine = Engine(redis.Redis.from_url(fleet.redis.url))
    verdict = check(engine.store.read, [game_id for game_id, _, _ in tables], ledger,
                    lambda game_id: engine.load(game_id)["status"] == "finished")
    print(f"\nkills {fleet.kills()}\n{verdict.figures()}")
    return verdict


def test_repeated_worker_kills_delay_no_deadline_by_more_than_a_few_seconds(fleet_factory, scale) -> None:
    fleet = fleet_factory(apis=1, workers=3)
    verdict = run(fleet, scale, fleet.targets(redis=False, apis=False), skip=0.3)
    assert sum(fleet.kills().values()) >= 5
    assert (verdict.lost, verdict.duplicated, verdict.misplaced) == (0, 0, 0)
    assert verdict.unfinished == [] and verdict.unverified == {}
    assert len(verdict.lateness) >= 10 and max(verdict.lateness) < 5.0, verdict.figures()


def test_killing_apis_workers_and_redis_loses_and_repeats_no_acknowledged_action(fleet_factory, scale) -> None:
    fleet = fleet_factory(apis=2, workers=2)
    verdict = run(fleet, scale, fleet.targets(), skip=0.15)
    kills = fleet.kills()
    assert kills["redis"] >= 1 and sum(kills.values()) - kills["redis"] >= 3, kills
    assert verdict.acknowledged > 0
    assert (verdict.lost, verdict.duplicated, verdict.misplaced) == (0, 0, 0), verdict.figures()
    assert verdict.unfinished == [] and verdict.unverified == {}, verdict.figures()
