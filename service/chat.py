"""Table talk: seated players' messages, public or to one seat, beside the game's events.

Messages live in a stream of their own (``{g:<id>}:chat``), never in the event stream,
so they never change the version that ``If-Match`` checks: chat cannot make a pending
move fail. A message's id is ``<version>-<n>``: the game's version when it was posted
(read in the same script that appends it) and a counter, so messages sort into the
feed, the replay and the transcript right after the event they followed.

Who sees what: a public message (``to`` null) reaches every seat and spectator; a
private one only its two seats while the game runs; once the game is over every
message is public, like the log. The server never enforces a deal made in chat.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Callable, Mapping
from typing import Any

import redis
from flask import Blueprint, Response, request
from marshmallow import RAISE, Schema, ValidationError, fields, validate, validates

from events.envelope import Envelope, utc_now
from events.lean import LeanScript
from events.store import Keys
from projections.record import Record, seat_of
from projections.transcript import transcript
from projections.views import OPERATOR
from service.errors import Problem
from service.plain_text import PATTERN, OneLine

MAX_TEXT = 500
#: Messages per player per minute, over all games (``INTRIGUE_CHAT_RATE``).
DEFAULT_CHAT_RATE = 20
FEED_TYPE = "ChatMessage"

# KEYS: chat stream, game meta hash. ARGV: the message (JSON), the game's feed channel.
# "m" on the feed channel wakes the game's watchers to read the chat (events.watch).
# The id's first part is the game's version now; a stream id never goes back, so a
# message posted after a later one (impossible while versions only grow) keeps order.
_POST = """
local version = tonumber(redis.call('HGET', KEYS[2], 'version') or '0')
local n = 0
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
if #last > 0 then
  local id = last[1][1]
  local dash = string.find(id, '-')
  local ms = tonumber(string.sub(id, 1, dash - 1))
  if ms >= version then
    version = ms
    n = tonumber(string.sub(id, dash + 1)) + 1
  end
end
local id = redis.call('XADD', KEYS[1], version .. '-' .. n, 'm', ARGV[1])
redis.call('PUBLISH', ARGV[2], 'm')
return id
"""


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


class Chat:
    """Posting, reading and filtering one game's messages."""

    def __init__(self, client: redis.Redis, keys: Keys,
                 read_events: Callable[..., list[Envelope]] | None = None) -> None:
        self.redis = client
        self.keys = keys
        #: The store's reader, for games whose stream has been archived (see events.archive).
        self.read_events = read_events
        self._post = LeanScript(client, _POST)

    def post(self, game_id: str, seat: int, to: int | None, text: str) -> dict[str, Any]:
        body = {"from": seat, "to": to, "text": text, "at": utc_now()}
        raw = self._post(keys=[self.keys.chat(game_id), self.keys.meta(game_id)],
                         args=[json.dumps(body), self.keys.feed(game_id)])
        return _message(raw, body)

    def read(self, game_id: str, cursor: str | None, from_version: int = 0, upto_version: int | None = None,
             count: int | None = None) -> list[dict[str, Any]]:
        """Messages after ``cursor`` (an id), or from ``from_version`` on when there is no cursor."""
        low = f"({cursor}" if cursor else f"{from_version}-0"
        high = f"{upto_version}-18446744073709551615" if upto_version is not None else "+"
        entries = self.redis.xrange(self.keys.chat(game_id), low, high, count=count)
        return [_message(entry_id, json.loads(fields[b"m"])) for entry_id, fields in entries]

    def read_with_events(self, game_id: str, after: int, cursor: str | None, from_version: int,
                         count: int) -> tuple[list[Envelope], list[dict[str, Any]]]:
        """Events after ``after`` and messages after ``cursor`` in one round trip (a feed page)."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.xrange(self.keys.events(game_id), f"(0-{after}", "+", count=count)
        pipe.xrange(self.keys.chat(game_id), f"({cursor}" if cursor else f"{from_version}-0", "+", count=count)
        pipe.exists(self.keys.events(game_id))
        entries, said, live = pipe.execute()
        events = [Envelope.from_json(fields[b"e"]) for _, fields in entries]
        if not live and self.read_events is not None:  # a finished game, archived: no stream any more
            events = self.read_events(game_id, after=after, count=count)
        return events, [_message(entry_id, json.loads(fields[b"m"])) for entry_id, fields in said]

    def all(self, game_id: str) -> list[dict[str, Any]]:
        return self.read(game_id, None)

    def stream_position(self, cursor: str | None, from_version: int) -> str:
        """The exclusive stream id an XREAD waits after, for a cursor or a starting version."""
        if cursor:
            return cursor
        return f"{from_version - 1}-18446744073709551615" if from_version > 0 else "0-0"

    def check_rate(self, player_id: str) -> None:
        """A fixed window per minute and player: beyond it, 429 with the seconds left in the window."""
        rate = int(os.environ.get("INTRIGUE_CHAT_RATE", DEFAULT_CHAT_RATE))
        if rate <= 0:
            return
        now = time.time()
        window = int(now // 60)
        key = self.keys.chat_rate(player_id, window)
        pipe = self.redis.pipeline(transaction=False)
        pipe.incr(key)
        pipe.expire(key, 120)
        count, _ = pipe.execute()
        if count > rate:
            wait = round(60 - now % 60, 3)
            raise Problem(429, "chat_rate_limited", f"at most {rate} messages a minute; retry in {wait:.0f} s",
                          retry_after=wait)


def _message(entry_id: bytes | str, body: Mapping[str, Any]) -> dict[str, Any]:
    text_id = entry_id.decode() if isinstance(entry_id, bytes) else entry_id
    return {"id": text_id, "version": int(text_id.split("-", 1)[0]), "at": body["at"], "from": body["from"],
            "to": body["to"], "text": body["text"]}


def visible(record: Record, message: Mapping[str, Any], seat: int | None | str) -> bool:
    """Public messages to all; private ones to their two seats until the game is over."""
    if message["to"] is None or seat == OPERATOR or record["status"] == "finished":
        return True
    return seat in (message["from"], message["to"])


def feed_item(message: Mapping[str, Any]) -> dict[str, Any]:
    """A message as it appears among feed events: no ``seq`` of its own, its ``id`` and ``version``."""
    return {"seq": None, "id": message["id"], "version": message["version"], "type": FEED_TYPE,
            "at": message["at"], "actor": message["from"],
            "data": {"from": message["from"], "to": message["to"], "text": message["text"]}}


def merge(event_items: list[tuple[int, dict[str, Any]]], messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Events (with their seq) and messages in one order: a message right after the event it followed."""
    if not messages:  # the usual page: events only, already in order
        return [item for _, item in event_items]
    keyed = [((seq, 0, ""), item) for seq, item in event_items]
    keyed += [((m["version"], 1, m["id"]), feed_item(m)) for m in messages]
    keyed.sort(key=lambda pair: (pair[0][0], pair[0][1], _id_order(pair[0][2])))
    return [item for _, item in keyed]


