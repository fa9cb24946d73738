"""The v1 resources: players, games (lobby, join, view, actions, feed, replay, log) and me."""

from __future__ import annotations

import time
from typing import Any

from flask import Blueprint, Response, request

from events.envelope import parse_time
from events.watch import Watch
from games import registry
from projections.listing import BadCursor, Page, read_page
from projections.record import Record, rules_of, seat_of
from projections.views import OPERATOR, feed_item, game_view
from service import chat
from service.app import client_address, current_player, dump_bytes, engine, is_operator, limits, take
from service.engine import Committed
from service.errors import Problem
from service.inputs import header_int, object_body, prefers_minimal, query_bool, query_int, whole_number
from service.schemas import ActionSchema, GameCreateSchema, PlayerCreateSchema

players_bp = Blueprint("players", __name__, url_prefix="/v1/players")
games_bp = Blueprint("games", __name__, url_prefix="/v1/games")
me_bp = Blueprint("me", __name__, url_prefix="/v1/me")

MAX_WAIT_SECONDS = 30
MAX_PAGE = 500
#: Built once: a marshmallow schema costs more to build than to use (10-27 µs, against
#: 7-18 µs for a load), and a built one is reused safely across requests.
ACTION_SCHEMA = ActionSchema()
GAME_CREATE_SCHEMA = GameCreateSchema()
PLAYER_CREATE_SCHEMA = PlayerCreateSchema()
#: The longest Idempotency-Key a client may send.
MAX_IDEMPOTENCY_KEY = 200
#: An idle event stream sends a comment this often, so proxies and clients see it alive.
KEEP_ALIVE_SECONDS = 15


@players_bp.post("")
def create_player() -> tuple[dict[str, Any], int]:
    body = PLAYER_CREATE_SCHEMA.load(object_body())
    take(limits().registrations(), client_address())
    player, token = engine().create_player(body["name"])
    return {"id": player.id, "name": player.name, "token": token}, 201


@games_bp.post("")
def create_game() -> tuple[dict[str, Any], int]:
    player = current_player()
    body = GAME_CREATE_SCHEMA.load(object_body())
    assert player is not None
    hosting = engine().open_games_of(player.id)
    if limits().open_games and hosting >= limits().open_games:
        raise Problem(409, "too_many_open_games",
                      f"you already host {hosting} games waiting for players (at most {limits().open_games}); "
                      "wait until they fill before opening another")
    take(limits().game_creations(), player.id)
    record = engine().create_game(player, body["game"], body["seats"], body["options"], body["time_control"])
    return game_view(record, None), 201


@games_bp.get("")
def lobby() -> dict[str, Any]:
    """Open games, oldest first, paged by ``cursor`` (a projection: the lobby index).

    ``game=coup`` reads the lobby of that game alone, so the filter applies before
    the page: a page is never short because other games filled it.
    """
    status = request.args.get("status", "open")
    if status != "open":
        raise Problem(400, "bad_query", "the lobby lists open games only; see /v1/me/games for yours")
    wanted = request.args.get("game")
    if wanted is not None and wanted not in registry.GAMES:
        raise Problem(400, "bad_query", f"game must be one of: {', '.join(registry.available())}")
    eng = engine()
    page = _page(eng.keys.lobby(wanted), newest_first=False)
    games = [_public(c) for c in page.cards if c["status"] == "open"]
    return {"games": games, "next_cursor": page.next_cursor}


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
def act(game_id: str) -> tuple[dict[str, Any], int, dict[str, str]]:
    player = current_player()
    raw = object_body()
    ACTION_SCHEMA.load(raw)
    key = request.headers.get("Idempotency-Key")
    if key is not None and not 1 <= len(key) <= MAX_IDEMPOTENCY_KEY:
        raise Problem(400, "bad_idempotency_key", f"Idempotency-Key must be 1 to {MAX_IDEMPOTENCY_KEY} characters")
    done = engine().act(player, game_id, raw, idempotency_key=key, if_match=header_int("If-Match", "bad_if_match"))
    minimal = prefers_minimal(request.headers.get("Prefer"))
    return action_answer(done, player.id, minimal), 200, MINIMAL_APPLIED if minimal else {}


#: The answer's header when ``Prefer: return=minimal`` left the view out (RFC 7240).
MINIMAL_APPLIED = {"Preference-Applied": "return=minimal"}


