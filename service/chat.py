"""The table-talk resources: post, list, and the transcript (``engine.chat`` keeps the messages)."""

from __future__ import annotations

import re
from typing import Any

from flask import Blueprint, Response, request
from marshmallow import RAISE, Schema, ValidationError, fields, validate, validates

from engine.chat import MAX_TEXT, readable
from service.answers import Problem
from service.context import caller_seat, current_player, engine, is_operator
from service.inputs import object_body
from service.plain_text import PATTERN, OneLine


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


chat_bp = Blueprint("chat", __name__, url_prefix="/v1/games")


@chat_bp.post("/<game_id>/messages")
def post_message(game_id: str) -> tuple[dict[str, Any], int]:
    player = current_player()
    assert player is not None
    body = MESSAGE_SCHEMA.load(object_body())
    return engine().post_message(player, game_id, body["to"], body["text"]), 201


@chat_bp.get("/<game_id>/messages")
def list_messages(game_id: str) -> dict[str, Any]:
    """The messages the caller may see, oldest first; ``after`` (a message id) continues a list."""
    eng = engine()
    record = eng.load(game_id)
    seat = caller_seat(record)
    cursor = request.args.get("after") or None
    if cursor is not None and not _valid_id(cursor):
        raise Problem(400, "bad_query", "after must be a message id such as 12-0")
    read = eng.messages(game_id, cursor, count=500)
    return {"messages": readable(record, read, seat),
            "messages_after": read[-1]["id"] if read else cursor}


@chat_bp.get("/<game_id>/transcript")
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
