"""Chunked request bodies, read whole and checked before the app runs.

A body sent with ``Transfer-Encoding: chunked`` has no length up front: the HTTP server
decodes it as the app reads. Read lazily, a malformed chunk size (``ZZZ``) surfaced as an
exception in the middle of a route, a 500 whose text says an action may have been
recorded; and a chunk announced as 2^64-1 bytes held the connection until the client
gave up. So every chunked body is read here, up to the body limit, before any route:

- a chunk that announces more bytes than a whole body may hold is refused as soon as
  its size line is read (gunicorn's chunk parser is told the limit, see
  :func:`refuse_oversized_chunks`): 413 ``body_too_large``;
- chunks that add up to more than the limit: 413 ``body_too_large``;
- anything the decoder refuses (a size that is not hexadecimal, a missing CRLF, a bad
  extension or trailer, the client closing midway): 400 ``bad_request``.

The app then sees an ordinary body with a ``Content-Length``. After a refusal the
connection is closed: where the next request would start is unknown.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterable
from typing import Any

from service.answers import Problem
from service.http_errors import BodyTimeout, body_timeout_problem

#: The most a request body may hold (the app's ``MAX_CONTENT_LENGTH``), chunked or not.
MAX_BODY_BYTES = 64 * 1024

StartResponse = Callable[..., Any]


class ChunkTooLarge(Exception):
    """A chunk's size line announced more bytes than a whole body may hold."""

    def __init__(self, size: int) -> None:
        super().__init__(f"a chunk of {size} bytes")
        self.size = size


def refuse_oversized_chunks(limit: int = MAX_BODY_BYTES) -> None:
    """Make gunicorn's chunk parser (in the process that serves requests) refuse a chunk
    larger than ``limit`` when it reads the chunk's size, instead of waiting for its bytes."""
    from gunicorn.http.body import ChunkedReader

    original = ChunkedReader.parse_chunk_size
    if getattr(original, "bounded", False):
        return

    def parse_chunk_size(self: Any, unreader: Any, data: bytes | None = None) -> tuple[int, bytes | None]:
        size, rest = original(self, unreader, data)
        if size > limit:
            raise ChunkTooLarge(size)
        return size, rest

    parse_chunk_size.bounded = True  # type: ignore[attr-defined]
    parse_chunk_size.__wrapped__ = original  # type: ignore[attr-defined]
    ChunkedReader.parse_chunk_size = parse_chunk_size  # type: ignore[method-assign]


def is_chunked(environ: dict[str, Any]) -> bool:
    return "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()


class ChunkedBodies:
    """WSGI middleware: a chunked body is read and checked whole (see the module's text)."""

    def __init__(self, inner: Callable[[dict[str, Any], StartResponse], Iterable[bytes]],
                 limit: int = MAX_BODY_BYTES) -> None:
        self.inner = inner
        self.limit = limit

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if not is_chunked(environ):
            return self.inner(environ, start_response)
        stream = environ["wsgi.input"]
        try:
            data = stream.read(self.limit + 1)
        except BodyTimeout as err:
            return _refuse(environ, start_response, body_timeout_problem(err.seconds))
        except ChunkTooLarge as err:
            return _refuse(environ, start_response, Problem(
                413, "body_too_large", f"a chunk of {err.size} bytes is over the body limit of {self.limit} bytes"))
        except Exception as err:  # the decoder's own refusals, or the client leaving midway
            return _refuse(environ, start_response, Problem(
                400, "bad_request", f"the chunked body is malformed: {type(err).__name__}"))
        if len(data) > self.limit:
            return _refuse(environ, start_response, Problem(
                413, "body_too_large", f"the body is over the limit of {self.limit} bytes"))
        environ["wsgi.input"] = io.BytesIO(data)
        environ["CONTENT_LENGTH"] = str(len(data))
        del environ["HTTP_TRANSFER_ENCODING"]
        return self.inner(environ, start_response)


def _refuse(environ: dict[str, Any], start_response: StartResponse, problem: Problem) -> list[bytes]:
    stream = environ["wsgi.input"]
    if hasattr(stream, "failed"):  # gunicorn's body: close the connection, never drain the rest
        stream.failed = True
    request = getattr(getattr(stream, "reader", None), "req", None)
    if hasattr(request, "must_close"):  # and say so in the answer's Connection header
        request.must_close = True
    body = json.dumps(problem.to_dict()).encode()
    start_response(f"{problem.status} {problem.title}", [("Content-Type", "application/problem+json"),
                                                         ("Content-Length", str(len(body)))])
    return [body]
