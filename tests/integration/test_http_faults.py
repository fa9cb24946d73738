"""Bad input of every kind gets a clear problem response and changes nothing; races have one winner."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests

from tests.integration.test_http_contract import start_coup
from tests.support.client import Client

PROBLEM = "application/problem+json"


def stream_length(server: str, game_id: str) -> int:
    return Client(server).game(game_id)["version"]


def assert_problem(response: requests.Response, status: int, code: str) -> dict:
    assert response.status_code == status, response.text
    assert response.headers["Content-Type"].startswith(PROBLEM)
    body = response.json()
    assert body["code"] == code and body["status"] == status
    assert body["title"] and body["detail"] and body["type"]
    return body


@pytest.fixture()
def game(server: str) -> tuple[str, list[Client]]:
    return start_coup(server)


def post_raw(client: Client, game_id: str, data: bytes | str, **headers: str) -> requests.Response:
    return client.http.post(f"{client.base_url}/v1/games/{game_id}/actions", data=data,
                            headers=client.headers({"Content-Type": "application/json", **headers}), timeout=10)


def test_malformed_json_is_400_and_changes_nothing(server, game) -> None:
    game_id, players = game
    before = stream_length(server, game_id)
    assert_problem(post_raw(players[0], game_id, b'{"type": "income"'), 400, "malformed_json")
    assert_problem(post_raw(players[0], game_id, b'["income"]'), 400, "malformed_body")
    assert_problem(post_raw(players[0], game_id, b'{"kind": "income"}'), 400, "invalid_body")
    assert_problem(post_raw(players[0], game_id, b""), 400, "empty_body")
    assert stream_length(server, game_id) == before


def test_unknown_action_type_is_a_rule_violation_with_legal_actions(server, game) -> None:
    game_id, players = game
    before = stream_length(server, game_id)
    body = assert_problem(players[0].request("POST", f"/v1/games/{game_id}/actions", {"type": "fly"}),
                          422, "unknown_action")
    assert {"type": "income"} in body["legal_actions"]
    assert stream_length(server, game_id) == before


def test_move_out_of_turn_is_409(server, game) -> None:
    game_id, players = game
    before = stream_length(server, game_id)
    assert_problem(players[1].request("POST", f"/v1/games/{game_id}/actions", {"type": "income"}),
                   409, "not_your_turn")
    assert stream_length(server, game_id) == before


def test_a_turn_action_in_a_reaction_window_is_409_not_your_turn_as_well(server) -> None:
    """The rules raise not_your_turn here (the seat owes a reaction): the same 409 as the platform's."""
    game_id, players = start_coup(server)
    players[0].act(game_id, {"type": "tax"})
    before = stream_length(server, game_id)
    problem = assert_problem(players[1].request("POST", f"/v1/games/{game_id}/actions", {"type": "income"}),
                             409, "not_your_turn")
    assert {"type": "pass"} in problem["legal_actions"]
    assert stream_length(server, game_id) == before


def test_too_few_coins_is_422(server, game) -> None:
    game_id, players = game
    before = stream_length(server, game_id)
    response = players[0].request("POST", f"/v1/games/{game_id}/actions", {"type": "assassinate", "target": 1})
    assert_problem(response, 422, "not_enough_coins")
    response = players[0].request("POST", f"/v1/games/{game_id}/actions", {"type": "coup", "target": 1})
    assert_problem(response, 422, "not_enough_coins")
    assert stream_length(server, game_id) == before


def test_target_out_of_range_or_self_is_422(server, game) -> None:
    game_id, players = game
    before = stream_length(server, game_id)
    for target in (7, -1, "one", 0):
        response = players[0].request("POST", f"/v1/games/{game_id}/actions", {"type": "steal", "target": target})
        assert response.status_code == 422, response.text
    assert stream_length(server, game_id) == before


def test_targeting_an_exiled_seat_is_422_and_changes_nothing(server) -> None:
    """Seat 2 challenges a true Assassin aimed at it: it loses a card for the challenge and
    its last one to the assassination. Seat 1 then aims at the exiled seat."""
    deck = ["assassin", "duke", "captain", "contessa", "duke", "ambassador",
            "assassin", "assassin", "duke", "captain", "captain", "contessa", "contessa", "ambassador", "ambassador"]
    players = [Client.register(server, f"exile{i}") for i in range(3)]
    game_id = players[0].create_game("coup", 3, {"deck": deck})
    for player in players:
        player.join(game_id)
    for seat in (0, 1, 2):
        players[seat].act(game_id, {"type": "income"})
    players[0].act(game_id, {"type": "assassinate", "target": 2})
    players[2].act(game_id, {"type": "challenge"})  # the Assassin is real: seat 2 loses the challenge
    players[2].act(game_id, {"type": "reveal", "card": "duke"})
    players[2].act(game_id, {"type": "pass"})  # offered the Contessa block, it has none
    for _ in range(20):  # the worker closes the offer: the assassination exiles seat 2
        view = players[1].game(game_id)
        if view["awaiting_kinds"].get("1") == "turn":
            break
        players[1].events(game_id, after=view["version"], wait=5)
    exiled = view["view"]["seats"][2]
    assert exiled["alive"] is False and exiled["coins"] == 0 and sorted(exiled["revealed"]) == ["ambassador", "duke"]
    assert {"type": "steal", "target": 2} not in view["legal_actions"]
    before = stream_length(server, game_id)
    for action in ({"type": "steal", "target": 2}, {"type": "assassinate", "target": 2}):
        body = assert_problem(players[1].request("POST", f"/v1/games/{game_id}/actions", action),
                              422, "target_eliminated")
        assert {"type": "steal", "target": 0} in body["legal_actions"]
    assert stream_length(server, game_id) == before
    assert players[1].game(game_id)["view"] == view["view"]


