"""How a route declares itself in the API document: its token, inputs, answer and problem codes.

A route says it all once, beside its code, and ``service.openapi`` builds ``/v1/openapi.json``
from the declarations with flask-smorest (on apispec and the marshmallow schemas)::

    @games_bp.post("/<game_id>/leave")
    @declare("Leave a game that has not started", auth="required", ok=(200, "GameView"),
             problems=(TOKEN, GAME, {403: ("not_seated",), 409: ("game_started", "busy")}),
             params=(GAME_ID,))
    def leave(game_id: str) -> dict[str, Any]: ...

Queries that a route reads are a marshmallow schema given to ``@bp.arguments(...,
location="query")`` (webargs parses them, see :mod:`service.queries`); the hot routes (an
action, join, create, the event stream) read theirs by hand and only list them in
``params``, so a move pays for no parsing it did not pay before. ``docs/ARCHITECTURE.md``
("How a route declares itself in the document") says more.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

import flask_smorest

from service.queries import QueryParser
from service.scopes import SCOPE_OF

F = TypeVar("F", bound=Callable[..., Any])

# ------------------------------------------------------------------ problem codes
#: What any request may be answered with, whatever it asks.
ANYWHERE: dict[int, tuple[str, ...]] = {
    429: ("rate_limited", "address_rate_limited", "too_many_connections"), 431: ("headers_too_large",),
    500: ("internal_error",),
    503: ("store_unavailable",)}
#: A JSON body: what is wrong with it before any schema is applied.
BODY_CODES = ("empty_body", "malformed_json", "bad_encoding", "too_deep", "malformed_body", "invalid_body")
BODY: dict[int, tuple[str, ...]] = {400: BODY_CODES, 408: ("body_timeout",), 413: ("body_too_large",),
                                    415: ("unsupported_media_type",)}
TOKEN: dict[int, tuple[str, ...]] = {401: ("auth_required", "bad_authorization", "bad_token")}
#: A token is optional, but one that is sent must be valid.
OPTIONAL_TOKEN: dict[int, tuple[str, ...]] = {401: ("bad_authorization", "bad_token")}
GAME: dict[int, tuple[str, ...]] = {404: ("game_not_found",)}
#: What the Idempotency-Key header may be answered with on any POST.
IDEMPOTENCY: dict[int, tuple[str, ...]] = {400: ("bad_idempotency_key",), 409: ("idempotency_key_reused", "busy")}

REASONS = {
    400: "Malformed request: the body, a header or a query value cannot be used",
    401: "Missing, malformed or unknown token", 403: "Not allowed for this caller", 404: "No such resource",
    408: "The body did not arrive in time; the connection is closed",
    409: "Version or state conflict", 413: "Body larger than 64 KiB", 415: "Body not sent as application/json",
    422: "Well-formed but refused by the rules (`legal_actions` lists what you may do)",
    429: "Too many requests; wait `Retry-After` seconds (`retry_after` is exact)",
    431: "A header larger than the server accepts", 500: "Unexpected error: a POST's outcome is unknown; repeat it "
                                                          "with the same Idempotency-Key",
    503: "The store did not answer: a POST's outcome is unknown; repeat it with the same Idempotency-Key",
}


def join(*parts: dict[int, tuple[str, ...]]) -> dict[int, tuple[str, ...]]:
    """Problem tables merged: per status, the codes of each in order, each once."""
    merged: dict[int, tuple[str, ...]] = {}
    for part in parts:
        for status, codes in part.items():
            merged[status] = tuple(dict.fromkeys((*merged.get(status, ()), *codes)))
    return merged


# ------------------------------------------------------------------ parameters
def path_param(name: str, description: str) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "description": description,
            "schema": {"type": "string", "minLength": 1, "maxLength": 64}}


def query_param(name: str, description: str, schema: dict[str, Any]) -> dict[str, Any]:
    """A query value a hot route reads by hand: listed in the document, parsed by the route."""
    return {"name": name, "in": "query", "required": False, "description": description, "schema": schema}


def header_param(name: str, description: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "in": "header", "required": False, "description": description, "schema": schema}


GAME_ID = path_param("game_id", "The game's id (from POST /v1/games or the lobby)")
IDEMPOTENCY_KEY = header_param(
    "Idempotency-Key", "Your id for this request: the same key and body again return the first answer (its "
                       "status and body) and change nothing; the same key with another body is 409 "
                       "idempotency_key_reused (1 to 200 characters; kept a day, per player, or per address "
                       "without a token)",
    {"type": "string", "minLength": 1, "maxLength": 200})


# ------------------------------------------------------------------ operations
@dataclass(frozen=True)
class Operation:
    """One operation as its route declares it (``method`` and ``path`` come from the route)."""

    summary: str
    auth: str  # "required", "optional" (a seat's view with it, a spectator's without) or "none"
    ok_status: int
    ok_schema: str | None  # a component name; None for a body that is not JSON
    problems: dict[int, tuple[str, ...]]
    params: tuple[dict[str, Any], ...] = ()
    body: str | None = None
    ok_type: str = "application/json"
    description: str = ""
    #: 422 refusals whose codes are open-ended (a game's rules, a webhook's destination): listed, not enforced.
    open_codes: tuple[str, ...] = ()
    #: Headers a success may carry (an OpenAPI response's ``headers``).
    ok_headers: dict[str, Any] = field(default_factory=dict)
    #: Whether the body must be sent (a join's may be left out: a commitment, or a substitute's seat).
    body_required: bool = True
    method: str = ""
    path: str = ""

    @property
    def key(self) -> str:
        return f"{self.method.upper()} {self.path}"

    def at(self, method: str, path: str) -> Operation:
        """This declaration on its route; every POST takes an Idempotency-Key (an action's is its own)."""
        op = replace(self, method=method, path=path)
        if method != "post":
            return op
        named = {param["name"] for param in op.params}
        params = op.params if "Idempotency-Key" in named else (*op.params, IDEMPOTENCY_KEY)
        return replace(op, params=params, problems=join(op.problems, IDEMPOTENCY))

    def document(self) -> dict[str, Any]:
        """The operation's part of the document, examples aside (``service.openapi`` adds them)."""
        auth_line = {"required": "Needs a player token.", "optional": "A token is optional.",
                     "none": "Needs no token."}[self.auth]
        # The scope a token needs for it (service/scopes.py) is its bearer requirement's one scope.
        scope = [SCOPE_OF[self.key]] if self.key in SCOPE_OF else []
        scope_line = f"Token scope: `{scope[0]}`." if scope else ""
        result: dict[str, Any] = {
            "summary": self.summary, "operationId": operation_id(self.method, self.path),
            "description": " ".join(filter(None, (auth_line, self.description, scope_line))),
            "tags": [self.path.split("/")[2]],
            "security": {"required": [{"bearer": scope}], "optional": [{}, {"bearer": scope}],
                         "none": []}[self.auth]}
        params = [param for param in self.params if param["in"] != "path"]
        if params:
            result["parameters"] = params
        if self.body:
            result["requestBody"] = {"required": self.body_required,
                                     "content": {"application/json": {"schema": ref(self.body)}}}
        ok: dict[str, Any] = {"description": "Success"}
        if self.ok_type:
            media: dict[str, Any] = {"schema": ref(self.ok_schema) if self.ok_schema else {"type": "string"}}
            if self.ok_type == "text/event-stream":  # one object per event: its id, type and the feed item as JSON
                media = {"schema": {"type": "object", "properties": {
                    "id": {"type": "string"}, "event": {"type": "string"}, "data": {"type": "string"}}}}
            if self.ok_type == "application/json" and not self.ok_schema:
                media = {"schema": {"type": "object"}}
            ok["content"] = {self.ok_type: media}
        ok["headers"] = {**RATE_LIMIT_HEADERS, **self.ok_headers}
        # Integer keys: they replace the 400 flask-smorest writes for a route's query arguments.
        responses: dict[Any, Any] = {self.ok_status: ok}
        problems = join(self.problems, ANYWHERE, {403: ("missing_scope",)} if scope else {})
        if self.open_codes:
            problems = join(problems, {422: ()})
        for status in sorted(problems):
            responses[status] = problem_response(status, problems[status],
                                                 self.open_codes if status == 422 else ())
        result["responses"] = responses
        return result


def declare(summary: str, *, auth: str, ok: tuple[int, str | None], problems: tuple[dict[int, tuple[str, ...]], ...],
            params: tuple[dict[str, Any], ...] = (), body: str | None = None, ok_type: str = "application/json",
            description: str = "", open_codes: tuple[str, ...] = (),
            ok_headers: dict[str, Any] | None = None, body_required: bool = True) -> Callable[[F], F]:
    """Declare a route's operation; the route decorator of :class:`Blueprint` (above it) files it."""
    operation = Operation(summary, auth, ok[0], ok[1], join(*problems), params=params, body=body, ok_type=ok_type,
                          description=description, open_codes=open_codes, ok_headers=ok_headers or {},
                          body_required=body_required)

    def mark(view: F) -> F:
        view.declared = operation  # type: ignore[attr-defined]  # read by Blueprint.route
        return view

    return mark


class Blueprint(flask_smorest.Blueprint):
    """flask-smorest's blueprint whose routes carry their :func:`declare` d operation.

    Queries given to ``@bp.arguments`` are read by :class:`service.queries.QueryParser`:
    a value the route cannot use is 400 ``bad_query`` (or the code its field names).
    """

    ARGUMENTS_PARSER = QueryParser()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.operations: list[Operation] = []

    def route(self, rule: str, *, parameters: Any = None, tags: Any = None, **options: Any) -> Callable[[F], F]:
        register = super().route

        def decorator(view: F) -> F:
            declared: Operation | None = getattr(view, "declared", None)
            if declared is None:
                raise TypeError(f"{rule}: a route of the API declares its operation (service.api_doc.declare)")
            (method,) = options.get("methods", ("GET",))
            op = declared.at(method.lower(), openapi_path((self.url_prefix or "") + rule))
            self.operations.append(op)
            manual = op.document()
            apidoc = dict(getattr(view, "_apidoc", {}))
            if "parameters" in manual and apidoc.get("arguments", {}).get("parameters"):
                raise TypeError(f"{op.key}: list hand-read parameters or give @arguments, not both")
            # What flask-smorest's Blueprint.doc would store, stored without the wrapper it adds:
            # a hot route pays no extra call for its documentation.
            view._apidoc = {**apidoc, "manual_doc": manual}  # type: ignore[attr-defined]
            path_params = [param for param in op.params if param["in"] == "path"]
            return register(rule, parameters=path_params or parameters, tags=tags, **options)(view)

        return decorator


_RULE_ARGUMENT = re.compile(r"<(?:[^<>:]+:)?([^<>]+)>")


def openapi_path(rule: str) -> str:
    return _RULE_ARGUMENT.sub(r"{\1}", rule)


def camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))


