"""A thin HTTP client for tests and bench scripts: what a third-party client would write."""

from __future__ import annotations

from typing import Any

import requests


class ApiError(AssertionError):
    def __init__(self, response: requests.Response) -> None:
        super().__init__(f"{response.status_code}: {response.text[:500]}")
        self.response = response


class Client:
    """One player's session against a running server."""

    def __init__(self, base_url: str, token: str | None = None, session: requests.Session | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        self.http = session or requests.Session()
        self.token = token
        self.player_id: str | None = None

    @classmethod
    def register(cls, base_url: str, name: str) -> Client:
        client = cls(base_url)
        body = client.post("/v1/players", {"name": name}, expect=201)
        client.token, client.player_id = body["token"], body["id"]
        return client

    def headers(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        return {**headers, **(extra or {})}

    def request(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None,
                params: dict[str, Any] | None = None, timeout: float = 40) -> requests.Response:
        return self.http.request(method, self.base_url + path, json=body, headers=self.headers(headers),
                                 params=params, timeout=timeout)

    def post(self, path: str, body: Any = None, expect: int = 200, headers: dict[str, str] | None = None) -> Any:
        response = self.request("POST", path, body, headers)
        if response.status_code != expect:
            raise ApiError(response)
        return response.json()

    def get(self, path: str, expect: int = 200, params: dict[str, Any] | None = None) -> Any:
        response = self.request("GET", path, params=params)
        if response.status_code != expect:
            raise ApiError(response)
        return response.json()

    # The game contract, spelled once.
    def create_game(self, game: str, seats: int, options: dict[str, Any] | None = None,
                    seconds_per_move: int = 86400, **time_control: int) -> str:
        body = {"game": game, "seats": seats, "options": options or {},
                "time_control": {"seconds_per_move": seconds_per_move, **time_control}}
        return self.post("/v1/games", body, expect=201)["id"]

    def join(self, game_id: str) -> int:
        return self.post(f"/v1/games/{game_id}/join")["seat"]

    def game(self, game_id: str) -> dict[str, Any]:
        return self.get(f"/v1/games/{game_id}")

    def act(self, game_id: str, action: dict[str, Any], key: str | None = None, if_match: int | None = None,
            expect: int = 200) -> Any:
        headers = {}
        if key is not None:
            headers["Idempotency-Key"] = key
        if if_match is not None:
            headers["If-Match"] = str(if_match)
        return self.post(f"/v1/games/{game_id}/actions", action, expect=expect, headers=headers)

    def events(self, game_id: str, after: int = 0, wait: int = 0, view: bool = False) -> dict[str, Any]:
        params: dict[str, Any] = {"after": after, "wait": wait}
        if view:
            params["view"] = "true"
        return self.get(f"/v1/games/{game_id}/events", params=params)