def test_stale_version_is_409_with_current_version(server, game) -> None:
    game_id, players = game
    version = players[0].game(game_id)["version"]
    players[0].act(game_id, {"type": "income"}, if_match=version)  # income opens no window: seat 1's turn now
    before = stream_length(server, game_id)
    body = assert_problem(players[1].request("POST", f"/v1/games/{game_id}/actions", {"type": "income"},
                                             headers={"If-Match": str(version)}), 409, "version_conflict")
    assert body["version"] == before > version
    assert stream_length(server, game_id) == before


def test_token_for_another_game_is_403(server, game) -> None:
    game_id, _ = game
    outsider = Client.register(server, "outsider")
    before = stream_length(server, game_id)
    assert_problem(outsider.request("POST", f"/v1/games/{game_id}/actions", {"type": "income"}), 403, "not_seated")
    assert stream_length(server, game_id) == before


def test_missing_or_unknown_token_is_401(server, game) -> None:
    game_id, _ = game
    assert_problem(Client(server).request("POST", f"/v1/games/{game_id}/actions", {"type": "income"}),
                   401, "auth_required")
    assert_problem(Client(server, token="nope").request("POST", f"/v1/games/{game_id}/actions",
                                                        {"type": "income"}), 401, "bad_token")


def test_unknown_game_and_unknown_route_are_404(server) -> None:
    player = Client.register(server, "lost")
    assert_problem(player.request("GET", "/v1/games/doesnotexist"), 404, "game_not_found")
    assert_problem(player.request("POST", "/v1/games/doesnotexist/actions", {"type": "income"}), 404,
                   "game_not_found")
    assert_problem(player.request("GET", "/v1/nothing-here"), 404, "not_found")


def test_bad_game_creation_is_refused(server) -> None:
    host = Client.register(server, "host")
    assert_problem(host.request("POST", "/v1/games", {"game": "chess", "seats": 2}), 422, "unknown_game")
    assert_problem(host.request("POST", "/v1/games", {"game": "coup", "seats": 9}), 422, "bad_seat_count")
    assert_problem(host.request("POST", "/v1/games", {"game": "coup"}), 400, "invalid_body")
    assert_problem(host.request("POST", "/v1/games", {"game": "coup", "seats": 3, "options": {"deck": ["duke"]}}),
                   422, host.request("POST", "/v1/games", {"game": "coup", "seats": 3,
                                                           "options": {"deck": ["duke"]}}).json()["code"])
    assert_problem(host.request("POST", "/v1/games", {"game": "coup", "seats": 3,
                                                      "time_control": {"seconds_per_move": 0}}), 400, "invalid_body")
    # A misspelt clock must not silently become the one-day default.
    typo = assert_problem(host.request("POST", "/v1/games", {"game": "coup", "seats": 3,
                                                             "time_control": {"second_per_move": 60}}),
                          400, "invalid_body")
    assert "second_per_move" in json.dumps(typo)


def test_acting_before_the_game_starts_is_409(server) -> None:
    host = Client.register(server, "host")
    game_id = host.create_game("coup", 3)
    host.join(game_id)
    assert_problem(host.request("POST", f"/v1/games/{game_id}/actions", {"type": "income"}), 409, "game_not_started")


def test_twenty_parallel_posts_of_one_idempotency_key_give_one_result(server, game) -> None:
    game_id, players = game
    before = stream_length(server, game_id)

    def post(_: int) -> requests.Response:
        return players[0].request("POST", f"/v1/games/{game_id}/actions", {"type": "income"},
                                  headers={"Idempotency-Key": "income-once"})

    with ThreadPoolExecutor(20) as pool:
        responses = list(pool.map(post, range(20)))
    assert [r.status_code for r in responses] == [200] * 20, [r.text for r in responses if r.status_code != 200]
    bodies = [r.json() for r in responses]
    assert len({b["version"] for b in bodies}) == 1
    assert len({tuple(e["seq"] for e in b["events"]) for b in bodies}) == 1
    assert stream_length(server, game_id) == bodies[0]["version"]
    assert bodies[0]["version"] - before == len(bodies[0]["events"]) >= 1
    reused = players[0].request("POST", f"/v1/games/{game_id}/actions", {"type": "tax"},
                                headers={"Idempotency-Key": "income-once"})
    assert_problem(reused, 409, "idempotency_key_reused")


def test_twenty_racing_actions_on_one_version_give_one_winner(server, game) -> None:
    game_id, players = game
    version = players[0].game(game_id)["version"]

    def post(index: int) -> requests.Response:
        return players[0].request("POST", f"/v1/games/{game_id}/actions", {"type": "income"},
                                  headers={"If-Match": str(version), "Idempotency-Key": f"race-{index}"})

    with ThreadPoolExecutor(20) as pool:
        responses = list(pool.map(post, range(20)))
    codes = sorted(r.status_code for r in responses)
    assert codes.count(200) == 1 and codes.count(409) == 19, codes
    assert players[0].game(game_id)["view"]["seats"][0]["coins"] == 3
