"""Pax Porfiriana over HTTP: a whole 3-seat game in which seat 2 never answers.

Seats 0 and 1 play random legal actions from their views; every turn of seat 2 ends at
its deadline (the documented default: end the turn). Along the way no view, error or
feed shows a seat another seat's hand or the draw pile; the game runs to its end and the
log records a missed deadline for each of the silent seat's turns. A bad card set is
refused at creation with a 422 naming the card and the field.
"""

from __future__ import annotations

import copy
import json
import random
import time

from games.pax.cards import load_named_set
from tests.support.client import Client

SILENT = 2
PLAY_TIMEOUT = 240


def test_a_bad_card_set_is_refused_at_creation_naming_card_and_field(server: str) -> None:
    player = Client.register(server, "pax-cards")
    cards = copy.deepcopy(load_named_set("starter")["cards"])
    next(c for c in cards if c["id"] == "minas_prietas")["district"] = "texas"
    body = {"game": "pax", "seats": 3, "options": {"cards": {"name": "mine", "cards": cards}},
            "time_control": {"seconds_per_move": 60}}
    response = player.request("POST", "/v1/games", body)
    assert response.status_code == 422
    problem = response.json()
    assert problem["code"] == "bad_card_set"
    assert "'minas_prietas'" in problem["detail"] and "'district'" in problem["detail"]
    for cost in (1.5, "3"):  # a count is a whole number, never a fraction or text
        cards = copy.deepcopy(load_named_set("starter")["cards"])
        next(c for c in cards if c["id"] == "wobblies")["cost"] = cost
        response = player.request("POST", "/v1/games", {**body, "options": {"cards": {"name": "mine", "cards": cards}}})
        assert response.status_code == 422 and response.json()["code"] == "bad_card_set"
        assert "'wobblies'" in response.json()["detail"] and "'cost'" in response.json()["detail"]
    response = player.request("POST", "/v1/games", {**body, "options": {"card_set": "../../etc/passwd"}})
    assert response.status_code == 422 and response.json()["code"] == "bad_card_set"


def test_three_seat_game_with_a_silent_seat_keeps_hands_secret_and_ends(server: str) -> None:
    players = [Client.register(server, f"pax{i}") for i in range(3)]
    game_id = players[0].create_game("pax", 3, {"max_turns": 24}, seconds_per_move=1, autoplay_after=100)
    for player in players:
        player.join(game_id)
    spectator = Client(players[0].base_url)
    rng = random.Random(7)
    checked = 0
    give_up = time.monotonic() + PLAY_TIMEOUT
    while time.monotonic() < give_up:
        body = players[0].game(game_id)
        if body["status"] == "finished":
            break
        awaited = [s for s in body["awaiting"] if s != SILENT]
        if not awaited:  # the silent seat's deadline, or a worker's step
            players[0].events(game_id, after=body["version"], wait=5)
            continue
        seat = awaited[0]
        mine = players[seat].game(game_id)
        if not mine["legal_actions"]:
            continue
        legal = mine["legal_actions"]
        buys = [a for a in legal if a["type"] == "buy"]
        action = rng.choice(buys if buys and rng.random() < 0.5 else legal)
        response = players[seat].request("POST", f"/v1/games/{game_id}/actions", action,
                                         headers={"If-Match": str(mine["version"])})
        assert response.status_code in (200, 409), response.text
        if response.status_code == 200:
            checked += assert_hands_secret(players, spectator, game_id)
    final = players[0].game(game_id)
    assert final["status"] == "finished", "the game did not finish in time"
    assert final["view"]["result"]["winners"] == final["winners"]
    assert checked >= 5
    log = [json.loads(line) for line in players[0].request("GET", f"/v1/games/{game_id}/log").text.splitlines()
           if line]
    silent_turns = sum(1 for e in log if e["type"] == "TurnStarted" and e["data"]["seat"] == SILENT)
    missed = sum(1 for e in log if e["type"] == "DeadlineMissed" and e["data"]["seat"] == SILENT)
    assert silent_turns >= 3 and missed >= silent_turns - 1  # the last turn may be cut by the end
    setup = next(e for e in log if e["type"] == "GameSetUp")
    assert "deck" in setup["data"]  # the finished game's log is public in full


def assert_hands_secret(players: list[Client], spectator: Client, game_id: str) -> int:
    """Every seat's hand stays out of every other seat's view, feed setup and errors."""
    views = {seat: client.game(game_id) for seat, client in enumerate(players)}
    if any(body["status"] == "finished" for body in views.values()):
        return 0
    views[None] = spectator.game(game_id)  # type: ignore[index]
    hands = {seat: set(views[seat]["view"]["hand"]) for seat in range(len(players))}
    for viewer, body in views.items():
        if viewer is not None:
            assert body["view"]["hand"] == sorted(hands[viewer]) or set(body["view"]["hand"]) == hands[viewer]
        text = json.dumps(body["view"])
        for seat, hand in hands.items():
            assert body["view"]["players"][seat]["hand_count"] == len(hand)
            if seat != viewer:
                for card in hand:
                    assert f'"{card}"' not in text, f"seat {viewer} sees {card} in seat {seat}'s hand"
    for client in players:
        page = client.events(game_id, after=0)
        setup = next(e for e in page["events"] if e["type"] == "GameSetUp")
        assert "deck" not in setup["data"] and "box" not in setup["data"]
    for asker, owner in ((0, 1), (1, 0)):  # try to play a card the other seat holds
        for card in sorted(hands[owner]):
            refused = players[asker].request("POST", f"/v1/games/{game_id}/actions", {"type": "play", "card": card})
            assert refused.status_code in (409, 422), refused.text
            problem = refused.json()
            assert problem["code"] in ("not_in_hand", "not_your_turn", "decision_owed", "game_over"), problem
            assert card not in problem["detail"] and card not in json.dumps(problem.get("legal_actions", []))
            others = hands[owner] | hands[SILENT]
            assert not any(f'"{other}"' in json.dumps(problem.get("legal_actions", [])) for other in others)
            break
    return 1