def operation_id(method: str, path: str) -> str:
    words = [w.strip("{}") for w in path.split("/")[2:]]
    return method + "".join(camel(w) for w in words)


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


#: Every answer under a limit (service/ratelimit_headers.py): draft-ietf-httpapi-ratelimit-headers.
RATE_LIMIT_HEADERS: dict[str, Any] = {
    "RateLimit-Policy": {"description": "The limits this call spends, as structured fields: "
                                        "`\"player\";q=50;w=1` is a quota of 50 requests a window of 1 s (a player's, "
                                        "and its address's ceiling; an anonymous caller's address's)",
                         "schema": {"type": "string"}},
    "RateLimit": {"description": "What is left of each: `\"player\";r=42;t=1` is 42 requests left, whole again in "
                                 "1 s. A client that paces itself by it waits `t` when `r` is 0, and meets no 429",
                  "schema": {"type": "string"}},
}


def problem_response(status: int, codes: tuple[str, ...], open_codes: tuple[str, ...]) -> dict[str, Any]:
    """A problem answer: its codes as an enum on ``code``, unless the list is open-ended."""
    description = f"{REASONS.get(status, 'Problem')}. Codes: {', '.join(codes)}"
    if open_codes:
        description += f"; also {', '.join(open_codes)}"
        schema: dict[str, Any] = ref("Problem")
    else:
        schema = {"allOf": [ref("Problem"), {"type": "object", "properties": {
            "code": {"type": "string", "enum": list(codes)}}}]}
    response: dict[str, Any] = {"description": description,
                                "content": {"application/problem+json": {"schema": schema}}}
    if status in (429, 503):
        response["headers"] = {"Retry-After": {"description": "Seconds to wait before retrying",
                                               "schema": {"type": "integer", "minimum": 1}}}
    if status == 429:
        response["headers"].update(RATE_LIMIT_HEADERS)
    if status == 401:
        response["headers"] = {"WWW-Authenticate": {"schema": {"type": "string"}}}
    return response
