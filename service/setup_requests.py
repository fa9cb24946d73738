"""A game's set-up requests (create, join, open a stream) past their inputs: one body of code
for the Flask routes and the express lane, so the two cannot answer differently."""

from __future__ import annotations

from typing import Any

from engine.core import Engine, Joined, Player
from engine.settings import Limits
from projections.record import Record
from projections.views import game_view
from service.event_stream import EventStream
from service.schemas import GameCreateSchema

GAME_CREATE_SCHEMA = GameCreateSchema()


def create_game(engine: Engine, limits: Limits, player: Player, fields: dict[str, Any]) -> Record:
    """``POST /v1/games`` once its body passed the schema and the caller's tokens were spent."""
    engine.check_open_games(player.id, limits.open_games)
    engine.take(limits.game_creations(), player.id)
    return engine.create_game(player, fields["game"], fields["seats"], fields["options"], fields["time_control"],
                              max_open=limits.open_games, bots=fields["bots"], unlisted=fields["unlisted"],
                              invite=fields["invite"], rated=fields["rated"])


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
    return EventStream(engine, game_id, record, seat, after, cursor, with_view, lease)
