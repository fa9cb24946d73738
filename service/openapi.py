"""The OpenAPI document, generated from the routes' declarations, the marshmallow schemas
and the registered games, and a docs page that needs no internet.

Each route declares its operation where it is written (``service.api_doc.declare``, and
``@bp.arguments`` for the queries webargs reads): whether it needs a token, every problem
``code`` it can answer (an enum on the problem's ``code``, so a client generator and
schemathesis both hold the server to it). flask-smorest turns the declarations of the
blueprints of ``service.blueprints`` into the document's paths; this module adds the
components and a request and response example recorded from a real run
(``api_examples.json``, rewritten by ``tests/integration/test_api_reference.py`` with
``INTRIGUE_RECORD_EXAMPLES=1`` and checked against the live server by the same test).
Each game's actions (a ``oneOf`` per game), seats and options come from the game
modules, so a game is documented once it is registered.
"""

from __future__ import annotations

import html
import json
import threading
from functools import cache
from pathlib import Path
from typing import Any

import flask
import flask_smorest
from flask import Response, jsonify

from engine.orders import MAX_ORDERS
from engine.seat_bots import STRATEGIES
from games import registry
from service import openapi_correspondence as correspondence
from service import schemas, shuffles, tournaments, transparency
from service.api_doc import ANYWHERE, Blueprint, Operation, camel, declare, ref
from service.blueprints import API_BLUEPRINTS
from service.openapi_shapes import action_schema, options_schema
from service.orders import StandingOrderListSchema, StandingOrderSchema, StandingOrdersSchema
from service.problem_status import rule_status
from service.scopes import SCOPE_WORDS
from service.version import package_version

#: The offline reference page, which is not an operation of the API.
docs_bp = flask.Blueprint("docs", __name__)
#: The document itself, an operation like any other.
reference_bp = Blueprint("reference", __name__)

EXAMPLES_PATH = Path(__file__).with_name("api_examples.json")
#: A game's bot seats in ``POST /v1/games``: seat numbers (as JSON keys) to strategies.
BOTS_SCHEMA: dict[str, Any] = {
    "type": "object", "description": schemas.BOTS_DESCRIPTION,
    "propertyNames": {"type": "string", "pattern": "^[0-9]{1,3}$"},
    "additionalProperties": {"type": "string", "enum": list(STRATEGIES)},
    "example": {"2": "ismcts"}}

SCHEMAS = {
    "PlayerCreate": schemas.PlayerCreateSchema, "Player": schemas.PlayerSchema,
    "PlayerMatches": schemas.PlayerMatchesSchema,
    "TimeControl": schemas.TimeControlSchema, "GameSummary": schemas.GameSummarySchema,
    "GameView": schemas.GameViewSchema, "GameList": schemas.GameListSchema, "JoinResult": schemas.JoinResultSchema,
    "ActionResult": schemas.ActionResultSchema, "EventPage": schemas.EventPageSchema, "Replay": schemas.ReplaySchema,
    "Inbox": schemas.InboxSchema, "Problem": schemas.ProblemSchema, "TokenList": schemas.TokenListSchema,
    "TokenIssued": schemas.TokenIssuedSchema, "TokenCreate": schemas.TokenCreateSchema,
    "ResignResult": schemas.ResignResultSchema,
    "PlayerProfile": schemas.PlayerProfileSchema, "Leaderboard": schemas.LeaderboardSchema,
    "KeyList": schemas.KeyListSchema, "InclusionProof": schemas.InclusionProofSchema,
    "ConsistencyProof": schemas.ConsistencyProofSchema, "Cosignature": transparency.CosignatureSchema,
    "Cosigned": transparency.CosignedSchema,
    "JoinBody": shuffles.JoinSchema, "Reveal": shuffles.RevealSchema, "Revealed": shuffles.RevealedSchema,
    **correspondence.SCHEMAS,
    "StandingOrders": StandingOrdersSchema, "StandingOrder": StandingOrderSchema,
    "StandingOrderList": StandingOrderListSchema,
    "Account": schemas.AccountSchema, "AccountPatch": schemas.AccountPatchSchema,
    "Vacation": schemas.VacationSchema,
    "TournamentCreate": tournaments.TournamentCreateSchema, "Tournament": tournaments.TournamentSchema,
    "TournamentList": tournaments.TournamentListSchema,
}


