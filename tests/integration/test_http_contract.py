"""The v1 contract over real HTTP against a real Redis, proven with Coup."""

from __future__ import annotations

import random
import re

import requests

from tests.support.client import Client


def start_coup(server: str, seats: int = 3, **time_control: int) -> tuple[str, list[Client]]:
    players = [Client.register(server, f"p{i}") for i in range(seats)]
    game_id = players[0].create_game("coup", seats, **time_control)
    for index, player in enumerate(players):
        assert player.join(game_id) == index
    return game_id, players


def test_player_registration_returns_id_and_token(server: str) -> None:
    body = Client(server).post("/v1/players", {"name": "Natasha"}, expect=201)
    assert set(body) >= {"id", "token", "name"} and body["name"] == "Natasha"


def test_created_game_is_open_in_lobby_until_full(server: str) -> None:
    host = Client.register(server, "host")
    game_id = host.create_game("coup", 2)
    lobby = Client(server).get("/v1/games")["games"]
    assert game_id in [g["id"] for g in lobby]
    assert host.game(game_id)["status"] == "open"
    host.join(game_id)
    Client.register(server, "guest").join(game_id)
    assert host.game(game_id)["status"] == "active"
    assert game_id not in [g["id"] for g in Client(server).get("/v1/games")["games"]]


def test_game_view_has_contract_fields_and_postable_legal_actions(server: str) -> None:
    game_id, players = start_coup(server)
    view = players[0].game(game_id)
    for key in ("id", "game", "status", "version", "awaiting", "deadline", "view", "legal_actions", "winners"):
        assert key in view
    assert view["status"] == "active" and view["awaiting"] == [0]
    assert view["phase"] == view["view"]["phase"] == "turn"
    assert view["legal_actions"] and players[1].game(game_id)["legal_actions"] == []
    result = players[0].act(game_id, view["legal_actions"][0])
    assert result["version"] > view["version"]
    assert all(e["seq"] > view["version"] for e in result["events"])


def test_joining_twice_keeps_the_seat(server: str) -> None:
    host = Client.register(server, "host")
    game_id = host.create_game("coup", 3)
    assert host.join(game_id) == 0
    assert host.join(game_id) == 0


def test_openapi_document_and_offline_docs_page(server: str) -> None:
    spec = requests.get(server + "/v1/openapi.json", timeout=5).json()
    assert spec["openapi"].startswith("3.")
    assert "/v1/games/{game_id}/actions" in spec["paths"]
    assert "GameView" in spec["components"]["schemas"]
    assert "phase" in spec["components"]["schemas"]["GameView"]["properties"]
    post_action = spec["paths"]["/v1/games/{game_id}/actions"]["post"]["responses"]
    assert {"200", "409", "422", "429", "503"} <= set(post_action)
    assert "Idempotency-Key" in post_action["503"]["description"]
    page = requests.get(server + "/docs", timeout=5)
    assert page.status_code == 200 and "/v1/games/{game_id}/actions" in page.text
    # Nothing is loaded from elsewhere (the examples may show URLs as data, never as links).
    assert "<script" not in page.text and not re.search(r"""(src|href)=["']?(https?:)?//""", page.text)


def test_inbox_lists_games_awaiting_me(server: str) -> None:
    game_id, players = start_coup(server)
    inbox0 = players[0].get("/v1/me/games", params={"awaiting": "me"})["games"]
    inbox1 = players[1].get("/v1/me/games", params={"awaiting": "me"})["games"]
    assert game_id in [g["id"] for g in inbox0]
    assert game_id not in [g["id"] for g in inbox1]
    assert game_id in [g["id"] for g in players[1].get("/v1/me/games")["games"]]


def test_random_bots_finish_a_game_over_http_and_the_log_verifies(server: str, tmp_path) -> None:
    from projections.audit import audit, read_log

    game_id, players = start_coup(server)
    rng = random.Random(7)
    version = 0
    for _ in range(2000):
        view = players[0].game(game_id)
        if view["status"] == "finished":
            break
        movers = [p for p in players if p.game(game_id)["legal_actions"]]
        if not movers:  # a worker owes a system step: wait for the stream to move
            players[0].events(game_id, after=view["version"], wait=5)
            continue
        mover = rng.choice(movers)
        actions = mover.game(game_id)["legal_actions"]
        response = mover.request("POST", f"/v1/games/{game_id}/actions", rng.choice(actions))
        assert response.status_code in (200, 409), response.text
        version = max(version, view["version"])
    final = players[0].game(game_id)
    assert final["status"] == "finished" and len(final["winners"]) == 1
    assert final["seed"]
    log = requests.get(f"{server}/v1/games/{game_id}/log", timeout=10)
    assert log.status_code == 200 and log.headers["Content-Type"].startswith("application/x-ndjson")
    report = audit(read_log(log.text.splitlines()))
    assert report.finished and report.winners == final["winners"]


