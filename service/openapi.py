"""The OpenAPI document, generated from the marshmallow schemas and the registered games,
and a docs page that needs no internet.

Each operation says whether it needs a token, lists every problem ``code`` it can
answer (as an enum on the problem's ``code``, so a client generator and schemathesis
both hold the server to it), and carries a request and response example recorded from
a real run (``api_examples.json``, rewritten by ``tests/integration/test_api_reference.py``
with ``INTRIGUE_RECORD_EXAMPLES=1`` and checked against the live server by the same test).
Each game's actions (a ``oneOf`` per game), seats and options come from the game
modules, so a game is documented once it is registered.
"""

from __future__ import annotations

import html
import json
import threading
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from flask import Blueprint, Response, jsonify

from engine.orders import MAX_ORDERS
from engine.seat_bots import STRATEGIES
from games import registry
from projections.listing import CURSOR_PATTERN
from service import openapi_correspondence as correspondence
from service import schemas, transparency
from service.openapi_shapes import action_schema, options_schema
from service.orders import StandingOrderListSchema, StandingOrderSchema, StandingOrdersSchema
from service.problem_status import rule_status
from service.routes import MAX_PAGE, MAX_WAIT_SECONDS
from service.version import package_version

docs_bp = Blueprint("docs", __name__)

EXAMPLES_PATH = Path(__file__).with_name("api_examples.json")
LOBBY_LIMIT = 200
#: A game's bot seats in ``POST /v1/games``: seat numbers (as JSON keys) to strategies.
BOTS_SCHEMA: dict[str, Any] = {
    "type": "object", "description": schemas.BOTS_DESCRIPTION,
    "propertyNames": {"type": "string", "pattern": "^[0-9]{1,3}$"},
    "additionalProperties": {"type": "string", "enum": list(STRATEGIES)},
    "example": {"2": "ismcts"}}

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

_REASONS = {
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


def _join(*parts: dict[int, tuple[str, ...]]) -> dict[int, tuple[str, ...]]:
    merged: dict[int, tuple[str, ...]] = {}
    for part in parts:
        for status, codes in part.items():
            merged[status] = tuple(dict.fromkeys((*merged.get(status, ()), *codes)))
    return merged


# ------------------------------------------------------------------ operations
@dataclass(frozen=True)
class Operation:
    method: str
    path: str
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
    extra: dict[str, Any] = field(default_factory=dict)
    #: Headers a success may carry (an OpenAPI response's ``headers``).
    ok_headers: dict[str, Any] = field(default_factory=dict)
    #: Whether the body must be sent (a join's ``{"seat"}`` is only a substitute's).
    body_required: bool = True

    @property
    def key(self) -> str:
        return f"{self.method.upper()} {self.path}"


def _path(name: str, description: str) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "description": description,
            "schema": {"type": "string", "minLength": 1, "maxLength": 64}}


def _query(name: str, description: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "in": "query", "required": False, "description": description, "schema": schema}


def _header(name: str, description: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "in": "header", "required": False, "description": description, "schema": schema}


CURSOR = _query("cursor", "The `next_cursor` of the previous page (omit for the first page)",
                {"type": "string", "pattern": CURSOR_PATTERN})
GAME_ID = _path("game_id", "The game's id (from POST /v1/games or the lobby)")
AFTER = _query("after", "Only events after this version", {"type": "integer", "minimum": 0, "maximum": 10**15 - 1})


IDEMPOTENCY_KEY = _header("Idempotency-Key", "Your id for this request: the same key and body again return the "
                                              "first answer (its status and body) and change nothing; the same key "
                                              "with another body is 409 idempotency_key_reused (1 to 200 "
                                              "characters; kept a day, per player, or per address without a token)",
                          {"type": "string", "minLength": 1, "maxLength": 200})
#: What the header may be answered with on any POST.
IDEMPOTENCY: dict[int, tuple[str, ...]] = {400: ("bad_idempotency_key",), 409: ("idempotency_key_reused", "busy")}


def _with_idempotency(op: Operation) -> Operation:
    """Every POST takes an Idempotency-Key (an action's is described with the action)."""
    if op.method != "post":
        return op
    named = {param["name"] for param in op.params}
    params = op.params if "Idempotency-Key" in named else (*op.params, IDEMPOTENCY_KEY)
    return replace(op, params=params, problems=_join(op.problems, IDEMPOTENCY))


