"""The API reference (``/v1/openapi.json``) is complete and true, checked against the live server.

- every route of the app is in it, with whether it needs a token and its problem codes;
- every operation's request and response example is what a real run answers (recorded
  by this file: ``INTRIGUE_RECORD_EXAMPLES=1 python -m pytest tests/integration/test_api_reference.py``
  rewrites ``service/api_examples.json``);
- every legal action of every registered game matches that game's ``<Game>Action`` schema;
- schemathesis, all checks, over the live document, finds nothing.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import random
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
import requests
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.signing import cosignature_line, public_bytes
from games import registry
from games.base import InvalidOptions
from games.table import Table
from service.app import create_app
from service.embedded import EmbeddedRedis
from service.openapi import EXAMPLES_PATH, openapi_document, operations
from tests.integration.conftest import ROOT
from tests.support.client import Client
from tests.support.polling import wait_until

RECORD = os.environ.get("INTRIGUE_RECORD_EXAMPLES") == "1"
HERE = Path(__file__).parent


@pytest.fixture(scope="module")
def document(server: str) -> dict[str, Any]:
    return requests.get(server + "/v1/openapi.json", timeout=30).json()


def test_every_route_is_in_the_reference_with_its_token_and_problem_codes(document: dict[str, Any]) -> None:
    app = create_app(redis_url="redis://127.0.0.1:1/0", rate_limit=0)
    routes = {(method.lower(), rule.rule.replace("<", "{").replace(">", "}"))
              for rule in app.url_map.iter_rules() if rule.endpoint not in ("static", "docs.docs_page")
              for method in rule.methods - {"HEAD", "OPTIONS"}}
    documented = {(method, path) for path, ops in document["paths"].items() for method in ops}
    assert routes - documented == set(), "routes missing from the document: declare them (service/api_doc.py)"
    for path, ops in document["paths"].items():
        for method, op in ops.items():
            assert "security" in op and op["description"].split(".")[0] in (
                "Needs a player token", "A token is optional", "Needs no token"), (method, path)
            for status, response in op["responses"].items():
                if int(status) >= 400:
                    assert "Codes: " in response["description"], (method, path, status)
            for status in ("429", "500", "503"):
                assert status in op["responses"], (method, path, status)


def test_bounds_and_enums_are_declared(document: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    for name in registry.available():
        rules = registry.load(name)
        seats = schemas[f"{name.capitalize()}Create"]["properties"]["seats"]
        assert (seats["minimum"], seats["maximum"]) == (rules.MIN_SEATS, rules.MAX_SEATS)
        assert schemas[f"{name.capitalize()}Action"]["oneOf"]
    events = {p["name"]: p["schema"] for p in document["paths"]["/v1/games/{game_id}/events"]["get"]["parameters"]}
    assert (events["wait"]["minimum"], events["wait"]["maximum"]) == (0, 30)
    assert (events["limit"]["minimum"], events["limit"]["maximum"]) == (1, 500)
    assert events["after"]["minimum"] == 0
    problem = schemas["Problem"]["properties"]
    assert problem["retry_after"]["type"] == "number"


def test_a_429_matches_its_schema_and_a_405_carries_allow(server: str, document: dict[str, Any],
                                                          redis_server: EmbeddedRedis) -> None:
    response = requests.delete(server + "/v1/games", timeout=10)
    assert response.status_code == 405 and set(response.headers["Allow"].replace(" ", "").split(",")) >= {
        "GET", "POST"}
    app = create_app(redis_url=redis_server.url, rate_limit=0.001)  # limits live in Redis
    client = app.test_client()
    token = client.post("/v1/players", json={"name": f"limited-{uuid.uuid4().hex[:8]}"}).get_json()["token"]
    statuses = [client.get("/v1/games/x", headers={"Authorization": f"Bearer {token}"}) for _ in range(3)]
    limited = next(r for r in statuses if r.status_code == 429)
    body = limited.get_json()
    properties = document["components"]["schemas"]["Problem"]["properties"]
    assert set(body) <= set(properties) and body["code"] == "rate_limited"
    assert isinstance(body["retry_after"], float) and int(limited.headers["Retry-After"]) >= 1


# ------------------------------------------------------------------ actions per game
@pytest.mark.parametrize("name", registry.available())
def test_every_legal_action_matches_its_games_action_schema(name: str) -> None:
    document = openapi_document()
    validator = jsonschema_rs.validator_for({"$ref": f"#/components/schemas/{name.capitalize()}Action",
                                             "components": document["components"]})
    rules = registry.load(name)
    checked = 0
    for seats in (rules.MIN_SEATS, rules.MAX_SEATS):
        table = Table(rules, seats, getattr(rules, "PLAYOUT_OPTIONS", {}), seed=f"reference-{seats}")

        def check(table: Table) -> None:
            nonlocal checked
            for seat in range(table.seats):
                for action in rules.legal_actions(table.current, seat):
                    errors = [e.message for e in validator.iter_errors(action)]
                    assert not errors, (action, errors)
                    checked += 1

        table.play_randomly(random.Random(1000 + seats), check=check)
    assert checked > 0


# ------------------------------------------------------------------ examples from a real run
def shape(value: Any, depth: int = 2) -> Any:
    """What an example promises: the keys and the JSON types, two levels deep."""
    if isinstance(value, dict):
        return {k: shape(v, depth - 1) for k, v in value.items()} if depth > 0 else "object"
    if isinstance(value, list):
        return "array"
    return type(value).__name__


def lobby_cursor_before(client: Client, game_id: str) -> dict[str, str]:
    """The ``cursor`` query (none if it is first) whose one-game page of the Coup lobby is ``game_id``."""
    query: dict[str, Any] = {"game": "coup", "limit": 1}
    for _ in range(10_000):
        page = client.http.get(client.base_url + "/v1/games", params=query, timeout=40).json()
        if [g["id"] for g in page["games"]] == [game_id]:
            return {"cursor": query["cursor"]} if "cursor" in query else {}
        assert page["next_cursor"] is not None, f"{game_id} is not in the lobby"
        query["cursor"] = page["next_cursor"]
    raise AssertionError("the lobby did not end")


def play(server: str) -> dict[str, dict[str, Any]]:
    """One real session touching every operation; returns {"METHOD /path": {"request", "response"}}."""
    seen: dict[str, dict[str, Any]] = {}

    def call(client: Client, method: str, template: str, path: str, body: Any = None, expect: int = 200,
             headers: dict[str, str] | None = None, params: dict[str, Any] | None = None, stream_lines: int = 0
             ) -> Any:
        response = client.http.request(method, client.base_url + path, json=body, headers=client.headers(headers),
                                       params=params, timeout=40, stream=bool(stream_lines))
        assert response.status_code == expect, (method, path, response.status_code, response.text[:300])
        kind = response.headers.get("Content-Type", "")
        if stream_lines:
            lines = []
            for line in response.iter_lines(decode_unicode=True):
                lines.append(line)
                if len(lines) >= stream_lines:
                    break
            response.close()
            answer: Any = "\n".join(lines) + "\n"
        elif "json" in kind and "ndjson" not in kind:
            answer = response.json()
        else:
            answer = "\n".join(response.text.splitlines()[:3]) + "\n" if response.text else None
        key = f"{method} {template}"
        shown = answer
        if isinstance(answer, dict):  # a real run's secrets stay out of the repository
            shown = {k: ("<shown once>" if k in ("token", "secret") else v) for k, v in answer.items()}
        if key not in seen:
            seen[key] = {"request": body, "response": shown} if body is not None else {"response": shown}
        return answer

    anon = Client(server)
    natasha_body = call(anon, "POST", "/v1/players", "/v1/players", {"name": "natasha"}, expect=201)
    natasha = Client(server, token=natasha_body["token"])
    sacha = Client.register(server, "sacha")
    # The third seat is a bot's from the start (the workers play it): the example shows how.
    create = {"game": "coup", "seats": 3, "options": {}, "time_control": {"seconds_per_move": 86400},
              "bots": {"2": "random"}}
    game_id = call(natasha, "POST", "/v1/games", "/v1/games", create, expect=201)["id"]
    # The lobby lists open games oldest first, and earlier tests may have left some open on
    # this server: the example is the page that holds this session's game alone.
    call(anon, "GET", "/v1/games", "/v1/games",
         params={"game": "coup", "limit": 1, **lobby_cursor_before(anon, game_id)})
    base = f"/v1/games/{game_id}"
    substitute(call, natasha, sacha, server)
    call(natasha, "POST", "/v1/games/{game_id}/join", base + "/join")
    sacha.join(game_id)
    version = call(natasha, "GET", "/v1/games/{game_id}", base)["version"]
    call(natasha, "POST", "/v1/games/{game_id}/actions", base + "/actions", {"type": "income"},
         headers={"If-Match": str(version), "Idempotency-Key": "natasha-turn-1"})
    call(sacha, "POST", "/v1/games/{game_id}/messages", base + "/messages", {"text": "Your move, comrade.",
                                                                              "to": None}, expect=201)
    call(sacha, "GET", "/v1/games/{game_id}/messages", base + "/messages")
    call(sacha, "GET", "/v1/games/{game_id}/events", base + "/events", params={"after": version, "view": "true"})
    orders = [{"decision": "react", "when": {"targeted": False}, "answer": {"type": "pass"}},
              {"decision": "react", "when": {"action": "steal", "holding": "captain"},
               "answer": {"type": "block", "card": "captain"}, "once": True}]
    call(sacha, "PUT", "/v1/games/{game_id}/orders", base + "/orders", {"orders": orders})
    call(sacha, "GET", "/v1/games/{game_id}/orders", base + "/orders")
    call(sacha, "DELETE", "/v1/games/{game_id}/orders", base + "/orders", expect=204)
    call(sacha, "GET", "/v1/me/games", "/v1/me/games", params={"awaiting": "me"})
    call(natasha, "GET", "/v1/games/{game_id}/replay", base + "/replay", params={"version": version})
    hook = call(natasha, "POST", "/v1/me/webhooks", "/v1/me/webhooks",
                {"url": "https://1.1.1.1/intrigue-hook", "events": ["your_turn", "game_over"]}, expect=201)
    call(natasha, "GET", "/v1/me/webhooks", "/v1/me/webhooks")
    call(natasha, "GET", "/v1/me/webhooks/{webhook_id}/deliveries", f"/v1/me/webhooks/{hook['id']}/deliveries")
    call(natasha, "DELETE", "/v1/me/webhooks/{webhook_id}", f"/v1/me/webhooks/{hook['id']}", expect=204)
    call(natasha, "GET", "/v1/me", "/v1/me")
    call(natasha, "PATCH", "/v1/me", "/v1/me", {"timezone": "Europe/Paris"})
    call(natasha, "POST", "/v1/me/vacation", "/v1/me/vacation", {"days": 7})
    call(natasha, "DELETE", "/v1/me/vacation", "/v1/me/vacation")
    spare = call(natasha, "POST", "/v1/me/tokens", "/v1/me/tokens", {"scopes": ["read", "play"]}, expect=201)
    call(natasha, "GET", "/v1/me/tokens", "/v1/me/tokens")
    call(natasha, "DELETE", "/v1/me/tokens/{token_id}", f"/v1/me/tokens/{spare['id']}", expect=204)
    finish(server, game_id, [natasha, sacha])
    transparency(call, anon, game_id)
    call(anon, "GET", "/v1/players/{player_id}/games/export", f"/v1/players/{natasha_body['id']}/games/export")
    fair_shuffle(call, natasha, sacha)
    etiquette(call, natasha, sacha)
    call(anon, "GET", "/v1/games/{game_id}/events/stream", base + "/events/stream", stream_lines=8)
    call(anon, "GET", "/v1/games/{game_id}/log", base + "/log")
    call(anon, "GET", "/v1/games/{game_id}/transcript", base + "/transcript")
    tournament(call, anon, natasha, sacha)
    spec = call(anon, "GET", "/v1/openapi.json", "/v1/openapi.json")
    seen["GET /v1/openapi.json"]["response"] = {"openapi": spec["openapi"], "info": spec["info"], "paths": {}}
    return seen


def substitute(call: Any, natasha: Client, sacha: Client, server: str) -> None:
    """A seat resigned and taken over by a substitute (issue 50): the join's example with a body."""
    haig, stand_in = Client.register(server, "haig"), Client.register(server, "boris")
    running = natasha.create_game("coup", 3)
    for who in (natasha, sacha, haig):
        who.join(running)
    haig.post(f"/v1/games/{running}/resign")
    call(stand_in, "POST", "/v1/games/{game_id}/join", f"/v1/games/{running}/join", {"seat": 2})


