"""The v1 resources: players, games (lobby, join, view, actions, feed, replay, log) and me."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from flask import Response, request
from marshmallow import Schema, fields

from engine import directory
from engine.chat import readable
from events.envelope import parse_time
from games import registry
from projections.listing import CURSOR_PATTERN, BadCursor, Page
from projections.record import seat_now
from projections.views import OPERATOR, game_view
from service import community, setup_requests
from service.actions import MINIMAL_APPLIED, submit_action
from service.answers import Problem
from service.api_doc import (
    BODY,
    GAME,
    GAME_ID,
    OPTIONAL_TOKEN,
    TOKEN,
    Blueprint,
    declare,
    header_param,
    path_param,
    query_param,
)
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
from service.export import published_log
from service.inputs import object_body, prefers_minimal, query_bool, query_int, whole_number
from service.queries import Choice, Flag, Matching, WholeNumber
from service.schemas import PlayerCreateSchema, TokenCreateSchema
from service.scopes import with_scopes
from service.setup_requests import GAME_CREATE_SCHEMA
from service.shuffles import join_body
from service.transparency import signer

players_bp = Blueprint("players", __name__, url_prefix="/v1/players")
games_bp = Blueprint("games", __name__, url_prefix="/v1/games")
me_bp = Blueprint("me", __name__, url_prefix="/v1/me")
leaderboards_bp = Blueprint("leaderboards", __name__, url_prefix="/v1/leaderboards")

MAX_WAIT_SECONDS = 30
#: The most a page of the lobby, the inbox or a leaderboard holds.
LOBBY_LIMIT = 200
#: Versions and sequence numbers as the document bounds them.
MAX_VERSION = 10**15 - 1
MESSAGE_ID_PATTERN = "^([0-9]{1,15}-[0-9]{1,15})?$"
#: Built once: a marshmallow schema costs more to build than to use, and a built one is
#: reused safely across requests.
PLAYER_CREATE_SCHEMA = PlayerCreateSchema()
TOKEN_CREATE_SCHEMA = TokenCreateSchema()


class PlayerSearch(Schema):
    name = Matching(r"(?s)(?=.*\S).{1,40}", "name must be 1 to 40 characters: the start of a player's name",
                    required=True,
                    error_messages={"required": "name must be 1 to 40 characters: the start of a player's name"},
                    metadata={"description": "The start of a name (any case), 1 to 40 characters",
                              "minLength": 1, "maxLength": 40})
    limit = WholeNumber(1, directory.MAX_RESULTS, metadata={"description": "At most this many (20 at most)"})


class LeaderboardQuery(Schema):
    limit = WholeNumber(1, LOBBY_LIMIT, metadata={"description": "At most this many"})
    cursor = Matching("[0-9]{1,9}", "cursor must be a next_cursor of this leaderboard", code="bad_cursor",
                      metadata={"description": "The next_cursor of the previous page", "pattern": "^[0-9]{1,9}$"})
    bots = Flag(metadata={"description": "Count bot accounts too (default: people only)"})


def _cursor() -> fields.String:
    """An index's page cursor: its reader refuses one it did not write (400 ``bad_cursor``)."""
    return fields.String(metadata={"description": "The `next_cursor` of the previous page (omit for the first page)",
                                   "pattern": CURSOR_PATTERN})


class LobbyQuery(Schema):
    game = Choice(registry.available, lambda: f"game must be one of: {', '.join(registry.available())}",
                  metadata={"description": "Only this game"})
    status = Choice(["open"], "the lobby lists open games only; see /v1/me/games for yours",
                    metadata={"description": "Only 'open' is listed here; your own games are at /v1/me/games"})
    limit = WholeNumber(1, LOBBY_LIMIT, metadata={"description": "At most this many"})
    cursor = _cursor()
    seeking_substitute = Flag(metadata={"description": "true: running games that offer seats to a substitute "
                                                       "(each with `seats_offered`) instead of open games"})


class InboxQuery(Schema):
    awaiting = Choice(["me"], "awaiting takes only the value 'me'",
                      metadata={"description": "'me': only games waiting on you, soonest deadline first"})
    limit = WholeNumber(1, LOBBY_LIMIT, metadata={"description": "At most this many"})
    cursor = _cursor()


def _after() -> WholeNumber:
    return WholeNumber(0, None, metadata={"description": "Only events after this version", "maximum": MAX_VERSION})


