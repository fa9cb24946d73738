"""The production server's own refusals are problem+json too (gunicorn, as the image runs it)."""

from __future__ import annotations

import os

import requests

from service.embedded import EmbeddedRedis
from tests.integration.conftest import gunicorn_serving


def test_gunicorn_answers_a_header_over_its_limit_with_a_problem(redis_server: EmbeddedRedis, tmp_path) -> None:
    env = {**os.environ, "REDIS_URL": redis_server.url, "INTRIGUE_LOG_LEVEL": "WARNING"}
    with gunicorn_serving(env, tmp_path / "gunicorn.log") as base:
        response = requests.post(f"{base}/v1/players", json={"name": "x"}, timeout=10,
                                 headers={"Idempotency-Key": "k" * 20_000})
        assert response.status_code == 431, response.text
        assert response.headers["Content-Type"] == "application/problem+json"
        assert response.json()["code"] == "headers_too_large"
        # The same processes serve the web client at / and at a game's address.
        page = requests.get(f"{base}/games/abc", timeout=10, headers={"Connection": "close"})
        assert page.status_code == 200 and '<script type="module" src="/static/app.js">' in page.text
