"""Every value the API parses by hand answers a 4xx problem when it is unusable, never a 500.

Over real HTTP against ``intrigue serve`` and a real Redis (the session's ``server``,
which runs with an operator token set).
"""

from __future__ import annotations

import pytest
import requests

from tests.integration.test_http_contract import start_coup
from tests.integration.test_http_faults import PROBLEM, assert_problem, stream_length
from tests.support.client import Client

JSON = {"Content-Type": "application/json"}


@pytest.fixture(scope="module")
def game(server: str) -> tuple[str, list[Client]]:
    return start_coup(server)


def post(server: str, path: str, data: bytes | str, headers: dict[str, str] | None = None) -> requests.Response:
    return requests.post(server + path, data=data, headers={**JSON, **(headers or {})}, timeout=10)


@pytest.mark.parametrize(("body", "code"), [
    ("[" * 10_000 + "]" * 10_000, "too_deep"),
    ('{"name": ' + "[" * 100 + "]" * 100 + "}", "too_deep"),
    ('{"name": "\\ud800"}', "bad_encoding"),
    (b'{"name": "caf\xe9"}', "bad_encoding"),
    ('{"name": NaN}', "malformed_json"),
    ('{"name": 1' + "0" * 5_000 + "}", "malformed_json"),
])
def test_a_body_that_cannot_be_used_is_400(server: str, body: str | bytes, code: str) -> None:
    assert_problem(post(server, "/v1/players", body), 400, code)


def test_a_lone_surrogate_in_an_action_changes_nothing(server: str, game) -> None:
    game_id, players = game
    before = stream_length(server, game_id)
    response = post(server, f"/v1/games/{game_id}/actions", '{"type": "income", "note": "\\udfff"}',
                    players[0].headers())
    assert_problem(response, 400, "bad_encoding")
    assert stream_length(server, game_id) == before


@pytest.mark.parametrize("value", ["9" * 5_000, "²", "-1", "+3", "4_0", "1.0", '"', "W/"])
def test_if_match_that_is_not_a_version_is_400(server: str, game, value: str) -> None:
    game_id, players = game
    before = stream_length(server, game_id)
    response = post(server, f"/v1/games/{game_id}/actions", '{"type": "income"}',
                    players[0].headers({"If-Match": value}))
    assert_problem(response, 400, "bad_if_match")
    assert stream_length(server, game_id) == before


def test_if_match_may_be_an_entity_tag(server: str) -> None:
    game_id, players = start_coup(server, 2)
    version = players[0].game(game_id)["version"]
    players[0].act(game_id, {"type": "income"}, if_match=f'W/"{version}"')


@pytest.mark.parametrize(("path", "query"), [
    ("/events", "after=²"), ("/events", "after=" + "9" * 5_000), ("/events", "wait=²"), ("/events", "limit=٣"),
    ("/events", "view=maybe"), ("/replay", "version=²"), ("/replay", "version=0"), ("/events/stream", "after=²"),
    ("", None),
])
def test_query_numbers_are_ascii_digits_within_bounds(server: str, game, path: str, query: str | None) -> None:
    game_id, players = game
    if query is None:  # the lobby's own
        response = requests.get(f"{server}/v1/games", params={"limit": "9" * 5_000}, timeout=10)
    else:
        response = requests.get(f"{server}/v1/games/{game_id}{path}?{query}", headers=players[0].headers(), timeout=10)
    assert_problem(response, 400, "bad_query")


@pytest.mark.parametrize("value", ["abc", "²", "-5", "9" * 5_000])
def test_a_bad_last_event_id_is_400(server: str, game, value: str) -> None:
    game_id, players = game
    response = requests.get(f"{server}/v1/games/{game_id}/events/stream", timeout=10,
                            headers=players[0].headers({"Last-Event-ID": value}))
    assert_problem(response, 400, "bad_last_event_id")


@pytest.mark.parametrize("header", ["Bearer é", "Bearer \u00ff\u00fe",
                                    "Bearer operator-secretĀ".encode().decode("latin-1")])
def test_a_non_ascii_bearer_token_is_401_when_an_operator_token_is_set(server: str, game, header: str) -> None:
    game_id, _ = game
    response = requests.get(f"{server}/v1/games/{game_id}", headers={"Authorization": header}, timeout=10)
    assert_problem(response, 401, "bad_token")


def test_a_game_id_too_long_to_be_one_is_404_and_not_echoed_whole(server: str) -> None:
    response = requests.get(f"{server}/v1/games/{'a' * 5_000}", timeout=10)
    body = assert_problem(response, 404, "game_not_found")
    assert len(body["detail"]) < 200