def operations() -> list[Operation]:
    """Every operation of the API, in the order of the reference."""
    return [_with_idempotency(op) for op in _operations()]


def _operations() -> list[Operation]:
    games = ", ".join(registry.available())
    return [
        Operation("post", "/v1/players", "Register a player and get a bearer token", "none", 201, "Player",
                  _join(BODY), body="PlayerCreate", description="The token is shown once; only its hash is kept."),
        Operation("get", "/v1/players", "Find players by the start of their name", "optional", 200, "PlayerMatches",
                  _join(OPTIONAL_TOKEN, {400: ("bad_query",)}),
                  params=({**_query("name", "The start of a name (any case), 1 to 40 characters",
                                    {"type": "string", "minLength": 1, "maxLength": 40}), "required": True},
                          _query("limit", "At most this many (20 at most)", {"type": "integer", "minimum": 1,
                                                                             "maximum": 20})),
                  description="Players whose name starts with `name`, compared case-folded, in name order; "
                              "at most 20. A client invites people by name with it: the ids go in a new "
                              "game's `invite`. Names are not unique: two players may share one."),
        Operation("get", "/v1/players/{player_id}", "A player's ratings and rated games played per title", "optional",
                  200, "PlayerProfile", _join(OPTIONAL_TOKEN, {404: ("player_not_found",)}),
                  params=(_path("player_id", "The player's id"),),
                  description="`reliability`: the percent of the player's decisions, in their last 100 games "
                              "that ended, made before their deadline (null until 20 decisions), with "
                              "`timeouts` and `abandoned` games as counts. "
                              "Ratings follow Weng-Lin's Plackett-Luce model (OpenSkill), made for more than two "
                              "players: each rated game ranks its seats (the winners share first place, resigned "
                              "seats come last, the latest to resign above the earlier)."),
        Operation("get", "/v1/leaderboards/{game}", "A title's best rated players, best first", "optional", 200,
                  "Leaderboard", _join(OPTIONAL_TOKEN, {400: ("bad_query", "bad_cursor"),
                                                        404: ("leaderboard_not_found",)}),
                  params=(_path("game", "The title"),
                          _query("limit", "At most this many", {"type": "integer", "minimum": 1,
                                                                "maximum": LOBBY_LIMIT}),
                          _query("cursor", "The next_cursor of the previous page",
                                 {"type": "string", "pattern": "^[0-9]{1,9}$"})),
                  description="Only players with at least `min_games` rated games in the title "
                              "(INTRIGUE_LEADERBOARD_MIN_GAMES) are listed; paged by `next_cursor`."),
        Operation("post", "/v1/games", "Create a game; it is open until its seats fill", "required", 201, "GameView",
                  _join(BODY, TOKEN, {409: ("too_many_open_games", "too_many_active_games"),
                                      422: ("unknown_game", "bad_seat_count", "bad_bot_seat", "unknown_bot_strategy",
                                            "unknown_player", "too_many_invitations")}),
                  body="GameCreate",
                  description=f"Games: {games}. Each game's seats and options are in its `GameCreate` branch; "
                              "a game's own option problems are 422 with that game's code. `bots` seats bots "
                              "at once (`{\"2\": \"ismcts\"}`): a seat that is not the game's is "
                              "`bad_bot_seat` (so is leaving no seat for a person), a strategy other than "
                              "`ismcts` or `random` is `unknown_bot_strategy`.",
                  open_codes=("the game's option codes",)),
        Operation("get", "/v1/games", "The lobby: open games, oldest first", "none", 200, "GameList",
                  {400: ("bad_query", "bad_cursor")},
                  params=(_query("game", "Only this game", {"type": "string", "enum": registry.available()}),
                          _query("status", "Only 'open' is listed here; your own games are at /v1/me/games",
                                 {"type": "string", "enum": ["open"]}),
                          _query("seeking_substitute", "true: running games that offer seats to a substitute "
                                                       "(each with `seats_offered`) instead of open games",
                                 {"type": "string", "enum": ["true", "false", "1", "0"]}),
                          _query("limit", "At most this many", {"type": "integer", "minimum": 1,
                                                                "maximum": LOBBY_LIMIT}),
                          CURSOR)),
        Operation("post", "/v1/games/{game_id}/join", "Take the first free seat (joining twice keeps your seat), "
                                                       "or, with {\"seat\": N}, a seat offered to a substitute",
                  "required", 200, "JoinResult",
                  _join(BODY, TOKEN, GAME, {403: ("not_invited", "too_unreliable"),
                                            409: ("game_not_open", "too_many_revisions", "busy",
                                                  "too_many_active_games", "seat_not_offered", "already_seated")}),
                  params=(GAME_ID,), body="SeatChoice", body_required=False,
                  description="The last seat to join starts the game. Without a body you take the first free "
                              "seat of an open game. With `{\"seat\": N}` you take over a seat a running game "
                              "offers (`seats_offered` in GET /v1/games?seeking_substitute=true; else 409 "
                              "`seat_not_offered`; a player seated in the game: 409 `already_seated`): a "
                              "`SeatSubstituted` event; the player who left can no longer act, and keeps the "
                              "rated loss; your result is not rated. A game's `min_reliability` refuses players "
                              "below it (403 `too_unreliable`); past INTRIGUE_ACTIVE_GAMES_PER_PLAYER seats in "
                              "games not over, 409 `too_many_active_games`."),
        Operation("post", "/v1/games/{game_id}/leave", "Leave a game that has not started: your seat is free again",
                  "required", 200, "GameView",
                  _join(TOKEN, GAME, {403: ("not_seated",), 409: ("game_started", "game_cancelled", "busy")}),
                  params=(GAME_ID,), description="Once the game has started, resign instead (409 `game_started`)."),
        Operation("delete", "/v1/games/{game_id}", "Cancel a game you created that has not started", "required", 204,
                  None, _join(TOKEN, GAME, {403: ("not_creator",), 409: ("game_started", "busy")}),
                  params=(GAME_ID,), ok_type="",
                  description="The game keeps its log, with status `cancelled`, and leaves the lobby and your "
                              "count of open games. Cancelling it again changes nothing."),
        Operation("post", "/v1/games/{game_id}/resign", "Resign: your seat is out of the running, the bot plays it",
                  "required", 200, "ResignResult",
                  _join(TOKEN, GAME, {403: ("not_seated",), 409: ("game_not_started", "game_cancelled", "game_over",
                                                                  "already_resigned", "busy")}),
                  params=(GAME_ID,),
                  description="Your seat ranks last among the seats still in and cannot win; from now on the "
                              "takeover bot plays its decisions at once, so the others' game goes on. You see the "
                              "game as a spectator until it ends. With at most one seat still in, the game ends "
                              "(reason `resigned`): the seat left wins."),
        Operation("post", "/v1/games/{game_id}/rematch", "Ask for a rematch of a finished game and sit down in it",
                  "required", 200, "JoinResult",
                  _join(TOKEN, GAME, {403: ("not_seated", "not_invited"), 409: ("game_not_over", "game_not_open",
                                                                                "busy")}),
                  params=(GAME_ID,),
                  description="The first player to ask creates it: the same title, seats, options (less "
                              "those that fix hidden cards: it is dealt afresh) and time control, unlisted, its "
                              "seats offered to the same players as an invitation (`invited` webhooks). Every "
                              "later request, racing or not, gets the same game and seats its caller; the "
                              "last seat filled starts it. The games name each other: `rematch_of` on the new "
                              "one, `rematch` on the old one."),
        Operation("get", "/v1/games/{game_id}", "Status, whom it awaits and until when, your view and legal actions",
                  "optional", 200, "GameView", _join(OPTIONAL_TOKEN, GAME), params=(GAME_ID,),
                  description="Without a token (or with one not seated here) you see what a spectator sees."),
        Operation("post", "/v1/games/{game_id}/actions", "Post one action (an object from legal_actions)",
                  "required", 200, "ActionResult",
                  _join(BODY, {400: ("bad_if_match", "bad_idempotency_key")}, TOKEN, {403: ("not_seated",)}, GAME,
                        {409: ("game_not_started", "game_over", "version_conflict", "not_your_turn",
                               "idempotency_key_reused", "seat_resigned", "too_many_revisions",
                               "game_cancelled", "busy")}),
                  params=(GAME_ID,
                          _header("Idempotency-Key", "Your id for this decision: the same key again returns the "
                                                     "first result and appends nothing (1 to 200 characters)",
                                  {"type": "string", "minLength": 1, "maxLength": 200}),
                          _header("If-Match", "Refuse with 409 version_conflict unless the game is at this version "
                                              "(digits; an entity tag such as \"12\" also works)",
                                  {"type": "string", "pattern": r'^(W/)?("[0-9]{1,15}"|[0-9]{1,15})$'}),
                          _header("Prefer", "`return=minimal` (RFC 7240) leaves `game` out of the answer: for a "
                                            "client that gets its view from the event stream with view=true",
                                  {"type": "string"})),
                  body="Action", open_codes=("the game's rule codes (see each game's Action schema)",),
                  ok_headers={"Preference-Applied": {
                      "description": "`return=minimal` when the answer left `game` out, as asked with Prefer",
                      "schema": {"type": "string", "enum": ["return=minimal"]}}},
                  description="The body is one of the actions of the game's `<Game>Action` schema; "
                              "`legal_actions` in your view lists the ones you may post now."),
        Operation("get", "/v1/games/{game_id}/events", "Your redacted event feed; long-poll with wait", "optional",
                  200, "EventPage", _join(OPTIONAL_TOKEN, GAME, {400: ("bad_query",)}),
                  params=(GAME_ID, AFTER,
                          _query("wait", "Seconds to wait for a first event", {"type": "integer", "minimum": 0,
                                                                                "maximum": MAX_WAIT_SECONDS}),
                          _query("limit", "At most this many events", {"type": "integer", "minimum": 1,
                                                                         "maximum": MAX_PAGE}),
                          _query("view", "Also return your game view, legal actions included",
                                 {"type": "string", "enum": ["true", "false", "1", "0"]}),
                          _query("messages_after", "Table talk after this message id (e.g. 12-0)",
                                 {"type": "string", "pattern": "^([0-9]{1,15}-[0-9]{1,15})?$"}))),
        Operation("get", "/v1/games/{game_id}/events/stream", "The same feed as server-sent events", "optional",
                  200, None, _join(OPTIONAL_TOKEN, GAME, {400: ("bad_query", "bad_last_event_id"),
                                                          429: ("too_many_streams",)}),
                  params=(GAME_ID, AFTER,
                          _query("messages_after", "Table talk after this message id",
                                 {"type": "string", "pattern": "^([0-9]{1,15}-[0-9]{1,15})?$"}),
                          _header("Last-Event-ID", "Resume after this frame id (a version, or version/message id; "
                                                   "send none to start from `after`: an empty one is malformed)",
                                  {"type": "string", "pattern": "^[0-9]{1,15}(/[0-9]{1,15}-[0-9]{1,15})?$"})),
                  ok_type="text/event-stream",
                  description="Ends when a finished game's feed is complete; a comment line keeps it alive."),
        Operation("get", "/v1/games/{game_id}/replay", "The game as you saw it at a version; after the end, "
                                                        "everything", "optional", 200, "Replay",
                  _join(OPTIONAL_TOKEN, GAME, {400: ("bad_query",), 404: ("version_not_found",)}),
                  params=(GAME_ID, _query("version", "Version to rebuild (from 1 to the current; default: current)",
                                          {"type": "integer", "minimum": 1, "maximum": 10**15 - 1}))),
        Operation("get", "/v1/games/{game_id}/log", "The full hash-chained log (NDJSON) of a finished game",
                  "optional", 200, None, _join(OPTIONAL_TOKEN, GAME, {403: ("game_in_progress",)}),
                  params=(GAME_ID,), ok_type="application/x-ndjson",
                  description="The operator's token reads it at any time. Check it with `intrigue verify`."),
        Operation("get", "/v1/games/{game_id}/transcript", "A finished game as readable text, table talk in place",
                  "optional", 200, None, _join(OPTIONAL_TOKEN, GAME, {403: ("game_in_progress",)}),
                  params=(GAME_ID,), ok_type="text/plain"),
        Operation("post", "/v1/games/{game_id}/messages", "Table talk: to everyone, or privately to one seat",
                  "required", 201, "ChatMessage",
                  _join(BODY, TOKEN, GAME, {403: ("not_seated",), 409: ("game_over", "table_talk_full"),
                                            422: ("bad_recipient",),
                                            429: ("chat_rate_limited",)}),
                  params=(GAME_ID,), body="MessageCreate",
                  description="A message never changes the game's version."),
        Operation("get", "/v1/games/{game_id}/messages", "The table talk you may read, oldest first", "optional", 200,
                  "MessageList", _join(OPTIONAL_TOKEN, GAME, {400: ("bad_query",)}),
                  params=(GAME_ID, _query("after", "Messages after this message id (empty: from the start)",
                                          {"type": "string", "pattern": "^([0-9]{1,15}-[0-9]{1,15})?$"}))),
        Operation("put", "/v1/games/{game_id}/orders", "Replace your standing orders in this game", "required",
                  200, "StandingOrderList",
                  _join(BODY, TOKEN, GAME, {403: ("not_seated",), 409: ("game_over", "busy"), 422: ("bad_order",)}),
                  params=(GAME_ID,), body="StandingOrders",
                  description=ORDERS_DESCRIPTION),
        Operation("get", "/v1/games/{game_id}/orders", "Your standing orders in this game", "required", 200,
                  "StandingOrderList", _join(TOKEN, GAME, {403: ("not_seated",)}), params=(GAME_ID,),
                  description="Only yours: nobody else can read them, or tell that you have any, until the game "
                              "ends and its log (with every StandingOrdersSet) is published."),
        Operation("delete", "/v1/games/{game_id}/orders", "Clear your standing orders in this game", "required",
                  204, None, _join(TOKEN, GAME, {403: ("not_seated",), 409: ("game_over", "busy")}),
                  params=(GAME_ID,), ok_type=""),
        Operation("get", "/v1/me/games", "Your games; awaiting=me is the correspondence inbox", "required", 200,
                  "Inbox", _join(TOKEN, {400: ("bad_query", "bad_cursor")}),
                  description="Newest first; the inbox (awaiting=me) soonest deadline first. Paged: pass "
                              "`next_cursor` as `cursor` until it is null.",
                  params=(_query("awaiting", "'me': only games waiting on you, soonest deadline first",
                                 {"type": "string", "enum": ["me"]}),
                          _query("limit", "At most this many", {"type": "integer", "minimum": 1,
                                                                "maximum": LOBBY_LIMIT}),
                          CURSOR)),
        Operation("post", "/v1/me/webhooks", "Register a webhook; its signing secret is shown once", "required", 201,
                  "WebhookCreated", _join(BODY, TOKEN, {422: ("bad_webhook_url", "webhook_host_unresolvable",
                                                              "webhook_destination_refused", "too_many_webhooks")}),
                  body="WebhookCreate"),
        Operation("get", "/v1/me/webhooks", "Your webhooks, without their secrets", "required", 200, "WebhookList",
                  _join(TOKEN)),
        Operation("delete", "/v1/me/webhooks/{webhook_id}", "Delete a webhook", "required", 204, None,
                  _join(TOKEN, {404: ("webhook_not_found",)}),
                  params=(_path("webhook_id", "The webhook's id"),), ok_type=""),
        Operation("get", "/v1/me/webhooks/{webhook_id}/deliveries", "A webhook's recent deliveries", "required", 200,
                  "DeliveryList", _join(TOKEN, {404: ("webhook_not_found",)}),
                  params=(_path("webhook_id", "The webhook's id"),)),
        *_community_operations(),
        Operation("get", "/v1/me/tokens", "Your tokens: ids and dates, never a token", "required", 200, "TokenList",
                  _join(TOKEN)),
        Operation("post", "/v1/me/tokens", "Issue another token, shown once (to rotate: issue, then revoke the old)",
                  "required", 201, "TokenIssued", _join(TOKEN, {409: ("too_many_tokens",)}),
                  description="A player holds at most INTRIGUE_TOKENS_PER_PLAYER tokens; every token of one "
                              "client address shares its INTRIGUE_ADDRESS_RATE_LIMIT."),
        Operation("delete", "/v1/me/tokens/{token_id}", "Revoke a token (this one too); it stops working within "
                                                         "seconds on every API process", "required", 204, None,
                  _join(TOKEN, {404: ("token_not_found",)}),
                  params=(_path("token_id", "The token's id (from GET /v1/me/tokens)"),), ok_type=""),
        *_transparency_operations(),
        Operation("get", "/v1/openapi.json", "This document", "none", 200, None, {}, ok_type="application/json"),
    ]


