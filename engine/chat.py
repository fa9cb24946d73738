"""Table talk: seated players' messages, public or to one seat, beside the game's events.

Messages live in a stream of their own (``{g:<id>}:chat``), never in the event stream,
so they never change the version that ``If-Match`` checks: chat cannot make a pending
move fail. A message's id is ``<version>-<n>``: the game's version when it was posted
(read in the same script that appends it) and a counter, so messages sort into the
feed, the replay and the transcript right after the event they followed.

Who sees what: a public message (``to`` null) reaches every seat and spectator; a
private one only its two players while the game runs: the player in the sending seat and
the one in the seat it was sent to, when it was sent (the stream keeps both ids). A player
who leaves an open game leaves its private talk behind: whoever takes the seat next reads
none of it. Once the game is over every message is public, like the log. The server never enforces a deal made in chat.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from typing import Any

import redis

from engine.errors import Conflict, Limited
from events.envelope import Envelope, utc_now
from events.lean import LeanScript
from events.store import Keys
from projections.record import Record
from projections.views import OPERATOR

MAX_TEXT = 500
#: Messages per player per minute, over all games, unless the operator says otherwise (``INTRIGUE_CHAT_RATE``).
DEFAULT_CHAT_RATE = 20
#: Messages one game keeps, unless the operator says otherwise (``INTRIGUE_MESSAGES_PER_GAME``).
DEFAULT_MESSAGES_PER_GAME = 1000
FEED_TYPE = "ChatMessage"

# KEYS: chat stream, game meta hash. ARGV: the message (JSON), the game's feed channel, the
# most messages a game keeps (0: no ceiling). A full table answers {'full', count}.
# "m" on the feed channel wakes the game's watchers to read the chat (events.watch).
# The id's first part is the game's version now; a stream id never goes back, so a
# message posted after a later one (impossible while versions only grow) keeps order.
_POST = """
local ceiling = tonumber(ARGV[3])
if ceiling > 0 then
  local held = redis.call('XLEN', KEYS[1])
  if held >= ceiling then return {'full', held} end
end
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

# KEYS: the game's event stream, its chat stream. ARGV: the events' low id, the messages' low
# id, the most of each to read ('' for all). A feed page's two reads and whether the event
# stream is still there (an archived game's is not), in one script call: the raw replies,
# without redis-py's pipeline and its per-command layers (see events.lean).
_READ_WITH_EVENTS = """
local function after(key, low)
  if ARGV[3] == '' then return redis.call('XRANGE', key, low, '+') end
  return redis.call('XRANGE', key, low, '+', 'COUNT', ARGV[3])
end
return {after(KEYS[1], ARGV[1]), after(KEYS[2], ARGV[2]), redis.call('EXISTS', KEYS[1])}
"""


