"""Issue 47, item 5: a redirect the server makes names no host, whatever the Host header says.

Werkzeug's routing redirects ``/v1//games`` to ``/v1/games`` (308) and wrote the request's
Host header into ``Location``: a caching proxy could have served ``http://evil.example/...``
to everyone. Under ``intrigue serve`` (its short path reads requests itself) and under
gunicorn as the image runs it, the Location is the path alone.
"""

from __future__ import annotations

import os
import socket
from urllib.parse import urlsplit

import requests

from service.embedded import EmbeddedRedis
from tests.integration.conftest import gunicorn_serving

#: Targets that routing redirects, and where to.
REDIRECTED = {"/v1//games": "/v1/games", "/v1//games?status=open": "/v1/games?status=open",
              "/v1/leaderboards//coup": "/v1/leaderboards/coup"}


def raw_location(base: str, target: str, host: str) -> tuple[int, str]:
    """A GET written by hand (no client tidies the target or the Host), its status and Location."""
    parts = urlsplit(base)
    with socket.create_connection((parts.hostname, parts.port), timeout=10) as sock:
        sock.sendall(f"GET {target} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    assert b"evil.example" not in body
    return int(lines[0].split()[1]), headers.get("Location", "")


def assert_relative_redirects(base: str) -> None:
    for target, expected in REDIRECTED.items():
        for host in ("evil.example", urlsplit(base).netloc):
            status, location = raw_location(base, target, host)
            assert (status, location) == (308, expected), (target, host)
    followed = requests.get(f"{base}/v1//games", timeout=10)
    assert followed.status_code == 200 and followed.history[0].status_code == 308


def test_intrigue_serve_redirects_to_a_path_not_to_the_host_asked(server: str) -> None:
    assert_relative_redirects(server)


def test_gunicorn_redirects_to_a_path_not_to_the_host_asked(redis_server: EmbeddedRedis, tmp_path) -> None:
    env = {**os.environ, "REDIS_URL": redis_server.url, "INTRIGUE_LOG_LEVEL": "WARNING"}
    with gunicorn_serving(env, tmp_path / "gunicorn.log") as base:
        assert_relative_redirects(base)
