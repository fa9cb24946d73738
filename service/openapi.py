"""The OpenAPI document, generated from the marshmallow schemas, and a docs page that needs no internet."""

from __future__ import annotations

import html
from functools import cache
from typing import Any

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from flask import Blueprint, Response, jsonify

from service import openapi_correspondence as correspondence
from service import schemas

docs_bp = Blueprint("docs", __name__)

_GAME_ID = {"name": "game_id", "in": "path", "required": True, "schema": {"type": "string"}}
_AUTH = [{"bearer": []}]


def _problems(*statuses: int) -> dict[str, Any]:
    return {str(s): {"description": _REASONS[s], "content": {"application/problem+json": {"schema": "Problem"}}}
            for s in statuses}


_REASONS = {400: "Malformed request", 401: "Missing or unknown token", 403: "Not allowed for this caller",
            404: "No such game", 409: "Version or state conflict (stale If-Match, not your turn, game over)",
            422: "Rule violation; `legal_actions` lists what you may do",
            429: "Too many requests from this player; wait `Retry-After` seconds",
            503: "The store did not answer; a POST's outcome is unknown: repeat it with the same Idempotency-Key"}
#: Problems any operation may answer with, whatever it does.
_ANYWHERE = (429, 503)


def _ok(schema: str, description: str, status: int = 200) -> dict[str, Any]:
    return {str(status): {"description": description, "content": {"application/json": {"schema": schema}}}}


def _q(name: str, description: str, type_: str = "integer") -> dict[str, Any]:
    return {"name": name, "in": "query", "required": False, "description": description, "schema": {"type": type_}}


PATHS: list[tuple[str, dict[str, Any]]] = [
    ("/v1/players", {"post": {
        "summary": "Register a player and get a bearer token", "tags": ["players"],
        "requestBody": {"content": {"application/json": {"schema": "PlayerCreate"}}},
        "responses": {**_ok("Player", "The player, with its token (shown only once)", 201),
                      **_problems(400, 429)}}}),
    ("/v1/games", {
        "post": {"summary": "Create a game (seats fill with join)", "tags": ["games"], "security": _AUTH,
                 "requestBody": {"content": {"application/json": {"schema": "GameCreate"}}},
                 "responses": {**_ok("GameView", "The new game", 201), **_problems(400, 401, 409, 422, 429)}},
        "get": {"summary": "The lobby: open games", "tags": ["games"],
                "parameters": [_q("game", "Only this game", "string"), _q("limit", "At most this many (1-200)"),
                               _q("cursor", "next_cursor of the previous page", "string")],
                "responses": {**_ok("GameList", "Open games, oldest first"), **_problems(400, 429)}}}),
    ("/v1/games/{game_id}/join", {"post": {
        "summary": "Take the first free seat (joining twice keeps your seat)", "tags": ["games"], "security": _AUTH,
        "parameters": [_GAME_ID],
        "responses": {**_ok("JoinResult", "Your seat"), **_problems(401, 404, 409)}}}),
    ("/v1/games/{game_id}", {"get": {
        "summary": "Status, whom it awaits and until when, your view and your legal actions", "tags": ["games"],
        "parameters": [_GAME_ID], "responses": {**_ok("GameView", "The game as you see it"), **_problems(404)}}}),
    ("/v1/games/{game_id}/actions", {"post": {
        "summary": "Post one action (an object from legal_actions)", "tags": ["games"], "security": _AUTH,
        "parameters": [_GAME_ID,
                       {"name": "Idempotency-Key", "in": "header", "required": False, "schema": {"type": "string"},
                        "description": "Same key twice returns the first result and appends nothing"},
                       {"name": "If-Match", "in": "header", "required": False, "schema": {"type": "integer"},
                        "description": "Refuse with 409 unless the game is at this version"}],
        "requestBody": {"content": {"application/json": {"schema": "Action"}}},
        "responses": {**_ok("ActionResult", "The new version and the events, as you see them"),
                      **_problems(400, 401, 403, 404, 409, 422)}}}),
    ("/v1/games/{game_id}/events", {"get": {
        "summary": "Your redacted event feed; long-poll with wait", "tags": ["games"],
        "parameters": [_GAME_ID, _q("after", "Events after this version"), _q("wait", "Seconds to wait (0-30)"),
                       _q("limit", "At most this many events (1-500)"),
                       _q("view", "true: also return your game view, legal actions included", "boolean"),
                       _q("messages_after", "Chat cursor from the last answer (a message id; `0-0` for all); "
                                            "without it, the messages that followed events after `after`",
                          "string")],
        "responses": {**_ok("EventPage", "Events you may see"), **_problems(400, 404)}}}),
    ("/v1/games/{game_id}/events/stream", {"get": {
        "summary": "The same feed as server-sent events (Last-Event-ID resumes)", "tags": ["games"],
        "parameters": [_GAME_ID, _q("after", "Start after this version"),
                       _q("messages_after", "Chat cursor (a message id)", "string"),
                       {"name": "Last-Event-ID", "in": "header", "required": False, "schema": {"type": "string"},
                        "description": "Resume: a frame id, `<version>` or `<version>/<message id>`"}],
        "responses": {"200": {"description": "text/event-stream of feed events and ChatMessage items"}}}}),
    ("/v1/games/{game_id}/replay", {"get": {
        "summary": "The game as you saw it at a version; after the end, everything", "tags": ["games"],
        "parameters": [_GAME_ID, _q("version", "Version to rebuild (default: current)")],
        "responses": {**_ok("Replay", "The game then"), **_problems(400, 404)}}}),
    ("/v1/games/{game_id}/log", {"get": {
        "summary": "The full hash-chained log (NDJSON) of a finished game", "tags": ["games"],
        "parameters": [_GAME_ID],
        "responses": {"200": {"description": "One event envelope per line; check with `intrigue verify`",
                              "content": {"application/x-ndjson": {}}}, **_problems(403, 404)}}}),
    ("/v1/me/games", {"get": {
        "summary": "Your games; awaiting=me is the correspondence inbox", "tags": ["me"], "security": _AUTH,
        "parameters": [_q("awaiting", "'me' for games waiting on you (soonest deadline first)", "string"),
                       _q("limit", "At most this many (1-200)"),
                       _q("cursor", "next_cursor of the previous page", "string")],
        "responses": {**_ok("Inbox", "Your games, newest first"), **_problems(400, 401, 429)}}}),
]

