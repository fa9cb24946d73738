"""Limits kept in Redis: shared by API processes, keyed by who calls, 429 with Retry-After."""

from __future__ import annotations

import redis
from flask.testing import FlaskClient

from engine.core import Engine
from engine.ratelimit import RateLimiter
from engine.settings import Bucket, Limits, Settings
from service.app import create_app

#: Everything off but what a test turns on.
NONE = Limits.off()


def app_client(engine: Engine, limits: Limits, address: str = "10.0.0.1") -> FlaskClient:
    """A test client of a fresh app (as another API process would be) on its own Redis client."""
    other = Engine(redis.Redis(connection_pool=redis.ConnectionPool(**engine.redis.connection_pool.connection_kwargs)))
    client = create_app(other, limits=limits).test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def register(client: FlaskClient, name: str = "p") -> str:
    response = client.post("/v1/players", json={"name": name})
    assert response.status_code == 201, response.get_data(as_text=True)
    return response.get_json()["token"]


def assert_limited(response, code: str = "rate_limited") -> None:
    assert response.status_code == 429, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json" and response.get_json()["code"] == code
    assert int(response.headers["Retry-After"]) >= 1


def test_bucket_allows_a_burst_then_asks_to_wait_and_expires_when_full_again(engine: Engine) -> None:
    limiter = RateLimiter(engine.redis)
    bucket = Bucket("test", rate=1, burst=3)
    assert [limiter.allow(bucket, "a") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert 0 < limiter.allow(bucket, "a") <= 1
    assert limiter.allow(bucket, "b") == 0.0
    # The bucket vanishes once it would be full again: idle clients cost nothing.
    assert 0 < engine.redis.pttl(limiter.key(bucket, "a")) <= 4000


def test_zero_rate_turns_limiting_off(engine: Engine) -> None:
    limiter = RateLimiter(engine.redis)
    assert all(limiter.allow(Bucket("off", 0, 0), "a") == 0.0 for _ in range(100))
    assert engine.redis.keys("intrigue:limit:*") == []


def test_a_player_flooding_two_api_processes_shares_one_bucket_whatever_the_header_spelling(engine: Engine) -> None:
    limits = Limits(**{**NONE.__dict__, "player_rate": 1})  # bursts of 2
    first, second = app_client(engine, limits), app_client(engine, limits)
    token = register(first)
    spellings = [f"Bearer {token}", f"bearer {token}", f"BEARER {token}", f"bEaReR   {token}  "]
    answers = [(first if i % 2 else second).get("/v1/me/games", headers={"Authorization": spellings[i % 4]})
               for i in range(4)]
    assert [r.status_code for r in answers[:2]] == [200, 200]
    assert_limited(answers[3])
    # Another player is not held back by the first one's flood.
    other = register(first, "other")
    assert first.get("/v1/me/games", headers={"Authorization": f"Bearer {other}"}).status_code == 200


def test_calls_without_a_token_are_limited_per_client_address(engine: Engine) -> None:
    limits = Limits(**{**NONE.__dict__, "anonymous_rate": 1})
    flooder = app_client(engine, limits, "10.0.0.1")
    answers = [flooder.get("/v1/games") for _ in range(3)]
    assert [r.status_code for r in answers[:2]] == [200, 200]
    assert_limited(answers[2])
    # An unknown token is no way out: it counts against the address too.
    assert_limited(flooder.get("/v1/games", headers={"Authorization": "Bearer made-up"}))
    unknown = app_client(engine, limits, "10.0.0.5").get("/v1/me/games", headers={"Authorization": "Bearer made-up"})
    assert unknown.status_code == 401 and unknown.get_json()["code"] == "bad_token"
    # Claiming another address through X-Forwarded-For changes nothing without a trusted proxy.
    assert_limited(flooder.get("/v1/games", headers={"X-Forwarded-For": "192.0.2.7"}))
    assert app_client(engine, limits, "10.0.0.2").get("/v1/games").status_code == 200


def test_behind_a_trusted_proxy_the_forwarded_client_address_is_limited(engine: Engine) -> None:
    limits = Limits(**{**NONE.__dict__, "anonymous_rate": 1, "trusted_proxies": 1})
    proxy = app_client(engine, limits, "10.9.9.9")
    # The client may prepend anything; the proxy appends the address it saw, and that one counts.
    for fake in ("1.1.1.1", "2.2.2.2"):
        assert proxy.get("/v1/games", headers={"X-Forwarded-For": f"{fake}, 198.51.100.1"}).status_code == 200
    assert_limited(proxy.get("/v1/games", headers={"X-Forwarded-For": "3.3.3.3, 198.51.100.1"}))
    assert proxy.get("/v1/games", headers={"X-Forwarded-For": "198.51.100.2"}).status_code == 200


def test_registrations_are_limited_per_client_address(engine: Engine) -> None:
    limits = Limits(**{**NONE.__dict__, "registrations_per_hour": 3})
    client = app_client(engine, limits, "10.0.0.3")
    for index in range(3):
        register(client, f"p{index}")
    assert_limited(client.post("/v1/players", json={"name": "one-too-many"}))
    assert int(client.post("/v1/players", json={"name": "again"}).headers["Retry-After"]) > 60
    assert engine.redis.hlen(engine.keys.tokens()) == 3
    register(app_client(engine, limits, "10.0.0.4"), "elsewhere")


def test_game_creation_is_limited_per_player(engine: Engine) -> None:
    limits = Limits(**{**NONE.__dict__, "games_per_hour": 2})
    client = app_client(engine, limits)
    auth = {"Authorization": f"Bearer {register(client)}"}
    body = {"game": "toy", "seats": 2, "options": {}, "time_control": {"seconds_per_move": 60}}
    assert [client.post("/v1/games", json=body, headers=auth).status_code for _ in range(2)] == [201, 201]
    assert_limited(client.post("/v1/games", json=body, headers=auth))
    assert engine.redis.zcard(engine.keys.lobby()) == 2


def test_a_player_may_host_only_so_many_open_games(engine: Engine) -> None:
    limits = Limits(**{**NONE.__dict__, "open_games": 2})
    client = app_client(engine, limits)
    host = {"Authorization": f"Bearer {register(client, 'host')}"}
    guest = {"Authorization": f"Bearer {register(client, 'guest')}"}
    body = {"game": "toy", "seats": 2, "options": {}, "time_control": {"seconds_per_move": 60}}
    first = client.post("/v1/games", json=body, headers=host).get_json()["id"]
    client.post("/v1/games", json=body, headers=host)
    refused = client.post("/v1/games", json=body, headers=host)
    assert refused.status_code == 409 and refused.get_json()["code"] == "too_many_open_games"
    assert engine.redis.zcard(engine.keys.lobby()) == 2
    # Once a game fills it no longer counts.
    client.post(f"/v1/games/{first}/join", headers=host)
    client.post(f"/v1/games/{first}/join", headers=guest)
    assert client.post("/v1/games", json=body, headers=host).status_code == 201


def test_api_answers_429_with_retry_after_when_a_player_floods(engine: Engine) -> None:
    app = create_app(engine, rate_limit=1)
    client = app.test_client()
    token = client.post("/v1/players", json={"name": "flood"}).get_json()["token"]
    statuses = [client.get("/v1/me/games", headers={"Authorization": f"Bearer {token}"}) for _ in range(4)]
    assert [r.status_code for r in statuses[:2]] == [200, 200]
    assert_limited(statuses[-1])


def test_limits_come_from_the_environment_and_keep_the_old_name() -> None:
    limits = Settings.from_env({"INTRIGUE_RATE_LIMIT": "7", "INTRIGUE_ANONYMOUS_RATE_LIMIT": "3",
                              "INTRIGUE_REGISTRATIONS_PER_HOUR": "5", "INTRIGUE_GAMES_PER_HOUR": "6",
                                "INTRIGUE_OPEN_GAMES_PER_PLAYER": "4", "INTRIGUE_TRUSTED_PROXIES": "2"}).limits
    assert limits == Limits(player_rate=7, anonymous_rate=3, registrations_per_hour=5, games_per_hour=6,
                            open_games=4, trusted_proxies=2)
    assert Settings.from_env({}).with_limits(player_rate=0).limits.player_rate == 0


def test_concurrent_creations_by_one_player_never_pass_the_open_games_ceiling(engine: Engine) -> None:
    """The count and the creation are one atomic step: 30 creations at once leave exactly 10 open games."""
    from concurrent.futures import ThreadPoolExecutor
    from threading import Barrier

    limits = Limits(**{**NONE.__dict__, "open_games": 10})
    clients = [app_client(engine, limits) for _ in range(30)]
    host = {"Authorization": f"Bearer {register(clients[0], 'host')}"}
    body = {"game": "toy", "seats": 2, "options": {}, "time_control": {"seconds_per_move": 60}}
    start = Barrier(30)
    # Every creation reads the count before any of them appends: only the append's own check can hold.
    looked = Barrier(30)
    for client in clients:
        eng = client.application.extensions["intrigue"]
        eng.check_open_games = lambda player_id, ceiling, _check=eng.check_open_games: (
            looked.wait(timeout=20), _check(player_id, ceiling))[1]

    def create(index: int) -> int:
        start.wait(timeout=20)
        return clients[index].post("/v1/games", json=body, headers=host).status_code

    with ThreadPoolExecutor(30) as pool:
        statuses = list(pool.map(create, range(30)))
    assert sorted(statuses) == [201] * 10 + [409] * 20, statuses
    assert engine.redis.zcard(engine.keys.lobby()) == 10
    assert not engine.redis.zcard(engine.keys.creating())
    assert len(engine.redis.keys("intrigue:{g:*}:seed")) == 10
