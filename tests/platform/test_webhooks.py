"""Webhook deliveries on a real Redis and a real local receiver, with the delivery clock in the test's hands."""

from __future__ import annotations

import json
import re
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from engine.core import Engine
from engine.errors import DomainError as Problem
from engine.webhooks import RetryPolicy, Webhooks, address_allowed, resolve_destination, sign
from events.envelope import parse_time
from service.answers import status_of
from workers import webhooks as webhook_jobs

ROOT = Path(__file__).resolve().parents[2]


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class Answering:
    """A local receiver answering every POST with one status (and a Location for redirects)."""

    def __init__(self, status: int) -> None:
        self.status = status
        self.paths: list[str] = []
        self.hosts: list[str] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                outer.paths.append(self.path)
                outer.hosts.append(self.headers.get("Host", ""))
                self.send_response(outer.status)
                self.send_header("Location", "/elsewhere")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.http.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.http.server_address[1]}/hook"


@pytest.fixture()
def failing() -> Iterator[Answering]:
    server = Answering(500)
    yield server
    server.http.shutdown()
    server.http.server_close()


@pytest.fixture()
def hooks(engine: Engine, monkeypatch: pytest.MonkeyPatch) -> Webhooks:
    hooks = engine.hooks
    monkeypatch.setattr(hooks, "private_ok", True)  # INTRIGUE_WEBHOOKS_ALLOW_PRIVATE=1
    hooks.policy = RetryPolicy()  # the defaults, whatever the environment says
    hooks.clock = Clock(1_800_000_000.0)
    return hooks


def test_the_default_schedule_backs_off_exponentially_and_retries_for_at_least_a_day() -> None:
    policy = RetryPolicy()
    delays = [policy.delay(n) for n in range(1, 30)]
    assert delays[:4] == [30, 60, 120, 240] and max(delays) == policy.cap
    elapsed, attempts = 0.0, 1
    while elapsed < policy.retry_for:  # a delivery is retried until it is a day old
        elapsed += policy.delay(attempts)
        attempts += 1
    assert policy.retry_for >= 24 * 3600 and policy.disable_after == 3 * 86400
    assert 10 <= attempts <= 20, attempts


def test_only_global_addresses_pass_unless_the_operator_allows_private_ones() -> None:
    for address in ("127.0.0.1", "10.0.0.8", "172.16.3.4", "192.168.1.1", "169.254.169.254", "100.64.0.1",
                    "0.0.0.0", "::1", "fe80::1", "fc00::5", "::ffff:127.0.0.1", "224.0.0.1"):
        assert not address_allowed(address, private_ok=False), address
        assert address_allowed(address, private_ok=True), address
    for address in ("93.184.216.34", "2606:4700:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808",
                    "2002:808:808::1"):
        assert address_allowed(address, private_ok=False), address
    for address in ("::7f00:1", "64:ff9b::7f00:1", "64:ff9b::c0a8:101", "2002:7f00:1::1", "2002:a00:1::",
                    "::ffff:0:7f00:1", "64:ff9b:1::808:808", "2001:0:4136:e378:8000:63bf:3fff:fdd2"):
        assert not address_allowed(address, private_ok=False), address
    with pytest.raises(Exception) as refused:
        resolve_destination("http://localhost:8130/x", private_ok=False)
    assert refused.value.code == "webhook_destination_refused"
    with pytest.raises(Exception) as portless:
        resolve_destination("http://localhost:0/x", private_ok=True)
    assert portless.value.code == "bad_webhook_url"
    pinned = resolve_destination("http://localhost:8130/x?y=1", private_ok=True)
    assert pinned.address in ("127.0.0.1", "::1") and pinned.target == "/x?y=1" and pinned.port == 8130


