"""The table-talk resources: post, list, and the transcript (``engine.chat`` keeps the messages)."""

from __future__ import annotations

import re
from typing import Any

from flask import Response
from marshmallow import RAISE, Schema, ValidationError, fields, validate, validates

from engine.chat import MAX_TEXT, readable
from service.answers import Problem
from service.api_doc import BODY, GAME, GAME_ID, OPTIONAL_TOKEN, TOKEN, Blueprint, declare
from service.context import caller_seat, current_player, engine, is_operator
from service.inputs import object_body
from service.plain_text import PATTERN, OneLine
from service.queries import Matching


class MessageSchema(Schema):
    class Meta:
        unknown = RAISE

    text = fields.String(required=True, validate=[validate.Length(min=1, max=MAX_TEXT), OneLine()],
                         metadata={"description": "1 to 500 characters, no control characters, line breaks "
                                                  "or bidirectional overrides",
                                   "pattern": PATTERN})
    to = fields.Integer(load_default=None, allow_none=True, strict=True,
                        metadata={"description": "A seat for a private message; null for the whole table",
                                  "minimum": 0})

    @validates("to")
    def _seat_number(self, value: Any, **_: Any) -> None:
        if isinstance(value, bool):
            raise ValidationError("to must be a seat number or null")


MESSAGE_SCHEMA = MessageSchema()  # built once, used by every request


class ChatMessageSchema(Schema):
    id = fields.String(metadata={"description": "<version>-<n>: the game version it follows, then a counter"})
    version = fields.Integer(metadata={"description": "The game's version when it was posted"})
    at = fields.String()
    sender = fields.Integer(data_key="from", metadata={"description": "The sender's seat"})
    to = fields.Integer(allow_none=True, metadata={"description": "The one seat it was for; null: everyone"})
    text = fields.String()


class MessageListSchema(Schema):
    messages = fields.List(fields.Nested(ChatMessageSchema))
    messages_after = fields.String(allow_none=True, metadata={"description": "Pass back to continue"})


class MessagesQuery(Schema):
    after = Matching("([0-9]{1,15}-[0-9]{1,15})?", "after must be a message id such as 12-0",
                     metadata={"description": "Messages after this message id (empty: from the start)",
                               "pattern": "^([0-9]{1,15}-[0-9]{1,15})?$"})


MESSAGES_QUERY = MessagesQuery()

chat_bp = Blueprint("chat", __name__, url_prefix="/v1/games")


@chat_bp.post("/<game_id>/messages")
@declare("Table talk: to everyone, or privately to one seat", auth="required", ok=(201, "ChatMessage"),
         problems=(BODY, TOKEN, GAME, {403: ("not_seated",), 409: ("game_over", "table_talk_full"),
                                       422: ("bad_recipient",), 429: ("chat_rate_limited",)}),
         params=(GAME_ID,), body="MessageCreate",
         description="A message never changes the game's version. From a seated player while the game is open or "
                     "running. Never changes the game's version (If-Match). Private messages reach only the two "
                     "seats until the game ends; then every message is published with the log. At most "
                     "INTRIGUE_CHAT_RATE (20) messages a minute per player.")
def post_message(game_id: str) -> tuple[dict[str, Any], int]:
    player = current_player()
    assert player is not None
    body = MESSAGE_SCHEMA.load(object_body())
    return engine().post_message(player, game_id, body["to"], body["text"]), 201


@chat_bp.get("/<game_id>/messages")
@declare("The table talk you may read, oldest first", auth="optional", ok=(200, "MessageList"),
         problems=(OPTIONAL_TOKEN, GAME, {400: ("bad_query",)}), params=(GAME_ID,))
@chat_bp.arguments(MESSAGES_QUERY, location="query")
def list_messages(query: dict[str, Any], game_id: str) -> dict[str, Any]:
    """The messages the caller may see, oldest first; ``after`` (a message id) continues a list."""
    eng = engine()
    record = eng.load(game_id)
    seat = caller_seat(record)
    cursor = query.get("after") or None
    read = eng.messages(game_id, cursor, count=500)
    return {"messages": readable(record, read, seat),
            "messages_after": read[-1]["id"] if read else cursor}


@chat_bp.get("/<game_id>/transcript")
@declare("A finished game as readable text, table talk in place", auth="optional", ok=(200, None),
         problems=(OPTIONAL_TOKEN, GAME, {403: ("game_in_progress",)}), params=(GAME_ID,), ok_type="text/plain")
def game_transcript(game_id: str) -> Response:
    """A finished game as readable text: one line per decision, the table talk in place.

    Like the log, the operator may read it while the game runs (for audits).
    """
    eng = engine()
    record = eng.load(game_id)
    if record["status"] != "finished" and not is_operator():
        raise Problem(403, "game_in_progress", "the transcript is published when the game ends")
    return Response(eng.transcript(game_id), mimetype="text/plain")


_MESSAGE_ID = re.compile(r"[0-9]{1,15}-[0-9]{1,15}")


def _valid_id(value: str) -> bool:
    # ASCII digits of a sane length: str.isdigit() takes "²", and Redis refuses ids past 2**64.
    return _MESSAGE_ID.fullmatch(value) is not None


def parse_cursor(raw: str | None) -> str | None:
    """A ``messages_after`` query value: a message id, or nothing."""
    if raw is None or raw == "":
        return None
    if not _valid_id(raw):
        raise Problem(400, "bad_query", "messages_after must be a message id such as 12-0")
    return raw
