"""Games played through the real workers leave logs their own audit accepts.

Random legal games of every title: the seats act through the engine (as the API does),
two ``intrigue worker`` processes take every system step from the records the commits
hand over, and the finished game's log must pass the audit behind ``intrigue verify``.
A worker that decided from a state the log does not fold to (issue 27: a five-seat
Ideology game failed at a consolidation) writes a step the replay disowns.

The default profile plays a handful of short games (a few tens of seconds);
``HYPOTHESIS_PROFILE=long`` plays hundreds.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import Engine
from engine.scheduling import JobScheduler, make_queue
from games import registry
from projections.audit import audit
from service.datadir import die_with_parent
from service.embedded import EmbeddedRedis
from tests.conftest import LONG
from tests.games.test_conformance import playout

ROOT = Path(__file__).resolve().parents[2]
TITLES = registry.available()
#: Longest wait for a worker's step before the test gives up on it.
STEP_SECONDS = 30.0


@pytest.fixture(scope="module")
def worked(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    """An engine on a Redis of its own, with two worker processes taking its games' steps."""
    server = EmbeddedRedis(tmp_path_factory.mktemp("worker-audit-redis"), persist=False).start()
    logs = tmp_path_factory.mktemp("worker-audit-logs")
    env = {**os.environ, "REDIS_URL": server.url, "INTRIGUE_LOG_LEVEL": "WARNING"}
    workers = []
    for index in range(2):
        with open(logs / f"worker{index}.log", "wb") as out:
            workers.append(subprocess.Popen([sys.executable, "-m", "service.cli", "worker", "--queues", "games"],
                                            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                                            preexec_fn=die_with_parent()))
    client = redis.Redis.from_url(server.url)
    try:
        yield Engine(client, JobScheduler(make_queue(client)))
    finally:
        for process in workers:
            process.terminate()
        for process in workers:
            process.wait(timeout=20)
        server.stop()


def play_through_workers(engine: Engine, title: str, seats: int, rng: random.Random) -> str:
    """Create, fill and play one game to its end with random legal actions; its id."""
    rules = registry.load(title)
    players = [engine.create_player(f"{title}-{seat}")[0] for seat in range(seats)]
    game_id = engine.create_game(players[0], title, seats, playout(title, {}), {"seconds_per_move": 86400})["id"]
    feed = engine.redis.pubsub(ignore_subscribe_messages=True)
    feed.subscribe(engine.keys.feed(game_id))
    try:
        for player in players:
            engine.join(player, game_id)
        for _ in range(20_000):
            record = engine.load(game_id)
            if record["status"] == "finished":
                return game_id
            waiting = [seat for seat, kind in enumerate(record["awaiting"]) if kind is not None]
            if not waiting:
                wait_for_a_step(engine, feed, game_id, record["version"])
                continue
            seat = rng.choice(waiting)
            engine.act(players[seat], game_id, rng.choice(rules.legal_actions(record["state"], seat)))
    finally:
        feed.close()
    raise AssertionError(f"{title} game {game_id} did not end")


def wait_for_a_step(engine: Engine, feed: redis.client.PubSub, game_id: str, version: int) -> None:
    """Block on the game's feed until a worker appends past ``version`` (bounded)."""
    give_up = time.monotonic() + STEP_SECONDS
    while engine.store.version(game_id) <= version:
        if time.monotonic() > give_up:
            raise AssertionError(f"no worker took the step of game {game_id} after version {version}")
        feed.get_message(timeout=0.5)


@settings(max_examples=400 if LONG else 16, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(title=st.sampled_from(TITLES), seats=st.integers(2, 6), seed=st.integers(0, 2**32 - 1))
def test_every_game_played_through_the_workers_passes_the_audit(worked: Engine, title: str, seats: int,
                                                                seed: int) -> None:
    rules = registry.load(title)
    seats = min(max(seats, rules.MIN_SEATS), rules.MAX_SEATS)
    game_id = play_through_workers(worked, title, seats, random.Random(seed))
    events = worked.store.read(game_id)
    report = audit(events)
    assert report.finished and report.winners == worked.load(game_id)["winners"]