def test_a_failing_destination_is_retried_for_a_day_and_disabled_after_three(hooks: Webhooks,
                                                                            failing: Answering) -> None:
    clock = hooks.clock
    created = hooks.create("p1", failing.url, ["your_turn"])
    assert hooks.dispatch("p1", "your_turn", "g1", 7, 0, None, "7") == 1  # created, first attempt made
    assert hooks.dispatch("p1", "your_turn", "g1", 7, 0, None, "7") == 0  # a repeated job creates nothing new
    (delivery,) = hooks.deliveries("p1", created["id"])
    assert delivery["attempts"] == 1 and delivery["status"] == "pending" and delivery["last_status"] == "500"
    assert hooks.deliver(delivery["id"]) == "not_due"  # the next try waits for its backoff
    clock.now += 30
    assert hooks.deliver(delivery["id"]) == "failed"
    clock.now += 24 * 3600  # a day later the last try fails and the delivery gives up
    assert hooks.deliver(delivery["id"]) == "failed"
    (delivery,) = hooks.deliveries("p1", created["id"])
    assert delivery["status"] == "failed" and delivery["attempts"] == 3 and delivery["next_retry"] is None
    assert hooks.deliver(delivery["id"]) == "not_due"
    assert hooks.listing("p1")[0]["disabled"] is False  # failing for a day is not yet three

    clock.now += 2 * 86400
    assert hooks.dispatch("p1", "your_turn", "g1", 9, 0, None, "9") == 1  # its first attempt fails too
    assert hooks.deliveries("p1", created["id"])[0]["last_status"] == "500"
    (listed,) = hooks.listing("p1")
    assert listed["disabled"] is True and "3 days" in listed["disabled_reason"] and "secret" not in listed
    assert hooks.dispatch("p1", "your_turn", "g1", 11, 0, None, "11") == 0  # a disabled webhook gets nothing
    assert failing.paths == ["/hook"] * 4


def test_a_redirect_is_a_failure_and_is_not_followed(hooks: Webhooks) -> None:
    moved = Answering(302)
    try:
        created = hooks.create("p2", moved.url, ["game_over"])
        hooks.dispatch("p2", "game_over", "g2", 40, 1, None, "40")
        (delivery,) = hooks.deliveries("p2", created["id"])
        assert delivery["status"] == "pending" and delivery["attempts"] == 1
        assert moved.paths == ["/hook"]  # never /elsewhere
        assert hooks.deliveries("p2", created["id"])[0]["last_status"] == "302"
    finally:
        moved.http.shutdown()
        moved.http.server_close()


def test_registration_refuses_private_destinations_without_the_switch(engine: Engine,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    assert not engine.hooks.private_ok  # INTRIGUE_WEBHOOKS_ALLOW_PRIVATE unset
    with pytest.raises(Problem) as refused:
        engine.hooks.create("p3", "http://127.0.0.1:8130/hook", ["your_turn"])
    assert status_of(refused.value) == 422 and refused.value.code == "webhook_destination_refused"
    assert engine.hooks.listing("p3") == []


def test_the_docs_show_how_to_verify_a_signature() -> None:
    readme = (ROOT / "docs" / "correspondence.md").read_text(encoding="utf-8")
    block = re.search(r"```python\n(.*?def verify_intrigue_signature.*?)```", readme, re.S)
    assert block, "docs/correspondence.md has no signature check in Python"
    namespace: dict = {}
    exec(block.group(1), namespace)  # noqa: S102 (our own README)
    verify = namespace["verify_intrigue_signature"]
    body = json.dumps({"id": "d1", "type": "your_turn"}).encode()
    header = sign("s3cret", 1_800_000_000, body)
    assert verify("s3cret", header, body, now=1_800_000_010)
    assert not verify("other", header, body, now=1_800_000_010)
    assert not verify("s3cret", header, body + b" ", now=1_800_000_010)
    assert not verify("s3cret", header, body, now=1_800_000_000 + 3600)  # a replayed old delivery


def test_the_check_applies_to_the_address_connected_to(hooks: Webhooks, monkeypatch: pytest.MonkeyPatch) -> None:
    """A name that resolved to a public address at registration and to loopback later is refused then;
    with the switch on, the connection goes to the address resolved, under the URL's host name."""
    receiver = Answering(204)
    port = receiver.http.server_address[1]
    answers = {"hooks.example": "93.184.216.34"}
    real = socket.getaddrinfo

    def fake_getaddrinfo(host, *args, **kwargs):
        if host in answers:
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (answers[host], port))]
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", fake_getaddrinfo)
    monkeypatch.setattr(hooks, "private_ok", False)
    try:
        created = hooks.create("p4", f"http://hooks.example:{port}/rebound", ["your_turn"])
        answers["hooks.example"] = "127.0.0.1"  # the name now points at the server's own loopback
        hooks.dispatch("p4", "your_turn", "g4", 3, 0, "2030-01-01T00:00:00.000Z", "3")
        (delivery,) = hooks.deliveries("p4", created["id"])
        assert delivery["attempts"] == 1 and delivery["last_status"] == "webhook_destination_refused"
        assert receiver.paths == []  # nothing was sent there

        monkeypatch.setattr(hooks, "private_ok", True)
        hooks.clock.now += 60
        assert hooks.deliver(delivery["id"]) == "delivered"
        assert receiver.paths == ["/rebound"] and receiver.hosts == [f"hooks.example:{port}"]
    finally:
        receiver.http.shutdown()
        receiver.http.server_close()


