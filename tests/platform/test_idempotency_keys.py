"""Idempotency-Key on every POST: the same key and body give the first answer; another body is 409."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from threading import Barrier

import pytest
from flask.testing import FlaskClient

from engine.core import Engine
from engine.settings import Limits, Settings
from service.app import create_app

BODY = {"game": "toy", "seats": 2, "options": {}, "time_control": {"seconds_per_move": 60}}


@pytest.fixture()
def client(engine: Engine) -> FlaskClient:
    settings = Settings(webhooks_allow_private=True)
    app = create_app(Engine(engine.redis, engine.scheduler, settings=settings), settings=settings,
                     limits=Limits.off())
    test_client = app.test_client()
    test_client.environ_base["REMOTE_ADDR"] = "10.0.0.7"
    return test_client


def register(client: FlaskClient, name: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {client.post('/v1/players', json={'name': name}).get_json()['token']}"}


def keyed(key: str, auth: dict[str, str] | None = None) -> dict[str, str]:
    return {"Idempotency-Key": key, **(auth or {})}


def assert_replayed(first, again) -> None:
    assert (again.status_code, again.get_json()) == (first.status_code, first.get_json())
    assert again.content_type == first.content_type


def assert_reused(response) -> None:
    assert response.status_code == 409, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    assert response.get_json()["code"] == "idempotency_key_reused"


def test_a_retried_registration_is_the_first_player_and_token(engine: Engine, client: FlaskClient) -> None:
    first = client.post("/v1/players", json={"name": "ana"}, headers=keyed("reg-1"))
    again = client.post("/v1/players", json={"name": "ana"}, headers=keyed("reg-1"))
    assert first.status_code == 201
    assert_replayed(first, again)
    assert engine.redis.hlen(engine.keys.tokens()) == 1
    assert_reused(client.post("/v1/players", json={"name": "bob"}, headers=keyed("reg-1")))
    # Keyed per address: another address's key of the same name is its own.
    client.environ_base["REMOTE_ADDR"] = "10.0.0.8"
    other = client.post("/v1/players", json={"name": "ana"}, headers=keyed("reg-1"))
    assert other.status_code == 201 and other.get_json()["id"] != first.get_json()["id"]
    # The remembered answer never holds the token in clear.
    token = first.get_json()["token"]
    assert not any(token.encode() in (engine.redis.get(name) or b"") for name in engine.redis.keys("intrigue:reply:*"))


def test_a_retried_creation_is_the_first_game(engine: Engine, client: FlaskClient) -> None:
    auth = register(client, "host")
    first = client.post("/v1/games", json=BODY, headers=keyed("create-1", auth))
    again = client.post("/v1/games", json=BODY, headers=keyed("create-1", auth))
    assert first.status_code == 201
    assert_replayed(first, again)
    assert engine.redis.zcard(engine.keys.lobby()) == 1
    assert_reused(client.post("/v1/games", json={**BODY, "seats": 3}, headers=keyed("create-1", auth)))
    # Keyed per player: another player's key of the same name creates its own game.
    other = client.post("/v1/games", json=BODY, headers=keyed("create-1", register(client, "other")))
    assert other.status_code == 201 and other.get_json()["id"] != first.get_json()["id"]


def test_a_retried_join_is_the_first_answer(engine: Engine, client: FlaskClient) -> None:
    host, guest = register(client, "host"), register(client, "guest")
    game = client.post("/v1/games", json=BODY, headers=host).get_json()["id"]
    client.post(f"/v1/games/{game}/join", headers=host)
    first = client.post(f"/v1/games/{game}/join", headers=keyed("join-1", guest))
    again = client.post(f"/v1/games/{game}/join", headers=keyed("join-1", guest))
    assert first.status_code == 200
    assert_replayed(first, again)
    # The same key on another path is another request.
    assert_reused(client.post(f"/v1/games/{game}x/join", headers=keyed("join-1", guest)))


def test_a_retried_message_is_posted_once(engine: Engine, client: FlaskClient) -> None:
    host, guest = register(client, "host"), register(client, "guest")
    game = client.post("/v1/games", json=BODY, headers=host).get_json()["id"]
    for auth in (host, guest):
        client.post(f"/v1/games/{game}/join", headers=auth)
    first = client.post(f"/v1/games/{game}/messages", json={"text": "hello"}, headers=keyed("msg-1", host))
    again = client.post(f"/v1/games/{game}/messages", json={"text": "hello"}, headers=keyed("msg-1", host))
    assert first.status_code == 201
    assert_replayed(first, again)
    assert len(client.get(f"/v1/games/{game}/messages", headers=host).get_json()["messages"]) == 1
    assert_reused(client.post(f"/v1/games/{game}/messages", json={"text": "bye"}, headers=keyed("msg-1", host)))


def test_a_retried_webhook_registration_is_the_first_webhook(engine: Engine, client: FlaskClient) -> None:
    auth = register(client, "hooked")
    body = {"url": "http://127.0.0.1:9/hook", "events": ["your_turn"]}
    first = client.post("/v1/me/webhooks", json=body, headers=keyed("hook-1", auth))
    again = client.post("/v1/me/webhooks", json=body, headers=keyed("hook-1", auth))
    assert first.status_code == 201
    assert_replayed(first, again)
    assert len(client.get("/v1/me/webhooks", headers=auth).get_json()["webhooks"]) == 1
    assert_reused(client.post("/v1/me/webhooks", json={**body, "events": ["game_over"]},
                              headers=keyed("hook-1", auth)))


def test_a_refusal_is_the_first_answer_too_and_a_bad_key_is_400(client: FlaskClient) -> None:
    auth = register(client, "host")
    first = client.post("/v1/games/nope/join", headers=keyed("j", auth))
    assert first.status_code == 404
    assert_replayed(first, client.post("/v1/games/nope/join", headers=keyed("j", auth)))
    too_long = client.post("/v1/games", json=BODY, headers=keyed("k" * 201, auth))
    assert too_long.status_code == 400 and too_long.get_json()["code"] == "bad_idempotency_key"


def test_racing_posts_of_one_key_create_one_game_and_all_answer_with_it(engine: Engine, client: FlaskClient) -> None:
    auth = register(client, "host")
    start = Barrier(8)
    posts: list[Callable] = [client.application.test_client().post for _ in range(8)]

    def create(index: int) -> tuple[int, str]:
        start.wait(timeout=20)
        response = posts[index]("/v1/games", json=BODY, headers=keyed("race", auth))
        return response.status_code, response.get_json()["id"]

    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(create, range(8)))
    assert {status for status, _ in answers} == {201} and len({game for _, game in answers}) == 1
    assert engine.redis.zcard(engine.keys.lobby()) == 1


def test_every_post_of_the_document_takes_the_key() -> None:
    from service.openapi import openapi_document

    for path, methods in openapi_document()["paths"].items():
        if "post" not in methods:
            continue
        post = methods["post"]
        assert "Idempotency-Key" in [param["name"] for param in post["parameters"]], path
        assert "idempotency_key_reused" in post["responses"]["409"]["description"], path


def test_a_retried_token_issue_is_the_first_token(engine: Engine, client: FlaskClient) -> None:
    auth = register(client, "rotator")
    first = client.post("/v1/me/tokens", headers=keyed("tok-1", auth))
    again = client.post("/v1/me/tokens", headers=keyed("tok-1", auth))
    assert first.status_code == 201
    assert_replayed(first, again)
    assert len(client.get("/v1/me/tokens", headers=auth).get_json()["tokens"]) == 2
