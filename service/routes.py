"""The v1 resources: players, games (lobby, join, view, actions, feed, replay, log) and me."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, request

from engine import directory
from engine.chat import readable
from events.envelope import parse_time
from games import registry
from projections.listing import BadCursor, Page
from projections.record import seat_now
from projections.views import OPERATOR, game_view
from service import community, setup_requests
from service.actions import MINIMAL_APPLIED, submit_action
from service.answers import Problem
from service.chat import parse_cursor
from service.context import (
    after_answer,
    bearer_token,
    caller_seat,
    client_address,
    current_player,
    engine,
    is_operator,
    limits,
    take,
)
from service.event_stream import MAX_PAGE, EventStream
from service.inputs import object_body, prefers_minimal, query_bool, query_int, whole_number
from service.schemas import PlayerCreateSchema
from service.setup_requests import GAME_CREATE_SCHEMA

players_bp = Blueprint("players", __name__, url_prefix="/v1/players")
games_bp = Blueprint("games", __name__, url_prefix="/v1/games")
me_bp = Blueprint("me", __name__, url_prefix="/v1/me")
leaderboards_bp = Blueprint("leaderboards", __name__, url_prefix="/v1/leaderboards")

MAX_WAIT_SECONDS = 30
#: Built once: a marshmallow schema costs more to build than to use, and a built one is
#: reused safely across requests.
PLAYER_CREATE_SCHEMA = PlayerCreateSchema()


@players_bp.post("")
def create_player() -> tuple[dict[str, Any], int]:
    body = PLAYER_CREATE_SCHEMA.load(object_body())
    take(limits().registrations(), client_address())
    player, token = engine().create_player(body["name"])
    return {"id": player.id, "name": player.name, "token": token}, 201


@players_bp.get("")
def find_players() -> dict[str, Any]:
    """Players whose name starts with ``name`` (any case): how a client invites people by name."""
    current_player(required=False)  # a token sent must be valid
    prefix = request.args.get("name", "")
    if not 1 <= len(prefix) <= 40 or not prefix.strip():
        raise Problem(400, "bad_query", "name must be 1 to 40 characters: the start of a player's name")
    limit = query_int("limit", directory.MAX_RESULTS, 1, directory.MAX_RESULTS)
    eng = engine()
    return {"players": directory.find_by_prefix(eng.redis, eng.keys, prefix, limit)}


@players_bp.get("/<player_id>")
def player(player_id: str) -> dict[str, Any]:
    """A player's public card: name, and rating and rated games played per title."""
    current_player(required=False)  # a token sent must be valid
    eng = engine()
    return {**eng.player_profile(player_id), **eng.reliability.of_player(player_id)}


@leaderboards_bp.get("/<game>")
def leaderboard(game: str) -> dict[str, Any]:
    """A title's best rated players, best first, among those with enough rated games."""
    current_player(required=False)
    limit = query_int("limit", 50, 1, 200)
    raw = request.args.get("cursor")
    if raw is not None and not (raw.isascii() and raw.isdigit() and len(raw) <= 9):
        raise Problem(400, "bad_cursor", "cursor must be a next_cursor of this leaderboard")
    entries, next_offset = engine().leaderboard(game, int(raw or 0), limit)
    return {"game": game, "min_games": engine().settings.leaderboard_min_games, "players": entries,
            "next_cursor": str(next_offset) if next_offset is not None else None}


@games_bp.post("")
def create_game() -> tuple[dict[str, Any], int]:
    player = current_player()
    body = GAME_CREATE_SCHEMA.load(object_body())
    assert player is not None
    return game_view(setup_requests.create_game(engine(), limits(), player, body), None), 201


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
    if query_bool("seeking_substitute"):  # running games offering seats (service/community.py)
        return community.seeking(_page(lambda limit, cursor: engine().substitutes.page(limit, cursor)))
    page = _page(lambda limit, cursor: engine().lobby_page(wanted, limit, cursor))
    games = [{k: v for k, v in _public(c).items() if k != "winners"} for c in page.cards if c["status"] == "open"]
    engine().reliability.annotate(games)
    return {"games": games, "next_cursor": page.next_cursor}


@games_bp.post("/<game_id>/join")
def join(game_id: str) -> tuple[dict[str, Any], int]:
    player = current_player()
    assert player is not None
    if request.get_data(cache=True):  # {"seat": N}: a substitute takes a seat over (service/community.py)
        joined = community.take_seat(player, game_id)
    else:
        joined = engine().join(player, game_id, answer_first=True)
    after_answer(joined.after_answer)
    return setup_requests.join_answer(joined), 200


