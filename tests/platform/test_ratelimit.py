"""The per-player token bucket."""

from service.ratelimit import RateLimiter


def test_bucket_allows_a_burst_then_asks_to_wait() -> None:
    limiter = RateLimiter(rate=1, burst=3)
    assert [limiter.allow("a") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert limiter.allow("a") > 0
    assert limiter.allow("b") == 0.0


def test_zero_rate_turns_limiting_off() -> None:
    limiter = RateLimiter(rate=0, burst=0)
    assert all(limiter.allow("a") == 0.0 for _ in range(1000))


def test_api_answers_429_with_retry_after_when_a_player_floods(engine) -> None:
    from service.app import create_app

    app = create_app(engine, rate_limit=1)
    client = app.test_client()
    token = client.post("/v1/players", json={"name": "flood"}).get_json()["token"]
    statuses = [client.get("/v1/me/games", headers={"Authorization": f"Bearer {token}"}) for _ in range(4)]
    assert [r.status_code for r in statuses[:2]] == [200, 200]
    limited = statuses[-1]
    assert limited.status_code == 429 and limited.mimetype == "application/problem+json"
    assert limited.get_json()["code"] == "rate_limited" and int(limited.headers["Retry-After"]) >= 1