class FeedQuery(Schema):
    after = _after()
    wait = WholeNumber(0, MAX_WAIT_SECONDS, metadata={"description": "Seconds to wait for a first event"})
    limit = WholeNumber(1, MAX_PAGE, metadata={"description": "At most this many events"})
    view = Flag(metadata={"description": "Also return your game view, legal actions included"})
    messages_after = Matching(MESSAGE_ID_PATTERN[1:-1], "messages_after must be a message id such as 12-0",
                              metadata={"description": "Table talk after this message id (e.g. 12-0)",
                                        "pattern": MESSAGE_ID_PATTERN})


class ReplayQuery(Schema):
    version = WholeNumber(1, None, metadata={
        "description": "Version to rebuild (from 1 to the current; default: current)", "maximum": MAX_VERSION})


# Built once: webargs would build a schema class again for every request.
PLAYER_SEARCH, LEADERBOARD_QUERY, LOBBY_QUERY = PlayerSearch(), LeaderboardQuery(), LobbyQuery()
INBOX_QUERY, FEED_QUERY, REPLAY_QUERY = InboxQuery(), FeedQuery(), ReplayQuery()


@players_bp.post("")
@declare("Register a player and get a bearer token", auth="none", ok=(201, "Player"), problems=(BODY,),
         body="PlayerCreate", description="The token is shown once; only its hash is kept.")
def create_player() -> tuple[dict[str, Any], int]:
    body = PLAYER_CREATE_SCHEMA.load(object_body())
    take(limits().registrations(), client_address())
    player, token = engine().create_player(body["name"], bot=body["bot"])
    return {"id": player.id, "name": player.name, "token": token, **({"bot": True} if player.bot else {})}, 201


@players_bp.get("")
@declare("Find players by the start of their name", auth="optional", ok=(200, "PlayerMatches"),
         problems=(OPTIONAL_TOKEN, {400: ("bad_query",)}),
         description="Players whose name starts with `name`, compared case-folded, in name order; at most 20. A "
                     "client invites people by name with it: the ids go in a new game's `invite`. Names are not "
                     "unique: two players may share one.")
@players_bp.arguments(PLAYER_SEARCH, location="query")
def find_players(query: dict[str, Any]) -> dict[str, Any]:
    """Players whose name starts with ``name`` (any case): how a client invites people by name."""
    current_player(required=False)  # a token sent must be valid
    eng = engine()
    return {"players": directory.find_by_prefix(eng.redis, eng.keys, query["name"],
                                                query.get("limit", directory.MAX_RESULTS))}


@players_bp.get("/<player_id>")
@declare("A player's reliability, ratings and rated games played per title", auth="optional",
         ok=(200, "PlayerProfile"), problems=(OPTIONAL_TOKEN, {404: ("player_not_found",)}),
         params=(path_param("player_id", "The player's id"),),
         description="`reliability`: the percent of the player's decisions, in their last 100 games that ended, "
                     "made before their deadline (null until 20 decisions), with `timeouts` and `abandoned` games "
                     "as counts (docs/community.md). Ratings follow Weng-Lin's Plackett-Luce model (OpenSkill), "
                     "made for more than two players: each rated game ranks its seats (the winners share first "
                     "place, resigned seats come last, the latest to resign above the earlier).")
def player(player_id: str) -> dict[str, Any]:
    """A player's public card: name, and rating and rated games played per title."""
    current_player(required=False)  # a token sent must be valid
    eng = engine()
    return {**eng.player_profile(player_id), **eng.reliability.of_player(player_id)}


@leaderboards_bp.get("/<game>")
@declare("A title's best rated players, best first", auth="optional", ok=(200, "Leaderboard"),
         problems=(OPTIONAL_TOKEN, {400: ("bad_query", "bad_cursor"), 404: ("leaderboard_not_found",)}),
         params=(path_param("game", "The title"),),
         description="Only players with at least `min_games` rated games in the title "
                     "(INTRIGUE_LEADERBOARD_MIN_GAMES) are listed; paged by `next_cursor`. Bot accounts are left "
                     "out unless `bots=true`.")
@leaderboards_bp.arguments(LEADERBOARD_QUERY, location="query")
def leaderboard(query: dict[str, Any], game: str) -> dict[str, Any]:
    """A title's best rated players, best first, among those with enough rated games."""
    current_player(required=False)
    entries, next_offset = engine().leaderboard(game, int(query.get("cursor", 0)), query.get("limit", 50),
                                                bots=query.get("bots", False))
    return {"game": game, "min_games": engine().settings.leaderboard_min_games, "players": entries,
            "next_cursor": str(next_offset) if next_offset is not None else None}


