"""The tournaments resource: Swiss tournaments over any title (``engine.tournaments`` runs them).

``POST /v1/tournaments`` creates one; the list is paged like the lobby, by status; a
tournament's page shows its standings and every round's tables; players join and leave
before the start, the creator may start it early, and a player withdraws once it runs.
"""

from __future__ import annotations

from typing import Any

from flask import Response
from marshmallow import RAISE, Schema, fields, validate

from engine.tournaments import STATUSES
from projections.listing import CURSOR_PATTERN, BadCursor
from service.answers import Problem
from service.api_doc import BODY, OPTIONAL_TOKEN, TOKEN, Blueprint, declare, path_param
from service.context import current_player, engine
from service.inputs import object_body
from service.plain_text import PATTERN, OneLine
from service.queries import Choice, WholeNumber
from service.schemas import TimeControlSchema

tournaments_bp = Blueprint("tournaments", __name__, url_prefix="/v1/tournaments")
TOURNAMENT_ID = (path_param("tournament_id", "The tournament's id"),)
FOUND = {404: ("tournament_not_found",)}

#: A round lasts at most this long by default: 14 days.
DEFAULT_ROUND_SECONDS = 14 * 86400


class TournamentCreateSchema(Schema):
    class Meta:
        unknown = RAISE

    name = fields.String(load_default=None, validate=[validate.Length(min=1, max=80), OneLine()],
                         metadata={"example": "Sunday Coup Swiss", "pattern": PATTERN,
                                   "description": "Shown to every player: 1 to 80 characters, no control "
                                                  "characters, line breaks or bidirectional overrides"})
    game = fields.String(required=True, validate=validate.Length(min=1, max=40), metadata={"example": "coup"})
    seats_per_table = fields.Integer(required=True, strict=True, validate=validate.Range(min=2, max=12),
                                     metadata={"example": 3})
    rounds = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=50),
                            metadata={"example": 3})
    time_control = fields.Nested(TimeControlSchema, load_default=lambda: TimeControlSchema().load({}))
    options = fields.Dict(keys=fields.String(), load_default=dict)
    starts_at = fields.AwareDateTime(required=True, format="iso", default_timezone=None,
                                     metadata={"example": "2026-12-06T18:00:00Z",
                                               "description": "When it starts by itself (cancelled with fewer "
                                                              "than min_players)"})
    min_players = fields.Integer(required=True, strict=True, validate=validate.Range(min=2, max=1000),
                                 metadata={"example": 6})
    max_players = fields.Integer(load_default=None, allow_none=True, strict=True,
                                 validate=validate.Range(min=2, max=1000), metadata={"example": 30})
    rated = fields.Boolean(load_default=True, metadata={"description": "Whether its games move ratings"})
    round_seconds = fields.Integer(load_default=DEFAULT_ROUND_SECONDS, strict=True,
                                   validate=validate.Range(min=60, max=365 * 86400),
                                   metadata={"description": "How long a round may last; then the takeover bot "
                                                            "plays every seat still owing decisions (14 days)"})


TOURNAMENT_CREATE_SCHEMA = TournamentCreateSchema()


class StandingSchema(Schema):
    rank = fields.Integer()
    player = fields.Dict()
    points = fields.Float(metadata={"description": "(seats - rank) / (seats - 1) a table; a bye is a win (1)"})
    buchholz = fields.Float(metadata={"description": "The points of the players met, summed over the tables"})
    rating = fields.Float(metadata={"description": "The rating the player had when joining"})
    tables = fields.Integer()
    bye = fields.Boolean()
    withdrawn = fields.Boolean()


class TournamentTableSchema(Schema):
    table = fields.Integer()
    game = fields.String(metadata={"description": "The game's id: GET /v1/games/<id>"})
    players = fields.List(fields.String(), metadata={"description": "Player ids in seat order"})
    ranks = fields.List(fields.Integer(), allow_none=True,
                        metadata={"description": "Each seat's rank once the game ended (0 the best; ties share)"})


class TournamentRoundSchema(Schema):
    round = fields.Integer()
    deadline = fields.String()
    ended = fields.Boolean()
    byes = fields.List(fields.String())
    tables = fields.List(fields.Nested(TournamentTableSchema))


class TournamentSummarySchema(Schema):
    id = fields.String()
    name = fields.String()
    game = fields.String()
    status = fields.String(validate=validate.OneOf(["open", "running", "finished", "cancelled"]))
    seats_per_table = fields.Integer()
    rounds = fields.Integer()
    round = fields.Integer(metadata={"description": "Rounds paired so far"})
    starts_at = fields.String()
    min_players = fields.Integer()
    max_players = fields.Integer(allow_none=True)
    rated = fields.Boolean()
    round_seconds = fields.Integer()
    created_by = fields.String()
    created_at = fields.String()
    players = fields.Integer()


class TournamentSchema(TournamentSummarySchema):
    time_control = fields.Nested(TimeControlSchema)
    options = fields.Dict()
    version = fields.Integer()
    entrants = fields.List(fields.Dict())
    standings = fields.List(fields.Nested(StandingSchema))
    rounds_played = fields.List(fields.Nested(TournamentRoundSchema))


class TournamentListSchema(Schema):
    tournaments = fields.List(fields.Nested(TournamentSummarySchema))
    next_cursor = fields.String(allow_none=True)


class TournamentListQuery(Schema):
    status = Choice(list(STATUSES), "status must be one of: open, running, finished",
                    metadata={"description": "open (the default), running or finished"})
    limit = WholeNumber(1, 200, metadata={"description": "At most this many"})
    cursor = fields.String(metadata={"description": "The `next_cursor` of the previous page (omit for the first page)",
                                     "pattern": CURSOR_PATTERN})


