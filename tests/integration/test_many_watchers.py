"""Thousands of watchers on one API process: they hold no thread each and do not slow a move."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from service.embedded import EmbeddedRedis
from tests.integration.conftest import serving
from tests.support.client import Client
from tests.support.watchers import Watchers

STREAMS = 2_000
LONG_POLLS = 2_000
#: "Promptly": 140 idle streams used to freeze a move for over 10 s. Generous for a shared machine.
PROMPT_SECONDS = 2.0


@pytest.fixture()
def lone_server(redis_server: EmbeddedRedis, tmp_path: Path) -> Iterator[str]:
    """`intrigue serve` with one API process, for this test alone (it opens thousands of sockets)."""
    env = {**os.environ, "REDIS_URL": redis_server.url, "INTRIGUE_LOG_LEVEL": "WARNING", "INTRIGUE_RATE_LIMIT": "0",
           "INTRIGUE_ADDRESS_RATE_LIMIT": "0",
           "INTRIGUE_STREAMS_PER_PLAYER": "0", "INTRIGUE_STREAMS_PER_ADDRESS": "0",
           "INTRIGUE_CONNECTIONS_PER_ADDRESS": "0"}
    with serving(env, tmp_path / "serve.log", "--processes", "1", stop_within=30) as base:
        yield base


def started_game(players: list[Client]) -> str:
    game_id = players[0].create_game("coup", len(players))
    for player in players:
        player.join(game_id)
    return game_id


def timed_incomes(players: list[Client], game_id: str, count: int) -> list[float]:
    """``count`` income actions, each by the seat whose turn it is; the seconds each POST took."""
    times = []
    while len(times) < count:
        view = players[0].game(game_id)
        seat = view["awaiting"][0]
        mine = players[seat].game(game_id)
        action = next(a for a in mine["legal_actions"] if a["type"] in ("income", "coup"))
        started = time.perf_counter()
        players[seat].act(game_id, action, if_match=mine["version"])
        times.append(time.perf_counter() - started)
    return times


def test_thousands_of_streams_and_long_polls_leave_moves_prompt(lone_server: str) -> None:
    players = [Client.register(lone_server, f"watch{i}") for i in range(3)]
    watched, played = started_game(players), started_game(players)
    version = players[0].game(watched)["version"]
    watchers = Watchers(lone_server)
    try:
        streams = watchers.open(f"/v1/games/{watched}/events/stream?after={version}", STREAMS, players[1].token)
        polls = watchers.open(f"/v1/games/{watched}/events?after={version}&wait=30", LONG_POLLS, players[2].token)
        assert watchers.pump_until(lambda: all(b"intrigue event stream" in w.received for w in streams), 60), \
            f"{sum(b'intrigue event stream' in w.received for w in streams)} of {STREAMS} streams opened"

        times = timed_incomes(players, played, 20)
        watchers.pump(0)
        assert not any(p.received for p in polls), "a long-poll answered with nothing to say"
        assert max(times) < PROMPT_SECONDS, f"moves took up to {max(times):.2f} s beside the watchers"

        # One move on the watched game reaches every one of them.
        seat = players[0].game(watched)["awaiting"][0]
        players[seat].act(watched, {"type": "income"})

        def woken() -> tuple[int, int]:
            return sum(b"\nid: " in w.received for w in streams), sum(b'"seq"' in w.received for w in polls)

        assert watchers.pump_until(lambda: woken() == (STREAMS, LONG_POLLS), 90), f"woken (streams, polls): {woken()}"
    finally:
        watchers.close()
