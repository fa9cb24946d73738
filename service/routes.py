"""The v1 resources: players, games (lobby, join, view, actions, feed, replay, log) and me."""

from __future__ import annotations

import time
from typing import Any

from flask import Blueprint, Response, request, stream_with_context

from events.envelope import parse_time
from projections.record import Record, rules_of, seat_of
from projections.views import OPERATOR, feed_item, game_view, summary
from service.app import current_player, dumps, engine, is_operator, json_body
from service.errors import Problem
from service.schemas import ActionSchema, GameCreateSchema, PlayerCreateSchema

players_bp = Blueprint("players", __name__, url_prefix="/v1/players")
games_bp = Blueprint("games", __name__, url_prefix="/v1/games")
me_bp = Blueprint("me", __name__, url_prefix="/v1/me")

MAX_WAIT_SECONDS = 30
MAX_PAGE = 500
#: Built once: a marshmallow schema costs more to build than to use.
ACTION_SCHEMA = ActionSchema()
#: An idle event stream sends a comment this often, so proxies and clients see it alive.
KEEP_ALIVE_SECONDS = 15


@players_bp.post("")
def create_player() -> tuple[dict[str, Any], int]:
    body = PlayerCreateSchema().load(_object_body())
    player, token = engine().create_player(body["name"])
    return {"id": player.id, "name": player.name, "token": token}, 201


@games_bp.post("")
def create_game() -> tuple[dict[str, Any], int]:
    player = current_player()
    body = GameCreateSchema().load(_object_body())
    record = engine().create_game(player, body["game"], body["seats"], body["options"], body["time_control"])
    return game_view(record, None), 201


@games_bp.get("")
def lobby() -> dict[str, Any]:
    """Open games, oldest first (a projection: the lobby index)."""
    status = request.args.get("status", "open")
    if status != "open":
        raise Problem(400, "bad_query", "the lobby lists open games only; see /v1/me/games for yours")
    wanted = request.args.get("game")
    limit = _int_arg("limit", 50, 1, 200)
    eng = engine()
    games = []
    for raw in eng.redis.zrange(eng.keys.lobby(), 0, limit - 1):
        record = eng.projector.load(raw.decode())
        if record is not None and record["status"] == "open" and (wanted is None or record["game"] == wanted):
            games.append(summary(record))
    return {"games": games}


@games_bp.post("/<game_id>/join")
def join(game_id: str) -> tuple[dict[str, Any], int]:
    player = current_player()
    seat, record = engine().join(player, game_id)
    return {"seat": seat, "game": game_view(record, seat)}, 200


@games_bp.get("/<game_id>")
def show(game_id: str) -> dict[str, Any]:
    record = engine().load(game_id)
    return game_view(record, _caller_seat(record))


@games_bp.post("/<game_id>/actions")
def act(game_id: str) -> dict[str, Any]:
    player = current_player()
    raw = _object_body()
    ACTION_SCHEMA.load(raw)
    key = request.headers.get("Idempotency-Key")
    if key is not None and not 1 <= len(key) <= 200:
        raise Problem(400, "bad_idempotency_key", "Idempotency-Key must be 1 to 200 characters")
    done = engine().act(player, game_id, raw, idempotency_key=key, if_match=_if_match())
    seat = seat_of(done.record, player.id)
    events = [item for e in done.events if (item := feed_item(done.record, e, seat)) is not None]
    version = done.events[-1].seq if done.events else done.record["version"]
    return {"version": version, "events": events, "game": game_view(done.record, seat)}


@games_bp.get("/<game_id>/events")
def events(game_id: str) -> dict[str, Any]:
    """The caller's redacted feed after ``after``; ``wait`` long-polls up to 30 s.

    With ``view=true`` the answer also holds the caller's game view (``GET
    /v1/games/<id>``) as of the answer, so a client woken by the feed learns its
    legal actions without a second request.
    """
    eng = engine()
    record = eng.load(game_id)
    seat = _caller_seat(record)
    after = _int_arg("after", 0, 0, None)
    wait = _int_arg("wait", 0, 0, MAX_WAIT_SECONDS)
    limit = _int_arg("limit", MAX_PAGE, 1, MAX_PAGE)
    with_view = _bool_arg("view")
    give_up = time.monotonic() + wait

    def answer(items: list[dict[str, Any]]) -> dict[str, Any]:
        body = {"events": items, "version": after, "status": record["status"]}
        if with_view:
            body["game"] = game_view(record, seat)
        return body

    with eng.watcher.watch(game_id) as watch:  # registered before the first read: no append slips by
        while True:
            batch = eng.projector.read(game_id, after, known=watch.known, count=limit)
            if batch:
                record = eng.projector.load_after(game_id, batch) or record
                items = [item for e in batch if (item := feed_item(record, e, seat)) is not None]
                after = batch[-1].seq
                if items or len(batch) == limit:
                    return answer(items)
            remaining = give_up - time.monotonic()
            if remaining <= 0:
                return answer([])
            watch.wait(remaining)