TOURNAMENT_LIST_QUERY = TournamentListQuery()


@tournaments_bp.post("")
@declare("Create a Swiss tournament", auth="required", ok=(201, "Tournament"),
         problems=(BODY, TOKEN, {422: ("unknown_game", "bad_seat_count", "bad_player_bounds",
                                       "bad_starts_at")}),
         body="TournamentCreate", open_codes=("the game's option codes",),
         description="Every field is checked: a field of the wrong type or out of bounds is 400 "
                     "`invalid_body` naming it in `errors`, as for every body. "
                     "`round_seconds` (14 days by default) caps a round: "
                     "then the takeover bot plays every seat still owing decisions.")
def create_tournament() -> tuple[dict[str, Any], int]:
    player = current_player()
    assert player is not None
    raw = object_body()
    body = TOURNAMENT_CREATE_SCHEMA.load(raw)  # a field at fault: the app's 400 invalid_body, as every body
    return engine().tournaments.create(player, body), 201


@tournaments_bp.get("")
@declare("Tournaments by status, oldest first", auth="optional", ok=(200, "TournamentList"),
         problems=(OPTIONAL_TOKEN, {400: ("bad_query", "bad_cursor")}),
         description="Paged like the lobby: pass `next_cursor` as `cursor` until it is null.")
@tournaments_bp.arguments(TOURNAMENT_LIST_QUERY, location="query")
def list_tournaments(query: dict[str, Any]) -> dict[str, Any]:
    current_player(required=False)
    try:
        page = engine().tournaments.page(query.get("status", "open"), query.get("limit", 50), query.get("cursor"))
    except BadCursor:
        raise Problem(400, "bad_cursor", "cursor must be a next_cursor: <score>_<tournament id>") from None
    return {"tournaments": page.cards, "next_cursor": page.next_cursor}


@tournaments_bp.get("/<tournament_id>")
@declare("A tournament: standings, rounds, tables and results", auth="optional", ok=(200, "Tournament"),
         problems=(OPTIONAL_TOKEN, FOUND), params=TOURNAMENT_ID,
         description="Standings by points, then Buchholz, then rating; each round's tables name their game "
                     "(GET /v1/games/<id>) and, once it ended, each seat's rank.")
def tournament(tournament_id: str) -> dict[str, Any]:
    current_player(required=False)
    return engine().tournaments.view(tournament_id)


@tournaments_bp.post("/<tournament_id>/join")
@declare("Join a tournament before its start", auth="required", ok=(200, "Tournament"),
         problems=(TOKEN, FOUND, {409: ("tournament_started", "tournament_cancelled", "tournament_full", "busy")}),
         params=TOURNAMENT_ID,
         description="Joining twice changes nothing. Your rating in the title now is the one pairing uses.")
def join(tournament_id: str) -> dict[str, Any]:
    player = current_player()
    assert player is not None
    return engine().tournaments.join(player, tournament_id)


@tournaments_bp.post("/<tournament_id>/leave")
@declare("Leave a tournament before its start", auth="required", ok=(200, "Tournament"),
         problems=(TOKEN, FOUND, {403: ("not_entered",), 409: ("tournament_started", "tournament_cancelled", "busy")}),
         params=TOURNAMENT_ID)
def leave(tournament_id: str) -> dict[str, Any]:
    player = current_player()
    assert player is not None
    return engine().tournaments.leave(player, tournament_id)


@tournaments_bp.post("/<tournament_id>/start")
@declare("Its creator starts it early", auth="required", ok=(200, "Tournament"),
         problems=(TOKEN, FOUND, {403: ("not_creator",),
                                  409: ("tournament_started", "tournament_cancelled", "too_few_players", "busy")}),
         params=TOURNAMENT_ID,
         description="Once `min_players` have joined; round 1 is paired at once. Otherwise it starts by itself at "
                     "`starts_at`, or is cancelled with too few players.")
def start(tournament_id: str) -> dict[str, Any]:
    player = current_player()
    assert player is not None
    return engine().tournaments.start(player, tournament_id)


@tournaments_bp.post("/<tournament_id>/withdraw")
@declare("Withdraw from a running tournament", auth="required", ok=(200, "Tournament"),
         problems=(TOKEN, FOUND, {403: ("not_entered",),
                                  409: ("tournament_not_started", "tournament_over", "already_withdrawn", "busy")}),
         params=TOURNAMENT_ID,
         description="You are not paired again, and every running game of yours in it is resigned.")
def withdraw(tournament_id: str) -> dict[str, Any]:
    player = current_player()
    assert player is not None
    return engine().tournaments.withdraw(player, tournament_id)


@tournaments_bp.get("/<tournament_id>/log")
@declare("The tournament's hash-chained stream (NDJSON)", auth="optional", ok=(200, None),
         problems=(OPTIONAL_TOKEN, FOUND), params=TOURNAMENT_ID, ok_type="application/x-ndjson",
         description="Public at any time: `intrigue verify FILE` re-runs each round's pairing from the results "
                     "before it.")
def tournament_log(tournament_id: str) -> Response:
    """The tournament's hash-chained stream as NDJSON, public at any time: ``intrigue verify`` re-runs its pairings."""
    current_player(required=False)
    events = engine().tournaments.events(tournament_id)
    if not events:
        engine().tournaments.load(tournament_id)  # 404 tournament_not_found
    return Response("".join(event.to_json() + "\n" for event in events), mimetype="application/x-ndjson",
                    headers={"Content-Disposition": f'attachment; filename="tournament-{tournament_id}.ndjson"'})
