"""The SDK's tests run against the integration suite's real server and Redis (its conftest's fixtures).

``server`` is the shared ``intrigue serve`` of the integration tests (limits out of
reach); ``strict_server`` is a second one on its own Redis database, with a per-player
limit of a few requests a second (so the SDK meets real 429s) and private webhook
destinations allowed (so a receiver inside the test gets real, signed deliveries).
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from service.embedded import EmbeddedRedis, free_port
from tests.integration.conftest import UNREACHABLE_LIMITS, serving_with_workers
from tests.integration.sdk.proxy import FaultProxy

#: The strict server's per-player rate: requests a second, with bursts of twice that.
STRICT_RATE = 3


@pytest.fixture()
def proxy(server: str) -> Iterator[FaultProxy]:
    relay = FaultProxy(server)
    yield relay
    relay.close()


@pytest.fixture(scope="session")
def strict_server(redis_server: EmbeddedRedis, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    log_path = tmp_path_factory.mktemp("strict") / "serve.log"
    env = {**os.environ, **UNREACHABLE_LIMITS, "REDIS_URL": redis_server.url.rsplit("/", 1)[0] + "/2",
           "INTRIGUE_LOG_LEVEL": "WARNING", "INTRIGUE_RATE_LIMIT": str(STRICT_RATE),
           "INTRIGUE_WEBHOOKS_ALLOW_PRIVATE": "1", "INTRIGUE_WEBHOOK_RETRY_BASE": "0.3"}
    with serving_with_workers(env, port, log_path) as base:
        yield base