def _community_operations() -> list[Operation]:
    """Your account, time zone and vacations (docs/community.md)."""
    return [
        Operation("get", "/v1/me", "Who you are, your time zone and your vacation", "required", 200, "Account",
                  _join(TOKEN)),
        Operation("patch", "/v1/me", "Set your time zone (the weekends of games with pause_weekends)", "required",
                  200, "Account", _join(BODY, TOKEN, {422: ("bad_timezone",)}), body="AccountPatch",
                  description="An IANA name (`Europe/Paris`); UTC by default. A game that pauses weekends keeps "
                              "the zone its players had when they joined."),
        Operation("post", "/v1/me/vacation", "Start a vacation of N days now: your clocks stop", "required", 200,
                  "Account", _join(BODY, TOKEN, {409: ("not_enough_vacation", "on_vacation", "busy")}),
                  body="Vacation",
                  description="Every player has INTRIGUE_VACATION_DAYS_PER_YEAR days a calendar year (UTC). A "
                              "`VacationStarted` event is appended to each running game of yours whose time "
                              "control allows it (`vacation`, the default with a day or more per move): your "
                              "clock stops there and your deadlines move on by the pause, at most what is left "
                              "of the game's `max_vacation_days` (all seats together)."),
        Operation("delete", "/v1/me/vacation", "End your vacation now; the whole days not used come back",
                  "required", 200, "Account", _join(TOKEN, {409: ("not_on_vacation", "busy")}),
                  description="A `VacationEnded` event in each game still paused for you: its clock runs again "
                              "from now."),
    ]


