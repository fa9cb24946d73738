"""The Flask app factory: one engine per app, blueprints per resource, one error handler."""

from __future__ import annotations

import logging
import math
import os
from collections.abc import Callable
from functools import partial
from typing import Any

import orjson
import redis
from flask import Flask, Response, g, has_request_context, json, request
from flask.json.provider import JSONProvider
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException
from werkzeug.middleware.proxy_fix import ProxyFix

from events.store import connect
from service.engine import Engine, Player
from service.errors import Problem
from service.inputs import json_body  # noqa: F401  (kept importable from here)
from service.ratelimit import Bucket, Limits, limited
from workers.scheduling import JobScheduler, make_queue, queue_client

log = logging.getLogger(__name__)

PROBLEM_JSON = "application/problem+json"


def create_app(engine: Engine | None = None, *, redis_url: str | None = None,
               operator_token: str | None = None, rate_limit: float | None = None,
               limits: Limits | None = None) -> Flask:
    """Build the API. Without an engine, connect to ``redis_url`` (or ``REDIS_URL``).

    ``limits`` default to the environment (:meth:`Limits.from_env`); ``rate_limit``
    overrides only the requests per second per player (0 turns it off).
    """
    app = Flask(__name__)
    app.json = OrjsonProvider(app)
    app.config["MAX_CONTENT_LENGTH"] = 64 * 1024
    if engine is None:
        url = redis_url or os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
        client = connect(url)
        engine = Engine(client, JobScheduler(make_queue(queue_client(client, url))),
                        operator_token=operator_token or os.environ.get("INTRIGUE_OPERATOR_TOKEN"))
    app.extensions["intrigue"] = engine
    engine.after_answer = _after_answer
    limits = limits or Limits.from_env(player_rate=rate_limit)
    app.extensions["intrigue.limits"] = limits
    app.extensions["intrigue.limiter"] = engine.limiter
    if limits.trusted_proxies:
        # The client is the address the nearest trusted proxy saw, not whatever a client claims.
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=limits.trusted_proxies)  # type: ignore[method-assign]

    @app.after_request
    def _then_ask_workers(response: Response) -> Response:
        work = g.pop("after_answer", None)
        if work:
            response.call_on_close(partial(run_after_answer, work))
        return response

    @app.before_request
    def _limit() -> None:
        """Every request spends a token: the player's if the token is known, else its address's."""
        try:
            player = current_player(required=False)
        except Problem:
            player = None  # a bad token is refused by the route (asking again); until then it is anonymous
            g.pop("player", None)
        if g.get("operator"):
            return
        if player is not None:
            take(limits.player(), player.id)
        else:
            take(limits.anonymous(), client_address())

    from service.chat import chat_bp
    from service.openapi import docs_bp
    from service.routes import games_bp, me_bp, players_bp
    from service.webhooks import webhooks_bp

    for blueprint in (players_bp, games_bp, me_bp, docs_bp, chat_bp, webhooks_bp):
        app.register_blueprint(blueprint)

    @app.errorhandler(Problem)
    def _problem(err: Problem) -> Response:
        return problem_response(err)

    @app.errorhandler(ValidationError)
    def _invalid(err: ValidationError) -> Response:
        return problem_response(Problem(400, "invalid_body", "the request body does not match the schema",
                                        errors=err.messages))

    @app.errorhandler(HTTPException)
    def _http(err: HTTPException) -> Response:
        code = {404: "not_found", 405: "method_not_allowed", 413: "body_too_large",
                415: "unsupported_media_type"}.get(err.code or 500, "http_error")
        response = problem_response(Problem(err.code or 500, code, err.description or ""))
        for name, value in err.get_headers():  # 405's Allow, 401's WWW-Authenticate...
            if name.lower() != "content-type":
                response.headers[name] = value
        return response

    @app.errorhandler(redis.ConnectionError)
    @app.errorhandler(redis.TimeoutError)
    def _redis_down(err: Exception) -> Response:
        return problem_response(unexpected_problem(err))

    @app.errorhandler(Exception)
    def _unexpected(err: Exception) -> Response:
        return problem_response(unexpected_problem(err))

    from service.express import ExpressLane

    app.wsgi_app = ExpressLane(app, app.wsgi_app)  # type: ignore[method-assign]
    from service.webclient import WebClient

    app.wsgi_app = WebClient(app.wsgi_app)  # type: ignore[method-assign]  # the browser client at /
    return app