__all__ = ["ANYWHERE", "Operation", "docs_bp", "openapi_document", "operations", "reference_bp"]


def operations() -> list[Operation]:
    """Every operation of the API, as its route declares it, in the order of the reference."""
    return [op for blueprint in (*API_BLUEPRINTS, reference_bp) for op in blueprint.operations]


#: What every game's creation takes besides its seats and options: who may find and join it.
TABLE_PROPERTIES: dict[str, Any] = {
    "rated": {"type": "boolean",
              "description": "Whether the result moves its players' ratings (GET /v1/players/{player_id}); "
                             "default: true unless a seat is a bot's"},
    "unlisted": {"type": "boolean", "default": False,
                 "description": "Keep the game out of the lobby: only those given its id find it"},
    "humans_only": {"type": "boolean", "default": False,
                    "description": "Keep bot accounts (registered with `bot: true`) out: their join is 403 "
                                   "`humans_only`"},
    "invite": {"type": "array", "maxItems": 12, "items": {"type": "string", "minLength": 1, "maxLength": 64},
               "description": "Player ids: only they (and you) may join (others: 403 `not_invited`); each sees "
                              "the game in /v1/me/games with `invited: true` and gets an `invited` webhook. "
                              "No more than the seats (422 `too_many_invitations`), each a registered player "
                              "(422 `unknown_player`)"},
    "min_reliability": {"type": "integer", "minimum": 0, "maximum": 100, "nullable": True,
                        "description": schemas.MIN_RELIABILITY_DESCRIPTION},
    "substitutes": {"type": "boolean", "default": True, "description": schemas.SUBSTITUTES_DESCRIPTION},
}


def game_schemas() -> dict[str, dict[str, Any]]:
    """Per registered game: ``<Game>Create`` (seats, options) and ``<Game>Action`` (a oneOf), and the unions."""
    out: dict[str, dict[str, Any]] = {}
    creates, actions = [], []
    for name in registry.available():
        rules = registry.load(name)
        create = f"{camel(name)}Create"
        out[create] = {
            "type": "object", "required": ["game", "seats"], "additionalProperties": False,
            "properties": {"game": {"type": "string", "enum": [name]},
                           "seats": {"type": "integer", "minimum": rules.MIN_SEATS, "maximum": rules.MAX_SEATS},
                           "options": options_schema(rules), "time_control": ref("TimeControl"),
                           "bots": BOTS_SCHEMA, **TABLE_PROPERTIES},
            "example": {"game": name, "seats": rules.MIN_SEATS, "options": {},
                        "time_control": {"seconds_per_move": 86400}}}
        action = f"{camel(name)}Action"
        refusals = [code for code in sorted(rules.RULE_CODES) if rule_status(code) == 422]
        out[action] = {**action_schema(rules), "description": f"An action of {name}. Refusals (422) use these "
                                                              f"codes: {', '.join(refusals)}."}
        creates.append(ref(create))
        actions.append(ref(action))
        out[f"{camel(name)}OrderConditions"] = order_conditions_schema(rules)
    out["GameCreate"] = {"oneOf": creates, "discriminator": {"propertyName": "game"}}
    # A union, not a oneOf: two games may share an action shape ({"type": "pass"}).
    out["Action"] = {"anyOf": actions, "description": "One action of the game being played"}
    return out


def order_conditions_schema(rules: Any) -> dict[str, Any]:
    """A game's standing-order conditions (an order's ``when``) and the decisions orders answer."""
    decisions = tuple(getattr(rules, "ORDER_DECISIONS", ()))
    conditions = dict(getattr(rules, "ORDER_CONDITIONS", {}))
    if not decisions:
        about = f"{rules.NAME} takes no standing orders (its README says why)."
    else:
        about = (f"The conditions an order's `when` may name in {rules.NAME}"
                 f"{'' if conditions else ' (none: its `when` stays empty; the README says why)'}; its `decision` "
                 f"is one of {', '.join(decisions)}.")
    return {"type": "object", "additionalProperties": False, "description": about,
            "properties": {name: condition.schema() for name, condition in sorted(conditions.items())}}


