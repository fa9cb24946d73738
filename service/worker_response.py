"""The worker's response: gunicorn's, with its head held back until the body's first write.

Its own module so that both the worker (``service.gevent_worker``) and the short path
(``service.http1``) use it without importing each other.
"""

from __future__ import annotations

import time

from gunicorn import util
from gunicorn.http import wsgi

_date_cache: tuple[int, str] = (-1, "")


def http_date() -> str:
    """gunicorn's ``util.http_date()`` of now, formatted once a second, not once an answer."""
    global _date_cache
    now = time.time()
    second = int(now)
    if _date_cache[0] != second:
        _date_cache = (second, util.http_date(second))
    return _date_cache[1]


class CoalescingResponse(wsgi.Response):
    """gunicorn's response, holding its head back until the body's first write (or the end).

    The head and a chunk's framing are spelled here as gunicorn's ``send_headers``,
    ``default_headers`` and ``util.write_chunk`` spell them (tests/platform/test_coalescing_response.py
    holds every kind of answer to gunicorn's own bytes); writing them through gunicorn with
    a stand-in socket to catch the bytes cost an API process about 3% of its time.
    """

    _head = b""

    def send_headers(self) -> None:
        if self.headers_sent:
            return
        if self.upgrade:
            connection = "upgrade"
        elif self.should_close():
            connection = "close"
        else:
            connection = "keep-alive"
        major, minor = self.req.version
        lines = [f"HTTP/{major}.{minor} {self.status}\r\nServer: {self.version}\r\nDate: {http_date()}\r\n"
                 f"Connection: {connection}\r\n"]
        if self.chunked:
            lines.append("Transfer-Encoding: chunked\r\n")
        lines.extend([f"{name}: {value}\r\n" for name, value in self.headers])
        lines.append("\r\n")
        self._head = "".join(lines).encode("latin-1")
        self.headers_sent = True

    def _emit_body(self, data: bytes) -> None:
        if self.chunked:
            data = b"%X\r\n%b\r\n" % (len(data), data)
        if self._head:
            data, self._head = self._head + data, b""
        self._send(data)

    def close(self) -> None:
        if not self.headers_sent:
            self.send_headers()
        # The end of a chunked body; the head too if no body was written (an empty answer, HEAD).
        data = self._head + b"0\r\n\r\n" if self.chunked else self._head
        self._head = b""
        if data:
            self._send(data)

    def _send(self, data: bytes) -> None:
        """One ``send`` first, then ``sendall`` for whatever it left (a full buffer).

        gevent's ``sendall`` asks the kernel for the socket's buffer size (a ``getsockopt``)
        and sets up its chunk loop on every call, although nearly every answer fits the
        buffer whole, so one plain send is the common case and the cheaper one. Only this
        response's (the client's) socket writes so: Redis's sockets keep gevent's own loop.
        """
        sent = self.sock.send(data)
        if sent < len(data):
            self.sock.sendall(memoryview(data)[sent:])

    def can_sendfile(self) -> bool:
        return False  # sendfile would write the body before the held-back head