def transparency(call: Any, anon: Client, game_id: str) -> None:
    """The key, the log's checkpoint, and the finished game's proofs once a worker has added its leaf."""
    call(anon, "GET", "/v1/keys", "/v1/keys")
    wait_until(lambda: anon.http.get(anon.base_url + "/v1/transparency/inclusion",
                                     params={"game": game_id, "size": 2**40}, timeout=40).status_code == 422,
               "the finished game's leaf")
    size = int(call(anon, "GET", "/v1/transparency/checkpoint", "/v1/transparency/checkpoint").splitlines()[1])
    call(anon, "GET", "/v1/transparency/inclusion", "/v1/transparency/inclusion",
         params={"game": game_id, "size": size})
    call(anon, "GET", "/v1/transparency/consistency", "/v1/transparency/consistency",
         params={"from": 1, "to": size})
    note = anon.http.get(anon.base_url + "/v1/transparency/checkpoint", timeout=40).text
    witness_key = Ed25519PrivateKey.generate()
    text = note.split("\n\n")[0] + "\n"
    call(anon, "POST", "/v1/transparency/cosignatures", "/v1/transparency/cosignatures",
         {"checkpoint": note, "cosignature": cosignature_line(witness_key, "witness.example", text, 1795939200),
          "public_key": base64.b64encode(public_bytes(witness_key.public_key())).decode()})