PATHS += correspondence.PATHS

SCHEMAS = {
    "PlayerCreate": schemas.PlayerCreateSchema, "Player": schemas.PlayerSchema,
    "GameCreate": schemas.GameCreateSchema, "GameSummary": schemas.GameSummarySchema,
    "GameView": schemas.GameViewSchema, "GameList": schemas.GameListSchema, "JoinResult": schemas.JoinResultSchema,
    "Action": schemas.ActionSchema, "ActionResult": schemas.ActionResultSchema, "EventPage": schemas.EventPageSchema,
    "Replay": schemas.ReplaySchema, "Inbox": schemas.InboxSchema, "Problem": schemas.ProblemSchema,
    **correspondence.SCHEMAS,
}


@cache
def openapi_document() -> dict[str, Any]:
    spec = APISpec(title="Intrigue", version="1.0.0", openapi_version="3.0.3", plugins=[MarshmallowPlugin()],
                   info={"description": "Hidden-information board games over HTTP. Every action is an event; "
                                        "every view is filtered for its seat."})
    spec.components.security_scheme("bearer", {"type": "http", "scheme": "bearer"})
    for name, schema in SCHEMAS.items():
        spec.components.schema(name, schema=schema)
    for path, operations in PATHS:
        spec.path(path=path, operations={method: {**op, "responses": {**op["responses"], **_problems(*_ANYWHERE)}}
                                         for method, op in operations.items()})
    return spec.to_dict()


@docs_bp.get("/v1/openapi.json")
def openapi_json() -> Response:
    return jsonify(openapi_document())


@docs_bp.get("/docs")
@docs_bp.get("/")
def docs_page() -> Response:
    """A plain HTML reference rendered from the OpenAPI document: no scripts, no CDN."""
    doc = openapi_document()
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(doc['info']['title'])} API</title>",
             "<style>body{font-family:sans-serif;max-width:60em;margin:2em auto;padding:0 1em}"
             "code,pre{background:#f4f4f4;padding:2px 4px}h3{margin-bottom:.2em}.m{font-weight:bold;color:#063}"
             "td{vertical-align:top;padding:2px 8px}</style></head><body>",
             f"<h1>{html.escape(doc['info']['title'])} API {html.escape(doc['info']['version'])}</h1>",
             f"<p>{html.escape(doc['info']['description'])}</p>",
             "<p>Machine-readable: <a href='/v1/openapi.json'>/v1/openapi.json</a>. Errors are "
             "<code>application/problem+json</code> with a stable <code>code</code>.</p>"]
    for path, operations in doc["paths"].items():
        for method, op in operations.items():
            parts.append(f"<h3><span class='m'>{method.upper()}</span> <code>{html.escape(path)}</code></h3>"
                         f"<p>{html.escape(op.get('summary', ''))}</p>")
            params = op.get("parameters", [])
            if params:
                rows = "".join(f"<tr><td><code>{html.escape(p['name'])}</code></td><td>{p['in']}</td>"
                               f"<td>{html.escape(p.get('description', ''))}</td></tr>" for p in params)
                parts.append(f"<table>{rows}</table>")
            statuses = ", ".join(f"{code} {html.escape(r['description'])}" for code, r in op["responses"].items())
            parts.append(f"<p><small>{statuses}</small></p>")
    parts.append("<h2>Schemas</h2>")
    for name, schema in doc["components"]["schemas"].items():
        props = schema.get("properties", {})
        rows = "".join(f"<tr><td><code>{html.escape(k)}</code></td><td>{html.escape(str(v.get('type', '')))}</td>"
                       f"<td>{html.escape(str(v.get('description', '')))}</td></tr>" for k, v in props.items())
        parts.append(f"<h3 id='{name}'>{name}</h3><table>{rows}</table>")
    parts.append("</body></html>")
    return Response("".join(parts), mimetype="text/html")
