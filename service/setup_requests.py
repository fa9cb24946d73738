"""A game's set-up requests (create, join, open a stream) past their inputs: one body of code
for the Flask routes and the front's fast handlers (service.front), so the two cannot answer differently."""

from __future__ import annotations

from typing import Any

from engine.core import Engine, Joined, Player
from engine.errors import Limited
from engine.settings import Bucket, Limits
from projections.record import Record, seat_of
from projections.views import game_view
from service.event_stream import MAX_PAGE, EventStream
from service.schemas import GameCreateSchema

GAME_CREATE_SCHEMA = GameCreateSchema()


def create_game(engine: Engine, limits: Limits, player: Player, fields: dict[str, Any]) -> Record:
    """``POST /v1/games`` once its body passed the schema and the caller's tokens were spent."""
    engine.check_open_games(player.id, limits.open_games)
    engine.take(limits.game_creations(), player.id)
    return engine.create_game(player, fields["game"], fields["seats"], fields["options"], fields["time_control"],
                              max_open=limits.open_games, bots=fields["bots"], unlisted=fields["unlisted"],
                              invite=fields["invite"], rated=fields["rated"], humans_only=fields["humans_only"],
                              min_reliability=fields["min_reliability"], substitutes=fields["substitutes"])


def join_answer(joined: Joined) -> dict[str, Any]:
    """The answer to ``POST /v1/games/<id>/join``: the seat taken, and the game as it sees it."""
    return {"seat": joined.seat, "game": game_view(joined.record, joined.seat)}


def open_stream(engine: Engine, limits: Limits, game_id: str, record: Record, seat: int | None | str,
                player_id: str | None, address: str, after: int, cursor: str | None, with_view: bool,
                operator: bool = False) -> EventStream:
    """An event stream of the game, under the lease of the player's and the address's
    ceilings of streams open at once (``Limited`` past one); the operator holds none."""
    lease = None if operator else engine.open_stream(player_id, address, limits.streams_per_player,
                                                     limits.streams_per_address)
    return EventStream(engine, game_id, record, seat, after, cursor, with_view, lease,
                       player_id=None if operator else player_id)


def open_stream_from_start(engine: Engine, limits: Limits, game_id: str, player_id: str, address: str,
                           asked: list[tuple[Bucket, str]], with_view: bool) -> EventStream:
    """A seat's or a spectator's stream from the game's first event, opened in two round trips
    where the route takes four: the caller's tokens and the stream's lease in one script, then
    the first page, read after the stream's watch was registered, which also brings the
    record the seat and the opening view are taken from (no read of its own).

    The refusals come in the route's order: the tokens (429), the game (404), the lease (429).
    """
    try:
        lease = engine.open_stream_gated(asked, player_id, address, limits.streams_per_player,
                                         limits.streams_per_address)
    except Limited as refused:
        if refused.code == "too_many_streams":
            engine.load(game_id)  # a game that does not exist is told first, as the route tells it
        raise
    watch = engine.watcher.register(game_id)
    try:
        page = engine.read_page(game_id, 0, None, 1, MAX_PAGE, watch)
        record = page.record or engine.load(game_id)
    except BaseException:
        engine.watcher.unregister(game_id, watch)
        lease.release()
        raise
    return EventStream(engine, game_id, record, seat_of(record, player_id), 0, None, with_view, lease,
                       opened=(watch, page), player_id=player_id)
