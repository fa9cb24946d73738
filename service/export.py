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
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, Response, request

from engine.core import Engine
from engine.export import EXPORT_BUCKET, summary_line
from engine.final_record import final_record
from engine.signing import NoteSigner
from events.envelope import Envelope
from service.answers import Problem
from service.context import client_address, current_player, engine, is_operator, take
from service.event_stream import MAX_PAGE
from service.inputs import query_bool
from service.transparency import signer

export_bp = Blueprint("export", __name__, url_prefix="/v1/players")

#: The latest ``since`` taken as Unix milliseconds (year 9999); longer digit strings are refused.
MAX_SINCE_MS = 253402300799999


def parse_since(raw: str | None) -> float | None:
    """``since`` in seconds since the epoch: Unix milliseconds, or an ISO-8601 time with its offset."""
    if raw is None:
        return None
    if raw.isascii() and raw.isdigit() and len(raw) <= 15 and int(raw) <= MAX_SINCE_MS:
        return int(raw) / 1000
    try:
        moment = datetime.fromisoformat(raw) if len(raw) <= 40 else None
    except ValueError:
        moment = None
    if moment is None or moment.tzinfo is None:
        raise Problem(400, "bad_query", "since must be Unix milliseconds or an ISO-8601 time with its offset, "
                                        "such as a line's ended_at")
    return moment.astimezone(UTC).timestamp()


@export_bp.get("/<player_id>/games/export")
def export_games(player_id: str) -> Response:
    """The player's finished games, one JSON object a line, oldest end first."""
    caller = current_player(required=False)
    since = parse_since(request.args.get("since"))
    logs = query_bool("logs")
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


def whole_log(eng: Engine, game_id: str, signing: NoteSigner) -> list[dict[str, Any]]:
    """The game's log as ``GET /v1/games/<id>/log`` publishes it: events, standing orders, signed final record."""
    events: list[Envelope] = []
    while batch := eng.read_events(game_id, after=events[-1].seq if events else 0, count=MAX_PAGE):
        events += batch
    published = [*events, *eng.orders.log(game_id)]
    if events:
        published.append(final_record(signing, game_id, events[-1]))
    return [event.to_dict() for event in published]