@games_bp.get("/<game_id>/events/stream")
def event_stream(game_id: str) -> Response:
    """The same feed as server-sent events, resumable with ``Last-Event-ID``.

    With ``view=true`` the stream opens with the caller's game view and sends it again
    (event ``game``) after each batch of events, so a bot posts and listens, nothing else.
    """
    eng = engine()
    record = eng.load(game_id)
    seat = _caller_seat(record)
    after = int(request.headers.get("Last-Event-ID") or _int_arg("after", 0, 0, None))
    with_view = _bool_arg("view")

    def generate():
        nonlocal after
        opening = ": intrigue event stream\n\n"
        if with_view:
            opening += f"event: game\ndata: {dumps(game_view(record, seat))}\n\n"
        yield opening
        with eng.watcher.watch(game_id) as watch:
            while True:
                batch = eng.projector.read(game_id, after, known=watch.known, count=MAX_PAGE)
                if batch:
                    current = eng.projector.load_after(game_id, batch) or record
                    # One write per wake: the events the caller may see, then its view.
                    frames = [f"id: {event.seq}\nevent: {event.type}\ndata: {dumps(item)}\n\n" for event in batch
                              if (item := feed_item(current, event, seat)) is not None]
                    after = batch[-1].seq
                    if with_view:
                        frames.append(f"id: {after}\nevent: game\ndata: {dumps(game_view(current, seat))}\n\n")
                    if frames:
                        yield "".join(frames)
                    if current["status"] == "finished" and len(batch) < MAX_PAGE:
                        return
                elif not watch.wait(KEEP_ALIVE_SECONDS):
                    yield ": keep-alive\n\n"

    return Response(stream_with_context(generate()), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


@games_bp.get("/<game_id>/replay")
def replay(game_id: str) -> dict[str, Any]:
    """The game as the caller saw it right after event ``version``; after the end, everything."""
    eng = engine()
    current = eng.load(game_id)
    seat = _caller_seat(current)
    version = _int_arg("version", current["version"], 1, current["version"])
    record = eng.projector.at_version(game_id, version)
    assert record is not None
    everything = current["status"] == "finished" or is_operator()
    body = game_view(record, seat)
    body["legal_actions"] = []
    return {"version": version, "game": body, "state": record["state"] if everything else None}


@games_bp.get("/<game_id>/log")
def log(game_id: str) -> Response:
    """The full hash-chained log as NDJSON: finished games, or the operator at any time."""
    eng = engine()
    record = eng.load(game_id)
    if record["status"] != "finished" and not is_operator():
        raise Problem(403, "game_in_progress", "the full log is published when the game ends")

    def lines():
        after = 0
        while True:
            batch = eng.store.read(game_id, after=after, count=MAX_PAGE)
            if not batch:
                return
            for event in batch:
                yield event.to_json() + "\n"
            after = batch[-1].seq

    return Response(lines(), mimetype="application/x-ndjson",
                    headers={"Content-Disposition": f'attachment; filename="{game_id}.ndjson"'})


@me_bp.get("/games")
def my_games() -> dict[str, Any]:
    """The caller's games; ``awaiting=me`` gives the correspondence inbox, soonest deadline first."""
    player = current_player()
    eng = engine()
    assert player is not None
    awaiting = request.args.get("awaiting")
    if awaiting not in (None, "me"):
        raise Problem(400, "bad_query", "awaiting takes only the value 'me'")
    key = eng.keys.inbox(player.id) if awaiting == "me" else eng.keys.player_games(player.id)
    games = []
    for raw in eng.redis.zrange(key, 0, 199):
        record = eng.projector.load(raw.decode())
        if record is None:
            continue
        seat = seat_of(record, player.id)
        if seat is None:
            continue
        mine = record["awaiting"][seat] is not None
        if awaiting == "me" and not mine:
            continue
        games.append({**summary(record), "seat": seat, "awaiting_me": mine, "deadline": record["deadlines"][seat]})
    if awaiting == "me":
        games.sort(key=lambda g: parse_time(g["deadline"]) if g["deadline"] else parse_time(g["updated_at"]))
    return {"games": games}


def _caller_seat(record: Record) -> int | None | str:
    if is_operator():
        return OPERATOR
    player = current_player(required=False)
    return seat_of(record, player.id) if player is not None else None


def _object_body() -> dict[str, Any]:
    body = json_body()
    if not isinstance(body, dict):
        raise Problem(400, "malformed_body", "the body must be a JSON object")
    return body


def _if_match() -> int | None:
    raw = request.headers.get("If-Match")
    if raw is None:
        return None
    raw = raw.strip().strip('"')
    if raw.startswith("W/"):
        raw = raw[2:].strip('"')
    if not raw.isdigit():
        raise Problem(400, "bad_if_match", "If-Match must be a game version number")
    return int(raw)


def _bool_arg(name: str) -> bool:
    raw = request.args.get(name)
    if raw is None or raw in ("false", "0"):
        return False
    if raw in ("true", "1"):
        return True
    raise Problem(400, "bad_query", f"{name} must be true or false")


def _int_arg(name: str, default: int, low: int, high: int | None) -> int:
    raw = request.args.get(name)
    if raw is None:
        return default
    if not raw.isdigit() or int(raw) < low or (high is not None and int(raw) > high):
        bound = f"from {low} to {high}" if high is not None else f"of at least {low}"
        raise Problem(400, "bad_query", f"{name} must be a whole number {bound}")
    return int(raw)


__all__ = ["players_bp", "games_bp", "me_bp", "rules_of"]
