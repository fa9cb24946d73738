"""The production server's own refusals are problem+json too (gunicorn, as the image runs it)."""

from __future__ import annotations

import os
import subprocess
import sys

import requests

from service.embedded import EmbeddedRedis, free_port
from tests.integration.conftest import ROOT, wait_for_server


def test_gunicorn_answers_a_header_over_its_limit_with_a_problem(redis_server: EmbeddedRedis, tmp_path) -> None:
    port = free_port()
    env = {**os.environ, "REDIS_URL": redis_server.url, "INTRIGUE_LOG_LEVEL": "WARNING",
           "GUNICORN_CMD_ARGS": "--config python:service.gunicorn_conf"}
    log = tmp_path / "gunicorn.log"
    with open(log, "wb") as out:
        process = subprocess.Popen([sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{port}", "--workers", "1",
                                    "service.wsgi:app"], cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        wait_for_server(process, f"http://127.0.0.1:{port}", log.read_text)
        response = requests.post(f"http://127.0.0.1:{port}/v1/players", json={"name": "x"}, timeout=10,
                                 headers={"Idempotency-Key": "k" * 20_000})
        assert response.status_code == 431, response.text
        assert response.headers["Content-Type"] == "application/problem+json"
        assert response.json()["code"] == "headers_too_large"
        # The same processes serve the web client at / and at a game's address.
        page = requests.get(f"http://127.0.0.1:{port}/games/abc", timeout=10, headers={"Connection": "close"})
        assert page.status_code == 200 and '<script type="module" src="/static/app.js">' in page.text
    finally:
        process.terminate()
        process.wait(timeout=20)
