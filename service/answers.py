"""Every answer the API writes: JSON bodies, and problem details (RFC 9457) for every refusal.

The engine refuses with domain errors (``engine.errors``); this module is the one place
that says which HTTP status each kind is answered with, so the engine never speaks HTTP.
It also declares the codes the HTTP layer refuses with itself, beside the engine's.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import orjson
import redis
from flask import Response
from flask.json.provider import JSONProvider
from marshmallow import ValidationError

from engine.errors import DOMAIN_CODES, Conflict, DomainError, Forbidden, Invalid, Limited, NotFound

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


def status_of_kind(kind: type[DomainError]) -> int:
    """The HTTP status of a kind of domain error, by the nearest kind in its ancestry."""
    for ancestor in kind.__mro__:
        status = STATUS_OF_KIND.get(ancestor)
        if status is not None:
            return status
    return 500


def status_of(err: DomainError) -> int:
    """The HTTP status of a domain error."""
    return status_of_kind(type(err))


@dataclass(frozen=True)
class ProblemCode:
    """A problem code as the API answers it: its one status (None: whichever the HTTP server chose)."""

    status: int | None
    meaning: str


#: The codes the HTTP layer refuses with itself (the engine's are ``engine.errors.DOMAIN_CODES``):
#: the body, headers and query before any command runs, the token, and what the server answers on its own.
HTTP_CODES: dict[str, ProblemCode] = {
    "empty_body": ProblemCode(400, "the request needs a JSON body and has none"),
    "malformed_json": ProblemCode(400, "the body is not valid JSON"),
    "bad_encoding": ProblemCode(400, "the body is not UTF-8, or holds a lone surrogate"),
    "too_deep": ProblemCode(400, "the body is nested deeper than the server reads"),
    "malformed_body": ProblemCode(400, "the body is not a JSON object"),
    "invalid_body": ProblemCode(400, "fields of the body do not match the schema (listed in `errors`)"),
    "bad_query": ProblemCode(400, "a query parameter has a value the operation does not take"),
    "bad_cursor": ProblemCode(400, "a cursor that is not a page's `next_cursor`"),
    "bad_if_match": ProblemCode(400, "an If-Match header that is not a version"),
    "bad_idempotency_key": ProblemCode(400, "an Idempotency-Key header of the wrong length"),
    "bad_last_event_id": ProblemCode(400, "a Last-Event-ID header that is not a frame id"),
    "bad_request": ProblemCode(400, "refused by the HTTP server, such as a chunked body it cannot decode"),
    "auth_required": ProblemCode(401, "the operation needs a player token"),
    "bad_authorization": ProblemCode(401, "an Authorization header that is not `Bearer <token>`"),
    "bad_token": ProblemCode(401, "a token the server does not know"),
    "game_in_progress": ProblemCode(403, "the log or transcript of a game still in play"),
    "missing_scope": ProblemCode(403, "the token lacks the scope the call needs (named in `scope`)"),
    "not_found": ProblemCode(404, "no such path"),
    "method_not_allowed": ProblemCode(405, "the path has no such method (see the Allow header)"),
    "body_timeout": ProblemCode(408, "the body did not arrive in time; the connection closes"),
    "not_in_log": ProblemCode(404, "the game has no leaf in the transparency log: unknown, or not finished"),
    "beyond_log": ProblemCode(422, "a tree size past the transparency log's, or too small to hold the game"),
    "bad_range": ProblemCode(422, "a consistency proof's `from` below 1 or above its `to`"),
    "bad_cosignature": ProblemCode(422, "a cosignature that does not hold, of a checkpoint this server did not "
                                        "sign, or past the number of witnesses the log keeps"),
    "too_many_open_games": ProblemCode(409, "the creator's open games are at the operator's limit"),
    "body_too_large": ProblemCode(413, "a body, or a chunk of one, over the size limit"),
    "unsupported_media_type": ProblemCode(415, "a body not sent as application/json"),
    "headers_too_large": ProblemCode(431, "a header or request line over the server's limit"),
    "too_many_connections": ProblemCode(429, "too many connections open at once from this client address"),
    "internal_error": ProblemCode(500, "an unexpected error; a POST's outcome is unknown"),
    "not_implemented": ProblemCode(501, "the HTTP server does not implement the request's method"),
    "store_unavailable": ProblemCode(503, "the event store did not answer; a POST's outcome is unknown"),
    "http_error": ProblemCode(None, "any other refusal of the HTTP server, with its status"),
}


def problem_codes() -> dict[str, ProblemCode]:
    """Every problem code of the platform, with its status: the HTTP layer's and the engine's.

    A game's rule and option codes are not here: each game declares its own (``RULE_CODES``).
    """
    declared = dict(HTTP_CODES)
    for code, (kind, meaning) in DOMAIN_CODES.items():
        declared[code] = ProblemCode(status_of_kind(kind), meaning)
    return declared


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


def invalid_body(err: ValidationError) -> Problem:
    """The 400 of a body that a schema refused, with the schema's messages."""
    return Problem(400, "invalid_body", "the request body does not match the schema", errors=err.messages)


def problem_of(err: Exception) -> Problem:
    """Whatever a request raised, as the problem it is answered with (call it inside ``except``)."""
    if isinstance(err, Problem):
        return err
    if isinstance(err, DomainError):
        return as_problem(err)
    if isinstance(err, ValidationError):
        return invalid_body(err)
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
