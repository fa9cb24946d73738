"""Refusals the HTTP server makes before the app runs, written as problem+json like the app's.

A request line or header too large for the server's limit (an oversized
``Idempotency-Key``, say) is refused by the server itself, with its own plain-text
page. A client parsing problem details should get one too, with a stable ``code``.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlsplit

from service.answers import Problem

#: The codes of the refusals an HTTP server makes on its own, by status.
SERVER_CODES = {400: "bad_request", 413: "body_too_large", 431: "headers_too_large",
                500: "internal_error", 501: "not_implemented"}


class BodyTimeout(Exception):
    """The client did not send the request's whole body in time (see ``service.gevent_worker``):
    answered 408 ``body_timeout``, and the connection is closed."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"the body did not arrive within {seconds:g} s")
        self.seconds = seconds


def close_after_answer(environ: dict[str, Any]) -> None:
    """Close the connection once this request is answered, its body left unread (gunicorn's
    body and request, if that is what the environ holds): never drain a body nobody awaits."""
    stream = environ.get("wsgi.input")
    body = getattr(stream, "body", stream)
    if hasattr(body, "failed"):
        body.failed = True
    request = getattr(stream, "request", None) or getattr(getattr(body, "reader", None), "req", None)
    if hasattr(request, "must_close"):
        request.must_close = True


def body_timeout_problem(seconds: float) -> Problem:
    return Problem(408, "body_timeout", f"the request's body did not arrive within {seconds:g} s",
                   title="Request timeout")


def raw_problem_answer(problem: Problem, retry_after: int | None = None) -> bytes:
    """A whole HTTP/1.1 answer carrying ``problem``, closing the connection (for the server's own refusals)."""
    body = json.dumps(problem.to_dict()).encode()
    retry = f"Retry-After: {retry_after}\r\n" if retry_after is not None else ""
    head = (f"HTTP/1.1 {problem.status} {problem.title}\r\nConnection: close\r\n{retry}"
            f"Content-Type: application/problem+json\r\nContent-Length: {len(body)}\r\n\r\n")
    return head.encode("latin-1") + body


def server_problem(status: int, reason: str, detail: str) -> bytes:
    """The problem+json body for a refusal of the HTTP server (not of the app)."""
    problem = Problem(status, SERVER_CODES.get(status, "http_error"), detail.strip() or reason, title=reason)
    return json.dumps(problem.to_dict()).encode()


def answer_gunicorn_errors_as_problems() -> None:
    """Make gunicorn (in the process that serves requests) write its refusals as problems.

    gunicorn writes every refusal of its own through ``gunicorn.util.write_error``; this
    replaces that function in the worker process (``service.gunicorn_conf`` calls it from
    gunicorn's ``post_worker_init`` hook). A header over its size limit becomes 431
    ``headers_too_large`` rather than a 400 HTML page.
    """
    from gunicorn import util

    def write_problem(sock: Any, status_int: int, reason: str, mesg: str) -> None:
        if "limit request headers" in mesg or "limit request line" in mesg:
            status_int, reason = 431, "Request Header Fields Too Large"
        body = server_problem(status_int, reason, mesg)
        head = (f"HTTP/1.1 {status_int} {reason}\r\nConnection: close\r\n"
                f"Content-Type: application/problem+json\r\nContent-Length: {len(body)}\r\n\r\n")
        util.write_nonblock(sock, head.encode("latin-1") + body)

    util.write_error = write_problem


def relative_location(location: str) -> str:
    """``location`` without its scheme and host: the path and query of a redirect.

    Werkzeug writes the URL it redirects to (``/v1//games`` to ``/v1/games``, say) from the
    request's own Host header, so a client could have the server name any host it likes in
    ``Location``, and a caching proxy hand that to everyone else. A relative reference (RFC 9110,
    section 10.2.2) keeps the client on the host it asked. A path that would read as a host
    (``//x``) keeps one slash.
    """
    parts = urlsplit(location)
    path = "/" + parts.path.lstrip("/")
    return path + (f"?{parts.query}" if parts.query else "")
