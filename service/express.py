"""The express lane: a move, and a game's set-up requests, without Flask's per-request machinery.

A move is one POST, the API's hottest request. A game's set-up (its creation, a join and an
event stream per seat) is seven more requests, each of which cost more than a move through
Flask: at about 24 moves a game of Coup, a fifth of the API's CPU (docs/performance.md).
Measured with ``bench/route_cpu.py``, Flask and werkzeug spent a large share of each one's
CPU on their own work (a request context, routing, hooks, the request's and the response's
objects); docs/performance.md has the figures.

Only a request with nothing unusual takes the lane: a JSON body declared exactly as
``application/json``, with a length, within the size limit; ``Bearer`` and the token of a
player; an ``If-Match`` in plain digits if any; a body that parses and is an object. It
then goes the way of the Flask route (``service.actions.submit_action``): a body that is
not an action, or a bad ``Idempotency-Key``, is handed to the Flask app untouched (the body
put back as it was read), so every refusal keeps the status, code and headers of the API
reference. Past those checks the lane answers itself: the engine's own refusals and errors,
and the 429 of a caller out of tokens, get the same problem answers as the app's.

The caller's rate-limit tokens (the player's, and its address's ceiling over all its
tokens) are spent once per request, as the app's ``before_request`` does. When the whole
body came with the headers (a client's usual move: one small write), they are spent by the
append itself, in its one round trip to Redis (``Engine.act``'s gates). When the body has
yet to come they are spent before it is read: a caller out of tokens is answered 429 at
once, whatever it sends or holds back after its headers. A request the lane hands to the
app after spending carries a mark (``SPENT``) so the app does not spend them again. What a
commit asks of the workers comes back with the engine's result and runs after the answer is
sent, as it does for the app's routes.

The set-up requests take the lane on the same terms (a player's ``Bearer`` token, no
Idempotency-Key) and get the route's answers:

- ``POST /v1/games/<id>/join`` with no body: its tokens are spent by the append that takes
  the seat (``Engine.join``'s gates), or apart when it appends nothing (a seat already held,
  a refusal);
- ``POST /v1/games`` with a plain JSON body that the route's schema takes (a body it refuses
  goes to the app, which says why): tokens first, then the creation, as the route does;
- ``GET /v1/games/<id>/events/stream`` from the start, with ``view=true`` or nothing else in
  the query and no ``Last-Event-ID``: the caller's tokens and the stream's lease in one
  script, then its first page (``setup_requests.open_stream_from_start``).

Anything else is the app's.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from flask import Flask
from marshmallow import ValidationError

from engine.core import Player
from engine.errors import Limited
from events.store import Gate
from projections.views import game_view
from service import setup_requests
from service.actions import MINIMAL_APPLIED, submit_action
from service.answers import Problem, dump_bytes, problem_of, problem_response, run_after_answer
from service.event_stream import STREAM_HEADERS
from service.http_errors import close_after_answer
from service.inputs import DIGITS, parse_json, prefers_minimal
from service.ratelimit_headers import GATES, with_rate_limit_headers
from service.scopes import check_scope

_ACTIONS = re.compile(r"/v1/games/([^/]+)/actions")
_JOIN = re.compile(r"/v1/games/([^/]+)/join")
_STREAM = re.compile(r"/v1/games/([^/]+)/events/stream")
_JSON = ("application/json", "application/json; charset=utf-8")

StartResponse = Callable[..., Any]
#: The environ's mark of a request whose rate-limit tokens the lane already spent.
SPENT = "intrigue.tokens_spent"


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


class ExpressLane:
    """WSGI middleware in front of the Flask app's own ``wsgi_app`` (see the module's text)."""

    def __init__(self, app: Flask, inner: Callable[[dict[str, Any], StartResponse], Iterable[bytes]]) -> None:
        self.app = app
        self.inner = inner

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        # Both paths' answers under a limit say what is left of it (service/ratelimit_headers.py).
        start_response = with_rate_limit_headers(self.app.extensions["intrigue"], environ, start_response)
        path = environ.get("PATH_INFO", "")
        if environ.get("REQUEST_METHOD") != "POST":
            if path.endswith("/events/stream") and environ.get("REQUEST_METHOD") == "GET":
                return self._stream(environ, start_response, _STREAM.fullmatch(path))
            return self.inner(environ, start_response)
        if path.endswith("/join"):
            return self._join(environ, start_response, _JOIN.fullmatch(path))
        if path == "/v1/games":
            return self._create(environ, start_response)
        if not path.endswith("/actions"):
            return self.inner(environ, start_response)
        matched = _ACTIONS.fullmatch(path)
        if matched is None:
            return self.inner(environ, start_response)
        taken, answered = self._taken(environ, start_response)
        if taken is None:
            return answered
        player, action, gates = taken
        engine = self.app.extensions["intrigue"]
        minimal = prefers_minimal(environ.get("HTTP_PREFER"))
        try:
            body, work = submit_action(engine, player, matched.group(1), action, environ.get("HTTP_IDEMPOTENCY_KEY"),
                                       environ.get("HTTP_IF_MATCH"), minimal, gates)
        except (ValidationError, Problem):  # the request's own fault, found before anything changed
            return self.inner(environ, start_response)
        except Exception as err:
            return problem_response(problem_of(err))(environ, start_response)
        return _Answer(_json(start_response, "200 OK", body, MINIMAL_APPLIED.items() if minimal else ()), work)

    def _create(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        """``POST /v1/games`` with a plain JSON body that the route's schema takes, and no
        Idempotency-Key, as the route answers it (the caller's tokens spent first, as there)."""
        if "HTTP_IDEMPOTENCY_KEY" in environ:
            return self.inner(environ, start_response)
        taken, answered = self._taken(environ, start_response)
        if taken is None:
            return answered
        player, body, gates = taken
        try:
            fields = setup_requests.GAME_CREATE_SCHEMA.load(body)
        except ValidationError:  # the app says what is wrong with it, in its words
            return self.inner(environ, start_response)
        engine = self.app.extensions["intrigue"]
        try:
            if gates:
                engine.spend_apart(gates)
            record = setup_requests.create_game(engine, self.app.extensions["intrigue.limits"], player, fields)
        except Exception as err:
            return problem_response(problem_of(err))(environ, start_response)
        return _json(start_response, "201 CREATED", game_view(record, None))

    def _join(self, environ: dict[str, Any], start_response: StartResponse,
              matched: re.Match[str] | None) -> Iterable[bytes]:
        """``POST /v1/games/<id>/join`` with no body and no Idempotency-Key, as the route
        answers it; the caller's tokens are spent by the append that takes the seat."""
        unusual = (matched is None or environ.get("CONTENT_LENGTH") not in (None, "", "0")
                   or environ.get("HTTP_TRANSFER_ENCODING") or "HTTP_IDEMPOTENCY_KEY" in environ)
        caller = None if unusual else self._caller(environ)
        if matched is None or caller is None:
            return self.inner(environ, start_response)
        engine = self.app.extensions["intrigue"]
        try:
            joined = engine.join(caller[0], matched.group(1), answer_first=True, gates=engine.gates(caller[1]))
        except Exception as err:
            return problem_response(problem_of(err))(environ, start_response)
        return _Answer(_json(start_response, "200 OK", setup_requests.join_answer(joined)), joined.after_answer)

    def _stream(self, environ: dict[str, Any], start_response: StartResponse,
                matched: re.Match[str] | None) -> Iterable[bytes]:
        """A seat's or a spectator's ``GET /v1/games/<id>/events/stream`` from the start, with
        or without ``view=true`` and nothing else (no ``after``, no ``Last-Event-ID``), with the
        route's answers and refusals, in two round trips where the route takes four (see
        ``setup_requests.open_stream_from_start``)."""
        if (matched is None or environ.get("QUERY_STRING", "") not in ("", "view=true")
                or "HTTP_LAST_EVENT_ID" in environ):
            return self.inner(environ, start_response)
        caller = self._caller(environ)
        if caller is None:
            return self.inner(environ, start_response)
        player, asked = caller
        engine = self.app.extensions["intrigue"]
        try:
            stream = setup_requests.open_stream_from_start(
                engine, self.app.extensions["intrigue.limits"], matched.group(1), player.id,
                environ.get("REMOTE_ADDR") or "unknown", asked, environ.get("QUERY_STRING") == "view=true")
        except Exception as err:
            return problem_response(problem_of(err))(environ, start_response)
        stream.write = start_response("200 OK", list(STREAM_HEADERS))
        return stream

    def _caller(self, environ: dict[str, Any]) -> tuple[Player, list[tuple[Any, str]]] | None:
        """The player a plain ``Bearer`` token names, and the buckets its request spends; None
        for anything else (no token, an unknown one, the operator's, a RedisError while
        looking), which the app answers as it does."""
        scheme, _, token = environ.get("HTTP_AUTHORIZATION", "").partition(" ")
        if scheme != "Bearer" or not token or token != token.strip():
            return None
        engine = self.app.extensions["intrigue"]
        try:
            if engine.is_operator(token):
                return None
            player = engine.player_for_token(token)
        except Exception:
            return None
        if player is None:
            return None
        try:  # a call outside the token's scopes: the app answers its 403
            check_scope(player.scopes, environ.get("REQUEST_METHOD", ""), environ.get("PATH_INFO", ""))
        except Problem:
            return None
        limits = self.app.extensions["intrigue.limits"]
        asked = [(limits.player(), player.id), (limits.address(), environ.get("REMOTE_ADDR") or "unknown")]
        environ[GATES] = engine.gates(asked)  # for the answer's RateLimit headers (service/ratelimit_headers.py)
        return player, asked

    def _taken(self, environ: dict[str, Any], start_response: StartResponse
               ) -> tuple[tuple[Player, dict[str, Any], tuple[Gate, ...]] | None, Iterable[bytes]]:
        """:meth:`_take`'s caller, body and gates; or None and the answer already given: the
        429 of a caller out of tokens, or the app's answer to anything the lane leaves it."""
        try:
            taken = self._take(environ)
        except Limited as err:  # out of tokens: answered before the body is read, which is never read
            close_after_answer(environ)
            return None, problem_response(problem_of(err))(environ, start_response)
        except Exception:  # a RedisError while spending: the app meets the same and answers as it does
            return None, self.inner(environ, start_response)
        if taken is None:
            return None, self.inner(environ, start_response)
        return taken, ()

    def _take(self, environ: dict[str, Any]) -> tuple[Player, dict[str, Any], tuple[Gate, ...]] | None:
        """The caller, the action and the gates its append spends, if the lane may answer; else None.

        Nothing here changes anything but the caller's rate-limit tokens, spent before the
        body is read (``Limited`` when there are none) unless the body is already in memory
        (then the gates are returned, for the append): the Flask app can take the request
        over as if the lane were not there, and spends the tokens only if they were not.
        """
        if environ.get("CONTENT_TYPE") not in _JSON or environ.get("HTTP_TRANSFER_ENCODING"):
            return None
        length = environ.get("CONTENT_LENGTH") or ""
        if DIGITS.fullmatch(length) is None or not 0 < int(length) <= self.app.config["MAX_CONTENT_LENGTH"]:
            return None
        if_match = environ.get("HTTP_IF_MATCH")
        if if_match is not None and DIGITS.fullmatch(if_match) is None:
            return None
        engine = self.app.extensions["intrigue"]
        caller = self._caller(environ)
        if caller is None:
            return None
        player, asked = caller
        gates: tuple[Gate, ...] = ()
        if in_memory(environ["wsgi.input"], int(length)):
            gates = engine.gates(asked)
        else:
            engine.take_all(asked)
            environ[SPENT] = True
        try:
            data = environ["wsgi.input"].read(int(length))
        except Exception:  # the client went away: the app reads on and answers as it does
            return None
        environ["wsgi.input"] = io.BytesIO(data)  # for the app, should it take the request over
        try:
            action = parse_json(data)
        except Exception:  # a Problem: the app meets the same and answers as it does
            return None
        if not isinstance(action, dict):
            return None
        return player, action, gates


def _json(start_response: StartResponse, status: str, body: Any,
          extra: Iterable[tuple[str, str]] = ()) -> list[bytes]:
    """Start a JSON answer of ``body`` (spelt as the app spells it) and return its bytes."""
    answer = dump_bytes(body)
    start_response(status, [("Content-Type", "application/json"), ("Content-Length", str(len(answer))), *extra])
    return [answer]


def in_memory(body: Any, length: int) -> bool:
    """Whether the first ``length`` bytes of a request's body can be read without waiting on
    the client: gunicorn's (through ``service.deadline_body.DeadlineBody``) when they came
    with the headers, or a body that is a buffer already (a test client's)."""
    buffered = getattr(body, "buffered", None)
    if buffered is not None:
        return buffered() >= length
    return isinstance(body, io.BytesIO)
