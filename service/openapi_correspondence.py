"""The OpenAPI paths and schemas of correspondence play: table talk, transcripts, webhooks.

Kept beside :mod:`service.openapi`, which adds them to the one document it builds.
"""

from __future__ import annotations

from typing import Any

from service.chat import ChatMessageSchema, MessageListSchema, MessageSchema
from service.webhooks import (
    DeliveryListSchema,
    WebhookCreatedSchema,
    WebhookCreateSchema,
    WebhookListSchema,
    WebhookSchema,
)

_GAME_ID = {"name": "game_id", "in": "path", "required": True, "schema": {"type": "string"}}
_HOOK_ID = {"name": "webhook_id", "in": "path", "required": True, "schema": {"type": "string"}}
_AUTH = [{"bearer": []}]


def _problem(status: int, description: str) -> dict[str, Any]:
    return {str(status): {"description": description, "content": {"application/problem+json": {"schema": "Problem"}}}}


def _ok(schema: str, description: str, status: int = 200) -> dict[str, Any]:
    return {str(status): {"description": description, "content": {"application/json": {"schema": schema}}}}


_UNAUTHORISED = _problem(401, "Missing or unknown token")
_NO_HOOK = _problem(404, "No such webhook of yours (`webhook_not_found`)")

PATHS: list[tuple[str, dict[str, Any]]] = [
    ("/v1/games/{game_id}/messages", {
        "post": {"summary": "Table talk: a message to every seat (to: null) or to one seat", "tags": ["chat"],
                 "description": "From a seated player while the game is open or running. Never changes the "
                                "game's version (If-Match). Private messages reach only the two seats until the "
                                "game ends; then every message is published with the log. At most "
                                "INTRIGUE_CHAT_RATE (20) messages a minute per player.",
                 "security": _AUTH, "parameters": [_GAME_ID],
                 "requestBody": {"content": {"application/json": {"schema": "MessageCreate"}}},
                 "responses": {**_ok("ChatMessage", "The message as stored", 201),
                               **_problem(400, "Text empty, over 500 characters, or with control characters, "
                                               "line breaks or bidirectional overrides"),
                               **_UNAUTHORISED, **_problem(403, "Not seated in this game (`not_seated`)"),
                               **_problem(404, "No such game"), **_problem(409, "The game is over (`game_over`)"),
                               **_problem(422, "`to` is not another seated player (`bad_recipient`)"),
                               **_problem(429, "Too many messages (`chat_rate_limited`): wait `Retry-After`")}},
        "get": {"summary": "The messages you may see; all of them once the game is over", "tags": ["chat"],
                "parameters": [_GAME_ID, {"name": "after", "in": "query", "required": False,
                                          "schema": {"type": "string"},
                                          "description": "A message id: only later messages"}],
                "responses": {**_ok("MessageList", "Messages, oldest first"), **_problem(400, "Bad `after`"),
                              **_problem(404, "No such game")}}}),
    ("/v1/games/{game_id}/transcript", {"get": {
        "summary": "A finished game as readable text: one line per decision, the table talk in place",
        "tags": ["games"], "parameters": [_GAME_ID],
        "responses": {"200": {"description": "Plain text, written by each game's own describer",
                              "content": {"text/plain": {"schema": {"type": "string"}}}},
                      **_problem(403, "The game is not over (`game_in_progress`)"),
                      **_problem(404, "No such game")}}}),
    ("/v1/me/webhooks", {
        "post": {"summary": "Register a webhook for your_turn, deadline_soon and/or game_over", "tags": ["webhooks"],
                 "description": "Deliveries are POSTs of {id, type, game, version, deadline, created_at} with "
                                "headers Intrigue-Event, Intrigue-Delivery (the same on every retry) and "
                                "Intrigue-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 with the secret over "
                                "'<t>.<raw body>'>. A 2xx within 5 s is success; otherwise retried with "
                                "exponential backoff for at least 24 h; redirects are not followed; a webhook "
                                "failing for 3 days is disabled. deadline_soon fires when a quarter of the time "
                                "before the default move is left.",
                 "security": _AUTH,
                 "requestBody": {"content": {"application/json": {"schema": "WebhookCreate"}}},
                 "responses": {**_ok("WebhookCreated", "The webhook and its secret (shown only here)", 201),
                               **_problem(400, "Malformed body or unknown event type"), **_UNAUTHORISED,
                               **_problem(422, "Refused URL: `bad_webhook_url`, `webhook_host_unresolvable`, "
                                               "`webhook_destination_refused` (loopback, private or link-local "
                                               "address without INTRIGUE_WEBHOOKS_ALLOW_PRIVATE=1) or "
                                               "`too_many_webhooks`")}},
        "get": {"summary": "Your webhooks, without their secrets", "tags": ["webhooks"], "security": _AUTH,
                "responses": {**_ok("WebhookList", "Your webhooks"), **_UNAUTHORISED}}}),
    ("/v1/me/webhooks/{webhook_id}", {"delete": {
        "summary": "Remove a webhook", "tags": ["webhooks"], "security": _AUTH, "parameters": [_HOOK_ID],
        "responses": {"204": {"description": "Removed"}, **_UNAUTHORISED, **_NO_HOOK}}}),
    ("/v1/me/webhooks/{webhook_id}/deliveries", {"get": {
        "summary": "Recent deliveries: status, attempts, last answer, next retry", "tags": ["webhooks"],
        "security": _AUTH, "parameters": [_HOOK_ID],
        "responses": {**_ok("DeliveryList", "The last 50 deliveries, newest first"), **_UNAUTHORISED, **_NO_HOOK}}}),
]

SCHEMAS = {
    "MessageCreate": MessageSchema, "ChatMessage": ChatMessageSchema, "MessageList": MessageListSchema,
    "WebhookCreate": WebhookCreateSchema, "WebhookCreated": WebhookCreatedSchema, "Webhook": WebhookSchema,
    "WebhookList": WebhookListSchema, "DeliveryList": DeliveryListSchema,
}