@games_bp.post("")
@declare("Create a game; it is open until its seats fill", auth="required", ok=(201, "GameView"),
         problems=(BODY, TOKEN, {409: ("too_many_open_games", "too_many_active_games"),
                                 422: ("unknown_game", "bad_seat_count", "bad_bot_seat", "unknown_bot_strategy",
                                       "unknown_player", "too_many_invitations")}),
         body="GameCreate", open_codes=("the game's option codes",),
         description=f"Games: {', '.join(registry.available())}. Each game's seats and options are in its "
                     "`GameCreate` branch; a game's own option problems are 422 with that game's code. `bots` "
                     "seats bots at once (`{\"2\": \"ismcts\"}`): a seat that is not the game's is `bad_bot_seat` "
                     "(so is leaving no seat for a person), a strategy other than `ismcts` or `random` is "
                     "`unknown_bot_strategy`.")
def create_game() -> tuple[dict[str, Any], int]:
    player = current_player()
    body = GAME_CREATE_SCHEMA.load(object_body())
    assert player is not None
    return game_view(setup_requests.create_game(engine(), limits(), player, body), None), 201


@games_bp.get("")
@declare("The lobby: open games, oldest first", auth="none", ok=(200, "GameList"),
         problems=({400: ("bad_query", "bad_cursor")},))
@games_bp.arguments(LOBBY_QUERY, location="query")
def lobby(query: dict[str, Any]) -> dict[str, Any]:
    """Open games, oldest first, paged by ``cursor`` (a projection: the lobby index).

    ``game=coup`` reads the lobby of that game alone, so the filter applies before
    the page: a page is never short because other games filled it.
    """
    if query.get("seeking_substitute"):  # running games offering seats (service/community.py)
        return community.seeking(_page(query, lambda limit, cursor: engine().substitutes.page(limit, cursor)))
    wanted = query.get("game")
    page = _page(query, lambda limit, cursor: engine().lobby_page(wanted, limit, cursor))
    games = [{k: v for k, v in _public(c).items() if k != "winners"} for c in page.cards if c["status"] == "open"]
    engine().reliability.annotate(games)
    return {"games": games, "next_cursor": page.next_cursor}


@games_bp.post("/<game_id>/join")
@declare("Take the first free seat (joining twice keeps your seat), or, with {\"seat\": N}, a seat offered to a "
         "substitute", auth="required", ok=(200, "JoinResult"),
         problems=(BODY, TOKEN, GAME, {403: ("not_invited", "humans_only", "too_unreliable"),
                                       409: ("game_not_open", "too_many_revisions", "busy", "too_many_active_games",
                                             "seat_not_offered", "already_seated"),
                                       422: ("bad_commitment",)}),
         params=(GAME_ID,), body="JoinBody", body_required=False,
         description="The last seat to join starts the game; when some seat joined with a `commitment` (fair "
                     "shuffles), the game is `starting` until the committed seats reveal or "
                     "INTRIGUE_REVEAL_SECONDS pass. The body is optional. " + community.JOIN_DESCRIPTION)
def join(game_id: str) -> tuple[dict[str, Any], int]:
    player = current_player()
    assert player is not None
    body = join_body()
    if body.get("seat") is not None:  # a substitute takes a seat over (service/community.py)
        joined = community.take_seat(player, game_id, body["seat"])
    else:
        joined = engine().join(player, game_id, answer_first=True, commitment=body.get("commitment"))
    after_answer(joined.after_answer)
    return setup_requests.join_answer(joined), 200


@games_bp.post("/<game_id>/leave")
@declare("Leave a game that has not started: your seat is free again", auth="required", ok=(200, "GameView"),
         problems=(TOKEN, GAME, {403: ("not_seated",), 409: ("game_started", "game_cancelled", "busy")}),
         params=(GAME_ID,), description="Once the game has started, resign instead (409 `game_started`).")
def leave(game_id: str) -> dict[str, Any]:
    """Free the caller's seat in a game that has not started."""
    player = current_player()
    assert player is not None
    return game_view(engine().leave(player, game_id), None)