def fair_shuffle(call: Any, natasha: Client, sacha: Client) -> None:
    """Two seats join with commitments; each reveals its secret, the second starting the game."""
    create = {"game": "coup", "seats": 2, "options": {}, "time_control": {"seconds_per_move": 86400}}
    game_id = natasha.post("/v1/games", create, expect=201)["id"]
    secrets = [hashlib.sha256(f"example secret {n}".encode()).hexdigest() for n in (0, 1)]
    for client, secret in zip((natasha, sacha), secrets, strict=True):
        client.post(f"/v1/games/{game_id}/join", {"commitment": hashlib.sha256(bytes.fromhex(secret)).hexdigest()})
    call(sacha, "POST", "/v1/games/{game_id}/reveal", f"/v1/games/{game_id}/reveal", {"secret": secrets[1]})
    natasha.post(f"/v1/games/{game_id}/reveal", {"secret": secrets[0]})


def etiquette(call: Any, natasha: Client, sacha: Client) -> None:
    """Leaving and cancelling an open game, resigning a running one, its rematch, and the ratings."""
    create = {"game": "coup", "seats": 2, "options": {}, "time_control": {"seconds_per_move": 86400}}
    open_id = call(natasha, "POST", "/v1/games", "/v1/games", create, expect=201)["id"]
    sacha.join(open_id)
    call(sacha, "POST", "/v1/games/{game_id}/leave", f"/v1/games/{open_id}/leave")
    call(natasha, "DELETE", "/v1/games/{game_id}", f"/v1/games/{open_id}", expect=204)
    running = call(natasha, "POST", "/v1/games", "/v1/games", create, expect=201)["id"]
    natasha.join(running)
    sacha.join(running)
    call(sacha, "POST", "/v1/games/{game_id}/resign", f"/v1/games/{running}/resign")
    call(natasha, "POST", "/v1/games/{game_id}/rematch", f"/v1/games/{running}/rematch")
    call(natasha, "GET", "/v1/players", "/v1/players", params={"name": "sac"})
    # A player new to the server: its ratings and reliability are the same every run (sacha's depend on how
    # long the random games ran, and on whether a worker has filed the resigned one yet).
    newcomer = Client.register(natasha.base_url, "olga")
    call(natasha, "GET", "/v1/players/{player_id}", f"/v1/players/{newcomer.player_id}")
    call(natasha, "GET", "/v1/leaderboards/{game}", "/v1/leaderboards/coup", params={"limit": 3})