def read_sse(lines, count: int) -> list[dict]:
    """The next ``count`` events from an SSE stream's line iterator, as {id, event, data}."""
    frames, current = [], {}
    for line in lines:
        if line.startswith(":"):
            continue  # a comment: the greeting or a keep-alive
        if not line:
            if current:
                frames.append(current)
                current = {}
                if len(frames) == count:
                    return frames
            continue
        field, _, value = line.partition(": ")
        current[field] = value
    raise AssertionError(f"stream ended after {len(frames)} of {count} events")


def test_event_stream_matches_the_feed_and_resumes_from_last_event_id(server: str) -> None:
    import json

    game_id, players = start_coup(server)
    sacha = players[1]
    feed = sacha.events(game_id, after=0)["events"]
    url = f"{server}/v1/games/{game_id}/events/stream"
    with sacha.http.get(url, headers=sacha.headers(), stream=True, timeout=20) as response:
        assert response.status_code == 200 and response.headers["Content-Type"].startswith("text/event-stream")
        lines = response.iter_lines(chunk_size=1, decode_unicode=True)
        frames = read_sse(lines, len(feed))
        assert [int(f["id"]) for f in frames] == [e["seq"] for e in feed]
        assert [f["event"] for f in frames] == [e["type"] for e in feed]
        assert [json.loads(f["data"]) for f in frames] == feed  # the same redaction: Sacha sees only his hand
        players[0].act(game_id, {"type": "tax"})  # a live event arrives on the open stream
        live = read_sse(lines, 1)[0]
        assert live["event"] == "ActionDeclared" and int(live["id"]) == feed[-1]["seq"] + 1
    resume = {**sacha.headers(), "Last-Event-ID": live["id"]}
    sacha.act(game_id, {"type": "pass"})
    with sacha.http.get(url, headers=resume, stream=True, timeout=20) as response:
        first = read_sse(response.iter_lines(chunk_size=1, decode_unicode=True), 1)[0]
        assert int(first["id"]) == int(live["id"]) + 1 and first["event"] == "Passed"


def test_a_long_poll_with_view_wakes_with_the_callers_new_legal_actions(server: str) -> None:
    """One request per wake: the feed's events and the view they lead to, as that seat sees it."""
    from concurrent.futures import ThreadPoolExecutor

    game_id, players = start_coup(server)
    sacha = players[1]
    before = sacha.game(game_id)
    assert before["legal_actions"] == []
    with ThreadPoolExecutor(1) as pool:
        waiting = pool.submit(sacha.events, game_id, before["version"], 20, True)
        players[0].act(game_id, {"type": "tax"})
        woken = waiting.result(timeout=30)
    assert [e["type"] for e in woken["events"]] == ["ActionDeclared"]
    game = woken["game"]
    assert game["version"] >= woken["version"] and game["seat"] == 1
    assert game == sacha.game(game_id)  # the same body GET /v1/games/<id> gives
    assert {a["type"] for a in game["legal_actions"]} == {"challenge", "pass"}
    own, other = game["view"]["seats"][1], game["view"]["seats"][0]
    assert len(own["hand"]) == 2 and "hand" not in other and other["influence"] == 2
    # Without the flag the answer stays as it was; a bad flag is a clear 400.
    assert "game" not in sacha.events(game_id, after=0)
    bad = sacha.request("GET", f"/v1/games/{game_id}/events", params={"view": "yes"})
    assert bad.status_code == 400 and bad.json()["code"] == "bad_query"


def test_prefer_return_minimal_leaves_the_view_out_of_an_actions_answer(server: str) -> None:
    """RFC 7240: a client that takes its view from the event stream need not get it twice."""
    game_id, players = start_coup(server)
    version = players[0].game(game_id)["version"]
    minimal = players[0].request("POST", f"/v1/games/{game_id}/actions", {"type": "tax"},
                                 headers={"Prefer": "handling=lenient, return=minimal"})
    assert minimal.status_code == 200 and minimal.headers["Preference-Applied"] == "return=minimal"
    body = minimal.json()
    assert set(body) == {"version", "events"} and body["version"] == version + 1
    assert [e["type"] for e in body["events"]] == ["ActionDeclared"]
    # The default, and a preference the server does not know, keep the whole answer.
    for prefer in (None, "return=representation", "respond-async"):
        headers = {"Prefer": prefer} if prefer else {}
        answer = players[1].request("POST", f"/v1/games/{game_id}/actions", {"type": "pass"}, headers=headers)
        assert answer.status_code in (200, 409), answer.text
        assert "Preference-Applied" not in answer.headers
        if answer.status_code == 200:
            assert answer.json()["game"]["seat"] == 1
    # A refusal is a refusal, minimal or not.
    late = players[1].request("POST", f"/v1/games/{game_id}/actions", {"type": "pass"},
                              headers={"Prefer": "return=minimal"})
    assert late.status_code == 409 and late.headers["Content-Type"] == "application/problem+json"
