"""When the store fails, the API still answers with a problem, and tells the truth about it."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest

from service.app import create_app
from service.embedded import free_port


@pytest.fixture()
def silent_port() -> Iterator[int]:
    """A port that accepts connections and never answers (a hung Redis)."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        yield listener.getsockname()[1]


@pytest.mark.parametrize("kind", ["refused", "hung"])
def test_an_unreachable_or_hung_store_is_a_503_that_says_the_outcome_is_unknown(kind: str, silent_port: int) -> None:
    port = free_port() if kind == "refused" else silent_port
    app = create_app(redis_url=f"redis://127.0.0.1:{port}/0?socket_timeout=0.3&socket_connect_timeout=0.3",
                     rate_limit=0)
    client = app.test_client()
    for method, path, body in (("GET", "/v1/games/abc", None), ("POST", "/v1/players", {"name": "x"}),
                               ("POST", "/v1/games/abc/actions", {"type": "income"})):
        response = client.open(path, method=method, json=body, headers={"Authorization": "Bearer t"})
        assert response.status_code == 503, response.get_data(as_text=True)
        assert response.headers["Content-Type"].startswith("application/problem+json")
        assert response.headers["Retry-After"] == "1"
        problem = response.get_json()
        assert problem["code"] == "store_unavailable" and problem["status"] == 503
        assert "Idempotency-Key" in problem["detail"]