def tournament(call: Any, anon: Client, natasha: Client, sacha: Client) -> None:
    """A one-round Swiss of two: created, joined, left and joined again, started, read, withdrawn from."""
    body = {"name": "Sunday Swiss", "game": "coup", "seats_per_table": 2, "rounds": 1, "min_players": 2,
            "max_players": 8, "starts_at": "2036-12-07T18:00:00Z", "time_control": {"seconds_per_move": 86400},
            "round_seconds": 604800}
    tid = call(natasha, "POST", "/v1/tournaments", "/v1/tournaments", body, expect=201)["id"]
    base = f"/v1/tournaments/{tid}"
    call(sacha, "POST", "/v1/tournaments/{tournament_id}/join", base + "/join")
    natasha.post(base + "/join")
    call(anon, "GET", "/v1/tournaments", "/v1/tournaments", params={"status": "open", "limit": 1})
    call(sacha, "POST", "/v1/tournaments/{tournament_id}/leave", base + "/leave")
    sacha.post(base + "/join")
    call(natasha, "POST", "/v1/tournaments/{tournament_id}/start", base + "/start")
    call(anon, "GET", "/v1/tournaments/{tournament_id}", base)
    call(sacha, "POST", "/v1/tournaments/{tournament_id}/withdraw", base + "/withdraw")
    call(anon, "GET", "/v1/tournaments/{tournament_id}/log", base + "/log")


