"""Slow connections cannot take the API down: hundreds of raw sockets from one address that
send an action's headers and a few bytes of a body that never ends, or headers that never
end, while another client's plain request still answers at once.

A real ``intrigue serve`` with short timeouts and small ceilings (settings), bounded in time.
"""

from __future__ import annotations

import http.client
import os
import selectors
import socket
import time
from collections.abc import Iterator

import pytest

from service.embedded import EmbeddedRedis
from tests.integration.conftest import UNREACHABLE_LIMITS, serving
from tests.support.client import Client

HEADER_TIMEOUT, BODY_TIMEOUT = 1.0, 1.5
CONNECTIONS_PER_ADDRESS = 150
PLAYER_RATE = 5  # bursts of 10
SLOWLORIS, SLOW_BODIES = 200, 140  # the bodies stay below the ceiling of connections
#: A legitimate request's answer, however many slow connections are held.
ANSWER_WITHIN = 2.0


@pytest.fixture(scope="module")
def slow_server(redis_server: EmbeddedRedis, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    log = tmp_path_factory.mktemp("slow") / "serve.log"
    env = {**os.environ, **UNREACHABLE_LIMITS, "REDIS_URL": redis_server.url.rsplit("/", 1)[0] + "/3",
           "INTRIGUE_LOG_LEVEL": "WARNING", "INTRIGUE_RATE_LIMIT": str(PLAYER_RATE),
           "INTRIGUE_HEADER_TIMEOUT": str(HEADER_TIMEOUT), "INTRIGUE_BODY_TIMEOUT": str(BODY_TIMEOUT),
           "INTRIGUE_CONNECTIONS_PER_ADDRESS": str(CONNECTIONS_PER_ADDRESS)}
    with serving(env, log, "--workers", "0") as base:
        yield base


def plain_get(port: int, source: str) -> tuple[int, float]:
    """``GET /v1/games`` from ``source`` (another loopback address): its status and seconds taken."""
    started = time.monotonic()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(source, 0))
    try:
        connection.request("GET", "/v1/games")
        return connection.getresponse().status, time.monotonic() - started
    finally:
        connection.close()


def collect(sockets: list[socket.socket], within: float) -> dict[socket.socket, tuple[bytes, float | None]]:
    """What each socket received until the server closed it (and when), for at most ``within`` seconds."""
    started = time.monotonic()
    got: dict[socket.socket, bytes] = {sock: b"" for sock in sockets}
    closed: dict[socket.socket, float] = {}
    with selectors.DefaultSelector() as selector:
        for sock in sockets:
            sock.setblocking(False)
            selector.register(sock, selectors.EVENT_READ)
        while len(closed) < len(sockets) and time.monotonic() - started < within:
            for key, _ in selector.select(timeout=0.1):
                sock = key.fileobj
                try:
                    data = sock.recv(65536)
                except (ConnectionResetError, BlockingIOError):
                    data = b""
                if data:
                    got[sock] += data
                else:
                    closed[sock] = time.monotonic() - started
                    selector.unregister(sock)
    return {sock: (got[sock], closed.get(sock)) for sock in sockets}


def code_of(answer: bytes) -> str | None:
    if not answer.startswith(b"HTTP/1.1 "):
        return None
    body = answer.split(b"\r\n\r\n", 1)[1]
    import json

    return json.loads(body)["code"] if body.startswith(b"{") else answer.split(b" ", 2)[1].decode()


def test_connections_past_an_addresss_ceiling_are_refused_and_headers_that_never_end_are_dropped(
        slow_server: str) -> None:
    port = int(slow_server.rsplit(":", 1)[1])
    held: list[socket.socket] = []
    try:
        for _ in range(SLOWLORIS):
            sock = socket.create_connection(("127.0.0.1", port))
            sock.sendall(b"POST /v1/games HTTP/1.1\r\nHost: x\r\n")  # and never the rest
            held.append(sock)
        status, took = plain_get(port, "127.0.0.2")  # another client, meanwhile
        answers = collect(held, within=HEADER_TIMEOUT + 10)
    finally:
        for sock in held:
            sock.close()
    assert status == 200 and took < ANSWER_WITHIN, (status, took)
    codes = [code_of(data) for data, _ in answers.values()]
    # Past the ceiling: 429 before anything is read; below it: closed, unanswered, at the header timeout.
    assert codes.count("too_many_connections") == SLOWLORIS - CONNECTIONS_PER_ADDRESS, codes
    assert codes.count(None) == CONNECTIONS_PER_ADDRESS
    assert all(closed is not None for _, closed in answers.values())
    assert all(b"Retry-After: 1" in data for data, _ in answers.values() if data)
    assert plain_get(port, "127.0.0.1")[0] == 200  # every slot was given back


def test_actions_whose_body_never_ends_are_refused_before_the_body_or_time_out(slow_server: str) -> None:
    port = int(slow_server.rsplit(":", 1)[1])
    host, guest = Client.register(slow_server, "host"), Client.register(slow_server, "guest")
    game_id = host.create_game("coup", 2)
    guest.join(game_id)
    host.join(game_id)
    head = (f"POST /v1/games/{game_id}/actions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            f"Content-Length: 100\r\nAuthorization: Bearer {host.token}\r\n\r\n{{\"ty").encode()
    held: list[socket.socket] = []
    try:
        opened = time.monotonic()
        for _ in range(SLOW_BODIES):
            sock = socket.create_connection(("127.0.0.1", port))
            sock.sendall(head)
            held.append(sock)
        status, took = plain_get(port, "127.0.0.2")
        answers = collect(held, within=BODY_TIMEOUT + 10)
        opening = time.monotonic() - opened
    finally:
        for sock in held:
            sock.close()
    assert status == 200 and took < ANSWER_WITHIN, (status, took)
    by_code: dict[str | None, list[float | None]] = {}
    for data, closed in answers.values():
        by_code.setdefault(code_of(data), []).append(closed)
    assert set(by_code) == {"rate_limited", "body_timeout"}, {code: len(v) for code, v in by_code.items()}
    # Those with a token (a burst of twice the rate, and what refilled) wait for their body: 408, closed.
    assert 1 <= len(by_code["body_timeout"]) <= 2 * PLAYER_RATE + opening * PLAYER_RATE + 2, by_code
    # Out of tokens: answered 429 at once, the body never read (not when the body timeout came).
    assert len(by_code["rate_limited"]) >= SLOW_BODIES - 2 * PLAYER_RATE - opening * PLAYER_RATE - 2
    assert all(closed is not None and closed < BODY_TIMEOUT / 2 for closed in by_code["rate_limited"])
    assert all(closed is not None for closed in by_code["body_timeout"])