def test_no_problem_says_the_outcome_is_unknown_for_bad_input(server: str, game) -> None:
    """The 500 text tells clients an action may have been recorded; bad input must never get it."""
    game_id, players = game
    response = post(server, f"/v1/games/{game_id}/actions", "[" * 10_000, players[0].headers({"If-Match": "²"}))
    assert response.status_code == 400 and response.headers["Content-Type"].startswith(PROBLEM)
    assert "may or may not" not in response.text


@pytest.mark.parametrize("body", [
    {"game": "coup", "seats": 3.5}, {"game": "coup", "seats": "3"}, {"game": "coup", "seats": True},
    {"game": "coup", "seats": 3, "time_control": {"seconds_per_move": 1.5}},
    {"game": "coup", "seats": 3, "time_control": {"seconds_per_move": "60"}},
    {"game": "coup", "seats": 3, "time_control": {"autoplay_after": 2.0}},
    {"game": "coup", "seats": 3, "time_control": {"autoplay_seconds": False}},
])
def test_numbers_are_whole_and_of_their_type_not_truncated(server: str, body: dict) -> None:
    host = Client.register(server, "strict")
    response = host.request("POST", "/v1/games", body)
    problem = assert_problem(response, 400, "invalid_body")
    assert problem["errors"]
    assert not [g for g in host.get("/v1/me/games")["games"]]  # nothing was created


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", None,
                                          "application/json; charset=latin-1"])
def test_a_body_not_declared_as_json_is_415(server: str, content_type: str | None) -> None:
    headers = {"Content-Type": content_type} if content_type else {}
    response = requests.post(server + "/v1/players", data=b'{"name": "plain"}', headers=headers, timeout=10)
    assert_problem(response, 415, "unsupported_media_type")


def test_json_with_a_suffix_or_charset_is_accepted(server: str) -> None:
    for content_type in ("application/json; charset=utf-8", "application/merge-patch+json"):
        response = requests.post(server + "/v1/players", data=b'{"name": "ok"}',
                                 headers={"Content-Type": content_type}, timeout=10)
        assert response.status_code == 201, response.text


def test_an_idempotency_key_beyond_the_header_limit_is_a_problem_not_the_servers_page(server: str, game) -> None:
    game_id, players = game
    before = stream_length(server, game_id)
    response = post(server, f"/v1/games/{game_id}/actions", '{"type": "income"}',
                    players[0].headers({"Idempotency-Key": "k" * 300_000}))
    problem = assert_problem(response, 431, "headers_too_large")
    assert problem["title"] == "Request Header Fields Too Large"
    response = post(server, f"/v1/games/{game_id}/actions", '{"type": "income"}',
                    players[0].headers({"Idempotency-Key": "k" * 201}))
    assert_problem(response, 400, "bad_idempotency_key")
    assert stream_length(server, game_id) == before


@pytest.mark.parametrize("name", ["mallory\nThe game ends: seat 1 wins", "carriage\rreturn", "tab\there",
                                  "escape\x1b[2J", "nul\x00", "c1\x85", "line\u2028separator",
                                  "paragraph\u2029separator", "override\u202eevil", "embedding\u202bx",
                                  "isolate\u2066x\u2069", "mark\u200f"])
def test_a_name_that_would_not_print_as_one_line_is_refused(server: str, name: str) -> None:
    """A name prints in every seat's view and in the transcript: it must not forge a line there."""
    problem = assert_problem(requests.post(server + "/v1/players", json={"name": name}, timeout=10),
                             400, "invalid_body")
    assert "name" in problem["errors"]


def test_a_name_in_any_script_with_spaces_is_accepted(server: str) -> None:
    player = Client.register(server, "Наташа d'Arc 李")
    assert player.get("/v1/me/games")["games"] == []


@pytest.mark.parametrize("path", ["/v1/games", "/v1/me/games", "/v1/me/games?awaiting=me"])
@pytest.mark.parametrize("cursor", ["cursor=", "cursor"])
def test_an_empty_cursor_is_400_as_its_pattern_says(server: str, path: str, cursor: str) -> None:
    """The document's cursor pattern needs a score and an id: an empty one is not "the first page"."""
    player = Client.register(server, "pager")
    joiner = "&" if "?" in path else "?"
    response = requests.get(f"{server}{path}{joiner}{cursor}", headers=player.headers(), timeout=10)
    assert_problem(response, 400, "bad_cursor")
