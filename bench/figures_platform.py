"""Bench figures measured on the platform itself: replay cost, deadlines among many open
games, and action latency while idle watchers hold streams open.

Each function starts what it needs (an engine in this process, worker or API
processes on free ports) against the Redis it is given and returns plain numbers.
"""

from __future__ import annotations

import os
import random
import selectors
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import redis
import requests
from rq.worker import Worker

ROOT = Path(__file__).resolve().parents[1]

from bench.common import NO_LIMITS, intrigue_server, percentile  # noqa: E402
from engine.core import Engine  # noqa: E402
from engine.scheduling import JobScheduler, make_queue  # noqa: E402
from engine.settings import Settings  # noqa: E402
from games.registry import load  # noqa: E402
from projections.projector import Projector, fold_all  # noqa: E402
from projections.record import awaiting  # noqa: E402
from service.datadir import stop_children  # noqa: E402
from service.progress import Progress  # noqa: E402
from tests.support.faults import deadline_lateness  # noqa: E402

DAY = 86400


def replay_figures(redis_url: str, events: int = 5000) -> dict[str, float]:
    """Build one Coup game of ``events`` events (exchanges, passes), then time its replays."""
    client = redis.Redis.from_url(redis_url)
    engine = Engine(client, None)
    players = [engine.create_player(f"replay{i}")[0] for i in range(3)]
    game_id = engine.create_game(players[0], "coup", 3, {}, {"seconds_per_move": DAY})["id"]
    for player in players:
        engine.join(player, game_id)
    rules = load("coup")
    progress = Progress("replay game", events, "events")
    while (record := engine.load(game_id))["version"] < events and record["status"] == "active":
        waiting = awaiting(record)
        if not waiting:
            engine.advance(game_id)
            continue
        seat = min(waiting)
        legal = {a["type"]: a for a in rules.legal_actions(record["state"], seat)}
        engine.act(players[seat], game_id, legal.get("exchange") or legal.get("pass") or next(iter(legal.values())))
        progress.update(min(events, record["version"]), events)
    version = engine.store.version(game_id)
    started = time.perf_counter()
    stream = engine.store.read(game_id)
    read_s = time.perf_counter() - started
    started = time.perf_counter()
    fold_all(stream)
    fold_s = time.perf_counter() - started
    cold = Projector(engine.store, snapshot_every=50)
    started = time.perf_counter()
    cold.at_version(game_id, version // 2)
    middle_s = time.perf_counter() - started
    started = time.perf_counter()
    cold.load(game_id)
    load_s = time.perf_counter() - started
    return {"events": version, "read_ms": read_s * 1000, "fold_ms": fold_s * 1000,
            "replay_ms": (read_s + fold_s) * 1000, "at_middle_ms": middle_s * 1000, "cold_load_ms": load_s * 1000}


def lateness_among_open_games(redis_url: str, open_games: int = 10_000, probes: int = 100, probe_seconds: int = 2,
                              workers: int = 2, spacing: float = 0.05) -> dict[str, float]:
    """Deadline lateness of ``probes`` games on short clocks among ``open_games`` day-long ones.

    The day-long games are real games in play (two seats each, with their place in the
    deadline index), so the sweep carries their weight while the probes' deadlines fall
    due.
    """
    client = redis.Redis.from_url(redis_url)
    # Each of the 200 players holds many of these games: no ceiling on seats (issue 50).
    engine = Engine(client, JobScheduler(make_queue(client)), settings=Settings(active_games_per_player=0))
    pool = [engine.create_player(f"corr{i}")[0] for i in range(200)]
    rng = random.Random(3)
    progress = Progress("open correspondence games", open_games, "games")
    for _ in range(open_games):
        first, second = rng.sample(pool, 2)
        game_id = engine.create_game(first, "coup", 2, {}, {"seconds_per_move": DAY})["id"]
        engine.join(first, game_id)
        engine.join(second, game_id)
        progress.step()
    env = {**os.environ, "REDIS_URL": redis_url, "INTRIGUE_LOG_LEVEL": "WARNING", **NO_LIMITS}
    procs = [subprocess.Popen([sys.executable, "-m", "service.cli", "worker"], cwd=ROOT, env=env)
             for _ in range(workers)]
    try:
        ready_by = time.monotonic() + 60
        while Worker.count(queue=engine.scheduler.queue) < workers and time.monotonic() < ready_by:
            time.sleep(0.1)  # the workers' start-up is not what is measured
        time_control = {"seconds_per_move": probe_seconds, "autoplay_after": 100, "autoplay_seconds": probe_seconds}
        probe_ids = []
        for _ in range(probes):
            # Deadlines spread over a few seconds, as they fall in a real service, rather
            # than all in the same instant (which would measure a queue of simultaneous steps).
            time.sleep(spacing)
            first, second = rng.sample(pool, 2)
            game_id = engine.create_game(first, "coup", 2, {}, time_control)["id"]
            engine.join(first, game_id)
            engine.join(second, game_id)
            probe_ids.append(game_id)
        give_up = time.monotonic() + 4 * probe_seconds + 30
        late: list[float] = []
        while time.monotonic() < give_up:
            late = [x for game_id in probe_ids for x in deadline_lateness(engine.store.read(game_id))]
            if len(late) >= 2 * probes:
                break
            time.sleep(0.5)  # the bench waits for the workers' defaults to land
    finally:
        stop_children(procs, timeout=20)
    return {"open_games": open_games, "deadlines": len(late), "p50_ms": percentile(late, 0.5) * 1000,
            "p99_ms": percentile(late, 0.99) * 1000, "max_ms": max(late) * 1000 if late else float("nan")}


class IdleWatchers:
    """``count`` event streams held open on raw sockets by one selector thread."""

    def __init__(self, base: str, path: str, count: int) -> None:
        parts = urlsplit(base)
        self.address = (parts.hostname or "127.0.0.1", parts.port or 80)
        self.request = f"GET {path} HTTP/1.1\r\nHost: {self.address[0]}\r\n\r\n".encode()
        self.count = count
        self.selector = selectors.DefaultSelector()
        self.sockets: list[socket.socket] = []
        self.refused = 0
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._drain, daemon=True)

    def open(self) -> IdleWatchers:
        for _ in range(self.count):
            try:
                sock = socket.create_connection(self.address, timeout=1)
                sock.sendall(self.request)
            except OSError:
                self.refused += 1
                if self.refused >= 50:  # the server takes no more: measure with what it holds
                    break
                continue
            sock.setblocking(False)
            self.selector.register(sock, selectors.EVENT_READ)
            self.sockets.append(sock)
        self.thread.start()
        return self

    def _drain(self) -> None:
        while not self.stopping.is_set():
            for key, _ in self.selector.select(0.2):
                try:
                    if not key.fileobj.recv(65536):  # type: ignore[union-attr]
                        self.selector.unregister(key.fileobj)
                except (BlockingIOError, ConnectionError):
                    pass

    def close(self) -> None:
        self.stopping.set()
        self.thread.join()
        for sock in self.sockets:
            sock.close()


