"""Seat 0's eye on one game over HTTP, for the twin-game secrets tests.

Each secrets test plays the same public story in two games that differ only in what
seat 0 has not seen, gathers everything seat 0 can fetch at each checkpoint, and
compares the two records after removing what differs between any two games.
"""

from __future__ import annotations

from typing import Any

from tests.support.client import Client

#: Fields that differ between any two games (identity, clocks, seeds, hashes).
INCIDENTAL = frozenset({"id", "game_id", "at", "deadline", "deadlines", "move_deadlines", "created_at",
                        "updated_at", "seed_hash", "hash", "prev", "created_by", "player", "player_id"})


def normalise(value: Any, game_id: str, incidental: frozenset[str] = INCIDENTAL) -> Any:
    """``value`` without its incidental fields, the game's id written as ``<game>``."""
    if isinstance(value, dict):
        return {k: normalise(v, game_id, incidental) for k, v in value.items() if k not in incidental}
    if isinstance(value, list):
        return [normalise(v, game_id, incidental) for v in value]
    if isinstance(value, str):
        return value.replace(game_id, "<game>")
    return value


class SeatZeroObserver:
    """Everything seat 0 can fetch about one game, gathered at each checkpoint."""

    incidental: frozenset[str] = INCIDENTAL

    def __init__(self, players: list[Client], game_id: str) -> None:
        self.players, self.game_id = players, game_id
        for seat, player in enumerate(self.players):
            assert player.join(self.game_id) == seat
        self.seen: list[Any] = []

    def look(self, label: str) -> None:
        me, gid = self.players[0], self.game_id
        game = me.game(gid)
        observed = {
            "label": label,
            "game": game,
            "feed": me.events(gid, after=0),
            "replay": me.get(f"/v1/games/{gid}/replay", params={"version": game["version"]}),
            "inbox": me.get("/v1/me/games", params={"awaiting": "me"})["games"],
            "mine": me.get("/v1/me/games")["games"],
        }
        self.seen.append(normalise(observed, gid, self.incidental))

    def mistake(self, label: str, action: dict[str, Any]) -> None:
        """Seat 0 posts a move the rules refuse: the problem body is an observation too."""
        response = self.players[0].request("POST", f"/v1/games/{self.game_id}/actions", action)
        assert response.status_code in (409, 422), response.text
        self.seen.append(normalise({"label": label, "status": response.status_code, "problem": response.json()},
                                   self.game_id, self.incidental))

    def act(self, seat: int, action: dict[str, Any]) -> None:
        self.players[seat].act(self.game_id, action)
