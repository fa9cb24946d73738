"""The API's front: every request routed by the Flask app's own ``url_map``; the hot ones served
by a fast handler of their endpoint, the rest by the Flask app.

A move is one POST, the API's hottest request; a game's set-up (its creation, a join and an
event stream per seat) is seven more. Measured with ``bench/route_cpu.py``, Flask and werkzeug
spent a large share of each one's CPU on their own work (a request context, hooks, the
request's and the response's objects): docs/performance.md, sections 4 and 21.

So there is one route table, the app's ``url_map``: :class:`Front` matches each request
against it (a ``MapAdapter`` bound once, its answer remembered per method and path: a game's
path comes back once a move) and, when the endpoint it reaches has a fast handler
(:data:`FAST_HANDLERS`, keyed by the Flask endpoint's name), calls it with the route's
arguments. A fast handler serves the request past Flask, or declines it (returns None)
before anything is spent or read, and the app serves it as if the front were not there.
Anything unmatched (a 404, a 405, a redirect), and every other endpoint, is the app's.

A fast handler takes only what it can answer in full: a player's ``Bearer`` token whose scopes
cover the call and, for a body, one declared exactly ``application/json`` with a length within
the limit. Its caller is admitted by ``service.admission.admit``, the function the app's
``before_request`` calls, so a request spends its rate-limit tokens once whichever way it goes,
and the ``start_response`` the front hands to both paths adds the answer's ``RateLimit``
headers (``service.ratelimit_headers``). Once a handler has taken a
request it answers everything itself, its refusals too, with the problems the route raises
(the same functions: ``submit_action``, ``setup_requests``, ``parse_json``, ``problem_of``).

- ``POST /v1/games/<id>/actions`` (``games.act``): when the whole body came with the headers
  (a client's usual move: one small write) its tokens are spent by the append itself, in its
  one round trip (``Engine.act``'s gates), or apart when it appends nothing (a refusal);
  when the body has yet to come they are spent before it is read, so a caller out of tokens
  is answered 429 at once, whatever it sends or holds back after its headers.
- ``POST /v1/games/<id>/join`` (``games.join``) with no body and no Idempotency-Key: spent by
  the append that takes the seat (``Engine.join``'s gates), or apart.
- ``POST /v1/games`` (``games.create_game``) with no Idempotency-Key: tokens first, then the
  body, the schema and the creation, as the route does.
- ``GET /v1/games/<id>/events/stream`` (``games.event_stream``) from the start, with
  ``view=true`` or nothing else in the query and no ``Last-Event-ID``: the caller's tokens and
  the stream's lease in one script, then its first page (``setup_requests.open_stream_from_start``).

What a commit asks of the workers comes back with the engine's result and runs after the
answer is sent, as it does for the app's routes.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from flask import Flask
from marshmallow import ValidationError

from projections.views import game_view
from service import setup_requests
from service.actions import MINIMAL_APPLIED, submit_action
from service.admission import Admission, admit
from service.answers import Problem, dump_bytes, problem_of, problem_response, run_after_answer
from service.event_stream import STREAM_HEADERS
from service.http_errors import BodyTimeout, body_timeout_problem, close_after_answer
from service.inputs import DIGITS, as_object, parse_json, prefers_minimal
from service.ratelimit_headers import with_rate_limit_headers

_JSON = ("application/json", "application/json; charset=utf-8")

#: How many (method, path) pairs the front remembers the match of.
REMEMBERED_ROUTES = 4096

StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]
#: A fast handler: the front, the environ, ``start_response`` and the route's arguments; the
#: answer, or None to leave the request (untouched, nothing spent) to the app.
FastHandler = Callable[["Front", dict[str, Any], StartResponse, dict[str, Any]], Iterable[bytes] | None]


class _Declined(Exception):
    """The app serves this request: nothing of it was read or spent."""


class _Answer:
    """A WSGI body whose ``close`` (called once it was sent) runs the work it carries."""

    def __init__(self, body: Iterable[bytes], work: Sequence[Callable[[], None]]) -> None:
        self._body = body
        self._work = work

    def __iter__(self) -> Iterator[bytes]:
        return iter(self._body)

    def close(self) -> None:
        close = getattr(self._body, "close", None)
        if close is not None:
            close()
        run_after_answer(self._work)


class Front:
    """WSGI middleware in front of the Flask app's own ``wsgi_app`` (see the module's text)."""

    def __init__(self, app: Flask, inner: WSGIApp, handlers: Mapping[str, FastHandler] | None = None) -> None:
        self.app = app
        self.inner = inner
        self.engine = app.extensions["intrigue"]
        self.limits = app.extensions["intrigue.limits"]
        self.max_body = app.config["MAX_CONTENT_LENGTH"]
        self.handlers = dict(FAST_HANDLERS if handlers is None else handlers)
        unknown = set(self.handlers) - set(app.view_functions)
        if unknown:
            raise ValueError(f"fast handlers for endpoints the app does not have: {sorted(unknown)}")
        #: Bound once: the front only matches (the app builds any URL it answers with itself).
        self.adapter = app.url_map.bind("localhost")
        #: What the map said of a method and path lately: a game's path is asked for once a move.
        self.matched: dict[tuple[str, str], tuple[str, dict[str, Any]] | None] = {}

    def route(self, environ: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
        """The endpoint and arguments (not to be changed) the app's ``url_map`` gives the
        request, or None (a 404, a 405, a redirect, a path that is not ASCII: the app answers
        those). Remembered for :data:`REMEMBERED_ROUTES` paths, then forgotten all at once."""
        key = (environ.get("REQUEST_METHOD") or "", environ.get("PATH_INFO", ""))
        try:
            return self.matched[key]
        except KeyError:
            pass
        found = self._match(*key)
        if len(self.matched) >= REMEMBERED_ROUTES:
            self.matched.clear()
        self.matched[key] = found
        return found

    def _match(self, method: str, path: str) -> tuple[str, dict[str, Any]] | None:
        if not path.isascii():  # the app decodes such a path as UTF-8 before matching it
            return None
        try:
            endpoint, args = self.adapter.match(path, method)
        except Exception:  # werkzeug's NotFound, MethodNotAllowed, RequestRedirect
            return None
        return str(endpoint), args

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        # Every answer under a limit says what is left of it, whichever path admitted the request.
        start_response = with_rate_limit_headers(self.engine, environ, start_response)
        routed = self.route(environ)
        if routed is not None:
            handler = self.handlers.get(routed[0])
            if handler is not None:
                answer = handler(self, environ, start_response, routed[1])
                if answer is not None:
                    return answer
        return self.inner(environ, start_response)

    # ------------------------------------------------------------------ what the handlers share

    def admitted_player(self, environ: dict[str, Any], endpoint: str) -> Admission:
        """The request's admission, its spending deferred (``admit``'s ``defer``): a player's,
        or ``_Declined`` (no token, a bad one, the operator's, a call outside its scopes, a
        RedisError while looking), which the app admits and answers as it does."""
        try:
            admission = admit(self.engine, self.limits, environ, endpoint, defer=True)
        except Exception:  # a RedisError, or a call outside the token's scopes (the app's 403)
            raise _Declined from None
        if admission.player is None:
            raise _Declined
        return admission

    def json_length(self, environ: dict[str, Any]) -> int:
        """The length of a body declared exactly as JSON, within the limit; else ``_Declined``."""
        if environ.get("CONTENT_TYPE") not in _JSON or "HTTP_TRANSFER_ENCODING" in environ:
            raise _Declined
        length = environ.get("CONTENT_LENGTH") or ""
        if DIGITS.fullmatch(length) is None or not 0 < int(length) <= self.max_body:
            raise _Declined
        return int(length)


def _problem(environ: dict[str, Any], start_response: StartResponse, err: Exception,
             unread: bool = False) -> Iterable[bytes]:
    """The problem answer to what a fast handler met, as the app's error handlers answer it;
    ``unread``: refused before its body was read, which is then never read (the connection closes)."""
    if unread:
        close_after_answer(environ)
    problem = body_timeout_problem(err.seconds) if isinstance(err, BodyTimeout) else problem_of(err)
    return problem_response(problem)(environ, start_response)


def _json(start_response: StartResponse, status: str, body: Any,
          extra: Iterable[tuple[str, str]] = ()) -> list[bytes]:
    """Start a JSON answer of ``body`` (spelt as the app spells it) and return its bytes."""
    answer = dump_bytes(body)
    start_response(status, [("Content-Type", "application/json"), ("Content-Length", str(len(answer))), *extra])
    return [answer]


def _read_object(environ: dict[str, Any], length: int) -> dict[str, Any]:
    """The body, which must be a JSON object: the 400 (or, late, the 408) the route raises otherwise."""
    return as_object(parse_json(environ["wsgi.input"].read(length)))


def act(front: Front, environ: dict[str, Any], start_response: StartResponse,
        args: dict[str, Any]) -> Iterable[bytes] | None:
    """``POST /v1/games/<id>/actions``: the route's ``act``, its tokens spent by the append."""
    if environ.get("REQUEST_METHOD") != "POST":  # the rule also answers OPTIONS: the app's
        return None
    try:
        length = front.json_length(environ)
        admission = front.admitted_player(environ, "games.act")
    except _Declined:
        return None
    player, gates, engine = admission.player, admission.gates, front.engine
    assert player is not None
    minimal = prefers_minimal(environ.get("HTTP_PREFER"))
    if not in_memory(environ["wsgi.input"], length):
        try:
            engine.spend_apart(gates)  # before the body: a caller out of tokens is answered at once
        except Exception as err:
            return _problem(environ, start_response, err, unread=True)
        gates = ()
    try:
        try:
            action = _read_object(environ, length)
            answer, work = submit_action(engine, player, args["game_id"], action,
                                         environ.get("HTTP_IDEMPOTENCY_KEY"), environ.get("HTTP_IF_MATCH"),
                                         minimal, gates)
        except (Problem, ValidationError, BodyTimeout):  # the request's own fault, found before the append
            if gates:
                engine.spend_apart(gates)  # spent now, as the app spends them before its route runs
            raise
    except Exception as err:
        return _problem(environ, start_response, err)
    return _Answer(_json(start_response, "200 OK", answer, MINIMAL_APPLIED.items() if minimal else ()), work)