def _bot(base: str, seconds: float, latencies: list[float], failures: list[str], seed: int) -> None:
    """One table of three seats played by one thread, timing every POST, for ``seconds``."""
    try:
        _play_table(base, seconds, latencies, failures, seed)
    except (requests.RequestException, KeyError, ValueError) as err:  # a starved server: counted, not raised
        failures.append(type(err).__name__)


def _play_table(base: str, seconds: float, latencies: list[float], failures: list[str], seed: int) -> None:
    rng = random.Random(seed)
    http = requests.Session()
    tokens = [http.post(base + "/v1/players", json={"name": f"w{seed}-{i}"}, timeout=10).json()["token"]
              for i in range(3)]
    auth = [{"Authorization": f"Bearer {token}"} for token in tokens]
    game_id = http.post(base + "/v1/games", json={"game": "coup", "seats": 3}, headers=auth[0], timeout=10).json()["id"]
    for header in auth:
        http.post(f"{base}/v1/games/{game_id}/join", headers=header, timeout=10)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            game = http.get(f"{base}/v1/games/{game_id}", headers=auth[0], timeout=10).json()
            if game["status"] == "finished":
                return
            if not game["awaiting"]:
                http.get(f"{base}/v1/games/{game_id}/events", params={"after": game["version"], "wait": 2},
                         headers=auth[0], timeout=10)
                continue
            seat = rng.choice(game["awaiting"])
            mine = http.get(f"{base}/v1/games/{game_id}", headers=auth[seat], timeout=10).json()
            if not mine["legal_actions"]:
                continue
            started = time.perf_counter()
            http.post(f"{base}/v1/games/{game_id}/actions", json=rng.choice(mine["legal_actions"]),
                      headers={**auth[seat], "If-Match": str(mine["version"])}, timeout=10)
            latencies.append(time.perf_counter() - started)
        except requests.RequestException as err:
            failures.append(type(err).__name__)


def action_p99_with_watchers(redis_url: str, watchers: int, tables: int = 10, seconds: float = 10.0,
                             server: str = "waitress") -> dict[str, float]:
    """Action latency of ``tables`` bot tables while ``watchers`` idle SSE streams stay open."""
    with intrigue_server(redis_url, workers=1, server=server) as base:
        http = requests.Session()
        token = http.post(base + "/v1/players", json={"name": "watched"}, timeout=30).json()["token"]
        watched = http.post(base + "/v1/games", json={"game": "coup", "seats": 3},
                            headers={"Authorization": f"Bearer {token}"}, timeout=30).json()["id"]
        held = IdleWatchers(base, f"/v1/games/{watched}/events/stream", watchers).open()
        latencies: list[float] = []
        failures: list[str] = []
        try:
            bots = [threading.Thread(target=_bot, args=(base, seconds, latencies, failures, seed))
                    for seed in range(tables)]
            for bot in bots:
                bot.start()
            for bot in bots:
                bot.join(timeout=seconds + 120)
        finally:
            held.close()
    return {"watchers": watchers, "held": len(held.sockets), "actions": len(latencies),
            "p50_ms": percentile(latencies, 0.5) * 1000, "p99_ms": percentile(latencies, 0.99) * 1000,
            "failed_requests": len(failures)}