def load_examples() -> dict[str, Any]:
    try:
        return json.loads(EXAMPLES_PATH.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


_BUILDING = threading.Lock()


def openapi_document() -> dict[str, Any]:
    """The document, built once per process (reading the games' actions takes a few seconds):
    requests that arrive while it is built wait for that one build."""
    with _BUILDING:
        return _build_document()


openapi_document.cache_clear = lambda: _build_document.cache_clear()  # type: ignore[attr-defined]


class _Api(flask_smorest.Api):
    """flask-smorest's Api, without the catch-all error answer it would add to each operation:
    every operation lists its own problems."""

    DEFAULT_ERROR_RESPONSE_NAME = None


@cache
def _build_document() -> dict[str, Any]:
    # A Flask app of its own, that only documents: the serving app neither needs an Api
    # (its error handlers are the project's) nor pays for one.
    api = _Api(flask.Flask("intrigue.reference"), spec_kwargs={
        "title": "Intrigue", "version": package_version(), "openapi_version": "3.0.3",
        "info": {"description": DESCRIPTION}})
    spec = api.spec
    spec.components.security_scheme("bearer", {"type": "http", "scheme": "bearer", "description": SCOPES_TEXT})
    for name, schema in SCHEMAS.items():
        spec.components.schema(name, schema=schema)
    for name, schema in game_schemas().items():
        spec.components.schema(name, schema)
    for blueprint in (*API_BLUEPRINTS, reference_bp):
        api.register_blueprint(blueprint)
    document = spec.to_dict()
    document.pop("tags", None)  # flask-smorest names each blueprint; the operations carry their own tags
    for unused in ("Error", "PaginationMetadata"):  # flask-smorest's own error and paging schemas
        document["components"]["schemas"].pop(unused, None)
    examples = load_examples()
    for path, item in document["paths"].items():
        # Path parameters are written with each operation, as a client generator reads them best.
        shared = item.pop("parameters", [])
        for method, operation in item.items():
            own = operation.get("parameters", [])
            named = {(param["name"], param["in"]) for param in own}
            operation["parameters"] = [p for p in shared if (p["name"], p["in"]) not in named] + own
            # Success first, then the problems by status (flask-smorest may have put a 400 first).
            operation["responses"] = dict(sorted(operation["responses"].items(), key=lambda item: int(item[0])))
            _add_examples(operation, examples.get(f"{method.upper()} {path}", {}))
            _example_of_optional_body(operation, document["components"]["schemas"])
    # The orders are checked by the engine (a bad one is 422 bad_order naming it), so the schema
    # takes any item; the reference still describes each one.
    listed = document["components"]["schemas"]["StandingOrders"]["properties"]["orders"]
    listed.update(items=ref("StandingOrder"), maxItems=MAX_ORDERS)
    return document


SCOPES_TEXT = ("A player's token from POST /v1/players (every scope) or POST /v1/me/tokens (the `scopes` asked "
               "for, or every one). Each operation's requirement names the one scope it needs; a token without it "
               "is 403 `missing_scope`. Scopes: "
               + "; ".join(f"`{name}`: {words}" for name, words in SCOPE_WORDS.items()) + ".")

DESCRIPTION = (
    "Hidden-information board games over HTTP. Every action is an event; every view is filtered for its seat. "
    "Errors are RFC 9457 problem details (application/problem+json) with a stable `code`; each operation lists "
    "the codes it can answer. A method a path does not have is 405 `method_not_allowed` with an `Allow` header; "
    "a path that does not exist is 404 `not_found`. Tokens: `Authorization: Bearer <token>` from POST /v1/players.")


def _add_examples(operation: dict[str, Any], example: dict[str, Any]) -> None:
    """A recorded run's request and answer, in the operation's body and its success."""
    body = operation.get("requestBody", {}).get("content", {}).get("application/json")
    if body is not None and "request" in example:
        body["example"] = example["request"]
    ok = operation["responses"][min(operation["responses"], key=int)]
    if "response" in example:
        for media in ok.get("content", {}).values():
            media["example"] = example["response"]


def _example_of_optional_body(operation: dict[str, Any], schemas: dict[str, Any]) -> None:
    """An optional body the recorded run did not send (a join's commitment) is shown all the same:
    its example is its fields' own."""
    body = operation.get("requestBody", {}).get("content", {}).get("application/json")
    if body is None or "example" in body or "$ref" not in body.get("schema", {}):
        return
    fields = schemas[body["schema"]["$ref"].rsplit("/", 1)[1]].get("properties", {})
    example = {name: field["example"] for name, field in fields.items() if "example" in field}
    if example:
        body["example"] = example


@reference_bp.get("/v1/openapi.json")
@declare("This document", auth="none", ok=(200, None), problems=())
def openapi_json() -> Response:
    return jsonify(openapi_document())


@docs_bp.get("/docs")
def docs_page() -> Response:
    """A plain HTML reference rendered from the OpenAPI document: no scripts, no CDN."""
    doc = openapi_document()
    esc = html.escape
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>{esc(doc['info']['title'])} API</title>",
             "<style>body{font-family:sans-serif;max-width:60em;margin:2em auto;padding:0 1em}"
             "code,pre{background:#f4f4f4;padding:2px 4px}pre{overflow-x:auto}h3{margin-bottom:.2em}"
             ".m{font-weight:bold;color:#063}td{vertical-align:top;padding:2px 8px}</style></head><body>",
             f"<h1>{esc(doc['info']['title'])} API {esc(doc['info']['version'])}</h1>",
             f"<p>{esc(doc['info']['description'])}</p>",
             "<p>Machine-readable: <a href='/v1/openapi.json'>/v1/openapi.json</a>.</p>"]
    for path, operations_ in doc["paths"].items():
        for method, op in operations_.items():
            parts.append(f"<h3><span class='m'>{method.upper()}</span> <code>{esc(path)}</code></h3>"
                         f"<p>{esc(op.get('summary', ''))}. {esc(op.get('description', ''))}</p>")
            params = op.get("parameters", [])
            if params:
                rows = "".join(f"<tr><td><code>{esc(p['name'])}</code></td><td>{p['in']}</td>"
                               f"<td>{esc(p.get('description', ''))}</td></tr>" for p in params)
                parts.append(f"<table>{rows}</table>")
            for label, media in (("Request", op.get("requestBody", {}).get("content", {}).get("application/json")),
                                 ("Response", next(iter(op["responses"][next(iter(op["responses"]))]
                                                        .get("content", {}).values()), None))):
                if media and "example" in media:
                    parts.append(f"<p>{label} example:</p><pre>{esc(json.dumps(media['example'], indent=2))}</pre>")
            statuses = "<br>".join(f"{code}: {esc(r['description'])}" for code, r in op["responses"].items())
            parts.append(f"<p><small>{statuses}</small></p>")
    parts.append("<h2>Schemas</h2>")
    for name, schema in doc["components"]["schemas"].items():
        props = schema.get("properties", {})
        rows = "".join(f"<tr><td><code>{esc(k)}</code></td><td>{esc(str(v.get('type', '')))}</td>"
                       f"<td>{esc(str(v.get('description', '')))}</td></tr>" for k, v in props.items())
        branches = [b.get("title") or b.get("$ref", "").rsplit("/", 1)[-1] for b in schema.get("oneOf", [])]
        extra = f"<p>One of: {esc(', '.join(branches))}</p>" if branches else ""
        parts.append(f"<h3 id='{name}'>{name}</h3>{extra}<table>{rows}</table>")
    parts.append("</body></html>")
    return Response("".join(parts), mimetype="text/html")
