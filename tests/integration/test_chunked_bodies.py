"""A chunked body that cannot be decoded, or announces too much, is refused at once.

Raw bytes over a socket to real server processes: ``intrigue serve`` (the session's
``server``) and gunicorn started as the image starts it (``service.gunicorn_conf``), both
with the project's gevent worker. Every POST of the API reference is tried.
"""

from __future__ import annotations

import json
import os
import socket
import time
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest

from service.embedded import EmbeddedRedis
from service.openapi import operations
from tests.integration.conftest import UNREACHABLE_LIMITS, gunicorn_serving
from tests.support.client import Client

#: Long enough for a loaded machine; a server that holds the connection never answers in it.
ANSWER_WITHIN = 5.0
POST_PATHS = sorted({op.path.replace("{game_id}", "g-none").replace("{webhook_id}", "w-none")
                     for op in operations() if op.method == "post"})


@pytest.fixture(scope="module")
def gunicorn_server(redis_server: EmbeddedRedis, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    env = {**os.environ, "REDIS_URL": redis_server.url, "INTRIGUE_LOG_LEVEL": "WARNING", **UNREACHABLE_LIMITS}
    with gunicorn_serving(env, tmp_path_factory.mktemp("gunicorn") / "gunicorn.log") as base:
        yield base


@pytest.fixture(params=["intrigue serve", "gunicorn"])
def base(request: pytest.FixtureRequest) -> str:
    return request.getfixturevalue("server" if request.param == "intrigue serve" else "gunicorn_server")


def exchange(base: str, path: str, token: str | None, body: bytes) -> tuple[int, dict[str, str], bytes, float]:
    """Send a chunked POST as raw bytes; read until the server closes. Status, headers, body, seconds taken."""
    address = urlsplit(base)
    head = (f"POST {path} HTTP/1.1\r\nHost: {address.netloc}\r\nContent-Type: application/json\r\n"
            "Transfer-Encoding: chunked\r\n" + (f"Authorization: Bearer {token}\r\n" if token else "") + "\r\n")
    started = time.monotonic()
    with socket.create_connection((address.hostname, address.port), timeout=ANSWER_WITHIN) as sock:
        sock.sendall(head.encode() + body)
        received = b""
        while b"\r\n\r\n" not in received or not _complete(received):
            data = sock.recv(65536)
            assert data, f"the connection closed without a whole answer: {received!r}"
            received += data
    took = time.monotonic() - started
    head_bytes, _, payload = received.partition(b"\r\n\r\n")
    status_line, *lines = head_bytes.decode("latin-1").split("\r\n")
    headers = {name.lower(): value.strip() for name, _, value in (line.partition(":") for line in lines)}
    return int(status_line.split()[1]), headers, payload, took


def _complete(received: bytes) -> bool:
    head, _, payload = received.partition(b"\r\n\r\n")
    for line in head.decode("latin-1").split("\r\n"):
        if line.lower().startswith("content-length:"):
            return len(payload) >= int(line.split(":", 1)[1])
    return False


def assert_refused(answer: tuple[int, dict[str, str], bytes, float], status: int, code: str) -> None:
    got, headers, payload, took = answer
    assert got == status, payload
    assert headers["content-type"] == "application/problem+json"
    assert json.loads(payload)["code"] == code
    assert headers.get("connection") == "close"
    assert took < ANSWER_WITHIN


@pytest.mark.parametrize("path", POST_PATHS)
def test_a_chunk_size_that_is_not_hexadecimal_is_400_bad_request_on_every_post(base: str, path: str) -> None:
    token = Client.register(base, "chunky").token
    assert_refused(exchange(base, path, token, b"ZZZ\r\n{}\r\n0\r\n\r\n"), 400, "bad_request")


@pytest.mark.parametrize("path", POST_PATHS)
def test_a_chunk_of_2_to_the_64_bytes_is_413_at_once_on_every_post(base: str, path: str) -> None:
    token = Client.register(base, "greedy").token
    assert_refused(exchange(base, path, token, b"FFFFFFFFFFFFFFFF\r\n{\"name\": "), 413, "body_too_large")


def test_small_chunks_adding_up_past_the_limit_are_413(base: str) -> None:
    chunk = b"4000\r\n" + b" " * 0x4000 + b"\r\n"
    assert_refused(exchange(base, "/v1/players", None, chunk * 5 + b"0\r\n\r\n"), 413, "body_too_large")


def test_a_well_formed_chunked_body_is_served_as_any_other(base: str) -> None:
    body = b'{"name": '
    rest = b'"chunked"}'
    raw = b"%x\r\n%s\r\n%x\r\n%s\r\n0\r\n\r\n" % (len(body), body, len(rest), rest)
    status, _, payload, _ = exchange(base, "/v1/players", None, raw)
    assert status == 201 and json.loads(payload)["name"] == "chunked"
    player = Client(base, json.loads(payload)["token"])
    game_id = player.create_game("coup", 2)
    other = Client.register(base, "other")
    player.join(game_id)
    other.join(game_id)
    action = b'{"type": "income"}'
    status, _, payload, _ = exchange(base, f"/v1/games/{game_id}/actions", player.token,
                                     b"%x\r\n%s\r\n0\r\n\r\n" % (len(action), action))
    assert status == 200, payload
    assert player.game(game_id)["version"] == json.loads(payload)["version"]