def create_game(front: Front, environ: dict[str, Any], start_response: StartResponse,
                args: dict[str, Any]) -> Iterable[bytes] | None:
    """``POST /v1/games`` with no Idempotency-Key: the route's ``create_game`` (tokens first)."""
    if environ.get("REQUEST_METHOD") != "POST" or "HTTP_IDEMPOTENCY_KEY" in environ:  # the app's idempotency
        return None  # layer keeps the answer of a request with a key
    try:
        length = front.json_length(environ)
        admission = front.admitted_player(environ, "games.create_game")
    except _Declined:
        return None
    assert admission.player is not None
    try:
        front.engine.spend_apart(admission.gates)  # before the body, as the app's before_request
    except Exception as err:
        return _problem(environ, start_response, err, unread=not in_memory(environ["wsgi.input"], length))
    try:
        fields = setup_requests.GAME_CREATE_SCHEMA.load(_read_object(environ, length))
        record = setup_requests.create_game(front.engine, front.limits, admission.player, fields)
    except Exception as err:
        return _problem(environ, start_response, err)
    return _json(start_response, "201 CREATED", game_view(record, None))


def join(front: Front, environ: dict[str, Any], start_response: StartResponse,
         args: dict[str, Any]) -> Iterable[bytes] | None:
    """``POST /v1/games/<id>/join`` with no body and no Idempotency-Key: the route's ``join``,
    its tokens spent by the append that takes the seat."""
    if (environ.get("REQUEST_METHOD") != "POST" or environ.get("CONTENT_LENGTH") not in (None, "", "0")
            or "HTTP_TRANSFER_ENCODING" in environ or "HTTP_IDEMPOTENCY_KEY" in environ):
        return None
    try:
        admission = front.admitted_player(environ, "games.join")
    except _Declined:
        return None
    assert admission.player is not None
    try:
        joined = front.engine.join(admission.player, args["game_id"], answer_first=True, gates=admission.gates)
    except Exception as err:
        return _problem(environ, start_response, err)
    return _Answer(_json(start_response, "200 OK", setup_requests.join_answer(joined)), joined.after_answer)