class Chat:
    """Posting, reading and filtering one game's messages."""

    def __init__(self, client: redis.Redis, keys: Keys,
                 read_events: Callable[..., list[Envelope]] | None = None, rate: int = DEFAULT_CHAT_RATE,
                 per_game: int = DEFAULT_MESSAGES_PER_GAME) -> None:
        self.redis = client
        self.keys = keys
        #: The store's reader, for games whose stream has been archived (see events.archive).
        self.read_events = read_events
        #: Messages per minute per player (0: no limit).
        self.rate = rate
        #: Messages one game keeps (0: no ceiling): table talk is kept for ever, so it is bounded.
        self.per_game = per_game
        self._post = LeanScript(client, _POST)
        self._read_with_events = LeanScript(client, _READ_WITH_EVENTS)

    def post(self, game_id: str, seat: int, to: int | None, text: str,
             between: tuple[str, str | None] | None = None) -> dict[str, Any]:
        """Append a message; ``between`` is the sender's and the recipient's player ids (kept with
        it, never shown: who may read a private message is decided by them, not by the seats)."""
        body: dict[str, Any] = {"from": seat, "to": to, "text": text, "at": utc_now()}
        if between is not None:
            body["players"] = list(between)
        raw = self._post(keys=[self.keys.chat(game_id), self.keys.meta(game_id)],
                         args=[json.dumps(body), self.keys.feed(game_id), self.per_game])
        if isinstance(raw, list):
            raise Conflict("table_talk_full", f"this game's table talk is full ({self.per_game} messages); "
                                              "nothing more can be said at this table")
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
        entries, said, live = self._read_with_events(
            keys=[self.keys.events(game_id), self.keys.chat(game_id)],
            args=[f"(0-{after}", f"({cursor}" if cursor else f"{from_version}-0", "" if count is None else count])
        # Each entry is [id, [field, value]]: an event's one field is "e", a message's "m"
        # (as EventStore.read takes an event from its script's raw reply).
        events = [Envelope.from_json(fields[1]) for _, fields in entries]
        if not live and self.read_events is not None:  # a finished game, archived: no stream any more
            events = self.read_events(game_id, after=after, count=count)
        return events, [_message(entry_id, json.loads(fields[1])) for entry_id, fields in said]

    def all(self, game_id: str) -> list[dict[str, Any]]:
        return self.read(game_id, None)

    def stream_position(self, cursor: str | None, from_version: int) -> str:
        """The exclusive stream id an XREAD waits after, for a cursor or a starting version."""
        if cursor:
            return cursor
        return f"{from_version - 1}-18446744073709551615" if from_version > 0 else "0-0"

    def check_rate(self, player_id: str) -> None:
        """A fixed window per minute and player: beyond it, 429 with the seconds left in the window."""
        rate = self.rate
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
            raise Limited("chat_rate_limited", f"at most {rate} messages a minute; retry in {wait:.0f} s",
                          retry_after=wait, policy="chat")


#: The key of a read message that holds its two players' ids: the engine's, dropped by :func:`public`.
PLAYERS = "players"


def _message(entry_id: bytes | str, body: Mapping[str, Any]) -> dict[str, Any]:
    text_id = entry_id.decode() if isinstance(entry_id, bytes) else entry_id
    message = {"id": text_id, "version": int(text_id.split("-", 1)[0]), "at": body["at"], "from": body["from"],
               "to": body["to"], "text": body["text"]}
    if PLAYERS in body:
        message[PLAYERS] = body[PLAYERS]
    return message


def public(message: Mapping[str, Any]) -> dict[str, Any]:
    """A message as callers read it: without the players' ids it keeps for :func:`visible`."""
    return {key: value for key, value in message.items() if key != PLAYERS}


def visible(record: Record, message: Mapping[str, Any], seat: int | None | str) -> bool:
    """Public messages to all; private ones to their two players until the game is over.

    ``seat`` reads with the eyes of the player seated there now: a private message is theirs
    only if they sent or received it, so a seat's next occupant reads none of the last one's.
    (A message kept from before the ids were stored falls back to its two seats.)
    """
    if message["to"] is None or seat == OPERATOR or record["status"] == "finished":
        return True
    if seat not in (message["from"], message["to"]):
        return False
    between = message.get(PLAYERS)
    if between is None:
        return True
    occupant = record["players"][seat] if isinstance(seat, int) and 0 <= seat < len(record["players"]) else None
    return occupant is not None and occupant.get("id") == between[0 if seat == message["from"] else 1]


def between_players(record: Record, seat: int, to: int | None) -> tuple[str, str | None]:
    """The ids of the player who sends from ``seat`` and of the one seated at ``to`` now."""
    recipient = record["players"][to] if to is not None else None
    return record["players"][seat]["id"], recipient.get("id") if recipient is not None else None


def readable(record: Record, messages: list[dict[str, Any]], seat: int | None | str) -> list[dict[str, Any]]:
    """The messages ``seat`` may read, as callers read them."""
    return [public(m) for m in messages if visible(record, m, seat)]


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
