"""Tokens do not multiply an address's allowance; a player lists, issues and revokes its tokens."""

from __future__ import annotations

import threading
import time

import pytest
import redis

import engine.accounts as accounts_module
from engine.core import Engine
from engine.scheduling import JobScheduler, make_queue
from engine.settings import Limits
from service.embedded import EmbeddedRedis
from tests.platform.test_ratelimit import NONE, app_client, assert_limited, register


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_one_address_shares_one_ceiling_over_all_its_tokens(engine: Engine) -> None:
    limits = Limits(**{**NONE.__dict__, "player_rate": 1000, "address_rate": 2})  # bursts of 4
    client = app_client(engine, limits, "10.1.1.1")
    tokens = [register(client, f"p{i}") for i in range(8)]  # registrations are anonymous: not counted here
    answers = [client.get("/v1/me/games", headers=bearer(token)) for token in tokens]
    assert [a.status_code for a in answers[:4]] == [200] * 4
    assert_limited(answers[-1], "address_rate_limited")
    # An action through the front's fast handler counts too, refused before its body is read.
    action = client.post("/v1/games/abc/actions", json={"type": "x"}, headers=bearer(tokens[0]))
    assert_limited(action, "address_rate_limited")
    # Another address has its own ceiling.
    elsewhere = app_client(engine, limits, "10.1.1.2")
    assert elsewhere.get("/v1/me/games", headers=bearer(tokens[0])).status_code == 200


def test_a_player_lists_issues_and_revokes_its_tokens_never_seeing_a_secret(engine: Engine) -> None:
    limits = Limits(**{**NONE.__dict__, "tokens_per_player": 3})
    client = app_client(engine, limits)
    first = register(client)
    issued = client.post("/v1/me/tokens", headers=bearer(first))
    assert issued.status_code == 201, issued.get_data(as_text=True)
    second = issued.get_json()["token"]
    assert client.get("/v1/me/games", headers=bearer(second)).status_code == 200
    listed = client.get("/v1/me/tokens", headers=bearer(second))
    assert listed.status_code == 200
    tokens = listed.get_json()["tokens"]
    assert [t["current"] for t in tokens] == [False, True]
    assert all(set(t) == {"id", "created_at", "last_used_at", "current", "scopes"} for t in tokens)
    assert all(t["last_used_at"] for t in tokens)
    text = listed.get_data(as_text=True)
    assert first not in text and second not in text
    assert not any(h.decode() in text for h in engine.redis.hkeys(engine.keys.tokens()))
    # Rotation: the old token is revoked; it no longer works, here at once.
    old_id = tokens[0]["id"]
    assert client.delete(f"/v1/me/tokens/{old_id}", headers=bearer(second)).status_code == 204
    refused = client.get("/v1/me/games", headers=bearer(first))
    assert refused.status_code == 401 and refused.get_json()["code"] == "bad_token"
    gone = client.delete(f"/v1/me/tokens/{old_id}", headers=bearer(second))
    assert gone.status_code == 404 and gone.get_json()["code"] == "token_not_found"
    assert [t["id"] for t in client.get("/v1/me/tokens", headers=bearer(second)).get_json()["tokens"]] != [old_id]
    # The ceiling of tokens a player holds.
    for _ in range(2):
        assert client.post("/v1/me/tokens", headers=bearer(second)).status_code == 201
    full = client.post("/v1/me/tokens", headers=bearer(second))
    assert full.status_code == 409 and full.get_json()["code"] == "too_many_tokens"


def test_a_revoked_token_stops_working_on_another_api_process_within_seconds(engine: Engine) -> None:
    here, there = app_client(engine, NONE), app_client(engine, NONE)
    token = register(here)
    assert there.get("/v1/me/games", headers=bearer(token)).status_code == 200  # now trusted over there
    spare = here.post("/v1/me/tokens", headers=bearer(token)).get_json()["token"]
    mine = [t for t in here.get("/v1/me/tokens", headers=bearer(spare)).get_json()["tokens"] if not t["current"]]
    assert here.delete(f"/v1/me/tokens/{mine[0]['id']}", headers=bearer(spare)).status_code == 204
    give_up = time.monotonic() + 10
    while there.get("/v1/me/games", headers=bearer(token)).status_code != 401:
        assert time.monotonic() < give_up, "the revoked token still works on the other process"


