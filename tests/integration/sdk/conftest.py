"""The SDK's tests run against the integration suite's real server and Redis (its conftest's fixtures).

``server`` is the shared ``intrigue serve`` of the integration tests (limits out of
reach); ``strict_server`` is a second one on its own Redis database, with a per-player
limit of a few requests a second (so the SDK meets real 429s) and private webhook
destinations allowed (so a receiver inside the test gets real, signed deliveries).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import pytest

from service.datadir import die_with_parent
from service.embedded import EmbeddedRedis, free_port
from tests.integration.conftest import ROOT, UNREACHABLE_LIMITS, wait_for_server
from tests.integration.sdk.proxy import FaultProxy
from tests.integration.test_http_correspondence import wait_for_workers

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
    with open(log_path, "wb") as log_file:
        process = subprocess.Popen([sys.executable, "-m", "service.cli", "serve", "--port", str(port)],
                                   cwd=ROOT, env=env, stdout=log_file, stderr=subprocess.STDOUT,
                                   preexec_fn=die_with_parent())
    base = f"http://127.0.0.1:{port}"
    wait_for_server(process, base, log_path.read_text)
    wait_for_workers(process, env["REDIS_URL"], log_path.read_text)
    yield base
    process.terminate()
    process.wait(timeout=20)
