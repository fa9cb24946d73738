"""Substitutes (issue 50): a seat the bot took over, or that resigned, offered to another player.

A game offers such seats while it runs, unless its creator said ``"substitutes": false``;
the offers are indexed (``<prefix>:seeking_substitute``, by creation time) by the commit's
follow-up, and ``GET /v1/games?seeking_substitute=true`` lists them. ``POST
/v1/games/<id>/join {"seat": N}`` by a player not seated in the game appends
``SeatSubstituted``: from then on the substitute holds the seat (its view, its decisions,
back in the running if it had resigned) and the player who left cannot act in the game.
The result is rated as if the player who left had stayed to lose: they rank last, and the
substitute is not rated (``projections.community.as_rated``).
"""

from __future__ import annotations

from typing import Any

import redis

from engine.active_games import ActiveGames, offered_seats, seeking_key
from engine.commit import MAX_RETRIES, CommitPath
from engine.errors import Conflict, Forbidden
from engine.outcomes import Joined, Player
from engine.reliability import Reliability
from engine.vacations import player_timezone
from events.store import Keys
from games.base import GameEvent
from projections.listing import Page, index_page
from projections.projector import Projector
from projections.record import seat_of
from projections.views import summary


class Substitutes:
    def __init__(self, client: redis.Redis, keys: Keys, projector: Projector, commits: CommitPath,
                 active: ActiveGames, reliability: Reliability) -> None:
        self.redis = client
        self.keys = keys
        self.projector = projector
        self.commits = commits
        self.active = active
        self.reliability = reliability

    def page(self, limit: int, cursor: str | None) -> Page:
        """Running games that offer seats, oldest first, each with ``seats_offered``."""
        members, next_cursor = index_page(self.redis, seeking_key(self.keys), limit, cursor)
        games = []
        for game_id, _ in members:
            record = self.projector.load(game_id)
            if record is None or not (offered := offered_seats(record)):
                continue  # the index lags a commit in flight
            games.append({**summary(record), "seats_offered": offered})
        return Page(games, next_cursor)

    def substitute(self, player: Player, game_id: str, seat: int) -> Joined:
        """The caller takes over ``seat`` of a running game that offers it."""
        for _ in range(MAX_RETRIES):
            record = self.commits.load(game_id)
            if seat_of(record, player.id) is not None:
                raise Conflict("already_seated", "you hold a seat in this game already: you cannot take another")
            if seat not in offered_seats(record):
                raise Conflict("seat_not_offered", f"seat {seat} of this game is not offered to a substitute "
                                                   "(see GET /v1/games?seeking_substitute=true)")
            if player.bot and record.get("humans_only"):
                raise Forbidden("humans_only", "this game's creator keeps bot accounts out of it")
            self.reliability.check(record, player.id)
            self.active.check(player.id)
            data: dict[str, Any] = {"seat": seat, "player": {"id": player.id, "name": player.name},
                                    "left": record["players"][seat]["id"]}
            if record["time_control"].get("pause_weekends"):
                data["timezone"] = player_timezone(self.redis, self.keys, player.id)
            done = self.commits.commit(game_id, record, [GameEvent("SeatSubstituted", data, actor=seat)],
                                       {"kind": "substitute", "player": player.id})
            if done is not None:
                return Joined(seat, done.record, done.after_answer)
        raise Conflict("busy", "the game changed too often while taking the seat; try again")