def _id_order(message_id: str) -> int:
    return int(message_id.split("-", 1)[1]) if message_id else 0


# ---------------------------------------------------------------------------- HTTP
chat_bp = Blueprint("chat", __name__, url_prefix="/v1/games")


@chat_bp.post("/<game_id>/messages")
def post_message(game_id: str) -> tuple[dict[str, Any], int]:
    from service.app import current_player, engine
    from service.inputs import object_body

    player = current_player()
    assert player is not None
    raw = object_body()
    body = MESSAGE_SCHEMA.load(raw)
    eng = engine()
    record = eng.load(game_id)
    seat = seat_of(record, player.id)
    if seat is None:
        raise Problem(403, "not_seated", "only seated players may talk at this table")
    if record["status"] == "finished":
        raise Problem(409, "game_over", "the game is over; its table talk is published with the log")
    to = body["to"]
    if to is not None:
        if not 0 <= to < record["seats"] or record["players"][to] is None:
            raise Problem(422, "bad_recipient", f"seat {to} is not a seated player of this game")
        if to == seat:
            raise Problem(422, "bad_recipient", "a private message goes to another seat, not your own")
    chat = eng.chat
    chat.check_rate(player.id)
    return chat.post(game_id, seat, to, body["text"]), 201


@chat_bp.get("/<game_id>/messages")
def list_messages(game_id: str) -> dict[str, Any]:
    """The messages the caller may see, oldest first; ``after`` (a message id) continues a list."""
    from service.routes import _caller_seat

    eng = _engine()
    record = eng.load(game_id)
    seat = _caller_seat(record)
    cursor = request.args.get("after") or None
    if cursor is not None and not _valid_id(cursor):
        raise Problem(400, "bad_query", "after must be a message id such as 12-0")
    read = eng.chat.read(game_id, cursor, count=500)
    return {"messages": [m for m in read if visible(record, m, seat)],
            "messages_after": read[-1]["id"] if read else cursor}


@chat_bp.get("/<game_id>/transcript")
def game_transcript(game_id: str) -> Response:
    """A finished game as readable text: one line per decision, the table talk in place.

    Like the log, the operator may read it while the game runs (for audits).
    """
    from service.app import is_operator

    eng = _engine()
    record = eng.load(game_id)
    if record["status"] != "finished" and not is_operator():
        raise Problem(403, "game_in_progress", "the transcript is published when the game ends")
    text = transcript(eng.store.read(game_id), eng.chat.all(game_id))
    return Response(text, mimetype="text/plain")


def _engine():
    from service.app import engine

    return engine()


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
