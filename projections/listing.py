"""Pages of games read from the indexes: the lobby, a player's games and the inbox.

An index is a sorted set (lobby: creation time; a player's games: creation time;
inbox: the player's deadline). A page is one range read of at most ``limit + 1``
members from a cursor, then one pipeline reading each game's *card*: a small JSON
summary written beside the game's version by every follow-up. So a page costs two
round trips however many games the player or the lobby holds, and no read takes a
whole index.

A cursor names the last game of the previous page by its score and id. Redis orders
equal scores by member, so members that tie with the cursor's score are skipped up to
and including the cursor's own: a game added or removed meanwhile shifts nothing.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson
import redis

from events.store import Keys
from projections.record import Record
from projections.views import summary


def card(record: Record) -> str:
    """What a listing shows of a game: its public summary, whom it awaits and until when, who won."""
    return orjson.dumps({**summary(record), "awaiting": record["awaiting"], "deadlines": record["deadlines"],
                         "winners": record["winners"]}).decode()


class BadCursor(ValueError):
    """A cursor this server did not write."""


#: A cursor is a position, ``<score>_<member>``: any well-formed one names a place in the
#: index (a game need not exist for the page after it to make sense), so a client may keep
#: one for as long as it likes, and every string the documented pattern admits is usable.
CURSOR_PATTERN = r"^[0-9]{1,20}(\.[0-9]{1,20})?_[0-9a-zA-Z-]{1,64}$"
_CURSOR = re.compile(CURSOR_PATTERN)


def encode_cursor(score: float, member: str) -> str:
    text = repr(float(score))
    if "e" in text or "inf" in text or "nan" in text or text.startswith("-"):
        text = f"{max(0.0, score):.6f}"  # index scores are times and versions; this is only a guard
    return f"{text}_{member}"


def decode_cursor(cursor: str) -> tuple[float, str]:
    if not _CURSOR.fullmatch(cursor):
        raise BadCursor(cursor)
    score, member = cursor.split("_", 1)
    return float(score), member


@dataclass(frozen=True)
class Page:
    cards: list[dict[str, Any]]
    next_cursor: str | None


def index_page(client: redis.Redis, key: str, limit: int, cursor: str | None = None,
               newest_first: bool = False) -> tuple[list[tuple[str, float]], str | None]:
    """Members after ``cursor`` in index order, at most ``limit``, and the cursor of the next page."""
    after = decode_cursor(cursor) if cursor is not None else None  # "" is no cursor: refused
    found: list[tuple[str, float]] = []
    offset = 0
    while len(found) <= limit:
        want = limit + 1 - len(found)
        if newest_first:
            high = after[0] if after else "+inf"
            batch = client.zrevrangebyscore(key, high, "-inf", start=offset, num=want, withscores=True)
        else:
            low = after[0] if after else "-inf"
            batch = client.zrangebyscore(key, low, "+inf", start=offset, num=want, withscores=True)
        if not batch:
            break
        offset += len(batch)
        for raw, score in batch:
            member = raw.decode()
            if after is not None and score == after[0]:
                # Equal scores come in member order (reversed when newest first): skip up to the cursor.
                if (member <= after[1]) if not newest_first else (member >= after[1]):
                    continue
            found.append((member, score))
    page = found[:limit]
    more = len(found) > limit
    return page, (encode_cursor(page[-1][1], page[-1][0]) if more and page else None)


def read_page(client: redis.Redis, keys: Keys, key: str, limit: int, cursor: str | None, newest_first: bool,
              load: Callable[[str], Record | None]) -> Page:
    """One page of an index with each game's card; games with no card yet are loaded in full."""
    members, next_cursor = index_page(client, key, limit, cursor, newest_first)
    pipe = client.pipeline(transaction=False)
    for game_id, _ in members:
        pipe.hget(keys.meta(game_id), "card")
    cards = []
    for (game_id, _), raw in zip(members, pipe.execute() if members else [], strict=True):
        found = json.loads(raw) if raw is not None else None
        if found is not None and "scenario" in found:
            cards.append(found)
            continue
        record = load(game_id)  # indexed before cards existed, or before they said whether it is a scenario
        if record is not None:
            cards.append(json.loads(card(record)))
    return Page(cards, next_cursor)