def event_stream(front: Front, environ: dict[str, Any], start_response: StartResponse,
                 args: dict[str, Any]) -> Iterable[bytes] | None:
    """A seat's or a spectator's ``GET /v1/games/<id>/events/stream`` from the start, with or
    without ``view=true`` and nothing else (no ``after``, no ``Last-Event-ID``): the route's
    answers and refusals, in two round trips where the route takes four."""
    query = environ.get("QUERY_STRING", "")
    if environ.get("REQUEST_METHOD") != "GET" or query not in ("", "view=true") or "HTTP_LAST_EVENT_ID" in environ:
        return None
    try:
        admission = front.admitted_player(environ, "games.event_stream")
    except _Declined:
        return None
    assert admission.player is not None
    try:
        stream = setup_requests.open_stream_from_start(
            front.engine, front.limits, args["game_id"], admission.player.id, admission.address,
            list(admission.asked), query == "view=true")
    except Exception as err:
        return _problem(environ, start_response, err)
    stream.write = start_response("200 OK", list(STREAM_HEADERS))
    return stream


#: The fast handlers, by the Flask endpoint whose route they serve.
FAST_HANDLERS: dict[str, FastHandler] = {
    "games.act": act,
    "games.create_game": create_game,
    "games.join": join,
    "games.event_stream": event_stream,
}


def in_memory(body: Any, length: int) -> bool:
    """Whether the first ``length`` bytes of a request's body can be read without waiting on
    the client: gunicorn's (through ``service.deadline_body.DeadlineBody``) when they came
    with the headers, or a body that is a buffer already (a test client's)."""
    buffered = getattr(body, "buffered", None)
    if buffered is not None:
        return buffered() >= length
    return isinstance(body, io.BytesIO)
