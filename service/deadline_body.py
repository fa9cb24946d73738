"""A request's body read against a deadline: the body timeout, on both of the worker's paths.

gunicorn's body (``service.gevent_worker.Worker.handle_request``) and the short path's late
body (``service.http1.LateBody``) are both wrapped in :class:`DeadlineBody`, so a
slow body is answered 408 ``body_timeout`` and closes its connection the same way on either.
"""

from __future__ import annotations

import io
import time
import weakref
from collections.abc import Callable
from typing import Any

import gevent


class DeadlineBody:
    """A request's body that must be read whole before a deadline (gunicorn's body, wrapped).

    Past the deadline a read raises :class:`BodyTimeout`, at once and every time after; the
    connection is marked to close, as where the next request would start is unknown.
    """

    def __init__(self, body: Any, request: Any, seconds: float) -> None:
        self.body = body
        # Weak: the request holds this body, and a cycle would leave every request's objects
        # to the garbage collector instead of freeing them as the request ends.
        self._request = weakref.ref(request) if request is not None else None
        self.seconds = seconds
        self.deadline = time.monotonic() + seconds
        self.timed_out = False

    def _within(self, read: Callable[..., bytes], *args: Any) -> bytes:
        left = self.deadline - time.monotonic()
        if self.timed_out or left <= 0:
            return self._give_up()
        try:
            with gevent.Timeout(left):
                return read(*args)
        except gevent.Timeout:
            return self._give_up()

    @property
    def request(self) -> Any:
        """The request this body belongs to, while it lives (what ``close_after_answer`` marks)."""
        return self._request() if self._request is not None else None

    def _give_up(self) -> bytes:
        from service.http_errors import BodyTimeout

        self.timed_out = True
        if hasattr(self.body, "failed"):
            self.body.failed = True  # never drained
        request = self.request
        if request is not None:
            request.must_close = True
        raise BodyTimeout(self.seconds)

    def buffered(self) -> int:
        """How much of the body was already taken from the socket with the headers: what a
        read returns now, without waiting on the client (0 when gunicorn's body is not the
        length-delimited one this knows). A body that counts its own (the short path's
        ``LateBody``) says."""
        own = getattr(self.body, "buffered", None)
        if own is not None:
            return own()
        reader = getattr(self.body, "reader", None)
        unreader, left = getattr(reader, "unreader", None), getattr(reader, "length", None)
        held = getattr(unreader, "buf", None)
        if not isinstance(left, int) or not isinstance(held, io.BytesIO):
            return 0
        return len(self.body.buf.getvalue()) + min(left, len(held.getvalue()))

    def read(self, size: int | None = None) -> bytes:
        return self._within(self.body.read, size)

    def readline(self, size: int | None = None) -> bytes:
        return self._within(self.body.readline, size)

    def readlines(self, size: int | None = None) -> list[bytes]:
        return list(iter(self.readline, b""))

    def __iter__(self) -> Any:
        return iter(self.readline, b"")

    def __getattr__(self, name: str) -> Any:
        return getattr(self.body, name)