@games_bp.post("/<game_id>/leave")
def leave(game_id: str) -> dict[str, Any]:
    """Free the caller's seat in a game that has not started."""
    player = current_player()
    assert player is not None
    return game_view(engine().leave(player, game_id), None)


@games_bp.delete("/<game_id>")
def cancel(game_id: str) -> Response:
    """The creator cancels a game still open (it stays readable, with status ``cancelled``)."""
    player = current_player()
    assert player is not None
    engine().cancel(player, game_id)
    return Response(status=204)


@games_bp.post("/<game_id>/resign")
def resign(game_id: str) -> dict[str, Any]:
    """The caller's seat resigns: the takeover bot plays it, and the caller sees the game as a spectator."""
    player = current_player()
    assert player is not None
    done = engine().resign(player, game_id, answer_first=True)
    after_answer(done.after_answer)
    seat = caller_seat(done.record)
    return {"version": done.record["version"], "game": game_view(done.record, seat)}


@games_bp.post("/<game_id>/rematch")
def rematch(game_id: str) -> dict[str, Any]:
    """A finished game's rematch, the caller seated in it: the same game for every player who asks."""
    player = current_player()
    assert player is not None
    joined = engine().rematch(player, game_id, answer_first=True)
    after_answer(joined.after_answer)
    return {"seat": joined.seat, "game": game_view(joined.record, joined.seat)}


@games_bp.get("/<game_id>")
def show(game_id: str) -> dict[str, Any]:
    record = engine().load(game_id)
    body = game_view(record, caller_seat(record))
    body["rematch"] = engine().rematch_link(record)
    return body


@games_bp.post("/<game_id>/actions")
def act(game_id: str) -> tuple[dict[str, Any], int, dict[str, str]]:
    player = current_player()
    assert player is not None
    minimal = prefers_minimal(request.headers.get("Prefer"))
    answer, work = submit_action(engine(), player, game_id, object_body(), request.headers.get("Idempotency-Key"),
                                 request.headers.get("If-Match"), minimal)
    after_answer(work)
    return answer, 200, MINIMAL_APPLIED if minimal else {}


