"""In-process engine fixtures: a real redis-server, the engine called directly, a toy game registered."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import redis

from engine.core import Engine
from engine.scheduling import JobScheduler, make_queue
from engine.settings import Settings
from games import registry
from service.embedded import EmbeddedRedis


@pytest.fixture(scope="session")
def platform_redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedRedis]:
    server = EmbeddedRedis(tmp_path_factory.mktemp("platform-redis"), persist=False).start()
    yield server
    server.stop()


@pytest.fixture(autouse=True)
def toy_registered() -> Iterator[None]:
    registry.GAMES["toy"] = "tests.support.toy"
    yield
    registry.GAMES.pop("toy", None)


def _engine(platform_redis: EmbeddedRedis, **options: Any) -> Iterator[Engine]:
    """An engine on the emptied platform Redis; its feed listener stops with the test (else it
    outlives the test, and at the session's end its Redis)."""
    client = redis.Redis.from_url(platform_redis.url)
    client.flushall()
    # Every commit of the suite is checked for readers (issue 47): off by default for its cost.
    options.setdefault("settings", Settings(render_check=True))
    engine = Engine(client, JobScheduler(make_queue(client)), snapshot_every=5, **options)
    yield engine
    engine.watcher.stop()


@pytest.fixture()
def engine(platform_redis: EmbeddedRedis) -> Iterator[Engine]:
    yield from _engine(platform_redis)


@pytest.fixture()
def worker_engine(platform_redis: EmbeddedRedis) -> Iterator[Engine]:
    """An engine that leaves every system step to the workers (``steps_in_commit=False``): for
    tests of the workers' own path, which the default engine takes only when a commit could not."""
    yield from _engine(platform_redis, steps_in_commit=False)
