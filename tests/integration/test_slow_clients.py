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

#: The body timeout is long beside the time the server takes to answer every slow body once (well
#: under a second, even on a loaded 2-core machine): a 429 that waited for the body would close at
#: least this long after its socket sent the head, one answered at once well before.
HEADER_TIMEOUT, BODY_TIMEOUT = 1.0, 3.0
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
    """What each socket received until the server closed it, and when (``time.monotonic()``),
    for at most ``within`` seconds."""
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
                    closed[sock] = time.monotonic()
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
    sent: dict[socket.socket, float] = {}
    try:
        opened = time.monotonic()
        for _ in range(SLOW_BODIES):
            sending = time.monotonic()  # before the server can have seen the head
            sock = socket.create_connection(("127.0.0.1", port))
            sock.sendall(head)
            sent[sock] = sending
            held.append(sock)
        status, took = plain_get(port, "127.0.0.2")
        answers = collect(held, within=BODY_TIMEOUT + 10)
    finally:
        for sock in held:
            sock.close()
    assert status == 200 and took < ANSWER_WITHIN, (status, took)
    # Seconds from each socket's head to its close, by the answer's code.
    by_code: dict[str | None, list[float | None]] = {}
    for sock, (data, closed) in answers.items():
        by_code.setdefault(code_of(data), []).append(None if closed is None else closed - sent[sock])
    assert set(by_code) == {"rate_limited", "body_timeout"}, {code: len(v) for code, v in by_code.items()}
    assert all(after is not None for after in by_code["rate_limited"] + by_code["body_timeout"]), by_code
    # Out of tokens: answered 429 without waiting for the body, so closed before a body timeout
    # could have passed; those with a token wait for their body: 408 once the timeout passed.
    assert max(by_code["rate_limited"]) < BODY_TIMEOUT, sorted(by_code["rate_limited"])[-5:]
    assert min(by_code["body_timeout"]) >= BODY_TIMEOUT, sorted(by_code["body_timeout"])[:5]
    # The tokens: a burst of twice the rate, and what refilled while the server took the requests
    # (it had taken every one by the time it answered the last 429).
    taking = max(answers[sock][1] or 0.0 for sock in held if code_of(answers[sock][0]) == "rate_limited") - opened
    assert 1 <= len(by_code["body_timeout"]) <= 2 * PLAYER_RATE + taking * PLAYER_RATE + 2, (by_code, taking)
