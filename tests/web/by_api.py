"""The other side of a browser test: people who play over the API with requests (what a
third-party client does), so a test spends its browser time on the page it checks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import requests

Chooser = Callable[[dict[str, Any], list[dict[str, Any]]], dict[str, Any]]


class ApiPlayer:
    """A registered player and their token, calling the API directly."""

    def __init__(self, base: str, name: str) -> None:
        self.base = base
        made = self.call("POST", "/v1/players", {"name": name}, token=None)
        self.id, self.name, self.token = made["id"], made["name"], made["token"]

    def call(self, method: str, path: str, body: Any = None, *, token: str | None | bool = True) -> Any:
        headers = {}
        if token is not None:
            headers["Authorization"] = f"Bearer {self.token if token is True else token}"
        answer = requests.request(method, self.base + path, json=body, headers=headers, timeout=30)
        assert answer.ok, (method, path, answer.status_code, answer.text)
        return answer.json() if answer.content else None

    def view(self, game_id: str) -> dict[str, Any]:
        return self.call("GET", f"/v1/games/{game_id}")

    def act(self, game_id: str, action: dict[str, Any]) -> dict[str, Any]:
        return self.call("POST", f"/v1/games/{game_id}/actions", action)


def coup_default(view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
    """A plain Coup seat: coup when it can, else income; pass every window; lose its first card."""
    for wanted in ("coup", "income", "pass", "reveal", "keep"):
        found = [a for a in legal if a["type"] == wanted]
        if found:
            return found[0]
    return legal[0]


def play_until(seats: dict[int, ApiPlayer], game_id: str, done: Callable[[dict[str, Any]], bool],
               choose: Chooser = coup_default, limit: int = 400) -> dict[str, Any]:
    """Moves by the API seats in ``seats`` until ``done(view)`` holds (as seat 0's player sees it)."""
    any_player = next(iter(seats.values()))
    for _ in range(limit):
        seen = any_player.view(game_id)
        if done(seen) or seen["status"] != "active":
            return seen
        moved = False
        for seat in seen["awaiting"]:
            if seat in seats:
                mine = seats[seat].view(game_id)
                if mine["legal_actions"]:
                    seats[seat].act(game_id, choose(mine, mine["legal_actions"]))
                    moved = True
                    break
        assert moved, f"the game awaits seats no API player holds: {seen['awaiting']}"
    raise AssertionError("the game did not reach the wanted point")


def coup_game(creator: ApiPlayer, others: list[ApiPlayer], deck: list[str] | None = None) -> str:
    """A Coup game of ``1 + len(others)`` seats, every seat taken (the creator in seat 0)."""
    body: dict[str, Any] = {"game": "coup", "seats": 1 + len(others), "options": {"deck": deck} if deck else {}}
    game_id = creator.call("POST", "/v1/games", body)["id"]
    creator.call("POST", f"/v1/games/{game_id}/join")
    for other in others:
        other.call("POST", f"/v1/games/{game_id}/join")
    return game_id
