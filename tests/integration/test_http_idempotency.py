"""A retried POST answers as of its own action or later, never with the view from before it."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import requests

from tests.integration.test_http_contract import start_coup


def test_parallel_posts_of_one_key_all_answer_with_a_view_that_includes_the_action(server: str) -> None:
    game_id, players = start_coup(server, 2)
    stale = []
    for turn in range(8):  # income passes the turn at once: seat 0, seat 1, seat 0...
        player = players[turn % 2]
        start = threading.Barrier(10)

        def post(_: int, player=player, turn=turn, start=start) -> requests.Response:
            start.wait(timeout=10)
            return player.request("POST", f"/v1/games/{game_id}/actions", {"type": "income"},
                                  headers={"Idempotency-Key": f"turn-{turn}"})

        with ThreadPoolExecutor(10) as pool:
            responses = list(pool.map(post, range(10)))
        assert [r.status_code for r in responses] == [200] * 10, [r.text for r in responses]
        bodies = [r.json() for r in responses]
        assert len({b["version"] for b in bodies}) == 1
        stale += [(turn, b["version"], b["game"]["version"]) for b in bodies if b["game"]["version"] < b["version"]]
    assert not stale, f"(turn, action's version, view's version) of replies with a view from before the action: {stale}"