@games_bp.get("/<game_id>/events")
def events(game_id: str) -> dict[str, Any]:
    """The caller's redacted feed after ``after``; ``wait`` long-polls up to 30 s.

    With ``view=true`` the answer also holds the caller's game view (``GET
    /v1/games/<id>``) as of the answer, so a client woken by the feed learns its
    legal actions without a second request.
    """
    eng = engine()
    record = eng.load(game_id)
    seat = caller_seat(record)
    after = query_int("after", 0, 0, None)
    wait = query_int("wait", 0, 0, MAX_WAIT_SECONDS)
    limit = query_int("limit", MAX_PAGE, 1, MAX_PAGE)
    with_view = query_bool("view")
    cursor = parse_cursor(request.args.get("messages_after"))
    # Without a chat cursor, the messages posted after a later event than ``after``: a client
    # that knows nothing of chat and polls ``after=<version>`` never gets a message twice.
    base = after + 1
    give_up = time.monotonic() + wait

    def answer(items: list[dict[str, Any]]) -> dict[str, Any]:
        body = {"events": items, "version": after, "messages_after": cursor, "status": record["status"]}
        if with_view:
            body["game"] = game_view(record, seat)
        return body

    # A player's seat is taken again from each page's record: one they leave while this waits
    # may be another's by the time its cards are dealt (see EventStream's ``player_id``).
    player = None if seat == OPERATOR else current_player(required=False)
    with eng.watch(game_id) as watch:  # registered before the first read: no append slips by
        while True:
            page = eng.read_page(game_id, after, cursor, base, limit, watch)
            seat = seat_now(page.record, player.id if player is not None else None, seat)
            items, after, cursor, full, current = eng.page_items(page, seat, after, cursor)
            record = current or record
            if items or full:
                return answer(items)
            remaining = give_up - time.monotonic()
            if remaining <= 0:
                return answer([])
            watch.wait(remaining)


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
    seat = caller_seat(record)
    # The query is checked even when Last-Event-ID (a reconnection) takes its place.
    after, cursor = query_int("after", 0, 0, None), parse_cursor(request.args.get("messages_after"))
    resume = request.headers.get("Last-Event-ID")
    if resume is not None:  # present but empty is malformed, as documented (a browser sends none instead)
        version, _, message = resume.partition("/")
        after = whole_number(version, name="Last-Event-ID", code="bad_last_event_id")
        cursor = parse_cursor(message or None)
    with_view = query_bool("view")
    operator = is_operator()
    player = None if operator else current_player(required=False)
    stream = setup_requests.open_stream(eng, limits(), game_id, record, seat, player.id if player else None,
                                        client_address(), after, cursor, with_view, operator=operator)
    return _StreamResponse(stream, mimetype="text/event-stream", direct_passthrough=True,
                           headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


class _StreamResponse(Response):
    """An event stream's response. Its frames go to the server as they are: werkzeug would wrap
    the stream twice more (encoding, closing) and Flask once (its request context, which
    nothing reads), three generator frames to resume for every frame pushed; closing the
    response closes the stream, which ends its watch and gives its lease back. It keeps the
    server's ``write`` for the stream's pushes (service/event_stream.py)."""

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        app_iter, status, headers = self.get_wsgi_response(environ)
        write = start_response(status, headers)
        if isinstance(app_iter, EventStream):
            app_iter.write = write
        return app_iter


@games_bp.get("/<game_id>/replay")
def replay(game_id: str) -> dict[str, Any]:
    """The game as the caller saw it right after event ``version``; after the end, everything."""
    eng = engine()
    current = eng.load(game_id)
    seat = caller_seat(current)
    version = query_int("version", current["version"], 1, None)
    if version > current["version"]:
        raise Problem(404, "version_not_found", f"the game is at version {current['version']}, not yet {version}",
                      version=current["version"])
    record = eng.record_at(game_id, version)
    everything = current["status"] == "finished" or is_operator()
    body = game_view(record, seat, clock=parse_time(record["updated_at"]))
    body["legal_actions"] = []
    said = readable(current, eng.messages(game_id, None, upto_version=version), seat)
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
            batch = eng.read_events(game_id, after=after, count=MAX_PAGE)
            if not batch:
                break
            for event in batch:
                yield event.to_json() + "\n"
            after = batch[-1].seq
        # The seats' standing orders, a chain of their own that never was in the game's stream.
        for event in eng.orders.log(game_id):
            yield event.to_json() + "\n"

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
    page = _page(lambda limit, cursor: eng.games_page(player.id, inbox, limit, cursor))
    games = []
    for found in page.cards:
        seat = next((s for s, p in enumerate(found["players"]) if p is not None and p["id"] == player.id), None)
        if seat is None:
            if not inbox and found["status"] == "open" and player.id in found.get("invite", ()):
                games.append({**_public(found), "winners": None, "seat": None, "invited": True,
                              "awaiting_me": False, "deadline": None})
            continue
        mine = found["awaiting"][seat] is not None and seat not in found.get("resigned", ())
        if inbox and not mine:
            continue  # the index lags a commit in flight: the game moved on
        games.append({**_public(found), "winners": found.get("winners"), "seat": seat, "invited": False,
                      "awaiting_me": mine,
                      "deadline": found["deadlines"][seat]})
    eng.reliability.annotate(games)
    return {"games": games, "next_cursor": page.next_cursor}


@me_bp.get("/tokens")
def my_tokens() -> dict[str, Any]:
    """The caller's tokens: ids and dates (issued, last used), never a token; ``current`` marks this one."""
    player = current_player()
    assert player is not None
    return {"tokens": engine().tokens_of(player, bearer_token())}


@me_bp.post("/tokens")
def issue_token() -> tuple[dict[str, Any], int]:
    """Another token for the caller, shown once: to rotate one, issue its successor, then revoke it."""
    player = current_player()
    assert player is not None
    return engine().issue_token(player, limits().tokens_per_player), 201


@me_bp.delete("/tokens/<token_id>")
def revoke_token(token_id: str) -> tuple[str, int]:
    """Revoke one of the caller's tokens (the one in use too): it stops working within seconds everywhere."""
    player = current_player()
    assert player is not None
    engine().revoke_token(player, token_id)
    return "", 204


def _page(read: Callable[[int, str | None], Page]) -> Page:
    """One page of an index, ``limit`` and ``cursor`` taken from the query."""
    limit = query_int("limit", 50, 1, 200)
    try:
        return read(limit, request.args.get("cursor"))
    except BadCursor:
        raise Problem(400, "bad_cursor", "cursor must be a next_cursor: <score>_<game id>") from None


def _public(found: dict[str, Any]) -> dict[str, Any]:
    """A card without the per-seat lists it keeps for the inbox."""
    return {key: value for key, value in found.items() if key not in ("awaiting", "deadlines")}


__all__ = ["players_bp", "games_bp", "me_bp"]
