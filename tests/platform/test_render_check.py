"""Issue 47, item 2: a commit whose state some reader cannot read is refused, nothing appended.

The toy game is given a rules bug (its view fails once a seat has picked 3): with
``INTRIGUE_RENDER_CHECK`` on, that pick answers 500 over the API, the error is logged naming the
event, the log keeps its version and every reader still reads the game; a pick the view can
render commits as ever. Off (the default, for its cost: bench/render_check.py), the pick is
appended and poisons the game, which ``intrigue verify``'s audit then reports naming the event.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest
import redis

from engine.commit_check import UnrenderableCommit
from engine.core import Engine
from engine.scheduling import JobScheduler, make_queue
from engine.settings import Settings
from projections.audit import AuditError, audit
from projections.views import game_view
from service.app import create_app
from service.embedded import EmbeddedRedis
from tests.support import toy


@pytest.fixture()
def buggy_view(monkeypatch: pytest.MonkeyPatch) -> None:
    plain = toy.view

    def view(state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        if 3 in state["picks"]:
            return {"unreadable": [1, 2][float(len(state["picks"]) - 2)]}  # a rules bug: a float index
        return plain(state, seat)

    monkeypatch.setattr(toy, "view", view)


def engine_with(platform_redis: EmbeddedRedis, render_check: bool) -> Iterator[Engine]:
    client = redis.Redis.from_url(platform_redis.url)
    client.flushall()
    engine = Engine(client, JobScheduler(make_queue(client)), settings=Settings(render_check=render_check))
    yield engine
    engine.watcher.stop()


@pytest.fixture()
def checking(platform_redis: EmbeddedRedis) -> Iterator[Engine]:
    yield from engine_with(platform_redis, True)


@pytest.fixture()
def unchecked(platform_redis: EmbeddedRedis) -> Iterator[Engine]:
    yield from engine_with(platform_redis, False)


def started(engine: Engine) -> tuple[str, list[Any]]:
    players = [engine.create_player(f"p{i}") for i in range(2)]
    record = engine.create_game(players[0][0], "toy", 2, {}, {"seconds_per_move": 600})
    for player, _ in players:
        engine.join(player, record["id"])
    return record["id"], players


def test_a_commit_no_reader_can_read_is_refused_with_500_and_logged(
        checking: Engine, buggy_view: None, caplog: pytest.LogCaptureFixture) -> None:
    game_id, players = started(checking)
    version = checking.load(game_id)["version"]
    app = create_app(checking)
    client = app.test_client()
    caplog.set_level(logging.ERROR)
    response = client.post(f"/v1/games/{game_id}/actions", json={"type": "pick", "number": 3},
                           headers={"Authorization": f"Bearer {players[0][1]}"})
    assert response.status_code == 500
    assert checking.store.version(game_id) == version
    assert any("no reader could read" in r.getMessage() and "Picked" in r.getMessage() for r in caplog.records)
    record = checking.load(game_id)
    for seat in (None, 0, 1):
        game_view(record, seat)
    with pytest.raises(UnrenderableCommit):
        checking.act(players[0][0], game_id, {"type": "pick", "number": 3})
    checking.act(players[0][0], game_id, {"type": "pick", "number": 1})
    assert checking.store.version(game_id) == version + 1


def test_without_the_check_the_same_pick_poisons_the_log_and_verify_names_it(
        unchecked: Engine, buggy_view: None) -> None:
    game_id, players = started(unchecked)
    unchecked.act(players[0][0], game_id, {"type": "pick", "number": 3})
    with pytest.raises(TypeError):
        game_view(unchecked.load(game_id), 1)
    unchecked.act(players[1][0], game_id, {"type": "pick", "number": 1})
    for _ in range(20):  # play on to the end: only a finished game's log is audited
        if unchecked.load(game_id)["status"] == "finished":
            break
        unchecked.act(players[0][0], game_id, {"type": "pick", "number": 2})
        unchecked.act(players[1][0], game_id, {"type": "pick", "number": 1})
    events = unchecked.store.read(game_id)
    picked = next(e for e in events if e.type == "Picked" and e.data["number"] == 3)
    with pytest.raises(AuditError) as refusal:
        audit(events)
    assert refusal.value.seq == picked.seq and "cannot read" in str(refusal.value)