@games_bp.delete("/<game_id>")
@declare("Cancel a game you created that has not started", auth="required", ok=(204, None),
         problems=(TOKEN, GAME, {403: ("not_creator",), 409: ("game_started", "busy")}), params=(GAME_ID,),
         ok_type="", description="The game keeps its log, with status `cancelled`, and leaves the lobby and your "
                                 "count of open games. Cancelling it again changes nothing.")
def cancel(game_id: str) -> Response:
    """The creator cancels a game still open (it stays readable, with status ``cancelled``)."""
    player = current_player()
    assert player is not None
    engine().cancel(player, game_id)
    return Response(status=204)


@games_bp.post("/<game_id>/resign")
@declare("Resign: your seat is out of the running, the bot plays it", auth="required", ok=(200, "ResignResult"),
         problems=(TOKEN, GAME, {403: ("not_seated",), 409: ("game_not_started", "game_cancelled", "game_over",
                                                             "already_resigned", "busy")}),
         params=(GAME_ID,),
         description="Your seat ranks last among the seats still in and cannot win; from now on the takeover bot "
                     "plays its decisions at once, so the others' game goes on. You see the game as a spectator "
                     "until it ends. With at most one seat still in, the game ends (reason `resigned`): the seat "
                     "left wins.")
def resign(game_id: str) -> dict[str, Any]:
    """The caller's seat resigns: the takeover bot plays it, and the caller sees the game as a spectator."""
    player = current_player()
    assert player is not None
    done = engine().resign(player, game_id, answer_first=True)
    after_answer(done.after_answer)
    seat = caller_seat(done.record)
    return {"version": done.record["version"], "game": game_view(done.record, seat)}


@games_bp.post("/<game_id>/rematch")
@declare("Ask for a rematch of a finished game and sit down in it", auth="required", ok=(200, "JoinResult"),
         problems=(TOKEN, GAME, {403: ("not_seated", "not_invited"), 409: ("game_not_over", "game_not_open",
                                                                           "busy")}),
         params=(GAME_ID,),
         description="The first player to ask creates it: the same title, seats, options (less those that fix "
                     "hidden cards: it is dealt afresh) and time control, unlisted, its seats offered to the same "
                     "players as an invitation (`invited` webhooks). Every later request, racing or not, gets the "
                     "same game and seats its caller; the last seat filled starts it. The games name each other: "
                     "`rematch_of` on the new one, `rematch` on the old one.")
def rematch(game_id: str) -> dict[str, Any]:
    """A finished game's rematch, the caller seated in it: the same game for every player who asks."""
    player = current_player()
    assert player is not None
    joined = engine().rematch(player, game_id, answer_first=True)
    after_answer(joined.after_answer)
    return {"seat": joined.seat, "game": game_view(joined.record, joined.seat)}


@games_bp.get("/<game_id>")
@declare("Status, whom it awaits and until when, your view and legal actions", auth="optional", ok=(200, "GameView"),
         problems=(OPTIONAL_TOKEN, GAME), params=(GAME_ID,),
         description="Without a token (or with one not seated here) you see what a spectator sees.")
def show(game_id: str) -> dict[str, Any]:
    record = engine().load(game_id)
    body = game_view(record, caller_seat(record))
    body["rematch"] = engine().rematch_link(record)
    return body


@games_bp.post("/<game_id>/actions")
@declare("Post one action (an object from legal_actions)", auth="required", ok=(200, "ActionResult"),
         problems=(BODY, {400: ("bad_if_match", "bad_idempotency_key")}, TOKEN, {403: ("not_seated",)}, GAME,
                   {409: ("game_not_started", "game_over", "version_conflict", "not_your_turn",
                          "idempotency_key_reused", "seat_resigned", "too_many_revisions", "game_cancelled",
                          "busy")}),
         # The hot path reads its headers by hand: listed here, parsed in service.actions (and service.front).
         params=(GAME_ID,
                 header_param("Idempotency-Key", "Your id for this decision: the same key again returns the first "
                                                 "result and appends nothing (1 to 200 characters)",
                              {"type": "string", "minLength": 1, "maxLength": 200}),
                 header_param("If-Match", "Refuse with 409 version_conflict unless the game is at this version "
                                          "(digits; an entity tag such as \"12\" also works)",
                              {"type": "string", "pattern": r'^(W/)?("[0-9]{1,15}"|[0-9]{1,15})$'}),
                 header_param("Prefer", "`return=minimal` (RFC 7240) leaves `game` out of the answer: for a client "
                                        "that gets its view from the event stream with view=true",
                              {"type": "string"})),
         body="Action", open_codes=("the game's rule codes (see each game's Action schema)",),
         ok_headers={"Preference-Applied": {
             "description": "`return=minimal` when the answer left `game` out, as asked with Prefer",
             "schema": {"type": "string", "enum": ["return=minimal"]}}},
         description="The body is one of the actions of the game's `<Game>Action` schema; `legal_actions` in your "
                     "view lists the ones you may post now.")