def action_answer(done: Committed, player_id: str, minimal: bool = False) -> dict[str, Any]:
    """The answer to an action: the new version, the events as the player sees them, their view.

    ``minimal`` leaves the view out: a client that follows the game's event stream with
    ``view=true`` gets the same view there, so building and sending it twice is waste.
    """
    seat = seat_of(done.record, player_id)
    events = [item for e in done.events if (item := feed_item(done.record, e, seat)) is not None]
    version = done.events[-1].seq if done.events else done.record["version"]
    if minimal:
        return {"version": version, "events": events}
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
    after = query_int("after", 0, 0, None)
    wait = query_int("wait", 0, 0, MAX_WAIT_SECONDS)
    limit = query_int("limit", MAX_PAGE, 1, MAX_PAGE)
    with_view = query_bool("view")
    cursor = chat.parse_cursor(request.args.get("messages_after"))
    # Without a chat cursor, the messages posted after a later event than ``after``: a client
    # that knows nothing of chat and polls ``after=<version>`` never gets a message twice.
    base = after + 1
    give_up = time.monotonic() + wait

    def answer(items: list[dict[str, Any]]) -> dict[str, Any]:
        body = {"events": items, "version": after, "messages_after": cursor, "status": record["status"]}
        if with_view:
            body["game"] = game_view(record, seat)
        return body

    with eng.watcher.watch(game_id) as watch:  # registered before the first read: no append slips by
        while True:
            items, after, cursor, full, current = _feed_page(eng, game_id, seat, after, cursor, base, limit, watch)
            record = current or record
            if items or full:
                return answer(items)
            remaining = give_up - time.monotonic()
            if remaining <= 0:
                return answer([])
            watch.wait(remaining)


def _feed_page(eng: Any, game_id: str, seat: int | None | str, after: int, cursor: str | None, base: int,
               limit: int, watch: Watch | None = None
               ) -> tuple[list[dict[str, Any]], int, str | None, bool, Record | None]:
    """One page of the caller's feed: events after ``after`` and messages after ``cursor``, merged.

    Returns the items, the new event and message cursors, whether a page limit was hit
    (more may follow at once), and the record the items were redacted with (None when
    nothing was read). Hidden events and messages move the cursors all the same. With a
    ``watch`` that was woken by notifications, only what they announced is read: events
    (often from memory, see Projector.read) and the chat only if a message was posted.
    """
    known = watch.known if watch is not None else None
    if known is None:  # only the store can say: events and messages in one round trip
        batch, messages = eng.chat.read_with_events(game_id, after, cursor, base, limit)
        eng.projector.remember_events(game_id, batch)
    else:
        batch = eng.projector.read(game_id, after, known=known, count=limit)
        messages = eng.chat.read(game_id, cursor, from_version=base, count=limit) if watch.chat else []  # type: ignore[union-attr]
    full = len(batch) == limit or len(messages) == limit
    if len(batch) == limit:  # keep the order: no message from beyond the last event read
        messages = [m for m in messages if m["version"] <= batch[-1].seq]
    if len(messages) == limit:
        batch = [e for e in batch if e.seq <= messages[-1]["version"]]
    if not batch and not messages:
        return [], after, cursor, full, None
    record = (eng.projector.load_after(game_id, batch) if batch else None) or eng.load(game_id)
    event_items = [(e.seq, item) for e in batch if (item := feed_item(record, e, seat)) is not None]
    shown = [m for m in messages if chat.visible(record, m, seat)]
    after = batch[-1].seq if batch else after
    cursor = messages[-1]["id"] if messages else cursor
    return chat.merge(event_items, shown), after, cursor, full, record