def test_a_player_cannot_revoke_another_players_token(engine: Engine) -> None:
    client = app_client(engine, NONE)
    alice, bob = register(client, "alice"), register(client, "bob")
    alices = client.get("/v1/me/tokens", headers=bearer(alice)).get_json()["tokens"][0]["id"]
    refused = client.delete(f"/v1/me/tokens/{alices}", headers=bearer(bob))
    assert refused.status_code == 404 and refused.get_json()["code"] == "token_not_found"
    assert client.get("/v1/me/games", headers=bearer(alice)).status_code == 200


def test_a_token_issued_before_tokens_were_listed_is_listed_and_revocable_once_used(engine: Engine) -> None:
    client = app_client(engine, NONE)
    token = register(client, "old-timer")
    player = engine.player_for_token(token)
    assert player is not None
    engine.redis.delete(engine.keys.player_tokens(player.id))  # as a registration of an earlier version left it
    engine.accounts.players.clear()
    listed = client.get("/v1/me/tokens", headers=bearer(token)).get_json()["tokens"]
    assert [t["current"] for t in listed] == [True]
    spare = client.post("/v1/me/tokens", headers=bearer(token)).get_json()["token"]
    assert client.delete(f"/v1/me/tokens/{listed[0]['id']}", headers=bearer(spare)).status_code == 204
    assert client.get("/v1/me/games", headers=bearer(token)).status_code == 401


def later_by(monkeypatch: pytest.MonkeyPatch, seconds: float) -> None:
    """The engine's clock, ``seconds`` on from now (the token cache's only clock)."""
    start = time.monotonic()
    monkeypatch.setattr(accounts_module.time, "monotonic", lambda: start + seconds)


def test_a_token_is_kept_longer_while_its_revocation_would_be_heard(engine: Engine,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    client = app_client(engine, NONE)
    token = register(client)
    engine.accounts.players.clear()
    engine.watcher.start()
    assert engine.watcher.wait_live(10)
    assert engine.player_for_token(token) is not None  # looked up while the listener is subscribed
    looked_up = []
    real_hget = engine.redis.hget
    monkeypatch.setattr(engine.redis, "hget", lambda *args: looked_up.append(args) or real_hget(*args))
    later_by(monkeypatch, accounts_module.TOKEN_CACHE_SECONDS + 20)
    assert engine.player_for_token(token) is not None and looked_up == []  # still trusted, no round trip
    later_by(monkeypatch, accounts_module.TOKEN_TRUST_SECONDS + 1)
    assert engine.player_for_token(token) is not None and len(looked_up) == 1  # refreshed


def test_without_a_subscribed_listener_a_token_is_kept_two_seconds(engine: Engine,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    client = app_client(engine, NONE)
    token = register(client)
    engine.accounts.players.clear()
    monkeypatch.setattr(engine.watcher, "start", lambda: None)  # a listener not (yet) there
    assert not engine.watcher.live
    assert engine.player_for_token(token) is not None
    later_by(monkeypatch, accounts_module.TOKEN_CACHE_SECONDS + 0.5)
    engine.redis.hdel(engine.keys.tokens(), accounts_module.token_hash(token))  # revoked, unannounced
    assert engine.player_for_token(token) is None


def test_a_revocation_reaches_the_other_processes_cache_at_once(engine: Engine, platform_redis: EmbeddedRedis) -> None:
    here = app_client(engine, NONE)
    token = register(here)
    spare = here.post("/v1/me/tokens", headers=bearer(token)).get_json()["token"]
    # Another API process, its own engine and cache, on the same Redis; told when it heard.
    other_client = redis.Redis.from_url(platform_redis.url)
    other = Engine(other_client, JobScheduler(make_queue(other_client)))
    heard = threading.Event()

    def hear(hashed: bytes) -> None:
        other.accounts.token_revoked(hashed)
        heard.set()

    other.watcher.hear(other.accounts.revoked_channel, hear)
    other.watcher.start()
    try:
        assert other.watcher.wait_live(10)
        assert other.player_for_token(token) is not None  # trusted there for a minute
        mine = [t for t in here.get("/v1/me/tokens", headers=bearer(spare)).get_json()["tokens"] if not t["current"]]
        assert here.delete(f"/v1/me/tokens/{mine[0]['id']}", headers=bearer(spare)).status_code == 204

        assert heard.wait(10)
        assert other.player_for_token(token) is None
    finally:
        other.watcher.stop()  # its listener would outlive the test, and the session's Redis