def act(game_id: str) -> tuple[dict[str, Any], int, dict[str, str]]:
    player = current_player()
    assert player is not None
    minimal = prefers_minimal(request.headers.get("Prefer"))
    answer, work = submit_action(engine(), player, game_id, object_body(), request.headers.get("Idempotency-Key"),
                                 request.headers.get("If-Match"), minimal)
    after_answer(work)
    return answer, 200, MINIMAL_APPLIED if minimal else {}


@games_bp.get("/<game_id>/events")
@declare("Your redacted event feed; long-poll with wait", auth="optional", ok=(200, "EventPage"),
         problems=(OPTIONAL_TOKEN, GAME, {400: ("bad_query",)}), params=(GAME_ID,))
@games_bp.arguments(FEED_QUERY, location="query")
def events(query: dict[str, Any], game_id: str) -> dict[str, Any]:
    """The caller's redacted feed after ``after``; ``wait`` long-polls up to 30 s.

    With ``view=true`` the answer also holds the caller's game view (``GET
    /v1/games/<id>``) as of the answer, so a client woken by the feed learns its
    legal actions without a second request.
    """
    eng = engine()
    record = eng.load(game_id)
    seat = caller_seat(record)
    after, wait, limit = query.get("after", 0), query.get("wait", 0), query.get("limit", MAX_PAGE)
    with_view, cursor = query.get("view", False), query.get("messages_after") or None
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
@declare("The same feed as server-sent events", auth="optional", ok=(200, None),
         problems=(OPTIONAL_TOKEN, GAME, {400: ("bad_query", "bad_last_event_id"), 429: ("too_many_streams",)}),
         # A stream's opening is hot: its query and header are read by hand, and listed here.
         params=(GAME_ID,
                 query_param("after", "Only events after this version",
                             {"type": "integer", "minimum": 0, "maximum": MAX_VERSION}),
                 query_param("messages_after", "Table talk after this message id",
                             {"type": "string", "pattern": MESSAGE_ID_PATTERN}),
                 header_param("Last-Event-ID", "Resume after this frame id (a version, or version/message id; send "
                                               "none to start from `after`: an empty one is malformed)",
                              {"type": "string", "pattern": "^[0-9]{1,15}(/[0-9]{1,15}-[0-9]{1,15})?$"})),
         ok_type="text/event-stream",
         description="Ends when a finished game's feed is complete; a comment line keeps it alive.")
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
@declare("The game as you saw it at a version; after the end, everything", auth="optional", ok=(200, "Replay"),
         problems=(OPTIONAL_TOKEN, GAME, {400: ("bad_query",), 404: ("version_not_found",)}), params=(GAME_ID,))
@games_bp.arguments(REPLAY_QUERY, location="query")
def replay(query: dict[str, Any], game_id: str) -> dict[str, Any]:
    """The game as the caller saw it right after event ``version``; after the end, everything."""
    eng = engine()
    current = eng.load(game_id)
    seat = caller_seat(current)
    version = query.get("version", current["version"])
    if version > current["version"]:
        raise Problem(404, "version_not_found", f"the game is at version {current['version']}, not yet {version}",
                      version=current["version"])
    record = eng.record_at(game_id, version)
    everything = current["status"] == "finished" or is_operator()
    body = game_view(record, seat, clock=parse_time(record["updated_at"]), exact=everything)
    body["legal_actions"] = []
    said = readable(current, eng.messages(game_id, None, upto_version=version), seat)
    return {"version": version, "game": body, "state": record["state"] if everything else None,
            "messages": said}


@games_bp.get("/<game_id>/log")
@declare("The full hash-chained log (NDJSON) of a finished game", auth="optional", ok=(200, None),
         problems=(OPTIONAL_TOKEN, GAME, {403: ("game_in_progress",)}), params=(GAME_ID,),
         ok_type="application/x-ndjson",
         description="The operator's token reads it at any time. A finished game's log ends with a `LogSigned` "
                     "record: the server's Ed25519 signature of the final hash (key id named; "
                     "docs/transparency.md). Check it all with `intrigue verify --url` or `--key`.")
