"""The event store's client-side guarantees against a real Redis."""

from __future__ import annotations

import redis

from events import store as store_module
from events.store import EventStore, connect
from service.embedded import EmbeddedRedis


def test_a_long_poll_longer_than_the_socket_timeout_returns_quietly(platform_redis: EmbeddedRedis,
                                                                    monkeypatch) -> None:
    monkeypatch.setattr(store_module, "BLOCK_SLICE_MS", 200)
    client = redis.Redis.from_url(platform_redis.url, socket_timeout=0.5)
    assert EventStore(client).wait("no-such-game", after=0, timeout_ms=1200) is False


def test_connect_allows_more_connections_than_a_busy_api_process_has_threads(platform_redis: EmbeddedRedis) -> None:
    client = connect(platform_redis.url)
    held = [client.connection_pool.get_connection() for _ in range(150)]
    try:
        assert len({id(c) for c in held}) == 150
    finally:
        for connection in held:
            client.connection_pool.release(connection)
