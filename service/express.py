"""The express lane: ``POST /v1/games/<id>/actions`` without Flask's per-request machinery.

A move is one POST, the API's hottest request. Measured with ``bench/route_cpu.py``, Flask
and werkzeug spent about a third of its CPU on their own work (a request context, routing,
hooks, the request's and the response's objects): 972-1,023 µs of CPU per POST, against
673 µs when a plain WSGI function answered the same requests.

Only a request with nothing unusual takes the lane: a JSON body declared exactly as
``application/json``, with a length, within the size limit; ``Bearer`` and the token of a
player; an ``If-Match`` in plain digits if any; a body that parses, is an object and
passes the action schema. Anything else goes to the Flask app untouched (the body put back
as it was read), so every refusal keeps the status, code and headers of the API reference.
Past those checks the lane answers itself: the engine's own refusals and errors, and the
429 of a caller out of tokens, get the same problem answers as the app's error handlers give.

The caller's rate-limit token is spent once per request, as the app's ``before_request``
does, but without a round trip of its own where it can: the lane hands the engine a gate
(``events.store.Gate``), and the append spends the token in the same step (see
``Engine.act``). On a Redis Cluster, where the bucket and the game live in different hash
slots, the lane spends it first, as the app does. What a commit asks of the workers runs after the answer is
sent, as it does for the app's routes (see ``Engine._when_answered``).
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable, Iterator
from contextvars import ContextVar
from typing import Any

from flask import Flask
from redis.cluster import RedisCluster

from events.store import Gate
from service.app import dump_bytes, problem_response, run_after_answer, unexpected_problem
from service.errors import Problem
from service.inputs import DIGITS, parse_json, prefers_minimal
from service.routes import ACTION_SCHEMA, MAX_IDEMPOTENCY_KEY, MINIMAL_APPLIED, action_answer

_ACTIONS = re.compile(r"/v1/games/([^/]+)/actions")
_JSON = ("application/json", "application/json; charset=utf-8")
_DEFERRED: ContextVar[list[Callable[[], None]] | None] = ContextVar("express_deferred", default=None)

StartResponse = Callable[..., Any]


def keep_until_answered(work: Callable[[], None]) -> bool:
    """Keep ``work`` until the express lane's answer is sent; False outside the lane."""
    pending = _DEFERRED.get()
    if pending is None:
        return False
    pending.append(work)
    return True


class _Answer:
    """A WSGI body whose ``close`` (called once it was sent) runs the work it carries."""

    def __init__(self, body: Iterable[bytes], work: list[Callable[[], None]]) -> None:
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
        taken = self._take(environ, matched.group(1)) if matched is not None else None
        if taken is None:
            return self.inner(environ, start_response)
        return self._act(environ, start_response, *taken)

    def _take(self, environ: dict[str, Any], game_id: str) -> tuple[Any, str, dict[str, Any], str | None,
                                                                      int | None, Gate | None] | None:
        """The caller, the game, the action, its headers and the gate that spends the caller's
        rate-limit token, if the lane may answer; else None.

        Nothing here changes anything, but on a cluster the rate-limit token spent last: up
        to that point the Flask app can take the request over as if the lane were not there.
        """
        if environ.get("CONTENT_TYPE") not in _JSON or environ.get("HTTP_TRANSFER_ENCODING"):
            return None
        length = environ.get("CONTENT_LENGTH") or ""
        if DIGITS.fullmatch(length) is None or not 0 < int(length) <= self.app.config["MAX_CONTENT_LENGTH"]:
            return None
        scheme, _, token = environ.get("HTTP_AUTHORIZATION", "").partition(" ")
        if scheme != "Bearer" or not token or token != token.strip():
            return None
        key = environ.get("HTTP_IDEMPOTENCY_KEY")
        if key is not None and not 1 <= len(key) <= MAX_IDEMPOTENCY_KEY:
            return None
        if_match = environ.get("HTTP_IF_MATCH")
        if if_match is not None and DIGITS.fullmatch(if_match) is None:
            return None
        engine = self.app.extensions["intrigue"]
        limits = self.app.extensions["intrigue.limits"]
        try:
            data = environ["wsgi.input"].read(int(length))
        except Exception:  # the client went away: the app reads on and answers as it does
            return None
        environ["wsgi.input"] = io.BytesIO(data)  # for the app, should it take the request over
        try:
            if engine.is_operator(token):
                return None
            player = engine.player_for_token(token)
            if player is None:
                return None
            action = parse_json(data)
            if not isinstance(action, dict):
                return None
            if ACTION_SCHEMA.validate(action):
                return None
            limiter = engine.limiter
            gate = None
            if isinstance(engine.redis, RedisCluster):
                if limiter.allow(limits.player(), player.id):
                    return None  # the app refuses it with its 429, spending nothing more
            else:
                gate = limiter.gate(limits.player(), player.id)
        except Exception:  # Problem, RedisError...: the app meets the same and answers as it does
            return None
        return player, game_id, action, key, int(if_match) if if_match is not None else None, gate

    def _act(self, environ: dict[str, Any], start_response: StartResponse, player: Any, game_id: str,
             action: dict[str, Any], key: str | None, if_match: int | None, gate: Gate | None) -> Iterable[bytes]:
        pending: list[Callable[[], None]] = []
        reset = _DEFERRED.set(pending)
        try:
            done = self.app.extensions["intrigue"].act(player, game_id, action, idempotency_key=key,
                                                       if_match=if_match, gate=gate)
            minimal = prefers_minimal(environ.get("HTTP_PREFER"))
            body = dump_bytes(action_answer(done, player.id, minimal))
        except Exception as err:
            problem = err if isinstance(err, Problem) else unexpected_problem(err)
            with self.app.app_context():
                response = problem_response(problem)
            return _Answer(response(environ, start_response), pending)
        finally:
            _DEFERRED.reset(reset)
        headers = [("Content-Type", "application/json"), ("Content-Length", str(len(body)))]
        if minimal:
            headers.extend(MINIMAL_APPLIED.items())
        start_response("200 OK", headers)
        return _Answer([body], pending)