def log(game_id: str) -> Response:
    """The full hash-chained log as NDJSON: finished games, or the operator at any time."""
    eng = engine()
    record = eng.load(game_id)
    if record["status"] != "finished" and not is_operator():
        raise Problem(403, "game_in_progress", "the full log is published when the game ends")

    signing = signer() if record["status"] == "finished" else None  # read here: the lines stream outside the app

    lines = (event.to_json() + "\n" for event in published_log(eng, game_id, signing))
    return Response(lines, mimetype="application/x-ndjson",
                    headers={"Content-Disposition": f'attachment; filename="{game_id}.ndjson"'})


@me_bp.get("/games")
@declare("Your games; awaiting=me is the correspondence inbox", auth="required", ok=(200, "Inbox"),
         problems=(TOKEN, {400: ("bad_query", "bad_cursor")}),
         description="Newest first; the inbox (awaiting=me) soonest deadline first. Paged: pass `next_cursor` as "
                     "`cursor` until it is null.")
@me_bp.arguments(INBOX_QUERY, location="query")
def my_games(query: dict[str, Any]) -> dict[str, Any]:
    """The caller's games, newest first; ``awaiting=me`` gives the inbox, soonest deadline first.

    Both are paged by ``cursor`` (``next_cursor`` of the previous page; null after
    the last one) and cost one index read and one pipeline, however many games the
    player has played.
    """
    player = current_player()
    eng = engine()
    assert player is not None
    inbox = query.get("awaiting") == "me"
    page = _page(query, lambda limit, cursor: eng.games_page(player.id, inbox, limit, cursor))
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
@declare("Your tokens: ids and dates, never a token", auth="required", ok=(200, "TokenList"), problems=(TOKEN,))
def my_tokens() -> dict[str, Any]:
    """The caller's tokens: ids and dates (issued, last used), never a token; ``current`` marks this one."""
    player = current_player()
    assert player is not None
    return {"tokens": [with_scopes(token) for token in engine().tokens_of(player, bearer_token())]}


@me_bp.post("/tokens")
@declare("Issue another token, shown once (to rotate: issue, then revoke the old)", auth="required",
         ok=(201, "TokenIssued"), problems=(TOKEN, BODY, {409: ("too_many_tokens",)}), body="TokenCreate",
         body_required=False,
         description="A player holds at most INTRIGUE_TOKENS_PER_PLAYER tokens; every token of one client address "
                     "shares its INTRIGUE_ADDRESS_RATE_LIMIT. The body is optional: `scopes` limits what the token "
                     "may do (without it, every scope).")
def issue_token() -> tuple[dict[str, Any], int]:
    """Another token for the caller, shown once: to rotate one, issue its successor, then revoke it.
    ``{"scopes": [...]}`` limits what it may do; without a body or ``scopes`` it may do everything."""
    player = current_player()
    assert player is not None
    scopes = TOKEN_CREATE_SCHEMA.load(object_body()).get("scopes") if request.content_length else None
    return with_scopes(engine().issue_token(player, limits().tokens_per_player, scopes)), 201


@me_bp.delete("/tokens/<token_id>")
@declare("Revoke a token (this one too); it stops working within seconds on every API process", auth="required",
         ok=(204, None), problems=(TOKEN, {404: ("token_not_found",)}),
         params=(path_param("token_id", "The token's id (from GET /v1/me/tokens)"),), ok_type="")
def revoke_token(token_id: str) -> tuple[str, int]:
    """Revoke one of the caller's tokens (the one in use too): it stops working within seconds everywhere."""
    player = current_player()
    assert player is not None
    engine().revoke_token(player, token_id)
    return "", 204


def _page(query: dict[str, Any], read: Callable[[int, str | None], Page]) -> Page:
    """One page of an index, ``limit`` and ``cursor`` taken from the query."""
    try:
        return read(query.get("limit", 50), query.get("cursor"))
    except BadCursor:
        raise Problem(400, "bad_cursor", "cursor must be a next_cursor: <score>_<game id>") from None


def _public(found: dict[str, Any]) -> dict[str, Any]:
    """A card without the per-seat lists it keeps for the inbox."""
    return {key: value for key, value in found.items() if key not in ("awaiting", "deadlines")}


__all__ = ["players_bp", "games_bp", "me_bp"]
