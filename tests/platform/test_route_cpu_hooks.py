"""The bench's CPU accounting by route charges each stretch of CPU to the request that ran it.

The hooks read the process's CPU clock; here a fake clock advances by hand, so the
expected totals are exact.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import greenlet
import pytest

from bench import route_cpu_hooks as hooks


@dataclass
class Clock:
    now: float = 0.0

    def process_time(self) -> float:
        return self.now


@dataclass
class Req:
    method: str
    path: str


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    fake = Clock()
    monkeypatch.setattr(hooks, "time", fake)
    monkeypatch.setattr(hooks, "_cpu", {})
    monkeypatch.setattr(hooks, "_requests", {})
    monkeypatch.setattr(hooks, "_last", [0.0])
    previous = greenlet.settrace(hooks._on_switch)
    yield fake
    greenlet.settrace(previous)


def test_interleaved_requests_are_each_charged_their_own_cpu(clock: Clock, tmp_path, monkeypatch) -> None:
    def post() -> None:
        hooks.pre_request(None, Req("POST", "/v1/games/0123456789ab/actions"))
        clock.now += 3
        stream.switch()  # waits on Redis: another request runs meanwhile
        clock.now += 4
        hooks.post_request(None, None, None, None)
        clock.now += 1  # gunicorn reads the next request

    def watch() -> None:
        hooks.pre_request(None, Req("GET", "/v1/games/ba9876543210/events/stream"))
        clock.now += 2
        poster.switch()

    poster, stream = greenlet.greenlet(post), greenlet.greenlet(watch)
    clock.now += 5  # before any request: not charged to one
    poster.switch()

    assert hooks._cpu == {hooks.OTHER: 5, "POST /v1/games/<id>/actions": 7,
                          "GET /v1/games/<id>/events/stream": 2, hooks.BETWEEN: 1}
    assert hooks._requests == {"POST /v1/games/<id>/actions": 1, "GET /v1/games/<id>/events/stream": 1}

    monkeypatch.setattr(hooks.os, "getpid", lambda: 4242)
    hooks._dump(tmp_path)
    assert json.loads((tmp_path / "4242.json").read_text())["POST /v1/games/<id>/actions"] == [7, 1]
