"""A local HTTP proxy between the SDK and a real server, failing on demand.

It forwards every request to the server as it is. A fault armed for a method and path
changes what the client gets: the answer replaced by a 503 or a 500 (after the server
has acted, so the outcome the client sees is unknown), the connection closed with no
answer at all, a 429 with a ``Retry-After`` before the server is reached, or an event
stream cut in the middle of a frame. Every request's method, path and headers are kept
so tests can see what the client sent on each attempt.
"""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Literal

import requests

FaultKind = Literal["answer_503", "answer_500", "drop_after", "drop_before", "rate_limit", "cut_stream"]

#: Headers that belong to one hop, never forwarded.
HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "content-length", "host", "accept-encoding"}


@dataclass
class Fault:
    method: str
    path: str  # the request path without its query
    kind: FaultKind
    times: int = 1
    frames: int = 2  # cut_stream: complete frames forwarded before the cut
    retry_after: float = 0.4  # rate_limit: the exact wait the body states


@dataclass
class Seen:
    method: str
    path: str
    headers: dict[str, str]
    fault: FaultKind | None


@dataclass
class FaultProxy:
    upstream: str
    faults: list[Fault] = field(default_factory=list)
    seen: list[Seen] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self.http = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self.http.daemon_threads = True
        self.thread = threading.Thread(target=self.http.serve_forever, name="fault-proxy", daemon=True)
        self.thread.start()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.http.server_address[1]}"

    def arm(self, method: str, path: str, kind: FaultKind, **options: float | int) -> None:
        with self.lock:
            self.faults.append(Fault(method, path, kind, **options))  # type: ignore[arg-type]

    def take_fault(self, method: str, path: str) -> Fault | None:
        with self.lock:
            for fault in self.faults:
                if fault.method == method and fault.path == path and fault.times > 0:
                    fault.times -= 1
                    return fault
        return None

    def requests_to(self, method: str, path: str) -> list[Seen]:
        with self.lock:
            return [s for s in self.seen if s.method == method and s.path == path]

    def close(self) -> None:
        self.http.shutdown()
        self.http.server_close()


def _handler_for(proxy: FaultProxy) -> type[BaseHTTPRequestHandler]:
    upstream = requests.Session()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            self.relay()

        def do_POST(self) -> None:
            self.relay()

        def do_DELETE(self) -> None:
            self.relay()

        def relay(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else None
            path = self.path.split("?", 1)[0]
            fault = proxy.take_fault(self.command, path)
            with proxy.lock:
                proxy.seen.append(Seen(self.command, path, dict(self.headers.items()), fault and fault.kind))
            if fault is not None and fault.kind == "drop_before":
                return self.hang_up()
            if fault is not None and fault.kind == "rate_limit":
                return self.problem(429, "rate_limited", {"retry_after": fault.retry_after},
                                    {"Retry-After": str(max(1, round(fault.retry_after + 0.5)))})
            headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP}
            answer = upstream.request(self.command, proxy.upstream + self.path, data=body, headers=headers,
                                      stream=True, timeout=60)
            try:
                if fault is not None and fault.kind == "drop_after":
                    _ = answer.content  # the server has acted; the client never hears of it
                    return self.hang_up()
                if fault is not None and fault.kind in ("answer_503", "answer_500"):
                    _ = answer.content
                    status = 503 if fault.kind == "answer_503" else 500
                    code = "store_unavailable" if status == 503 else "internal_error"
                    return self.problem(status, code, {"retry_after": 0.05} if status == 503 else {},
                                        {"Retry-After": "1"} if status == 503 else {})
                if answer.headers.get("Content-Type", "").startswith("text/event-stream"):
                    return self.relay_stream(answer, fault.frames if fault is not None else None)
                content = answer.content
                self.send_response(answer.status_code)
                for name, value in answer.headers.items():
                    if name.lower() not in HOP_BY_HOP | {"content-encoding", "date", "server"}:
                        self.send_header(name, value)
                self.send_header("Content-Length", str(len(content)))
                self.end_headers()
                self.wfile.write(content)
            finally:
                answer.close()

        def relay_stream(self, answer: requests.Response, cut_after: int | None) -> None:
            """Frame by frame, chunked; with ``cut_after``, that many frames, half the next, then a reset."""
            self.send_response(answer.status_code)
            self.send_header("Content-Type", answer.headers["Content-Type"])
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            sent = 0
            for frame in _frames(answer.iter_content(chunk_size=None)):
                if cut_after is not None and sent >= cut_after:
                    self.chunk(frame[: len(frame) // 2])
                    return self.hang_up()
                self.chunk(frame)
                sent += 1
            self.wfile.write(b"0\r\n\r\n")

        def chunk(self, data: bytes) -> None:
            self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
            self.wfile.flush()

        def problem(self, status: int, code: str, extra: dict, headers: dict[str, str]) -> None:
            body = json.dumps({"type": f"https://intrigue.invalid/problems/{code}", "title": "Injected",
                               "status": status, "detail": f"injected by the test proxy ({code})", "code": code,
                               **extra}).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/problem+json")
            self.send_header("Content-Length", str(len(body)))
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body)

        def hang_up(self) -> None:
            self.close_connection = True
            try:
                self.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

        def log_message(self, *args: object) -> None:
            pass

    return Handler


def _frames(chunks: Iterator[bytes]) -> Iterator[bytes]:
    """Server-sent event frames (comments included), each with its blank line."""
    pending = b""
    for chunk in chunks:
        pending += chunk
        while (end := pending.find(b"\n\n")) >= 0:
            yield pending[: end + 2]
            pending = pending[end + 2:]
    if pending:
        yield pending
