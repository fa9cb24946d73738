"""Bot accounts on the leaderboard (issue 53): left out unless asked for, the people's ranks closed up.

Rated games of Coup among people and bot accounts, played with the engine against a real
redis-server; the board without bots must be the whole board with the bots taken out and the
ranks counted again, page after page whatever the page size.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import Engine
from engine.errors import Forbidden
from tests.platform.test_ratings import resign_game


def walk(engine: Engine, limit: int, bots: bool) -> list[dict[str, Any]]:
    """Every entry of the Coup board, ``limit`` at a time."""
    entries: list[dict[str, Any]] = []
    offset: int | None = 0
    while offset is not None:
        page, offset = engine.leaderboard("coup", offset, limit, bots=bots)
        assert len(page) <= limit
        entries += page
    return entries


def test_the_board_leaves_bot_accounts_out_unless_asked(engine: Engine) -> None:
    engine.ratings.min_games = 1
    people = [engine.create_player(f"person{i}")[0] for i in range(3)]
    bots = [engine.create_player(f"robot{i}", bot=True)[0] for i in range(2)]
    assert all(bot.bot for bot in bots) and not any(person.bot for person in people)
    # robot0 beats everyone (top of the board), robot1 loses to everyone (bottom), people in between.
    for person in people:
        resign_game(engine, [bots[0], person], [1])
        resign_game(engine, [person, bots[1]], [1])
    resign_game(engine, [people[0], people[1]], [1])
    resign_game(engine, [people[1], people[2]], [1])
    whole = walk(engine, 200, bots=True)
    assert [e["player"] for e in whole][0] == bots[0].id and whole[-1]["player"] == bots[1].id
    expected = [e["player"] for e in whole if e["player"] not in {b.id for b in bots}]
    for limit in (1, 2, 5):
        humans = walk(engine, limit, bots=False)
        assert [e["player"] for e in humans] == expected
        assert [e["rank"] for e in humans] == [1, 2, 3]
    everyone = walk(engine, 2, bots=True)
    assert [e["rank"] for e in everyone] == [1, 2, 3, 4, 5]
    assert [e.get("bot_account", False) for e in everyone] == [True, False, False, False, True]
    assert not any("bot_account" in e for e in walk(engine, 5, bots=False))


def test_a_bot_account_is_kept_out_of_a_humans_only_game(engine: Engine) -> None:
    person = engine.create_player("host")[0]
    robot = engine.create_player("robot", bot=True)[0]
    game = engine.create_game(person, "coup", 2, {}, {"seconds_per_move": 3600}, humans_only=True)
    with pytest.raises(Forbidden) as refused:
        engine.join(robot, game["id"])
    assert refused.value.code == "humans_only"
    assert engine.load(game["id"])["players"] == [None, None], "the refused join changed nothing"
    open_game = engine.create_game(person, "coup", 2, {}, {"seconds_per_move": 3600})
    joined = engine.join(robot, open_game["id"])
    assert joined.record["players"][joined.seat] == {"id": robot.id, "name": "robot", "bot_account": True}
    assert engine.player_profile(robot.id)["bot_account"] is True
    assert "bot_account" not in engine.player_profile(person.id)
