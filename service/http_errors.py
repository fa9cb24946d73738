"""Refusals the HTTP server makes before the app runs, written as problem+json like the app's.

A request line or header too large for the server's limit (an oversized
``Idempotency-Key``, say) is refused by the server itself, with its own plain-text
page. A client parsing problem details should get one too, with a stable ``code``.
"""

from __future__ import annotations

import json
from typing import Any

from service.errors import Problem

#: The codes of the refusals an HTTP server makes on its own, by status.
SERVER_CODES = {400: "bad_request", 413: "body_too_large", 414: "uri_too_long", 431: "headers_too_large",
                500: "internal_error", 501: "not_implemented"}


def server_problem(status: int, reason: str, detail: str) -> bytes:
    """The problem+json body for a refusal of the HTTP server (not of the app)."""
    problem = Problem(status, SERVER_CODES.get(status, "http_error"), detail.strip() or reason, title=reason)
    return json.dumps(problem.to_dict()).encode()


def write_problem(sock: Any, status: int, reason: str, detail: str) -> None:
    """gunicorn's ``util.write_error``, writing problem+json instead of an HTML page."""
    from gunicorn import util

    body = server_problem(status, reason, detail)
    head = (f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\nContent-Type: application/problem+json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode("latin-1")
    util.write_nonblock(sock, head + body)


def answer_gunicorn_errors_as_problems() -> None:
    """Make gunicorn (in this worker process) write its refusals as problems.

    gunicorn's workers write them through ``gunicorn.util.write_error``, looked up at
    each call, so replacing that one function is enough.
    """
    from gunicorn import util

    util.write_error = write_problem
