"""Bot requests cannot pile up: a backlog of stale bot jobs never holds up another game's bot.

Earlier versions queued one RQ job per version for each awaited bot seat, so a game that
kept changing queued thousands, and a bot in an unrelated game waited behind all of them
(about 55 s behind 6,142). Here 5,000 such jobs, for versions their game has moved past,
wait in the bots queue of the shared ``intrigue serve``; a new game's bot seats must
still move within 2 s of the game starting, while most of the backlog is still queued.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
import redis
from rq import Queue
from rq.serializers import JSONSerializer

from engine.scheduling import BOTS_QUEUE, PLAY_BOT_SEAT
from service.embedded import EmbeddedRedis
from tests.support.client import Client

STALE_JOBS = 5000
#: From the last seat's join (which starts the game) to the bots' moves.
WITHIN_SECONDS = 2.0


@pytest.fixture()
def bots_queue(redis_server: EmbeddedRedis) -> Iterator[Queue]:
    queue = Queue(BOTS_QUEUE, connection=redis.Redis.from_url(redis_server.url), serializer=JSONSerializer)
    yield queue
    queue.empty()  # what is left of the backlog must not load the server of later tests


def test_an_unrelated_bot_seat_moves_within_two_seconds_behind_five_thousand_stale_jobs(
        server: str, bots_queue: Queue) -> None:
    # A game the stale jobs name: it has moved past every version they ask for.
    host = Client.register(server, "backlog host")
    busy = host.post("/v1/games", {"game": "coup", "seats": 2, "bots": {"1": "random"}}, expect=201)["id"]
    host.join(busy)
    current = host.game(busy)["version"]
    bots_queue.enqueue_many([Queue.prepare_data(PLAY_BOT_SEAT, (busy, index % current, 1), result_ttl=0)
                             for index in range(STALE_JOBS)])
    assert bots_queue.count >= STALE_JOBS * 0.9

    person = Client.register(server, "unrelated person")
    game_id = person.post("/v1/games", {"game": "revolution", "seats": 3, "bots": {"1": "ismcts", "2": "random"}},
                          expect=201)["id"]
    started = time.monotonic()
    person.join(game_id)  # the game starts: every seat owes a sealed bid, the two bots' at once
    view = person.game(game_id)
    while set(view["awaiting"]) & {1, 2} and time.monotonic() - started < WITHIN_SECONDS:
        view = person.events(game_id, after=view["version"], wait=1, view=True)["game"]
    took = time.monotonic() - started
    assert not set(view["awaiting"]) & {1, 2}, f"the bots had not bid {took:.2f} s after the game started"
    assert took < WITHIN_SECONDS
    assert bots_queue.count > STALE_JOBS / 2, "the bots did not have to wait for the backlog to drain"
