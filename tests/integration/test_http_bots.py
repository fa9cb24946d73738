"""Bots at the table, over real HTTP with the real workers of ``intrigue serve``.

The shared server runs with a small ISMCTS budget (``SMALL_BOT_BUDGET``), so a bot decides
in a blink and these games stay short.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from typing import Any

import pytest

from events.envelope import Envelope
from projections.audit import audit, read_log
from tests.integration.conftest import ROOT, SMALL_BOT_BUDGET
from tests.integration.sdk.test_readme_bot_titles import assert_each_decision_answered_once
from tests.support.client import Client


def play_randomly(human: Client, game_id: str, rng: random.Random, give_up_after: float = 240.0) -> dict[str, Any]:
    """The human's seat plays a random legal action whenever it owes one; the game's final view.

    A seat that may still replace a sealed bid is not awaited: it has played its part.
    """
    deadline = time.monotonic() + give_up_after
    view = human.game(game_id)
    while time.monotonic() < deadline:
        if view["status"] == "finished":
            return view
        if view["legal_actions"] and view["seat"] in view["awaiting"]:
            response = human.request("POST", f"/v1/games/{game_id}/actions", rng.choice(view["legal_actions"]),
                                     headers={"If-Match": str(view["version"])})
            assert response.status_code in (200, 409), response.text
            view = response.json()["game"] if response.status_code == 200 else human.game(game_id)
            continue
        view = human.events(game_id, after=view["version"], wait=10, view=True)["game"]
    raise AssertionError(f"game {game_id} did not finish in {give_up_after} s")


def stored_log(client: Client, game_id: str) -> list[Envelope]:
    response = client.request("GET", f"/v1/games/{game_id}/log")
    assert response.status_code == 200, response.text
    return read_log(response.text.splitlines())


def test_two_bot_seats_and_a_person_play_coup_to_its_end(server: str) -> None:
    host = Client.register(server, "bot host")
    created = host.post("/v1/games", {"game": "coup", "seats": 3, "bots": {"1": "ismcts", "2": "random"}},
                        expect=201)
    game_id = created["id"]
    assert created["bots"] == {"1": "ismcts", "2": "random"}
    assert created["players"][1:] == [{"id": "bot:ismcts", "name": "ISMCTS bot", "bot": "ismcts"},
                                      {"id": "bot:random", "name": "Random bot", "bot": "random"}]
    assert created["status"] == "open" and created["players"][0] is None
    listed = next(g for g in Client(server).get("/v1/games", params={"game": "coup", "limit": 200})["games"]
                  if g["id"] == game_id)
    assert listed["bots"] == {"1": "ismcts", "2": "random"} and listed["players"][1]["bot"] == "ismcts"
    assert host.join(game_id) == 0  # the one seat left for a person: its join starts the game
    final = play_randomly(host, game_id, random.Random(29))
    assert final["status"] == "finished" and final["bots"] == {"1": "ismcts", "2": "random"}
    events = stored_log(host, game_id)
    assert audit(events).winners == final["winners"]
    bot_batches = {(e.cause["seat"], e.cause["strategy"]) for e in events
                   if e.cause.get("kind") == "bot" and e.cause.get("batch") == e.seq}
    assert {(1, "ismcts"), (2, "random")} <= bot_batches, "each bot seat played its own strategy"
    assert all(e.cause.get("kind") != "player" or e.cause["seat"] == 0 for e in events), "only the person posts"
    text = host.request("GET", f"/v1/games/{game_id}/transcript").text
    assert "bots hold seat 1 (ISMCTS bot), seat 2 (Random bot)" in text.splitlines()[0]
    # A bot seat is nobody's: it has no inbox and no list of games.
    assert host.get("/v1/me/games")["games"][0]["id"] == game_id


@pytest.mark.parametrize(("bots", "code"), [
    ({"3": "ismcts"}, "bad_bot_seat"),
    ({"one": "ismcts"}, "bad_bot_seat"),
    ({"-1": "random"}, "bad_bot_seat"),
    ({"0": "ismcts", "1": "random", "2": "random"}, "bad_bot_seat"),
    ({"1": "minimax"}, "unknown_bot_strategy"),
])
def test_bad_bot_seats_are_refused_and_create_nothing(server: str, bots: dict[str, str], code: str) -> None:
    host = Client.register(server, "picky host")
    response = host.request("POST", "/v1/games", {"game": "coup", "seats": 3, "bots": bots})
    assert response.status_code == 422, response.text
    assert response.headers["Content-Type"].startswith("application/problem+json")
    assert response.json()["code"] == code
    assert host.get("/v1/me/games")["games"] == []


def test_intrigue_bot_plays_a_seat_of_a_live_game_to_its_end(server: str) -> None:
    host, guest = Client.register(server, "host of the sdk bot"), Client.register(server, "seat of the sdk bot")
    game_id = host.create_game("coup", 2)
    host.join(game_id)
    env = {**os.environ, **SMALL_BOT_BUDGET}
    command = [sys.executable, "-m", "service.cli", "bot", "--url", server, "--token", guest.token or "",
               "--game", game_id, "--strategy", "ismcts", "--seed", "7"]
    with subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True) as bot:
        final = play_randomly(host, game_id, random.Random(3))  # the bot joins, which starts the game
        out, err = bot.communicate(timeout=60)
    assert bot.returncode == 0, err
    assert final["status"] == "finished" and f"game {game_id} over: seat 1 (ismcts)" in out
    events = stored_log(host, game_id)
    assert any(e.cause.get("kind") == "player" and e.cause.get("seat") == 1 for e in events), "it posted as seat 1"
    assert audit(events).winners == final["winners"]


def test_intrigue_bot_answers_each_sealed_bid_once_and_finishes_revolution(server: str) -> None:
    """A sealed bid may be replaced, so the seat keeps legal actions; the command does not re-bid."""
    host, guest = Client.register(server, "host of a revolution"), Client.register(server, "random bidder")
    game_id = host.post("/v1/games", {"game": "revolution", "seats": 3, "bots": {"1": "ismcts", "2": "random"}},
                        expect=201)["id"]
    command = [sys.executable, "-m", "service.cli", "bot", "--url", server, "--token", guest.token or "",
               "--game", game_id, "--strategy", "random", "--seed", "11"]
    done = subprocess.run(command, cwd=ROOT, env={**os.environ, **SMALL_BOT_BUDGET}, capture_output=True, text=True,
                          timeout=240)  # it joins the last seat, which starts the game
    assert done.returncode == 0, done.stdout[-1000:] + done.stderr[-2000:]
    assert f"game {game_id} over: seat 0 (random)" in done.stdout, done.stdout[-1000:] + done.stderr[-2000:]
    assert_each_decision_answered_once(stored_log(host, game_id), 0)


def test_intrigue_bot_without_the_sdk_says_so_in_one_line() -> None:
    program = ("import sys; sys.modules['intrigue_client'] = None; from service.cli import main; "
               "sys.exit(main(['bot', '--url', 'http://127.0.0.1:9', '--token', 't', '--game', 'g']))")
    done = subprocess.run([sys.executable, "-c", program], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "intrigue bot: the Python SDK is needed: pip install -e clients/python (the intrigue-client distribution)"]


def test_the_sdk_seats_bots_and_names_the_refusals(server: str) -> None:
    import intrigue_client

    me = intrigue_client.Client.register(server, "sdk bot host")
    game = me.create_game("revolution", 3, bots={1: "ismcts", 2: "random"})
    assert game["bots"] == {"1": "ismcts", "2": "random"} and game["players"][2]["bot"] == "random"
    with pytest.raises(intrigue_client.BadBotSeat):
        me.create_game("revolution", 3, bots={3: "random"})
    with pytest.raises(intrigue_client.UnknownBotStrategy):
        me.create_game("revolution", 3, bots={1: "alphazero"})