def _transparency_operations() -> list[Operation]:
    """The server's key and the public log of finished games (docs/transparency.md)."""
    size = {"type": "integer", "minimum": 0, "maximum": 2**63 - 1}
    needed = {"required": True}
    return [
        Operation("get", "/v1/keys", "The keys the server signs with (today one Ed25519 key)", "optional", 200,
                  "KeyList", _join(OPTIONAL_TOKEN),
                  description="The transparency log's checkpoints are signed with it (INTRIGUE_SIGNING_KEY)."),
        Operation("get", "/v1/transparency/checkpoint", "The log's signed head: a C2SP checkpoint", "optional",
                  200, None, _join(OPTIONAL_TOKEN), ok_type="text/plain",
                  description="A C2SP signed note: the origin line, the tree size, the root hash in base64, a "
                              "blank line, then `\u2014 <name> <base64(key hash || Ed25519 signature)>`. Each "
                              "finished game is one leaf, hashed as RFC 9162 says."),
        Operation("get", "/v1/transparency/inclusion", "The proof that a finished game is in the tree of a size",
                  "optional", 200, "InclusionProof",
                  _join(OPTIONAL_TOKEN, {400: ("bad_query",), 404: ("not_in_log",), 422: ("beyond_log",)}),
                  params=({**_query("game", "A finished game's id", {"type": "string", "minLength": 1,
                                                                       "maxLength": 64}), **needed},
                          {**_query("size", "The tree size, as a checkpoint gave it", size), **needed}),
                  description="Check it with RFC 9162's algorithm (section 2.1.3.2) against the root of a "
                              "checkpoint of that size; a size past the log, or too small to hold the game, "
                              "is 422 beyond_log."),
        Operation("get", "/v1/transparency/consistency", "The proof that a later tree extends an earlier one",
                  "optional", 200, "ConsistencyProof",
                  _join(OPTIONAL_TOKEN, {400: ("bad_query",), 422: ("bad_range", "beyond_log")}),
                  params=({**_query("from", "The earlier tree size (at least 1)", size), **needed},
                          {**_query("to", "The later tree size (at most the log's)", size), **needed}),
                  description="RFC 9162's consistency proof (section 2.1.4); check it with section 2.1.4.2."),
        Operation("post", "/v1/transparency/cosignatures", "A witness's cosignature of a checkpoint", "optional", 200,
                  "Cosigned", _join(BODY, OPTIONAL_TOKEN, {422: ("bad_cosignature",)}), body="Cosignature",
                  description="The checkpoint must be one this server signed, matching the log; the cosignature "
                              "a C2SP tlog-cosignature by the given key. Checkpoints of that size then carry it "
                              "(one per witness, its latest; at most 32 witnesses). `intrigue witness` sends it."),
    ]


