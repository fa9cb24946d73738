"""``GET /v1/players/<id>/games/export``: a player's finished games as NDJSON (issue 52, item 4).

One finished game a line, oldest end first (``engine.export``), streamed as it is read;
``since`` (an ``ended_at`` as the lines give it, or Unix milliseconds) resumes an export,
``logs=true`` puts each game's whole published log, signed final record included, in its
line. Starting an export spends a token of the caller's own export bucket (three at once,
then one every twenty seconds), on top of the request's usual token: like lichess's game
export, which reads far more than any page, it is paced apart.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

from flask import Response
from marshmallow import Schema

from engine.core import Engine
from engine.export import EXPORT_BUCKET, summary_line
from engine.final_record import final_record
from engine.signing import NoteSigner
from events.envelope import Envelope
from service.answers import Problem
from service.api_doc import OPTIONAL_TOKEN, Blueprint, declare, path_param
from service.context import client_address, current_player, engine, is_operator, take
from service.event_stream import MAX_PAGE
from service.queries import Flag, Matching
from service.transparency import signer

export_bp = Blueprint("export", __name__, url_prefix="/v1/players")

#: ``since``: Unix milliseconds, or an ISO-8601 time with its offset as the lines spell ``ended_at``.
SINCE_PATTERN = (r"^([0-9]{1,14}|([1-9][0-9]{3})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])T([01][0-9]|2[0-3]):"
                 r"([0-5][0-9]):([0-5][0-9])(\.[0-9]{1,6})?(Z|([+-])([01][0-9]|2[0-3]):([0-5][0-9])))$")
_SINCE = re.compile(SINCE_PATTERN)
SINCE_REFUSAL = ("since must be Unix milliseconds or an ISO-8601 time with its offset, such as a line's ended_at "
                 "(2026-11-29T10:00:00.000Z)")



def parse_since(raw: str | None) -> float | None:
    """``since`` in seconds since the epoch. A day past its month's end counts on into the next
    (the pattern is the whole check, so every value it admits is read)."""
    if raw is None:
        return None
    found = _SINCE.fullmatch(raw)
    if found is None:
        raise Problem(400, "bad_query", SINCE_REFUSAL)
    if found.group(2) is None:
        return int(raw) / 1000
    year, month, day, hour, minute, second = (int(found.group(i)) for i in range(2, 8))
    fraction = float(found.group(8) or 0)
    moment = datetime(year, month, 1, tzinfo=UTC) + timedelta(days=day - 1, hours=hour, minutes=minute,
                                                              seconds=second + fraction)
    if found.group(9) != "Z":
        sign = 1 if found.group(10) == "+" else -1
        moment -= sign * timedelta(hours=int(found.group(11)), minutes=int(found.group(12)))
    return moment.timestamp()



class ExportQuery(Schema):
    since = Matching(SINCE_PATTERN, SINCE_REFUSAL, metadata={
        "description": "Only games that ended at or after this moment: a line's `ended_at` (ISO-8601 with its "
                       "offset) or Unix milliseconds; resumes an export", "pattern": SINCE_PATTERN})
    logs = Flag(metadata={"description": "`true`: each line also holds the game's whole published log (`log`)"})


@export_bp.get("/<player_id>/games/export")
@declare("A player's finished games, one NDJSON line each, oldest end first", auth="optional", ok=(200, None),
         problems=(OPTIONAL_TOKEN, {400: ("bad_query",), 404: ("player_not_found",)}),
         params=(path_param("player_id", "The player's id"),), ok_type="application/x-ndjson",
         description="Each line: `id`, `title`, `players`, `result` {`winners`, `reason`}, `rated`, `final_hash`, "
                     "`seed_hash`, `created_at`, `ended_at` (and `log` with `logs=true`). Starting an export "
                     "spends a token of the caller's own export bucket (the player, else the address): three at "
                     "once, then one every 20 seconds (429 rate_limited with Retry-After beyond).")
@export_bp.arguments(ExportQuery, location="query")
def export_games(query: dict[str, Any], player_id: str) -> Response:
    """The player's finished games, one JSON object a line, oldest end first."""
    caller = current_player(required=False)
    since = parse_since(query.get("since"))
    logs = bool(query.get("logs"))
    eng = engine()
    eng.player_profile(player_id)  # 404 player_not_found for an unknown id
    if not is_operator():
        take(EXPORT_BUCKET, f"player:{caller.id}" if caller is not None else f"address:{client_address()}")
    signing = signer() if logs else None  # read here: the lines stream outside the app's context

    def lines() -> Iterator[str]:
        for record in eng.finished_games(player_id, since):
            line = summary_line(record)
            if signing is not None:
                line["log"] = whole_log(eng, record["id"], signing)
            yield json.dumps(line, separators=(",", ":"), ensure_ascii=False) + "\n"

    return Response(lines(), mimetype="application/x-ndjson", headers={"Cache-Control": "no-store"})


def published_log(eng: Engine, game_id: str, signing: NoteSigner | None) -> Iterator[Envelope]:
    """The game's log as ``GET /v1/games/<id>/log`` publishes it, read a page at a time: its
    events, the seats' standing orders (a chain of their own that never was in the game's
    stream), then, given a signer, the server's signature of the final hash."""
    after, last = 0, None
    while batch := eng.read_events(game_id, after=after, count=MAX_PAGE):
        yield from batch
        after, last = batch[-1].seq, batch[-1]
    yield from eng.orders.log(game_id)
    if signing is not None and last is not None:
        yield final_record(signing, game_id, last)


def whole_log(eng: Engine, game_id: str, signing: NoteSigner) -> list[dict[str, Any]]:
    """The game's log as ``GET /v1/games/<id>/log`` publishes it: events, standing orders, signed final record."""
    return [event.to_dict() for event in published_log(eng, game_id, signing)]