def unexpected_problem(err: Exception) -> Problem:
    """The 503 or 500 answer to an exception no route expected, logged (call it inside ``except``)."""
    if isinstance(err, redis.ConnectionError | redis.TimeoutError):
        # A reply that never came may hide an append that did happen: say so, and how to find out.
        log.error("redis unavailable: %s", err)
        return Problem(503, "store_unavailable", UNKNOWN_OUTCOME.format(
            what="the event store could not be reached or did not answer in time"), retry_after=1)
    log.exception("unhandled error")
    return Problem(500, "internal_error", UNKNOWN_OUTCOME.format(what="an unexpected error occurred"))


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


#: What a client is told when a request failed at a point where an action may already
#: be recorded: an Idempotency-Key turns the retry into an answer.
UNKNOWN_OUTCOME = ("{what}. An action posted with this request may or may not have been recorded: "
                   "post it again with the same Idempotency-Key (or read the game) to find out.")


def problem_response(problem: Problem) -> Response:
    response = Response(json.dumps(problem.to_dict()), status=problem.status, mimetype=PROBLEM_JSON)
    if problem.status == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="intrigue"'
    if problem.status in (429, 503):
        response.headers["Retry-After"] = str(max(1, math.ceil(problem.extra.get("retry_after", 1))))
    return response


def _after_answer(work: Callable[[], None]) -> bool:
    """The engine's hook: during a request, keep ``work`` until the answer has been sent.

    The WSGI server calls the response's ``close`` after writing it (PEP 3333), and that
    runs what a commit still owes the workers (see Engine._when_answered).
    """
    from service.express import keep_until_answered

    if keep_until_answered(work):  # a request on the express lane
        return True
    if not has_request_context():
        return False
    g.setdefault("after_answer", []).append(work)
    return True


def run_after_answer(work: list[Callable[[], None]]) -> None:
    """Run what a commit owes the workers, once its answer was sent; a failure is only logged."""
    for item in work:
        try:
            item()
        except Exception:  # the worker's sweep asks for the step instead
            log.exception("could not ask a worker for a step after answering")


def take(bucket: Bucket, subject: str) -> None:
    """Spend one token of ``bucket`` for ``subject``, or answer 429 with when to retry."""
    from flask import current_app

    wait = current_app.extensions["intrigue.limiter"].allow(bucket, subject)
    if wait:
        raise limited(bucket.name, wait)


def limits() -> Limits:
    from flask import current_app

    return current_app.extensions["intrigue.limits"]


def client_address() -> str:
    """The caller's address (behind ``INTRIGUE_TRUSTED_PROXIES``, the one the proxies saw)."""
    return request.remote_addr or "unknown"


def engine() -> Engine:
    from flask import current_app

    return current_app.extensions["intrigue"]


def bearer_token() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if not header:
        return None
    if scheme.lower() != "bearer" or not token.strip():
        raise Problem(401, "bad_authorization", "use the header 'Authorization: Bearer <token>'")
    return token.strip()


def current_player(required: bool = True) -> Player | None:
    """The player behind the bearer token (cached per request)."""
    if "player" not in g:
        token = bearer_token()
        g.operator = bool(token) and engine().is_operator(token or "")
        g.player = engine().player_for_token(token) if token and not g.operator else None
        if token and not g.operator and g.player is None:
            raise Problem(401, "bad_token", "this token is not known; create a player with POST /v1/players")
    if required and g.player is None:
        raise Problem(401, "auth_required", "this needs a player token: 'Authorization: Bearer <token>'")
    return g.player


def is_operator() -> bool:
    current_player(required=False)
    return bool(g.get("operator"))