ORDERS_DESCRIPTION = (
    "At most 20 orders, each {decision, when, answer, once}. When the game comes to await you for `decision` "
    "(a kind `awaiting_kinds` names) and every condition of `when` holds (each game's are listed in "
    "`<Game>OrderConditions`), the first such order whose `answer` the rules accept is played as your own action "
    "in the very commit that opened the decision: no worker, no deadline, no reserve spent. An answer the rules "
    "refuse at that moment is skipped (the next order, or you are asked as usual); a `once` order is removed when "
    "it answers. Orders are consulted each time the game moves (one set while a decision already waits for "
    "you answers it at the game's next move). Setting them moves no version and shows in no feed: nobody else "
    "can tell you have orders, or an answer of theirs from one you typed, but by its speed (it carries the `at` "
    "of the move that opened the decision).")

SCHEMAS = {
    "PlayerCreate": schemas.PlayerCreateSchema, "Player": schemas.PlayerSchema,
    "PlayerMatches": schemas.PlayerMatchesSchema,
    "TimeControl": schemas.TimeControlSchema, "GameSummary": schemas.GameSummarySchema,
    "GameView": schemas.GameViewSchema, "GameList": schemas.GameListSchema, "JoinResult": schemas.JoinResultSchema,
    "ActionResult": schemas.ActionResultSchema, "EventPage": schemas.EventPageSchema, "Replay": schemas.ReplaySchema,
    "Inbox": schemas.InboxSchema, "Problem": schemas.ProblemSchema, "TokenList": schemas.TokenListSchema,
    "TokenIssued": schemas.TokenIssuedSchema, "ResignResult": schemas.ResignResultSchema,
    "PlayerProfile": schemas.PlayerProfileSchema, "Leaderboard": schemas.LeaderboardSchema,
    "KeyList": schemas.KeyListSchema, "InclusionProof": schemas.InclusionProofSchema,
    "ConsistencyProof": schemas.ConsistencyProofSchema, "Cosignature": transparency.CosignatureSchema,
    "Cosigned": transparency.CosignedSchema,
    **correspondence.SCHEMAS,
    "StandingOrders": StandingOrdersSchema, "StandingOrder": StandingOrderSchema,
    "StandingOrderList": StandingOrderListSchema,
    "Account": schemas.AccountSchema, "AccountPatch": schemas.AccountPatchSchema,
    "Vacation": schemas.VacationSchema, "SeatChoice": schemas.SeatChoiceSchema,
}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))


