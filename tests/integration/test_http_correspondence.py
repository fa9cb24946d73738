"""Correspondence play over real HTTP: signed webhooks, time banks, table talk, transcripts.

The server here is ``intrigue serve`` with the operator's switch for private webhook
destinations and a short retry schedule, on its own Redis database; the receivers are
small threaded HTTP servers inside the test, on free ports.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import random
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from itertools import groupby
from typing import Any

import pytest
import requests

from events.envelope import Envelope, parse_time
from projections.record import fold
from service.embedded import EmbeddedRedis, free_port
from tests.integration.conftest import serving_with_workers
from tests.support.client import Client

PAYLOAD_KEYS = {"id", "type", "game", "version", "deadline", "created_at"}
CHAT_RATE = 30


# ------------------------------------------------------------------ the receiver
class Receiver:
    """A local HTTP server recording every POST; ``/flaky`` answers 500 twice per delivery id."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.changed = threading.Condition()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (the http.server API)
                raw = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                delivery = self.headers.get("Intrigue-Delivery", "")
                with receiver.changed:
                    tries = sum(1 for r in receiver.requests if r["path"] == self.path and r["delivery"] == delivery)
                    receiver.requests.append({"path": self.path, "delivery": delivery, "raw": raw,
                                              "headers": dict(self.headers), "at": time.time()})
                    receiver.changed.notify_all()
                status = 500 if self.path == "/flaky" and tries < 2 else 204
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.http.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.http.server_address[1]}{path}"

    def at(self, path: str) -> list[dict[str, Any]]:
        with self.changed:
            return [r for r in self.requests if r["path"] == path]

    def wait_for(self, condition: Callable[[], bool], timeout: float, what: str) -> None:
        """Block until ``condition()`` holds, woken by each request; fail after ``timeout`` seconds."""
        give_up = time.monotonic() + timeout
        with self.changed:
            while not condition():
                remaining = give_up - time.monotonic()
                if remaining <= 0:
                    raise AssertionError(f"timed out waiting for {what}")
                self.changed.wait(min(remaining, 0.5))

    def close(self) -> None:
        self.http.shutdown()
        self.http.server_close()


@pytest.fixture()
def receiver() -> Iterator[Receiver]:
    server = Receiver()
    yield server
    server.close()