def test_a_receiver_slower_than_the_timeout_is_a_failure(hooks: Webhooks, monkeypatch: pytest.MonkeyPatch) -> None:
    release = threading.Event()

    class Slow(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802
            release.wait(10)  # answers only once the test has seen the attempt fail
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Slow)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    monkeypatch.setattr("engine.webhooks.TIMEOUT_SECONDS", 0.5)  # 5 s in production
    try:
        created = hooks.create("p5", f"http://127.0.0.1:{server.server_address[1]}/slow", ["game_over"])
        hooks.dispatch("p5", "game_over", "g5", 12, 0, None, "12")
        after = hooks.deliveries("p5", created["id"])[0]
        assert after["status"] == "pending" and after["attempts"] == 1 and "Timeout" in after["last_status"]
    finally:
        release.set()
        server.shutdown()
        server.server_close()


def test_deadline_soon_is_booked_at_three_quarters_and_asked_for_by_the_sweep(
        engine: Engine, hooks: Webhooks, monkeypatch: pytest.MonkeyPatch) -> None:
    receiver = Answering(204)
    try:
        players = [engine.create_player(f"soon{i}")[0] for i in range(2)]
        created = hooks.create(players[1].id, receiver.url, ["deadline_soon"])
        game_id = engine.create_game(players[0], "toy", 2, {}, {"seconds_per_move": 100})["id"]
        for player in players:
            engine.join(player, game_id)
        record = engine.load(game_id)
        started, deadline = parse_time(record["updated_at"]).timestamp(), record["deadlines"][1]
        booked = engine.redis.zrange(engine.keys.deadlines_soon(), 0, -1, withscores=True)
        # Only seat 1's player has a webhook: one check, when 25 of its 100 s are left.
        assert [(json.loads(member), score) for member, score in booked] == [
            ([game_id, 1, deadline], pytest.approx(started + 75, abs=0.01))]

        assert hooks.sweep(now=started + 74) == 0
        assert hooks.sweep(now=started + 75.5) == 1
        assert engine.redis.zcard(engine.keys.deadlines_soon()) == 0  # taken by this sweep, no other
        (job_id,) = [j for j in hooks.queue.job_ids if j.startswith("soon-")]
        job = hooks.queue.fetch_job(job_id)
        assert job.func_name == "workers.webhooks.deadline_soon" and job.args == [game_id, 1, deadline]

        monkeypatch.setattr("workers.jobs._engine", engine)  # what a worker process installs
        assert webhook_jobs.deadline_soon(game_id, 1, deadline) == 1
        assert webhook_jobs.deadline_soon(game_id, 1, deadline) == 0  # asked twice: one delivery
        (delivery,) = hooks.deliveries(players[1].id, created["id"])
        assert delivery["status"] == "delivered" and delivery["type"] == "deadline_soon"
        assert receiver.paths == ["/hook"]
        engine.act(players[1], game_id, {"type": "pick", "number": 2})
        assert webhook_jobs.deadline_soon(game_id, 1, deadline) == 0  # seat 1 no longer owes that decision
    finally:
        receiver.http.shutdown()
        receiver.http.server_close()


@pytest.mark.parametrize("steps_in_commit", [True, False])
def test_the_seat_that_completes_a_phase_is_told_of_its_next_turn_whoever_takes_the_step(
        engine: Engine, hooks: Webhooks, monkeypatch: pytest.MonkeyPatch, steps_in_commit: bool) -> None:
    """Seat 1's pick completes the round and the reveal awaits both seats again: the player who
    just picked owes a new decision and gets a your_turn, as when a worker took the reveal."""
    engine.steps_in_commit = steps_in_commit
    players = [engine.create_player(f"turns{i}")[0] for i in range(2)]
    for player in players:
        hooks.create(player.id, "http://127.0.0.1:9/hook", ["your_turn"])
    game_id = engine.create_game(players[0], "toy", 2, {}, {"seconds_per_move": 100})["id"]
    for player in players:
        engine.join(player, game_id)
    told: list[tuple[int, str, int]] = []
    real = hooks.after_commit

    def record_notes(record, notes, flags, since=None) -> None:
        told.extend((record["version"], kind, seat) for kind, seat, _ in notes if kind == "your_turn")
        real(record, notes, flags, since)

    monkeypatch.setattr(hooks, "after_commit", record_notes)
    engine.act(players[0], game_id, {"type": "pick", "number": 3})
    engine.act(players[1], game_id, {"type": "pick", "number": 2})
    if not steps_in_commit:
        assert engine.advance(game_id) == "resolved"
    version = engine.load(game_id)["version"]
    assert sorted(told) == [(version, "your_turn", 0), (version, "your_turn", 1)]