#: What every game's creation takes besides its seats and options: who may find and join it.
TABLE_PROPERTIES: dict[str, Any] = {
    "rated": {"type": "boolean",
              "description": "Whether the result moves its players' ratings (GET /v1/players/{player_id}); "
                             "default: true unless a seat is a bot's"},
    "unlisted": {"type": "boolean", "default": False,
                 "description": "Keep the game out of the lobby: only those given its id find it"},
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
        create = f"{_camel(name)}Create"
        out[create] = {
            "type": "object", "required": ["game", "seats"], "additionalProperties": False,
            "properties": {"game": {"type": "string", "enum": [name]},
                           "seats": {"type": "integer", "minimum": rules.MIN_SEATS, "maximum": rules.MAX_SEATS},
                           "options": options_schema(rules), "time_control": _ref("TimeControl"),
                           "bots": BOTS_SCHEMA, **TABLE_PROPERTIES},
            "example": {"game": name, "seats": rules.MIN_SEATS, "options": {},
                        "time_control": {"seconds_per_move": 86400}}}
        action = f"{_camel(name)}Action"
        refusals = [code for code in sorted(rules.RULE_CODES) if rule_status(code) == 422]
        out[action] = {**action_schema(rules), "description": f"An action of {name}. Refusals (422) use these "
                                                              f"codes: {', '.join(refusals)}."}
        creates.append(_ref(create))
        actions.append(_ref(action))
        out[f"{_camel(name)}OrderConditions"] = order_conditions_schema(rules)
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
        about = (f"The conditions of a {rules.NAME} order's `when`; its `decision` is one of "
                 f"{', '.join(decisions)}.")
    return {"type": "object", "additionalProperties": False, "description": about,
            "properties": {name: condition.schema() for name, condition in sorted(conditions.items())}}


def _problem_response(status: int, codes: tuple[str, ...], open_codes: tuple[str, ...]) -> dict[str, Any]:
    description = f"{_REASONS.get(status, 'Problem')}. Codes: {', '.join(codes)}"
    if open_codes:
        description += f"; also {', '.join(open_codes)}"
        schema: dict[str, Any] = _ref("Problem")
    else:
        schema = {"allOf": [_ref("Problem"), {"type": "object", "properties": {
            "code": {"type": "string", "enum": list(codes)}}}]}
    response: dict[str, Any] = {"description": description,
                                "content": {"application/problem+json": {"schema": schema}}}
    if status in (429, 503):
        response["headers"] = {"Retry-After": {"description": "Seconds to wait before retrying",
                                               "schema": {"type": "integer", "minimum": 1}}}
    if status == 401:
        response["headers"] = {"WWW-Authenticate": {"schema": {"type": "string"}}}
    return response


def _operation_dict(op: Operation, examples: dict[str, Any]) -> dict[str, Any]:
    auth_line = {"required": "Needs a player token.", "optional": "A token is optional.",
                 "none": "Needs no token."}[op.auth]
    # Correspondence play keeps its longer explanations beside its code (service/openapi_correspondence.py).
    more = dict(correspondence.PATHS).get(op.path, {}).get(op.method, {}).get("description", "")
    result: dict[str, Any] = {"summary": op.summary, "operationId": _operation_id(op),
                              "description": " ".join(filter(None, (auth_line, op.description, more))),
                              "tags": [op.path.split("/")[2]], "parameters": list(op.params)}
    if op.auth == "required":
        result["security"] = [{"bearer": []}]
    elif op.auth == "optional":
        result["security"] = [{}, {"bearer": []}]
    else:
        result["security"] = []
    example = examples.get(op.key, {})
    if op.body:
        content: dict[str, Any] = {"schema": _ref(op.body)}
        if "request" in example:
            content["example"] = example["request"]
        result["requestBody"] = {"required": op.body_required, "content": {"application/json": content}}
    ok: dict[str, Any] = {"description": "Success"}
    if op.ok_type:
        media: dict[str, Any] = {"schema": _ref(op.ok_schema)} if op.ok_schema else {"schema": {"type": "string"}}
        if op.ok_type == "text/event-stream":  # one object per event: its id, type and the feed item as JSON
            media = {"schema": {"type": "object", "properties": {
                "id": {"type": "string"}, "event": {"type": "string"}, "data": {"type": "string"}}}}
        if op.ok_type == "application/json" and not op.ok_schema:
            media = {"schema": {"type": "object"}}
        if "response" in example:
            media["example"] = example["response"]
        ok["content"] = {op.ok_type: media}
    if op.ok_headers:
        ok["headers"] = op.ok_headers
    responses: dict[str, Any] = {str(op.ok_status): ok}
    problems = _join(op.problems, ANYWHERE)
    if op.open_codes:
        problems = _join(problems, {422: ()})
    for status in sorted(problems):
        responses[str(status)] = _problem_response(status, problems[status], op.open_codes if status == 422 else ())
    result["responses"] = responses
    return result


def _operation_id(op: Operation) -> str:
    words = [w.strip("{}") for w in op.path.split("/")[2:]]
    return op.method + "".join(_camel(w) for w in words)


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


@cache
def _build_document() -> dict[str, Any]:
    spec = APISpec(title="Intrigue", version=package_version(), openapi_version="3.0.3", plugins=[MarshmallowPlugin()],
                   info={"description": DESCRIPTION})
    spec.components.security_scheme("bearer", {"type": "http", "scheme": "bearer"})
    for name, schema in SCHEMAS.items():
        spec.components.schema(name, schema=schema)
    for name, schema in game_schemas().items():
        spec.components.schema(name, schema)
    examples = load_examples()
    by_path: dict[str, dict[str, Any]] = {}
    for op in operations():
        by_path.setdefault(op.path, {})[op.method] = _operation_dict(op, examples)
    for path, ops in by_path.items():
        spec.path(path=path, operations=ops)
    document = spec.to_dict()
    # The orders are checked by the engine (a bad one is 422 bad_order naming it), so the schema
    # takes any item; the reference still describes each one.
    listed = document["components"]["schemas"]["StandingOrders"]["properties"]["orders"]
    listed.update(items=_ref("StandingOrder"), maxItems=MAX_ORDERS)
    return document


DESCRIPTION = (
    "Hidden-information board games over HTTP. Every action is an event; every view is filtered for its seat. "
    "Errors are RFC 9457 problem details (application/problem+json) with a stable `code`; each operation lists "
    "the codes it can answer. A method a path does not have is 405 `method_not_allowed` with an `Allow` header; "
    "a path that does not exist is 404 `not_found`. Tokens: `Authorization: Bearer <token>` from POST /v1/players.")


@docs_bp.get("/v1/openapi.json")
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