@games_bp.get("/<game_id>/events/stream")
def event_stream(game_id: str) -> Response:
    """The same feed as server-sent events, resumable with ``Last-Event-ID``.

    A frame's id is the event version, followed by ``/<message id>`` once the stream
    has passed a chat message: sent back as ``Last-Event-ID`` it resumes both. With
    ``view=true`` the stream opens with the caller's game view and sends it again (event
    ``game``) after each page with events, so a bot posts and listens, nothing else.
    """
    eng = engine()
    record = eng.load(game_id)
    seat = _caller_seat(record)
    # The query is checked even when Last-Event-ID (a reconnection) takes its place.
    after, cursor = query_int("after", 0, 0, None), chat.parse_cursor(request.args.get("messages_after"))
    resume = request.headers.get("Last-Event-ID")
    if resume is not None:  # present but empty is malformed, as documented (a browser sends none instead)
        version, _, message = resume.partition("/")
        after = whole_number(version, name="Last-Event-ID", code="bad_last_event_id")
        cursor = chat.parse_cursor(message or None)
    base = after + 1  # as in the feed: without a chat cursor, messages that followed a later event
    with_view = query_bool("view")

    def generate():
        nonlocal after, cursor
        opening = b": intrigue event stream\n\n"
        if with_view:
            opening += b"event: game\ndata: " + dump_bytes(game_view(record, seat)) + b"\n\n"
        yield opening
        current = record
        with eng.watcher.watch(game_id) as watch:
            while True:
                before = after
                items, after, cursor, full, page_record = _feed_page(eng, game_id, seat, after, cursor, base,
                                                                     MAX_PAGE, watch)
                current = page_record or current
                # One write per page: its items, then (if events moved it) the caller's view.
                frames = []
                for item in items:
                    position = item["seq"] if item["seq"] is not None else item["version"]
                    frame_id = f"{position}/{item['id']}" if item["seq"] is None else (
                        f"{position}/{cursor}" if cursor else str(position))
                    frames.append(f"id: {frame_id}\nevent: {item['type']}\ndata: ".encode())
                    frames.append(dump_bytes(item))
                    frames.append(b"\n\n")
                if with_view and after != before:
                    frame_id = f"{after}/{cursor}" if cursor else str(after)
                    frames.append(f"id: {frame_id}\nevent: game\ndata: ".encode())
                    frames.append(dump_bytes(game_view(current, seat)))
                    frames.append(b"\n\n")
                if frames:
                    yield b"".join(frames)
                if full:  # more is waiting: the next page at once
                    continue
                # Anything appended after this page announces itself to the watch (registered
                # before the first read), so the page is not read again before waiting: a
                # second read at once would cost a round trip for nothing (a new stream reads
                # the store, not memory).
                # A finished record is the last (nothing is appended after the end): once the
                # stream has passed its version, only a record read earlier needs the store.
                if current["status"] == "finished" and (not items or current["version"] <= after
                                                        or _caught_up(eng, game_id, after)):
                    return
                if not watch.wait(KEEP_ALIVE_SECONDS):
                    yield b": keep-alive\n\n"

    # Bytes handed to the server as they are: werkzeug would wrap the generator twice more
    # (encoding, closing) and Flask once (its request context, which nothing here reads),
    # three generator frames to resume for every frame pushed. Closing the response closes
    # the generator, which ends its watch.
    return Response(generate(), mimetype="text/event-stream", direct_passthrough=True,
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


def _caught_up(eng: Any, game_id: str, after: int) -> bool:
    return eng.store.version(game_id) <= after


@games_bp.get("/<game_id>/replay")
def replay(game_id: str) -> dict[str, Any]:
    """The game as the caller saw it right after event ``version``; after the end, everything."""
    eng = engine()
    current = eng.load(game_id)
    seat = _caller_seat(current)
    version = query_int("version", current["version"], 1, None)
    if version > current["version"]:
        raise Problem(404, "version_not_found", f"the game is at version {current['version']}, not yet {version}",
                      version=current["version"])
    record = eng.projector.at_version(game_id, version)
    assert record is not None
    everything = current["status"] == "finished" or is_operator()
    body = game_view(record, seat, clock=parse_time(record["updated_at"]))
    body["legal_actions"] = []
    said = [m for m in eng.chat.read(game_id, None, upto_version=version) if chat.visible(current, m, seat)]
    return {"version": version, "game": body, "state": record["state"] if everything else None,
            "messages": said}


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
    """The caller's games, newest first; ``awaiting=me`` gives the inbox, soonest deadline first.

    Both are paged by ``cursor`` (``next_cursor`` of the previous page; null after
    the last one) and cost one index read and one pipeline, however many games the
    player has played.
    """
    player = current_player()
    eng = engine()
    assert player is not None
    awaiting = request.args.get("awaiting")
    if awaiting not in (None, "me"):
        raise Problem(400, "bad_query", "awaiting takes only the value 'me'")
    inbox = awaiting == "me"
    key = eng.keys.inbox(player.id) if inbox else eng.keys.player_games(player.id)
    page = _page(key, newest_first=not inbox)
    games = []
    for found in page.cards:
        seat = next((s for s, p in enumerate(found["players"]) if p is not None and p["id"] == player.id), None)
        if seat is None:
            continue
        mine = found["awaiting"][seat] is not None
        if inbox and not mine:
            continue  # the index lags a commit in flight: the game moved on
        games.append({**_public(found), "seat": seat, "awaiting_me": mine, "deadline": found["deadlines"][seat]})
    return {"games": games, "next_cursor": page.next_cursor}


def _page(key: str, newest_first: bool) -> Page:
    eng = engine()
    limit = query_int("limit", 50, 1, 200)
    try:
        return read_page(eng.redis, eng.keys, key, limit, request.args.get("cursor"), newest_first,
                         eng.projector.load)
    except BadCursor:
        raise Problem(400, "bad_cursor", "cursor must be a next_cursor: <score>_<game id>") from None


def _public(found: dict[str, Any]) -> dict[str, Any]:
    """A card without the per-seat lists it keeps for the inbox."""
    return {key: value for key, value in found.items() if key not in ("awaiting", "deadlines")}


def _caller_seat(record: Record) -> int | None | str:
    if is_operator():
        return OPERATOR
    player = current_player(required=False)
    return seat_of(record, player.id) if player is not None else None


__all__ = ["players_bp", "games_bp", "me_bp", "rules_of"]
