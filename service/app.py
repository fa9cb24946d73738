"""The Flask app factory: one engine per app, blueprints per resource, one error handler."""

from __future__ import annotations

from dataclasses import replace
from functools import partial

import redis
from flask import Flask, Response, g, request
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.routing import RequestRedirect

from engine.core import Engine
from engine.errors import DomainError
from engine.scheduling import JobScheduler, make_queue, queue_client
from engine.settings import DEFAULT_REDIS_URL, Limits, Settings
from events.store import connect
from service.admission import admit
from service.answers import (
    OrjsonProvider,
    Problem,
    as_problem,
    invalid_body,
    problem_response,
    run_after_answer,
    unexpected_problem,
)
from service.blueprints import API_BLUEPRINTS
from service.chunked_bodies import MAX_BODY_BYTES, ChunkedBodies
from service.front import Front
from service.http_errors import BodyTimeout, body_timeout_problem, relative_location
from service.idempotency import install as honour_idempotency_keys
from service.openapi import docs_bp, reference_bp
from service.webclient import WebClient

#: The code of each refusal Flask makes on its own, by status; any other status is ``http_error``.
HTTP_EXCEPTION_CODES = {404: "not_found", 405: "method_not_allowed", 413: "body_too_large",
                        415: "unsupported_media_type"}


def create_app(engine: Engine | None = None, *, settings: Settings | None = None, redis_url: str | None = None,
               operator_token: str | None = None, rate_limit: float | None = None,
               limits: Limits | None = None) -> Flask:
    """Build the API. Without an engine, connect to ``redis_url`` (or the settings' ``REDIS_URL``).

    ``settings`` are read from the environment when not given (a process's start).
    ``limits`` default to the settings'; ``rate_limit`` overrides only the requests per
    second per player (0 turns it off).
    """
    settings = settings or Settings.from_env()
    app = Flask(__name__)
    app.json = OrjsonProvider(app)
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY_BYTES
    if engine is None:
        url = redis_url or settings.redis_url or DEFAULT_REDIS_URL
        client = connect(url, settings.redis_cluster)
        engine = Engine(client, JobScheduler(make_queue(queue_client(client, settings.queue_url,
                                                                      settings.redis_cluster))),
                        operator_token=operator_token, settings=settings)
    app.extensions["intrigue"] = engine
    limits = limits or settings.limits
    if rate_limit is not None:
        limits = replace(limits, player_rate=rate_limit)
    app.extensions["intrigue.limits"] = limits

    @app.after_request
    def _then_ask_workers(response: Response) -> Response:
        work = g.pop("after_answer", None)
        if work:
            response.call_on_close(partial(run_after_answer, work))
        return response

    @app.before_request
    def _admit() -> None:
        """Every request is admitted once: its caller named, a token of its buckets spent, its
        token's scopes checked (``service.admission``, as the front's fast handlers admit theirs)."""
        g.admission = admit(engine, limits, request.environ, request.endpoint)

    honour_idempotency_keys(app, engine)

    for blueprint in (*API_BLUEPRINTS, reference_bp, docs_bp):
        app.register_blueprint(blueprint)

    @app.before_request
    def _relative_redirects() -> Response | None:
        """Routing's own redirects (``/v1//games`` to ``/v1/games``) name no host: Werkzeug
        would write the request's Host header into ``Location`` and its page."""
        redirect = request.routing_exception
        if isinstance(redirect, RequestRedirect):
            return Response(status=redirect.code, headers={"Location": relative_location(redirect.new_url)})
        return None

    @app.errorhandler(Problem)
    def _problem(err: Problem) -> Response:
        return problem_response(err)

    @app.errorhandler(DomainError)
    def _refused(err: DomainError) -> Response:
        return problem_response(as_problem(err))

    @app.errorhandler(ValidationError)
    def _invalid(err: ValidationError) -> Response:
        return problem_response(invalid_body(err))

    @app.errorhandler(BodyTimeout)
    def _slow_body(err: BodyTimeout) -> Response:
        return problem_response(body_timeout_problem(err.seconds))

    @app.errorhandler(HTTPException)
    def _http(err: HTTPException) -> Response:
        code = HTTP_EXCEPTION_CODES.get(err.code or 500, "http_error")
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

    # The front's fast handlers leave every chunked body to the app, whose first step reads and checks it whole.
    app.wsgi_app = ChunkedBodies(app.wsgi_app, MAX_BODY_BYTES)  # type: ignore[method-assign]
    app.wsgi_app = WebClient(app.wsgi_app)  # type: ignore[method-assign]  # the browser client at /
    # The front routes every request by the app's url_map: a move, the hot path, meets no other layer first.
    app.wsgi_app = Front(app, app.wsgi_app)  # type: ignore[method-assign]
    if limits.trusted_proxies:
        # The client is the address the nearest trusted proxy saw, not whatever a client claims
        # (outermost, so the front admits the same address as the app).
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=limits.trusted_proxies)  # type: ignore[method-assign]
    return app
