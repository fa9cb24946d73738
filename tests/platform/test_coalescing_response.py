"""The worker's response puts on the wire what gunicorn's own response does, byte for byte.

``service.worker_response.CoalescingResponse`` spells the head and the chunk framing itself
(and sends the head with the body's first write); a client cannot tell it from gunicorn's.
Every kind of answer here is run through both, with the clock held still for the ``Date``.
"""

from __future__ import annotations

from typing import Any

import pytest
from gunicorn import util
from gunicorn.config import Config

from service import worker_response
from service.worker_response import CoalescingResponse

#: gunicorn's own class (the worker swaps the module's name for its own in its process).
GUNICORN_RESPONSE = CoalescingResponse.__mro__[1]


class Wire:
    """A socket that keeps what was sent, and in how many writes."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []

    def sendall(self, data: bytes) -> None:
        self.writes.append(bytes(data))

    def send(self, data: bytes) -> int:  # the kernel takes it all
        self.writes.append(bytes(data))
        return len(data)

    @property
    def data(self) -> bytes:
        return b"".join(self.writes)


class Request:
    def __init__(self, method: str, version: tuple[int, int], close: bool) -> None:
        self.method, self.version, self._close = method, version, close

    def should_close(self) -> bool:
        return self._close


def answered(cls: type, method: str, version: tuple[int, int], close: bool, status: str,
             headers: list[tuple[str, str]], body: list[bytes]) -> tuple[Wire, Any]:
    wire = Wire()
    response = cls(Request(method, version, close), wire, Config())
    write = response.start_response(status, headers)
    for part in body:
        write(part)
    response.close()
    return wire, response


JSON = [("Content-Type", "application/json"), ("Content-Length", "11")]
CASES = [
    ("GET", (1, 1), False, "200 OK", JSON, [b'{"ok":true}']),
    ("POST", (1, 1), False, "201 Created", JSON + [("Location", "/v1/games/x")], [b'{"ok":true}']),
    ("GET", (1, 1), True, "200 OK", JSON, [b'{"ok":true}']),  # the request asked to close
    ("GET", (1, 0), False, "200 OK", JSON, [b'{"ok":true}']),
    ("GET", (1, 0), False, "200 OK", [("Content-Type", "text/plain")], [b"no length"]),
    ("GET", (1, 1), False, "200 OK", [("Content-Type", "text/event-stream")], [b"data: 1\n\n", b"", b"data: 2\n\n"]),
    ("GET", (1, 1), False, "200 OK", [("Content-Type", "text/event-stream")], []),  # chunked, nothing written
    ("GET", (1, 1), False, "200 OK", JSON, [b'{"ok":', b"true}", b"beyond the length"]),
    ("HEAD", (1, 1), False, "200 OK", JSON, [b'{"ok":true}']),
    ("GET", (1, 1), False, "204 No Content", [("Content-Length", "0")], []),
    ("GET", (1, 1), False, "304 Not Modified", [("ETag", '"v7"'), ("Content-Length", "11")], []),
    ("GET", (1, 1), False, "404 NOT FOUND", JSON, [b'{"ok":true}']),
    ("GET", (1, 1), False, "200 OK", JSON + [("Connection", "close"), ("Keep-Alive", "timeout=5")], [b'{"ok":true}']),
    ("GET", (1, 1), False, "101 Switching Protocols", [("Connection", "Upgrade"), ("Upgrade", "websocket")], []),
    ("GET", (1, 1), False, "200 OK", [("X-Padded", "  value \t"), ("Content-Length", "0")], []),
    ("GET", (1, 1), False, "200 OK", [("X-Latin", "caf\u00e9"), ("Content-Length", "2")], [b"ok"]),
]


@pytest.mark.parametrize("case", CASES, ids=lambda case: f"{case[0]} {case[1]} {case[3]} {len(case[5])} writes")
def test_the_same_bytes_as_gunicorns_response(case: tuple, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(util.time, "time", lambda: 1_800_000_000.25)  # the time module both read
    monkeypatch.setattr(worker_response, "_date_cache", (-1, ""))
    ours, our_response = answered(CoalescingResponse, *case)
    theirs, their_response = answered(GUNICORN_RESPONSE, *case)
    assert ours.data == theirs.data
    assert b"Date: Fri, 15 Jan 2027 08:00:00 GMT\r\n" in ours.data
    assert our_response.should_close() == their_response.should_close()
    # The head goes with the body's first write, and a chunked body's end with the last.
    assert len(ours.writes) <= max(1, len(theirs.writes) - 1)


def test_the_head_waits_for_the_body() -> None:
    wire = Wire()
    response = CoalescingResponse(Request("GET", (1, 1), False), wire, Config())
    write = response.start_response("200 OK", [("Content-Type", "text/event-stream")])
    response.send_headers()
    assert wire.writes == [] and response.headers_sent
    write(b"data: 1\n\n")
    assert len(wire.writes) == 1
    assert wire.writes[0].startswith(b"HTTP/1.1 200 OK\r\n")
    assert wire.writes[0].endswith(b"\r\n\r\n9\r\ndata: 1\n\n\r\n")


def test_the_date_is_formatted_once_a_second(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [1_800_000_000.1]
    formatted: list[float] = []

    def http_date(timestamp: float | None = None) -> str:
        formatted.append(timestamp)  # type: ignore[arg-type]
        return f"second {int(timestamp)}"  # type: ignore[arg-type]

    monkeypatch.setattr(worker_response.time, "time", lambda: clock[0])
    monkeypatch.setattr(worker_response.util, "http_date", http_date)
    monkeypatch.setattr(worker_response, "_date_cache", (-1, ""))
    assert worker_response.http_date() == "second 1800000000"
    clock[0] = 1_800_000_000.9
    assert worker_response.http_date() == "second 1800000000"
    clock[0] = 1_800_000_001.0
    assert worker_response.http_date() == "second 1800000001"
    assert formatted == [1_800_000_000, 1_800_000_001]
