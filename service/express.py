"""The express lane: ``POST /v1/games/<id>/actions`` without Flask's per-request machinery.

A move is one POST, the API's hottest request. Measured with ``bench/route_cpu.py``, Flask
and werkzeug spent a large share of its CPU on their own work (a request context, routing,
hooks, the request's and the response's objects); docs/performance.md has the figures.

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
from service.actions import MINIMAL_APPLIED, submit_action
from service.answers import Problem, dump_bytes, problem_of, problem_response, run_after_answer
from service.http_errors import close_after_answer
from service.inputs import DIGITS, parse_json, prefers_minimal

_ACTIONS = re.compile(r"/v1/games/([^/]+)/actions")
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
        path = environ.get("PATH_INFO", "")
        if environ.get("REQUEST_METHOD") != "POST" or not path.endswith("/actions"):
            return self.inner(environ, start_response)
        matched = _ACTIONS.fullmatch(path)
        try:
            taken = self._take(environ) if matched is not None else None
        except Limited as err:  # out of tokens: answered before the body is read, which is never read
            close_after_answer(environ)
            return problem_response(problem_of(err))(environ, start_response)
        except Exception:  # a RedisError while spending: the app meets the same and answers as it does
            return self.inner(environ, start_response)
        if taken is None:
            return self.inner(environ, start_response)
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
        answer = dump_bytes(body)
        headers = [("Content-Type", "application/json"), ("Content-Length", str(len(answer)))]
        if minimal:
            headers.extend(MINIMAL_APPLIED.items())
        start_response("200 OK", headers)
        return _Answer([answer], work)

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
        scheme, _, token = environ.get("HTTP_AUTHORIZATION", "").partition(" ")
        if scheme != "Bearer" or not token or token != token.strip():
            return None
        if_match = environ.get("HTTP_IF_MATCH")
        if if_match is not None and DIGITS.fullmatch(if_match) is None:
            return None
        engine = self.app.extensions["intrigue"]
        try:
            if engine.is_operator(token):
                return None
            player = engine.player_for_token(token)
        except Exception:  # a RedisError: the app meets the same and answers as it does
            return None
        if player is None:
            return None
        limits = self.app.extensions["intrigue.limits"]
        asked = [(limits.player(), player.id), (limits.address(), environ.get("REMOTE_ADDR") or "unknown")]
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


def in_memory(body: Any, length: int) -> bool:
    """Whether the first ``length`` bytes of a request's body can be read without waiting on
    the client: gunicorn's (through ``service.gevent_worker.DeadlineBody``) when they came
    with the headers, or a body that is a buffer already (a test client's)."""
    buffered = getattr(body, "buffered", None)
    if buffered is not None:
        return buffered() >= length
    return isinstance(body, io.BytesIO)