def finish(server: str, game_id: str, players: list[Client]) -> None:
    """Play the people's seats of a Coup to its end: coup when you can, income otherwise, first legal
    answer elsewhere; a bot seat is played by the workers."""
    for _ in range(400):
        views = [p.game(game_id) for p in players]
        if views[0]["status"] == "finished":
            return
        for player, view in zip(players, views, strict=True):
            legal = view["legal_actions"]
            if legal:
                action = next((a for a in legal if a["type"] == "coup"), None) or next(
                    (a for a in legal if a["type"] == "income"), legal[0])
                response = player.request("POST", f"/v1/games/{game_id}/actions", action,
                                          headers={"If-Match": str(view["version"])})
                assert response.status_code in (200, 409), response.text
                break
        else:
            players[0].events(game_id, after=views[0]["version"], wait=5)  # a worker's step is due
    raise AssertionError("the example game did not finish")


def test_the_examples_are_what_the_server_answers(server: str) -> None:
    recorded = play(server)
    documented = {op.key for op in operations()}
    assert set(recorded) == documented, "the example session must call every operation once"
    if RECORD:
        EXAMPLES_PATH.write_text(json.dumps(recorded, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        openapi_document.cache_clear()
    examples = json.loads(EXAMPLES_PATH.read_text(encoding="utf-8"))
    stale = [key for key in documented if shape(examples.get(key)) != shape(recorded[key])]
    assert not stale, (f"examples no longer match the server for {stale}: re-record them with "
                       "INTRIGUE_RECORD_EXAMPLES=1 python -m pytest tests/integration/test_api_reference.py")
    for op in operations():  # and they are in the document, request and response
        path = openapi_document()["paths"][op.path][op.method]
        if op.body and op.body_required:
            assert path["requestBody"]["content"]["application/json"]["example"] == examples[op.key]["request"]
        elif op.body:  # an optional body the run did not send (a join's commitment): its fields' examples
            assert path["requestBody"]["content"]["application/json"]["example"], op.key
        if op.ok_type:
            assert "example" in path["responses"][str(op.ok_status)]["content"][op.ok_type]


# ------------------------------------------------------------------ schemathesis
def test_schemathesis_with_every_check_finds_nothing(server: str) -> None:
    """Every check, on every operation: the examples, then generated cases (valid and not).

    Schemathesis's coverage phase is left out: its boundary sweep does not pass through the
    hooks that keep long-polls and event streams short (a stream of a game in play never
    ends), and on this Python it also failed inside schemathesis itself.
    """
    players = [Client.register(server, name) for name in ("schemathesis", "opponent")]
    finished = players[0].create_game("coup", 2)
    for player in players:
        player.join(finished)
    finish(server, finished, players)
    command = [sys.executable, "-m", "schemathesis.cli", "--config-file", str(HERE / "schemathesis.toml"), "run",
               f"{server}/v1/openapi.json", "--checks", "all", "-H", f"Authorization: Bearer {players[0].token}",
               "--phases", "examples,fuzzing", "--max-examples", "25", "--workers", "2",
               "--request-timeout", "20", "--seed", "20261123", "--no-color"]
    env = {**os.environ, "SCHEMATHESIS_HOOKS": "tests.integration.schemathesis_hooks", "PYTHONPATH": str(ROOT),
           "INTRIGUE_BASE_URL": server, "INTRIGUE_FINISHED_GAME": finished}
    result = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=280)
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]


def test_the_document_allows_null_for_an_option_exactly_where_the_rules_take_it(document: dict[str, Any],
                                                                                server: str) -> None:
    """A client generated from the document must not send a null the rules refuse (Revolution!'s options)."""
    schemas = document["components"]["schemas"]
    for name in registry.available():
        rules = registry.load(name)
        for key, schema in schemas[f"{name.capitalize()}Create"]["properties"]["options"]["properties"].items():
            if "type" not in schema:
                continue  # a default of null: its type is the game's README's to say
            try:
                rules.validate_options({key: None}, rules.MIN_SEATS)
                taken = True
            except InvalidOptions:
                taken = False
            assert schema.get("nullable", False) == taken, (name, key)
    revolution = schemas["RevolutionCreate"]["properties"]["options"]["properties"]
    assert not any(field.get("nullable") for field in revolution.values())
    host = Client.register(server, "nulls")
    response = host.request("POST", "/v1/games", {"game": "revolution", "seats": 3, "options": {"max_rounds": None}})
    assert response.status_code == 422 and response.json()["code"] == "bad_option", response.text
