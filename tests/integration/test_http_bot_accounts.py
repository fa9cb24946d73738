"""Bot accounts over HTTP (issue 53): registered with ``"bot": true``, shown as bots wherever a
name is shown, kept out of ``humans_only`` games on both paths (the front's fast handler's join, and
the app's with an Idempotency-Key), and off the leaderboards unless ``?bots=true``."""

from __future__ import annotations

import threading
import uuid

import pytest
import requests
from intrigue_client import Bot, Client, HumansOnly


class FirstBot(Bot):
    def choose(self, view, legal_actions):  # type: ignore[no-untyped-def]  # the README's untyped shape
        return legal_actions[0]


def test_a_bot_account_is_shown_as_a_bot_everywhere(server: str) -> None:
    tag = uuid.uuid4().hex[:6]
    robot = Client.register(server, f"robot-{tag}", bot=True)
    assert robot.player is not None and robot.player["bot"] is True
    person = Client.register(server, f"person-{tag}")
    assert person.player is not None and "bot" not in person.player
    assert robot.player_profile(robot.player["id"])["bot_account"] is True
    assert robot.find_players(f"robot-{tag}") == [{"id": robot.player["id"], "name": f"robot-{tag}",
                                                   "bot_account": True}]
    assert "bot_account" not in robot.player_profile(person.player["id"])

    game = person.create_game("coup", 2)
    robot.join(game["id"])
    lobby = [g for g in requests.get(f"{server}/v1/games", timeout=10).json()["games"] if g["id"] == game["id"]]
    assert lobby and lobby[0]["players"][0] == {"id": robot.player["id"], "name": f"robot-{tag}", "bot_account": True,
                                                "reliability": None}  # the lobby's figure (issue 50): none yet
    person.join(game["id"])
    view = person.game(game["id"])
    assert view["players"][0].get("bot_account") is True and "bot_account" not in view["players"][1]
    joined = [e for e in person.events(game["id"])["events"] if e["type"] == "PlayerJoined"]
    assert joined[0]["data"]["player"]["bot_account"] is True
    # Play it out: the person's seat and the robot's, each by the SDK's bot.
    done: list[dict] = []
    threads = [threading.Thread(target=lambda c=c: done.append(FirstBot(c).play(game["id"]))) for c in (robot, person)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert len(done) == 2 and all(final["status"] == "finished" for final in done)
    assert f"(robot-{tag}, a bot account)" in person.transcript(game["id"])


def test_a_humans_only_game_refuses_bot_accounts_on_both_paths(server: str) -> None:
    tag = uuid.uuid4().hex[:6]
    robot = Client.register(server, f"robot2-{tag}", bot=True)
    person = Client.register(server, f"person2-{tag}")
    game = person.create_game("coup", 2, humans_only=True)
    assert game["humans_only"] is True
    with pytest.raises(HumansOnly):
        robot.join(game["id"])  # no body, no key: the front's fast handler's join
    keyed = requests.post(f"{server}/v1/games/{game['id']}/join", timeout=10,
                          headers={"Authorization": f"Bearer {robot.token}", "Idempotency-Key": f"k-{tag}"})
    assert keyed.status_code == 403 and keyed.json()["code"] == "humans_only"  # the app's
    assert person.game(game["id"])["players"] == [None, None], "nothing changed"
    assert person.join(game["id"])["seat"] == 0


def test_the_leaderboard_takes_bots(server: str) -> None:
    board = requests.get(f"{server}/v1/leaderboards/coup", params={"bots": "true"}, timeout=10)
    assert board.status_code == 200 and "players" in board.json()
    bad = requests.get(f"{server}/v1/leaderboards/coup", params={"bots": "maybe"}, timeout=10)
    assert bad.status_code == 400 and bad.json()["code"] == "bad_query"
