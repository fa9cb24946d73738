"""Every answer the API writes: JSON bodies, and problem details (RFC 9457) for every refusal.

The engine refuses with domain errors (``engine.errors``); this module is the one place
that says which HTTP status each kind is answered with, so the engine never speaks HTTP.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Iterable
from typing import Any

import orjson
import redis
from flask import Response
from flask.json.provider import JSONProvider

from engine.errors import Conflict, DomainError, Forbidden, Invalid, Limited, NotFound

log = logging.getLogger(__name__)

PROBLEM_JSON = "application/problem+json"


class Problem(Exception):
    """A refused request. ``code`` is stable for clients; ``detail`` is for people.

    Details are written from what the caller may already see: never another seat's
    hand, bid, the deck or the seed.
    """

    def __init__(self, status: int, code: str, detail: str, title: str | None = None, **extra: Any) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.title = title or _TITLES.get(status, "Error")
        self.extra = extra

    def to_dict(self) -> dict[str, Any]:
        return {"type": f"https://intrigue.invalid/problems/{self.code}", "title": self.title,
                "status": self.status, "detail": self.detail, "code": self.code, **self.extra}


_TITLES = {
    400: "Malformed request",
    401: "Authentication required",
    403: "Forbidden",
    404: "Not found",
    405: "Method not allowed",
    408: "Request timeout",
    409: "Conflict",
    413: "Request too large",
    415: "Unsupported media type",
    422: "Rule violation",
    429: "Too many requests",
    500: "Internal error",
    503: "Service unavailable",
}

#: The status each kind of domain error is answered with (a subclass answers as its base).
STATUS_OF_KIND: dict[type[DomainError], int] = {NotFound: 404, Forbidden: 403, Conflict: 409, Invalid: 422,
                                                Limited: 429}


def status_of(err: DomainError) -> int:
    """The HTTP status of a domain error, by the nearest kind in its class's ancestry."""
    for kind in type(err).__mro__:
        status = STATUS_OF_KIND.get(kind)
        if status is not None:
            return status
    return 500


def as_problem(err: DomainError) -> Problem:
    """The problem answer of a domain error: the engine's code, detail and fields, word for word."""
    return Problem(status_of(err), err.code, err.detail, **err.extra)


#: What a client is told when a request failed at a point where an action may already
#: be recorded: an Idempotency-Key turns the retry into an answer.
UNKNOWN_OUTCOME = ("{what}. An action posted with this request may or may not have been recorded: "
                   "post it again with the same Idempotency-Key (or read the game) to find out.")


def unexpected_problem(err: Exception) -> Problem:
    """The 503 or 500 answer to an exception no route expected, logged (call it inside ``except``)."""
    if isinstance(err, redis.ConnectionError | redis.TimeoutError):
        # A reply that never came may hide an append that did happen: say so, and how to find out.
        log.error("redis unavailable: %s", err)
        return Problem(503, "store_unavailable", UNKNOWN_OUTCOME.format(
            what="the event store could not be reached or did not answer in time"), retry_after=1)
    log.exception("unhandled error")
    return Problem(500, "internal_error", UNKNOWN_OUTCOME.format(what="an unexpected error occurred"))


def problem_of(err: Exception) -> Problem:
    """Whatever a request raised, as the problem it is answered with (call it inside ``except``)."""
    if isinstance(err, Problem):
        return err
    if isinstance(err, DomainError):
        return as_problem(err)
    return unexpected_problem(err)


def problem_response(problem: Problem) -> Response:
    response = Response(dump_bytes(problem.to_dict()), status=problem.status, mimetype=PROBLEM_JSON)
    if problem.status == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="intrigue"'
    if problem.status in (429, 503):
        response.headers["Retry-After"] = str(max(1, math.ceil(problem.extra.get("retry_after", 1))))
    return response


class OrjsonProvider(JSONProvider):
    """Flask's JSON through orjson: every view and feed page is serialised once, in C."""

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        return dumps(obj)

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return orjson.loads(s)

    def response(self, *args: Any, **kwargs: Any) -> Response:
        obj = self._prepare_response_obj(args, kwargs)
        return self._app.response_class(dump_bytes(obj), mimetype="application/json")


def dump_bytes(obj: Any) -> bytes:
    """JSON as the API sends it (keys in the order built, UTF-8), ready for the socket."""
    return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS)


def dumps(obj: Any) -> str:
    """:func:`dump_bytes` as text."""
    return dump_bytes(obj).decode()


def run_after_answer(work: Iterable[Callable[[], None]]) -> None:
    """Run what a commit owes the workers, once its answer was sent; a failure is only logged."""
    for item in work:
        try:
            item()
        except Exception:  # the worker's sweep asks for the step instead
            log.exception("could not ask a worker for a step after answering")