@pytest.fixture(scope="module")
def hook_server(redis_server: EmbeddedRedis, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``intrigue serve`` allowing private destinations, retrying after 0.3 s, on Redis database 1."""
    port = free_port()
    log_path = tmp_path_factory.mktemp("hooks") / "serve.log"
    env = {**os.environ, "REDIS_URL": redis_server.url.rsplit("/", 1)[0] + "/1",
           "INTRIGUE_OPERATOR_TOKEN": "operator-secret", "INTRIGUE_LOG_LEVEL": "WARNING",
           "INTRIGUE_RATE_LIMIT": "100000", "INTRIGUE_ADDRESS_RATE_LIMIT": "1000000",
           "INTRIGUE_STREAMS_PER_ADDRESS": "100000", "INTRIGUE_CONNECTIONS_PER_ADDRESS": "100000",
           "INTRIGUE_WEBHOOKS_ALLOW_PRIVATE": "1",
           "INTRIGUE_WEBHOOK_RETRY_BASE": "0.3", "INTRIGUE_CHAT_RATE": str(CHAT_RATE)}
    with serving_with_workers(env, port, log_path) as base:
        yield base




def verify_signature(secret: str, header: str, body: bytes, tolerance: float = 300) -> bool:
    """What docs/correspondence.md shows a receiver doing."""
    fields = dict(part.split("=", 1) for part in header.split(","))
    expected = hmac.new(secret.encode(), f"{fields['t']}.".encode() + body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, fields["v1"]) and abs(time.time() - int(fields["t"])) < tolerance


def newly_awaited(events: list[Envelope]) -> set[tuple[int, int]]:
    """(seat, version) for every commit after which a seat owes a decision it did not owe before."""
    expected, record = set(), None
    for _, batch in groupby(events, key=lambda e: e.cause.get("batch")):
        before = record
        for event in batch:
            record = fold(record, event)
        if before is None:
            continue
        for seat, kind in enumerate(record["awaiting"]):
            if kind is not None and before["awaiting"][seat] is None:
                expected.add((seat, record["version"]))
    return expected


def read_log(client: Client, game_id: str) -> list[Envelope]:
    response = client.request("GET", f"/v1/games/{game_id}/log")
    assert response.status_code == 200, response.text
    events = [Envelope.from_json(line) for line in response.text.splitlines() if line]
    return [e for e in events if e.type != "LogSigned"]  # the game's own events, not the server's signature


# ------------------------------------------------------------------ refusals
def test_a_webhook_to_loopback_or_private_addresses_is_refused_without_the_operators_switch(server: str) -> None:
    player = Client.register(server, "cautious")
    for url in ("http://127.0.0.1:8130/hook", "http://localhost/hook", "http://10.1.2.3/hook",
                "http://169.254.169.254/latest", "http://[::1]:8131/", "http://192.168.0.7/"):
        response = player.request("POST", "/v1/me/webhooks", {"url": url, "events": ["your_turn"]})
        assert response.status_code == 422, (url, response.text)
        assert response.json()["code"] == "webhook_destination_refused"
        assert response.headers["Content-Type"].startswith("application/problem+json")
    for body in ({"url": "ftp://example.org/", "events": ["your_turn"]},
                 {"url": "http://user:pw@example.org/", "events": ["game_over"]}):
        response = player.request("POST", "/v1/me/webhooks", body)
        assert response.status_code == 422 and response.json()["code"] == "bad_webhook_url", response.text
    spec = requests.get(server + "/v1/openapi.json", timeout=5).json()
    for path in ("/v1/me/webhooks", "/v1/me/webhooks/{webhook_id}", "/v1/me/webhooks/{webhook_id}/deliveries",
                 "/v1/games/{game_id}/messages", "/v1/games/{game_id}/transcript"):
        assert path in spec["paths"], path
    assert "reserve_seconds" in spec["components"]["schemas"]["TimeControl"]["properties"]
    bad = player.request("POST", "/v1/me/webhooks", {"url": "http://example.org/", "events": ["your_move"]})
    assert bad.status_code == 400 and bad.json()["code"] == "invalid_body"
    assert player.get("/v1/me/webhooks")["webhooks"] == []


@pytest.mark.parametrize("url", ["http://[::127.0.0.1]/hook", "http://[::ffff:127.0.0.1]/hook",
                                 "http://[64:ff9b::7f00:1]/hook", "http://[64:ff9b::a00:1]:8080/",
                                 "http://[2002:7f00:1::1]/hook", "http://[2002:a9fe:a9fe::1]/latest",
                                 "http://[::ffff:0:7f00:1]/", "http://[64:ff9b:1::808:808]/"])
def test_a_webhook_to_an_ipv6_form_carrying_a_private_ipv4_address_is_refused(server: str, url: str) -> None:
    player = Client.register(server, "disguised")
    response = player.request("POST", "/v1/me/webhooks", {"url": url, "events": ["your_turn"]})
    assert response.status_code == 422 and response.json()["code"] == "webhook_destination_refused", response.text
    assert player.get("/v1/me/webhooks")["webhooks"] == []


@pytest.mark.parametrize("url", ["http://example.org/a hook", "http://exam\tple.org/", "http://example.org/\nx",
                                 "http://example.org/\x00", "http://example.org/\u200bx", " http://example.org/",
                                 "http://example.org:0/hook", "https://[2606:4700:4700::1111]:0/"])
def test_a_webhook_url_with_spaces_control_characters_or_port_0_is_refused(server: str, url: str) -> None:
    player = Client.register(server, "sloppy")
    response = player.request("POST", "/v1/me/webhooks", {"url": url, "events": ["your_turn"]})
    assert response.status_code == 422 and response.json()["code"] == "bad_webhook_url", response.text
    assert player.get("/v1/me/webhooks")["webhooks"] == []


# ------------------------------------------------------------------ webhooks
def test_every_your_turn_arrives_signed_and_a_failing_receiver_gets_it_on_the_third_try(
        hook_server: str, receiver: Receiver) -> None:
    players = [Client.register(hook_server, f"corr{i}") for i in range(3)]
    secrets_by_path: dict[str, str] = {}
    hook_ids = []
    for seat, player in enumerate(players):
        created = player.post("/v1/me/webhooks", {"url": receiver.url(f"/seat{seat}"),
                                                  "events": ["your_turn", "deadline_soon", "game_over"]}, expect=201)
        assert set(created) == {"id", "url", "events", "secret"} and created["secret"]
        secrets_by_path[f"/seat{seat}"] = created["secret"]
        hook_ids.append(created["id"])
    flaky = players[0].post("/v1/me/webhooks", {"url": receiver.url("/flaky"), "events": ["game_over"]}, expect=201)
    secrets_by_path["/flaky"] = flaky["secret"]
    listing = players[0].get("/v1/me/webhooks")["webhooks"]
    assert sorted(h["id"] for h in listing) == sorted([hook_ids[0], flaky["id"]])
    assert all("secret" not in h and h["disabled"] is False for h in listing)

    game_id = players[0].create_game("coup", 3, seconds_per_move=1, autoplay_after=3, autoplay_seconds=1)
    for seat, player in enumerate(players):
        assert player.join(game_id) == seat
    play_to_the_end(players, game_id, random.Random(12))

    events = read_log(players[1], game_id)
    expected = newly_awaited(events)
    assert expected, "the game awaited nobody"
    final_version = events[-1].seq

    def turns(seat: int) -> set[tuple[int, int]]:
        return {(seat, json.loads(r["raw"])["version"]) for r in receiver.at(f"/seat{seat}")
                if json.loads(r["raw"])["type"] == "your_turn"}

    def all_arrived() -> bool:
        return (all(turns(seat) >= {e for e in expected if e[0] == seat} for seat in range(3))
                and all(any(json.loads(r["raw"])["type"] == "game_over" for r in receiver.at(f"/seat{seat}"))
                        for seat in range(3))
                and len(receiver.at("/flaky")) >= 3)

    receiver.wait_for(all_arrived, 60, "every your_turn, game_over and the third flaky try")
    for seat in range(3):
        # Every your_turn arrives, and only for a decision that seat did not owe before.
        assert turns(seat) == {e for e in expected if e[0] == seat}
    committed = {e.seq: parse_time(e.at).timestamp() for e in events}
    delays = sorted(r["at"] - committed[json.loads(r["raw"])["version"]] for seat in range(3)
                    for r in receiver.at(f"/seat{seat}") if json.loads(r["raw"])["type"] == "your_turn")
    print(f"{len(delays)} your_turn deliveries for {final_version} events: commit to receiver "
          f"median {delays[len(delays) // 2] * 1000:.0f} ms, p95 {delays[int(len(delays) * 0.95)] * 1000:.0f} ms")
    for path, secret in secrets_by_path.items():
        for request in receiver.at(path):
            headers, body = request["headers"], json.loads(request["raw"])
            assert verify_signature(secret, headers["Intrigue-Signature"], request["raw"]), path
            assert not verify_signature("not-the-secret", headers["Intrigue-Signature"], request["raw"])
            assert set(body) == PAYLOAD_KEYS and body["game"] == game_id  # a game and a version, never a card
            assert headers["Intrigue-Event"] == body["type"] and headers["Intrigue-Delivery"] == body["id"]
            assert headers["Content-Type"] == "application/json"
            if body["type"] == "your_turn":
                assert body["deadline"] is not None
            if body["type"] == "game_over":
                assert body["version"] == final_version and body["deadline"] is None

    # The failing receiver: the same delivery three times, the same body, then success.
    tries = receiver.at("/flaky")
    assert len(tries) == 3 and len({t["delivery"] for t in tries}) == 1
    assert len({t["raw"] for t in tries}) == 1
    assert tries[1]["at"] - tries[0]["at"] >= 0.3 and tries[2]["at"] - tries[1]["at"] >= 0.6  # it backed off

    def flaky_delivery() -> dict[str, Any]:
        return players[0].get(f"/v1/me/webhooks/{flaky['id']}/deliveries")["deliveries"][0]

    give_up = time.monotonic() + 10
    while flaky_delivery()["status"] != "delivered":  # the worker records the outcome just after the reply
        assert time.monotonic() < give_up, flaky_delivery()
        players[0].events(game_id, after=final_version, wait=1)  # a bounded wait, no sleep
    delivery = flaky_delivery()
    assert delivery["id"] == tries[0]["delivery"] and delivery["attempts"] == 3
    assert delivery["last_status"] == "204" and delivery["next_retry"] is None and delivery["type"] == "game_over"
    other = players[1].request("GET", f"/v1/me/webhooks/{flaky['id']}/deliveries")
    assert other.status_code == 404 and other.json()["code"] == "webhook_not_found"

    # Deleting a webhook: gone from the listing; another player's id is not found.
    assert players[1].request("DELETE", f"/v1/me/webhooks/{flaky['id']}").status_code == 404
    assert players[0].request("DELETE", f"/v1/me/webhooks/{flaky['id']}").status_code == 204
    assert flaky["id"] not in [h["id"] for h in players[0].get("/v1/me/webhooks")["webhooks"]]


def play_to_the_end(players: list[Client], game_id: str, rng: random.Random, timeout: float = 120) -> dict:
    """Every seat plays a random legal action as soon as it may; the clocks play the rest."""
    give_up = time.monotonic() + timeout
    while time.monotonic() < give_up:
        acted = False
        for player in players:
            body = player.game(game_id)
            if body["status"] == "finished":
                return body
            if body["legal_actions"]:
                response = player.request("POST", f"/v1/games/{game_id}/actions", rng.choice(body["legal_actions"]),
                                          headers={"If-Match": str(body["version"])})
                assert response.status_code in (200, 409), response.text  # 409: a clock or a worker moved first
                acted = True
        if not acted:
            players[0].events(game_id, after=players[0].game(game_id)["version"], wait=2)
    raise AssertionError(f"game {game_id} did not finish within {timeout} s")


# ------------------------------------------------------------------ time banks
def test_time_banks_are_spent_before_the_default_move(hook_server: str, receiver: Receiver) -> None:
    """Seat 0 never acts: its first default waits for its 5 s reserve, its next one does not."""
    players = [Client.register(hook_server, f"bank{i}") for i in range(2)]
    hook = players[0].post("/v1/me/webhooks", {"url": receiver.url("/bank"), "events": ["deadline_soon"]},
                           expect=201)
    game_id = players[0].create_game("coup", 2, seconds_per_move=1, reserve_seconds=5, autoplay_after=3,
                                     autoplay_seconds=1)
    for player in players:
        player.join(game_id)
    view = players[1].game(game_id)
    assert view["time_control"]["reserve_seconds"] == 5 and view["reserve"] == [5.0, 5.0]
    assert (parse_time(view["deadlines"]["0"]) - parse_time(view["move_deadlines"]["0"])).total_seconds() == 5

    misses: list[dict] = []
    after = 0
    give_up = time.monotonic() + 40
    while len(misses) < 2:
        assert time.monotonic() < give_up, f"seat 0 missed {len(misses)} deadline(s) in 40 s"
        body = players[1].game(game_id)
        if body["legal_actions"]:  # seat 1 answers at once, so only seat 0's clock matters
            players[1].request("POST", f"/v1/games/{game_id}/actions", {"type": "income"}
                               if {"type": "income"} in body["legal_actions"] else body["legal_actions"][0],
                               headers={"If-Match": str(body["version"])})
            continue
        page = players[1].events(game_id, after=after, wait=2)
        after = page["version"]
        misses += [e for e in page["events"] if e["type"] == "DeadlineMissed" and e["data"]["seat"] == 0]
    events = read_log(Client(hook_server, token="operator-secret"), game_id)
    started = parse_time(next(e for e in events if e.type == "GameStarted").at)
    # The log's exact times (a seat's feed shows them to the minute while the game is on).
    first, second = (parse_time(next(e for e in events if e.seq == m["seq"]).at) for m in misses)
    # The first default lands after the move time and the whole reserve...
    assert (first - started).total_seconds() >= 6
    assert misses[0]["data"]["misses"] == 1 and misses[1]["data"]["misses"] == 2
    # ...the second one, its reserve gone, one move time after its clock started (the commit
    # just before it, which handed seat 0 its turn).
    index = next(i for i, e in enumerate(events) if e.seq == misses[1]["seq"])
    clock = parse_time(events[index - 1].at)
    assert 1 <= (second - clock).total_seconds() < 3
    assert players[0].game(game_id)["reserve"][0] == 0.0
    # deadline_soon came before the first default, when a quarter of the 6 s was left.
    soon = [json.loads(r["raw"]) for r in receiver.at("/bank")]
    assert soon and soon[0]["type"] == "deadline_soon" and soon[0]["game"] == game_id
    assert min(r["at"] for r in receiver.at("/bank")) < first.timestamp()
    assert verify_signature(hook["secret"], receiver.at("/bank")[0]["headers"]["Intrigue-Signature"],
                            receiver.at("/bank")[0]["raw"])


# ------------------------------------------------------------------ table talk
def test_private_chat_never_reaches_a_third_seat_and_everything_is_published_at_the_end(hook_server: str) -> None:
    players = [Client.register(hook_server, name) for name in ("natasha", "sacha", "haig")]
    spectator = Client.register(hook_server, "onlooker")
    game_id = players[0].create_game("coup", 3, seconds_per_move=60)
    for player in players:
        player.join(game_id)
    version = players[0].game(game_id)["version"]

    whisper = players[0].post(f"/v1/games/{game_id}/messages", {"text": "Let us gang up on Haig", "to": 1},
                              expect=201)
    shout = players[2].post(f"/v1/games/{game_id}/messages", {"text": "I see you two"}, expect=201)
    assert whisper["version"] == version and whisper["to"] == 1 and whisper["from"] == 0
    assert shout["to"] is None and shout["id"] > whisper["id"]

    # Chat never moves the version If-Match checks: the pending move still lands.
    assert players[0].game(game_id)["version"] == version
    players[0].act(game_id, {"type": "income"}, if_match=version)

    def texts(client: Client, **params: Any) -> list[str]:
        page = client.get(f"/v1/games/{game_id}/events", params={"after": 0, **params})
        return [e["data"]["text"] for e in page["events"] if e["type"] == "ChatMessage"]

    assert texts(players[1]) == ["Let us gang up on Haig", "I see you two"]
    assert texts(players[0]) == ["Let us gang up on Haig", "I see you two"]
    assert texts(players[2]) == ["I see you two"]
    assert texts(spectator) == ["I see you two"] == texts(Client(hook_server))
    everything = json.dumps(players[2].get(f"/v1/games/{game_id}/events", params={"after": 0}))
    assert "gang up" not in everything
    assert "gang up" not in json.dumps(players[2].get(f"/v1/games/{game_id}/messages"))
    assert "gang up" not in json.dumps(players[2].get(f"/v1/games/{game_id}/replay"))
    assert "gang up" in json.dumps(players[1].get(f"/v1/games/{game_id}/replay"))
    assert "gang up" not in sse_text(hook_server, players[2], game_id)
    assert "gang up" in sse_text(hook_server, players[1], game_id)
    # Resuming after the whisper's frame sends the messages after it, and not the events before.
    resumed = sse_text(hook_server, players[1], game_id, resume=f"{version}/{whisper['id']}")
    assert "gang up" not in resumed and f"id: {version}/{shout['id']}" in resumed
    assert "CardsDealt" not in resumed

    # The feed sorts a message right after the event it followed, and a long-poll wakes for it.
    feed = players[1].get(f"/v1/games/{game_id}/events", params={"after": 0})
    kinds = [(e["type"], e["seq"] if e["seq"] is not None else e["version"]) for e in feed["events"]]
    at = kinds.index(("ChatMessage", version))
    assert kinds[at - 1][1] == version and kinds[at + 2][1] == version + 1
    cursor = feed["messages_after"]
    assert cursor == shout["id"]
    # A client that knows nothing of chat polls after=<version>: it never gets a message twice.
    legacy = players[1].get(f"/v1/games/{game_id}/events", params={"after": version})
    assert [e["seq"] for e in legacy["events"]] and all(e["type"] != "ChatMessage" for e in legacy["events"])
    waker = threading.Timer(0.5, lambda: players[2].post(f"/v1/games/{game_id}/messages", {"text": "hello?"},
                                                         expect=201))
    waker.start()
    started = time.monotonic()
    woken = players[1].get(f"/v1/games/{game_id}/events",
                           params={"after": feed["version"], "messages_after": cursor, "wait": 10})
    waker.join()
    assert time.monotonic() - started < 8
    assert [e["data"]["text"] for e in woken["events"] if e["type"] == "ChatMessage"] == ["hello?"]

    # Bad messages change nothing and say why.
    for body, status, code in (({"text": ""}, 400, "invalid_body"), ({"text": "x" * 501}, 400, "invalid_body"),
                               ({"text": "bell\x07"}, 400, "invalid_body"), ({"text": "two\nlines"}, 400,
                                                                               "invalid_body"),
                               ({"text": "evil \u202etxt.exe"}, 400, "invalid_body"),
                               ({"text": "two\u2028lines"}, 400, "invalid_body"),
                               ({"text": "hi", "to": 7}, 422, "bad_recipient"),
                               ({"text": "hi", "to": 0}, 422, "bad_recipient"),
                               ({"text": "hi", "to": True}, 400, "invalid_body"),
                               ({"text": "hi", "extra": 1}, 400, "invalid_body")):
        response = players[0].request("POST", f"/v1/games/{game_id}/messages", body)
        assert response.status_code == status and response.json()["code"] == code, (body, response.text)
    assert players[0].post(f"/v1/games/{game_id}/messages", {"text": "x" * 500}, expect=201)
    refused = spectator.request("POST", f"/v1/games/{game_id}/messages", {"text": "me too"})
    assert refused.status_code == 403 and refused.json()["code"] == "not_seated"
    assert players[0].request("GET", f"/v1/games/{game_id}/transcript").status_code == 403

    # A per-player rate limit.
    statuses = [players[2].request("POST", f"/v1/games/{game_id}/messages", {"text": f"spam {i}"}).status_code
                for i in range(CHAT_RATE + 1)]
    assert statuses.count(429) >= 1 and 201 in statuses
    limited = players[2].request("POST", f"/v1/games/{game_id}/messages", {"text": "more"})
    assert limited.status_code == 429 and limited.json()["code"] == "chat_rate_limited"
    assert int(limited.headers["Retry-After"]) >= 1

    # The end: two seats resign by losing their cards to coups from the operator's view...
    finish_by_timeouts(players, game_id)
    assert players[0].request("POST", f"/v1/games/{game_id}/messages", {"text": "gg"}).status_code == 409
    # ...and every message is published: the third seat's feed, the list, the transcript.
    assert "Let us gang up on Haig" in texts(players[2])
    assert "Let us gang up on Haig" in [m["text"] for m in players[2].get(f"/v1/games/{game_id}/messages")["messages"]]
    response = spectator.request("GET", f"/v1/games/{game_id}/transcript")
    assert response.status_code == 200 and response.headers["Content-Type"].startswith("text/plain")
    lines = response.text.splitlines()
    assert lines[0].startswith("coup for 3 seats")
    assert "    [chat] seat 0 (natasha) to seat 1 (sacha): Let us gang up on Haig" in lines
    assert "    [chat] seat 2 (haig) to everyone: I see you two" in lines
    chat_at = lines.index("    [chat] seat 0 (natasha) to seat 1 (sacha): Let us gang up on Haig")
    assert lines[chat_at - 1].startswith("Deal - ")  # said right after the deal, before the first move
    assert lines[chat_at + 2] == "Turn 1 - seat 0 takes income: 2 -> 3 coins"
    assert lines[-1].startswith("The game ends (last standing)")


def sse_text(server: str, client: Client, game_id: str, resume: str | None = None) -> str:
    """What an SSE stream sends up to the public message (or a 3 s pause: a running game's stream never ends)."""
    seen = []
    headers = client.headers({"Last-Event-ID": resume} if resume else None)
    with client.http.get(f"{server}/v1/games/{game_id}/events/stream", headers=headers, stream=True,
                         timeout=(5, 3)) as response:
        assert response.status_code == 200
        try:
            for line in response.iter_lines(decode_unicode=True):
                seen.append(line)
                if line.startswith("data:") and '"ChatMessage"' in line and "I see you two" in line:
                    break
        except requests.exceptions.ConnectionError:
            pass
    return "\n".join(seen)


def finish_by_timeouts(players: list[Client], game_id: str, timeout: float = 120) -> None:
    """Seat 0 launches coups until it is the last one standing; the others take income."""
    give_up = time.monotonic() + timeout
    while time.monotonic() < give_up:
        for seat, player in enumerate(players):
            body = player.game(game_id)
            if body["status"] == "finished":
                return
            legal = body["legal_actions"]
            if not legal:
                continue
            kinds = {a["type"]: a for a in legal}
            if seat == 0:
                action = kinds.get("coup") or kinds.get("income") or kinds.get("pass") or legal[0]
            else:
                action = kinds.get("income") or kinds.get("pass") or legal[0]
            response = player.request("POST", f"/v1/games/{game_id}/actions", action,
                                      headers={"If-Match": str(body["version"])})
            assert response.status_code in (200, 409), response.text
    raise AssertionError("the game did not finish")
