"""Ideology over HTTP: a whole game with a seat that never answers, and refused data files.

Two seats play random legal moves (mostly the quiet ones, so the silent seat's clock is
not waited on more than needed); the third never posts anything, so each of its
decisions (exchange, development, every round-robin turn, its sealed offer) is played by
the documented default at its deadline. While the silent seat is the last one owing its
offer, the two others' sealed offers are checked to be invisible to each other.
"""

from __future__ import annotations

import random
import time

from games.ideology import components
from tests.support.client import Client

SILENT = 2
QUIET = ({"type": "pass"}, {"type": "done"}, {"type": "stop"}, {"type": "concede"})


def pick(rng: random.Random, legal: list[dict]) -> dict:
    quiet = [a for a in legal if a in QUIET or (a["type"] == "exchange" and not any(a["discard"].values()))]
    if quiet and rng.random() < 0.6:
        return quiet[0]
    return rng.choice(legal)


def test_three_seat_game_ends_with_a_silent_seat_playing_its_defaults(server: str) -> None:
    players = [Client.register(server, f"ideo{i}") for i in range(3)]
    game_id = players[0].create_game("ideology", 3, {"max_turns": 2}, seconds_per_move=1, autoplay_after=100)
    for player in players:
        player.join(game_id)
    rng = random.Random(4)
    sealed_checked = 0
    posted = 0
    give_up = time.monotonic() + 240
    while time.monotonic() < give_up:
        game = players[0].game(game_id)
        if game["status"] == "finished":
            break
        awaited = [s for s in game["awaiting"] if s != SILENT]
        if game["phase"] == "diplomacy" and game["awaiting"] == [SILENT]:
            sealed_checked += check_offers_sealed(players, game_id)
            players[0].events(game_id, after=game["version"], wait=5)
            continue
        if not awaited:  # the silent seat's clock or a worker's step
            players[0].events(game_id, after=game["version"], wait=5)
            continue
        for seat in awaited:
            mine = players[seat].game(game_id)
            if not mine["legal_actions"]:
                continue
            response = players[seat].request("POST", f"/v1/games/{game_id}/actions",
                                             pick(rng, mine["legal_actions"]),
                                             headers={"If-Match": str(mine["version"])})
            assert response.status_code in (200, 409), response.text  # 409: the silent seat's default landed first
            posted += response.status_code == 200
    final = players[0].game(game_id)
    assert final["status"] == "finished", "the game did not finish in time"
    assert final["reason"] == "turn_limit" and final["winners"]
    assert final["view"]["turn"] == 2 and final["view"]["result"]["reason"] == "turn_limit"
    assert sealed_checked >= 1 and posted > 10
    log = [line for line in players[0].request("GET", f"/v1/games/{game_id}/log").text.splitlines() if line]
    missed = [line for line in log if '"type":"DeadlineMissed"' in line and f'"seat":{SILENT}' in line]
    # Each turn the silent seat owes at least an exchange, a development, a foreign affairs
    # and a conflict turn, and an offer.
    assert len(missed) >= 2 * 5
    silent_moves = [line for line in log if f'"actor":{SILENT}' in line and '"type":"OfferMade"' in line]
    assert len(silent_moves) == 2 and all('"neutral"' in line for line in silent_moves)


def check_offers_sealed(players: list[Client], game_id: str) -> int:
    """With only the silent seat left to offer, each seat sees its own sealed offer and, of
    the others', only that they have sealed one: in its view, its feed and the lobby."""
    spectator = Client(players[0].base_url)
    for viewer, client in ((0, players[0]), (1, players[1]), (None, spectator)):
        body = client.game(game_id)
        view = body["view"]
        if view["phase"] != "diplomacy":
            return 0  # the silent seat's default landed meanwhile
        assert view["offers_sealed"] == [True, True, False]
        assert ("my_offer" in view) == (viewer is not None)
        if viewer is not None:
            assert set(view["my_offer"]) == {p["ideology"] for p in view["players"] if p["seat"] != viewer}
        for event in client.events(game_id, after=0)["events"]:
            if event["type"] == "OfferMade" and event["actor"] != viewer:
                assert event["data"] == {"seat": event["actor"]}
            if event["type"] == "OfferMade" and event["actor"] == viewer:
                assert set(event["data"]) == {"seat", "offers"}
    return 1


def test_a_broken_data_file_is_refused_at_creation_naming_the_region_and_field(server: str) -> None:
    player = Client.register(server, "cartographer")
    regions = components.shipped()["regions"]
    for region in regions:
        if region["id"] == "peru":
            region["neighbours"].remove("chile")
    response = player.request("POST", "/v1/games", {"game": "ideology", "seats": 3,
                                                    "options": {"map": {"regions": regions}}})
    assert response.status_code == 422
    problem = response.json()
    assert problem["code"] == "bad_map"
    assert "region 'chile'" in problem["detail"] and "'neighbours'" in problem["detail"]
    ideologies = components.shipped()["ideologies"]
    ideologies[4]["deck"]["cultural"] = 10
    response = player.request("POST", "/v1/games", {"game": "ideology", "seats": 3,
                                                    "options": {"map": {"ideologies": ideologies}}})
    assert response.status_code == 422
    assert "ideology 'fundamentalism'" in response.json()["detail"] and "'deck'" in response.json()["detail"]
    # A valid replacement is accepted and says it is custom, not the reconstructed default.
    regions = components.shipped()["regions"]
    created = player.post("/v1/games", {"game": "ideology", "seats": 2,
                                        "options": {"map": {"name": "same", "regions": regions}}}, expect=201)
    assert created["options"]["map"]["name"] == "same"
    default = player.post("/v1/games", {"game": "ideology", "seats": 2, "options": {}}, expect=201)
    assert default["options"]["map"] == "reconstructed" and "decks" not in default["options"]
