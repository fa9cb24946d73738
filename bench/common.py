"""Shared pieces of the bench scripts: servers to measure, timers and figures."""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from service.datadir import stop_children  # noqa: E402
from service.embedded import EmbeddedRedis, free_port  # noqa: E402
from service.gunicorn_conf import default_api_processes, usable_cpus  # noqa: E402
from service.progress import Progress  # noqa: E402

#: The API processes the image starts on this machine when WEB_CONCURRENCY is unset.
PRODUCTION_API_PROCESSES = default_api_processes(usable_cpus())

#: Every limit of the README's configuration table turned off.
NO_LIMITS = {name: "0" for name in ("INTRIGUE_RATE_LIMIT", "INTRIGUE_ANONYMOUS_RATE_LIMIT",
                                    "INTRIGUE_REGISTRATIONS_PER_HOUR", "INTRIGUE_GAMES_PER_HOUR",
                                    "INTRIGUE_OPEN_GAMES_PER_PLAYER", "INTRIGUE_ADDRESS_RATE_LIMIT",
                                    "INTRIGUE_STREAMS_PER_PLAYER", "INTRIGUE_STREAMS_PER_ADDRESS",
                                    "INTRIGUE_CONNECTIONS_PER_ADDRESS", "INTRIGUE_ACTIVE_GAMES_PER_PLAYER")}


def wait_for(url: str, timeout: float = 30, process: Any = None) -> None:
    """Until ``url`` answers; a ``process`` (a ``Popen``) that exits first ends the wait at once."""
    give_up = time.monotonic() + timeout
    while time.monotonic() < give_up:
        try:
            requests.get(url, timeout=1)
            return
        except (requests.ConnectionError, requests.Timeout):
            if process is not None and process.poll() is not None:
                exited = f"its server exited with status {process.returncode}"
                raise RuntimeError(f"{url} did not answer: {exited}") from None
            time.sleep(0.05)
    raise RuntimeError(f"{url} did not answer")


def play_coup_in_process(client: Any, engine: Any, actions: int, post: Callable[[str, dict, dict], Any],
                         seed: int = 7) -> list[str]:
    """Random legal 3-seat Coup games through a Flask test client, until ``actions`` were posted.

    ``post(path, action, headers)`` posts each action (and measures what its caller wants)
    and returns the response; a worker's steps are run in process, as a worker would.
    Returns the ids of the games played.
    """
    rng = random.Random(seed)
    tokens = [client.post("/v1/players", json={"name": f"p{index}"}).get_json()["token"] for index in range(3)]
    auth = [{"Authorization": f"Bearer {token}"} for token in tokens]
    games: list[str] = []
    done = 0
    progress = Progress("actions", actions)
    while done < actions:
        body = {"game": "coup", "seats": 3, "time_control": {"seconds_per_move": 3600}}
        game_id = client.post("/v1/games", json=body, headers=auth[0]).get_json()["id"]
        games.append(game_id)
        for headers in auth:
            client.post(f"/v1/games/{game_id}/join", headers=headers)
        while done < actions:
            view = client.get(f"/v1/games/{game_id}", headers=auth[0]).get_json()
            if view["status"] == "finished":
                break
            if not view["awaiting"]:
                engine.advance(game_id)  # what a worker would do
                continue
            seat = rng.choice(view["awaiting"])
            legal = client.get(f"/v1/games/{game_id}", headers=auth[seat]).get_json()["legal_actions"]
            response = post(f"/v1/games/{game_id}/actions", rng.choice(legal), auth[seat])
            assert response.status_code == 200, response.get_data(as_text=True)
            done += 1
            progress.step()
    print()
    return games


@contextmanager
def redis_for_bench(url: str | None):
    """The Redis to measure against: ``url`` if given, else a fresh embedded one."""
    if url:
        yield url
        return
    with tempfile.TemporaryDirectory() as data, EmbeddedRedis(data, persist=False) as server:
        yield server.url


def _gunicorn(app: str, port: int, processes: int | None, worker_class: str = "gevent") -> list[str]:
    """gunicorn as the image runs it (service/gunicorn_conf.py), on ``port`` with ``processes`` workers
    (None: as many as the image starts on this machine)."""
    processes = processes or PRODUCTION_API_PROCESSES
    return [sys.executable, "-m", "gunicorn", "-c", "python:service.gunicorn_conf", "-k", worker_class,
            "-w", str(processes), "-b", f"127.0.0.1:{port}", "--log-level", "warning", app]


@contextmanager
def _running(commands: list[list[str]], env: dict[str, str], probe: str):
    processes = [subprocess.Popen(command, cwd=ROOT, env=env) for command in commands]
    try:
        wait_for(probe)
        yield
    finally:
        stop_children(processes, timeout=20)


@contextmanager
def intrigue_server(redis_url: str, workers: int = 2, server: str = "serve", processes: int | None = None):
    """Intrigue on a free port, with ``workers`` worker processes.

    ``server="serve"`` runs ``intrigue serve`` (one API process, the README's way);
    ``server="gunicorn"`` runs the production shape of docker-compose.yml: gunicorn with
    ``processes`` API processes plus ``intrigue worker`` processes. The per-player rate
    limits are off, since bots are measured, not policed.
    """
    port = free_port()
    env = {**os.environ, "REDIS_URL": redis_url, "INTRIGUE_LOG_LEVEL": "WARNING", **NO_LIMITS}
    if server == "gunicorn":
        commands = [_gunicorn("service.wsgi:app", port, processes)]
        commands += [[sys.executable, "-m", "service.cli", "worker"] for _ in range(workers)]
    else:
        commands = [[sys.executable, "-m", "service.cli", "serve", "--port", str(port), "--workers", str(workers)]]
    with _running(commands, env, f"http://127.0.0.1:{port}/v1/openapi.json"):
        yield f"http://127.0.0.1:{port}"


@contextmanager
def baseline_server(redis_url: str, processes: int | None = None):
    """The bare Flask + XADD endpoint, under gunicorn's gevent workers like Intrigue."""
    port = free_port()
    env = {**os.environ, "REDIS_URL": redis_url, "PYTHONPATH": f"{ROOT / 'bench'}:{ROOT}"}
    with _running([_gunicorn("baseline_app:app", port, processes)], env, f"http://127.0.0.1:{port}/xadd"):
        yield f"http://127.0.0.1:{port}"


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def figures(label: str, latencies: list[float], elapsed: float) -> str:
    rate = len(latencies) / elapsed if elapsed else 0.0
    return (f"{label:<28} {len(latencies):>7} req  {rate:>8.1f}/s  p50 {percentile(latencies, 0.5) * 1000:7.2f} ms  "
            f"p99 {percentile(latencies, 0.99) * 1000:7.2f} ms  mean {statistics.fmean(latencies) * 1000:7.2f} ms"
            if latencies else f"{label}: no requests")
