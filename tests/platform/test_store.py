"""The event store's client-side guarantees against a real Redis."""

from __future__ import annotations

from events.store import connect
from service.embedded import EmbeddedRedis


def test_connect_allows_more_connections_than_a_busy_api_process_has_threads(platform_redis: EmbeddedRedis) -> None:
    client = connect(platform_redis.url)
    held = [client.connection_pool.get_connection() for _ in range(150)]
    try:
        assert len({id(c) for c in held}) == 150
    finally:
        for connection in held:
            client.connection_pool.release(connection)
