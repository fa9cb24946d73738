"""Standing orders over HTTP (issue 49): the resource, answers in the opening commit, secrecy, clocks, audit."""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Iterator
from functools import partial
from typing import Any

import pytest
import requests

from events.envelope import GENESIS_HASH, seal
from games import registry
from projections.audit import AuditError, audit, read_log
from service.embedded import free_port
from tests.integration.conftest import UNREACHABLE_LIMITS, gunicorn_serving, serving_with_workers
from tests.integration.test_http_correspondence import Receiver
from tests.support.client import Client
from tests.support.observer import INCIDENTAL, normalise

#: Seat 0: duke, contessa; seat 1: duke, captain; seat 2: ambassador, assassin.
DECK = ["duke", "contessa", "duke", "captain", "ambassador", "assassin",
        "captain", "contessa", "ambassador", "assassin", "duke", "captain", "contessa", "ambassador", "assassin"]
OPERATOR = {"Authorization": "Bearer operator-secret"}
#: "Allow unless I am targeted": the common order of a seat not in the line of fire.
ALLOW_UNLESS_TARGETED = {"decision": "react", "when": {"targeted": False}, "answer": {"type": "pass"}}


def _table(server: str, seats: int = 3, **time_control: int) -> tuple[list[Client], str]:
    players = [Client.register(server, f"orders{i}") for i in range(seats)]
    game_id = players[0].create_game("coup", seats, {"deck": DECK} if seats == 3 else {}, **time_control)
    for seat, player in enumerate(players):
        assert player.join(game_id) == seat
    return players, game_id


def _put(player: Client, game_id: str, orders: Any, expect: int = 200) -> Any:
    response = player.request("PUT", f"/v1/games/{game_id}/orders", {"orders": orders})
    assert response.status_code == expect, response.text
    return response.json()


def _log(server: str, game_id: str) -> list[dict[str, Any]]:
    response = requests.get(f"{server}/v1/games/{game_id}/log", headers=OPERATOR, timeout=10)
    assert response.status_code == 200, response.text
    return [json.loads(line) for line in response.text.splitlines() if line.strip()]


def test_orders_are_replaced_read_and_cleared(server: str) -> None:
    players, game_id = _table(server)
    answer = _put(players[1], game_id, [ALLOW_UNLESS_TARGETED])
    assert answer == {"orders": [{**ALLOW_UNLESS_TARGETED, "once": False}]}
    assert players[1].get(f"/v1/games/{game_id}/orders") == answer
    assert players[2].get(f"/v1/games/{game_id}/orders") == {"orders": []}  # each seat reads its own
    response = players[1].request("DELETE", f"/v1/games/{game_id}/orders")
    assert response.status_code == 204
    assert players[1].get(f"/v1/games/{game_id}/orders") == {"orders": []}
    assert len(_put(players[2], game_id, [ALLOW_UNLESS_TARGETED] * 20)["orders"]) == 20  # the most a seat keeps


@pytest.mark.parametrize(("orders", "index", "field"), [
    ([{"decision": "bid", "answer": {"type": "pass"}}], 0, "decision"),
    ([ALLOW_UNLESS_TARGETED, {"decision": "react", "when": {"hungry": True}, "answer": {"type": "pass"}}],
     1, "when.hungry"),
    ([{"decision": "react", "when": {"targeted": "yes"}, "answer": {"type": "pass"}}], 0, "when.targeted"),
    ([{"decision": "react", "when": {"actor": 7}, "answer": {"type": "pass"}}], 0, "when.actor"),
    ([{"decision": "react", "when": {"claim": "pope"}, "answer": {"type": "pass"}}], 0, "when.claim"),
    ([{"decision": "react", "answer": "pass"}], 0, "answer"),
    ([{"decision": "react", "answer": {"type": "pass"}, "once": "yes"}], 0, "once"),
    ([{"decision": "react", "answer": {"type": "pass"}, "then": 1}], 0, "then"),
    ([{"decision": "react", "answer": {"type": "block", "card": 2**70}}], 0, "answer"),
    ([ALLOW_UNLESS_TARGETED] * 21, 20, "orders"),
    # The answer is checked against the game's action schema: its type, its fields, their shapes.
    ([ALLOW_UNLESS_TARGETED, {"decision": "react", "answer": {"type": "fly"}}], 1, "answer.type"),
    ([{"decision": "react", "answer": {"type": "block"}}], 0, "answer.card"),
    ([{"decision": "react", "answer": {"type": "block", "card": 3}}], 0, "answer.card"),
    ([{"decision": "react", "answer": {"type": "pass", "loudly": True}}], 0, "answer.loudly"),
])
def test_a_bad_order_is_refused_naming_the_order_and_field(server: str, orders: Any, index: int, field: str) -> None:
    players, game_id = _table(server)
    _put(players[1], game_id, [ALLOW_UNLESS_TARGETED])
    problem = _put(players[1], game_id, orders, expect=422)
    assert (problem["code"], problem["order"], problem["field"]) == ("bad_order", index, field)
    assert players[1].get(f"/v1/games/{game_id}/orders")["orders"] == [{**ALLOW_UNLESS_TARGETED, "once": False}]


def test_only_a_seated_player_in_a_game_not_over_keeps_orders(server: str) -> None:
    players, game_id = _table(server, seats=2)
    stranger = Client.register(server, "stranger")
    assert _put(stranger, game_id, [ALLOW_UNLESS_TARGETED], expect=403)["code"] == "not_seated"
    assert stranger.request("GET", f"/v1/games/{game_id}/orders").json()["code"] == "not_seated"
    cleared = stranger.request("DELETE", f"/v1/games/{game_id}/orders")
    assert (cleared.status_code, cleared.json()["code"]) == (403, "not_seated")
    missing = players[0].request("PUT", "/v1/games/no-such-game/orders", {"orders": []})
    assert (missing.status_code, missing.json()["code"]) == (404, "game_not_found")
    players[1].post(f"/v1/games/{game_id}/resign")  # two seats: the game ends
    assert _put(players[0], game_id, [ALLOW_UNLESS_TARGETED], expect=409)["code"] == "game_over"
    assert players[0].request("DELETE", f"/v1/games/{game_id}/orders").json()["code"] == "game_over"


def test_an_order_answers_in_the_commit_that_opens_the_decision(server: str) -> None:
    players, game_id = _table(server)
    for seat in (1, 2):
        _put(players[seat], game_id, [ALLOW_UNLESS_TARGETED])
    before = players[0].game(game_id)["version"]
    answer = players[0].act(game_id, {"type": "tax"})
    # Both passed and the window closed in the very commit of the tax: seat 1 owes its turn.
    assert answer["game"]["awaiting_kinds"] == {"1": "turn"}
    events = _log(server, game_id)
    batch = [e for e in events if e["seq"] > before and e["type"] != "StandingOrdersSet"]
    passes = [e for e in batch if e["type"] == "Passed"]
    assert [e["actor"] for e in passes] == [1, 2]
    for event in passes:
        assert event["cause"]["kind"] == "player"
        assert event["cause"]["order"] == {"index": 0, **ALLOW_UNLESS_TARGETED, "once": False}
        assert event["cause"]["follows"] == before + 1
    assert {e["at"] for e in batch} == {batch[0]["at"]}  # one commit


def test_a_targeted_seat_is_asked_as_usual(server: str) -> None:
    players, game_id = _table(server)
    _put(players[1], game_id, [ALLOW_UNLESS_TARGETED])
    answer = players[0].act(game_id, {"type": "steal", "target": 1})
    assert answer["game"]["awaiting_kinds"] == {"1": "react", "2": "react"}


def test_an_illegal_answer_is_skipped_for_the_next_order_or_the_seat(server: str) -> None:
    players, game_id = _table(server)
    block_tax = {"decision": "react", "answer": {"type": "block", "card": "contessa"}}  # a tax cannot be blocked
    _put(players[1], game_id, [block_tax])
    _put(players[2], game_id, [block_tax, {"decision": "react", "answer": {"type": "pass"}}])
    answer = players[0].act(game_id, {"type": "tax"})
    assert answer["game"]["awaiting_kinds"] == {"1": "react"}  # seat 2's second order passed; seat 1 is asked


def test_a_once_order_is_spent_when_it_answers(server: str) -> None:
    players, game_id = _table(server)
    once = {"decision": "react", "answer": {"type": "pass"}, "once": True}
    _put(players[1], game_id, [once, ALLOW_UNLESS_TARGETED])
    _put(players[2], game_id, [ALLOW_UNLESS_TARGETED])
    players[0].act(game_id, {"type": "tax"})
    assert players[1].get(f"/v1/games/{game_id}/orders")["orders"] == [{**ALLOW_UNLESS_TARGETED, "once": False}]
    passes = [e for e in _log(server, game_id) if e["type"] == "Passed" and e["actor"] == 1]
    assert passes[0]["cause"]["order"]["once"] is True


def test_setting_orders_moves_no_version_and_no_feed(server: str) -> None:
    players, game_id = _table(server)
    seen = [players[seat].events(game_id, after=0) for seat in (0, 2)]
    lobby_card = players[0].game(game_id)
    _put(players[1], game_id, [ALLOW_UNLESS_TARGETED])
    players[1].request("DELETE", f"/v1/games/{game_id}/orders")
    _put(players[1], game_id, [ALLOW_UNLESS_TARGETED])
    assert [players[seat].events(game_id, after=0) for seat in (0, 2)] == seen
    assert players[0].game(game_id) == lobby_card
    stream = requests.get(f"{server}/v1/games/{game_id}/events", params={"after": lobby_card["version"]},
                          headers={"Authorization": f"Bearer {players[2].token}"}, timeout=10).json()
    assert stream["events"] == []


def test_an_order_starts_no_deadline_and_spends_no_reserve(server: str) -> None:
    players, game_id = _table(server, seconds_per_move=3600, reserve_seconds=600)
    _put(players[1], game_id, [ALLOW_UNLESS_TARGETED])
    game = players[0].act(game_id, {"type": "tax"})["game"]
    assert game["awaiting_kinds"] == {"2": "react"}
    assert set(game["deadlines"]) == {"2"}
    assert game["reserve"][1] == 600
    inbox = players[1].get("/v1/me/games", params={"awaiting": "me"})["games"]
    assert game_id not in [entry["id"] for entry in inbox]


class _Stream:
    """One caller's live server-sent event stream of a game (``view=true``), its frames kept."""

    def __init__(self, base: str, token: str | None, game_id: str) -> None:
        self.frames: list[dict[str, str]] = []
        self.changed = threading.Condition()
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self.response = requests.get(f"{base}/v1/games/{game_id}/events/stream", params={"view": "true"},
                                     headers=headers, stream=True, timeout=(5, 60))
        assert self.response.status_code == 200, self.response.text
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()
        self.wait(lambda: bool(self.frames), "the stream's opening view")

    def _read(self) -> None:
        frame: dict[str, str] = {}
        try:
            for line in self.response.iter_lines(decode_unicode=True):
                if line.startswith(":"):
                    continue  # a keep-alive
                if line:
                    key, _, value = line.partition(": ")
                    frame[key] = value
                    continue
                with self.changed:
                    self.frames.append(frame)
                    self.changed.notify_all()
                frame = {}
        except (requests.exceptions.RequestException, AttributeError):
            pass  # closed by close(), under the read

    def wait(self, condition: Any, what: str, timeout: float = 30) -> None:
        give_up = time.monotonic() + timeout
        with self.changed:
            while not condition():
                assert time.monotonic() < give_up, f"timed out waiting for {what}"
                self.changed.wait(0.5)

    def close(self) -> None:
        self.response.close()
        self.thread.join(10)

    def seen_through(self, version: int, game_id: str) -> Any:
        """Every event frame, and the last view, once the view of ``version`` was sent.

        How a stream cuts its frames into pages (a view after each) depends on when it reads,
        between any two games: the events it sends and the view it ends on do not."""
        self.wait(lambda: any(f.get("event") == "game" and json.loads(f["data"])["version"] == version
                              for f in self.frames), f"the view of version {version}")
        self.close()
        events = [{**f, "data": json.loads(f["data"])} for f in self.frames if "data" in f and f.get("event") != "game"]
        last_view = json.loads([f for f in self.frames if f.get("event") == "game"][-1]["data"])
        return normalise({"events": events, "view": last_view}, game_id, INCIDENTAL | {"players", "instance", "name"})


def _twin_story(players: list[Client], game_id: str, by_order: bool, looks: list[Any]) -> None:
    """A story where seat 1 lets through every action not aimed at it: by order, or by hand."""

    spectator = Client(players[0].base_url)

    def look(label: str) -> None:
        for seat in (0, 2):
            me = players[seat]
            game = me.game(game_id)
            looks.append(normalise({"label": label, "seat": seat, "game": game, "feed": me.events(game_id),
                                    "inbox": me.get("/v1/me/games", params={"awaiting": "me"})["games"],
                                    "replay": me.get(f"/v1/games/{game_id}/replay",
                                                     params={"version": game["version"]})},
                                   game_id, INCIDENTAL | {"players", "instance", "name"}))
        looks.append(normalise({"label": label, "spectator": spectator.game(game_id),
                                "feed": spectator.events(game_id)}, game_id, INCIDENTAL | {"players", "instance"}))

    if by_order:
        _put(players[1], game_id, [ALLOW_UNLESS_TARGETED])
    streams = [_Stream(players[0].base_url, token, game_id) for token in (players[0].token, players[2].token, None)]
    look("dealt")
    players[0].act(game_id, {"type": "tax"})
    if not by_order:
        players[1].act(game_id, {"type": "pass"})
    look("seat 1 let the tax through")
    players[2].act(game_id, {"type": "pass"})
    look("window closed")
    players[1].act(game_id, {"type": "income"})
    players[2].act(game_id, {"type": "foreign_aid"})
    if not by_order:
        players[1].act(game_id, {"type": "pass"})
    players[0].act(game_id, {"type": "pass"})
    look("foreign aid through")
    players[0].act(game_id, {"type": "steal", "target": 1})  # aimed at seat 1: asked in both games
    players[1].act(game_id, {"type": "pass"})
    players[2].act(game_id, {"type": "pass"})
    look("steal through")
    version = players[0].game(game_id)["version"]
    looks.extend({"stream of": who, **stream.seen_through(version, game_id)}
                 for who, stream in zip(("seat 0", "seat 2", "a spectator"), streams, strict=True))
    for seat in (2, 1):  # the end: its game_over deliveries are the webhook worker's last jobs
        players[seat].post(f"/v1/games/{game_id}/resign")


@pytest.fixture(scope="module")
def hooks_server(redis_server: Any, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """``intrigue serve`` with its workers, delivering webhooks to this machine (Redis database 2)."""
    env = {**os.environ, "REDIS_URL": redis_server.url.rsplit("/", 1)[0] + "/2",
           "INTRIGUE_OPERATOR_TOKEN": "operator-secret", "INTRIGUE_LOG_LEVEL": "WARNING",
           "INTRIGUE_WEBHOOKS_ALLOW_PRIVATE": "1", **UNREACHABLE_LIMITS}
    with serving_with_workers(env, free_port(), tmp_path_factory.mktemp("orders-hooks") / "serve.log") as base:
        yield base


@pytest.fixture()
def receiver() -> Iterator[Receiver]:
    server = Receiver()
    yield server
    server.close()


def test_other_seats_cannot_tell_an_order_from_a_hand(hooks_server: str, receiver: Receiver) -> None:
    """Twin games, seat 1 letting things through by order in one and by hand in the other: seats
    0 and 2 and a spectator see the same views, feeds, replays, inboxes, live event streams and
    webhook deliveries (each game's ids and clocks aside)."""
    seen: dict[str, list[Any]] = {"order": [], "hand": []}
    for twin in seen:
        players, game_id = _table(hooks_server)
        for seat in (0, 2):
            players[seat].post("/v1/me/webhooks", {"url": receiver.url(f"/{twin}/{seat}"),
                                                    "events": ["your_turn", "deadline_soon", "game_over"]},
                               expect=201)
        _twin_story(players, game_id, twin == "order", seen[twin])
        receiver.wait_for(lambda twin=twin: all(  # type: ignore[misc]  # bound per twin
            any(json.loads(r["raw"])["type"] == "game_over" for r in receiver.at(f"/{twin}/{seat}"))
            for seat in (0, 2)), 60, f"the {twin} twin's game_over deliveries")
        for seat in (0, 2):
            deliveries = [json.loads(r["raw"]) for r in receiver.at(f"/{twin}/{seat}")]
            seen[twin].append({"webhooks of seat": seat, "deliveries": sorted(
                (d["version"], d["type"]) for d in deliveries)})
    assert len(seen["order"]) == len(seen["hand"]) == 15 + 3 + 2
    assert [d for d in seen["hand"] if "deliveries" in d][0]["deliveries"]  # seat 0 was told of its turns
    for mine, theirs in zip(seen["order"], seen["hand"], strict=True):
        assert mine == theirs


def test_the_audit_replays_the_orders_of_a_finished_game(server: str, tmp_path: Any) -> None:
    players, game_id = _table(server)
    once = {"decision": "react", "answer": {"type": "pass"}, "once": True}
    _put(players[1], game_id, [once, ALLOW_UNLESS_TARGETED])
    _put(players[2], game_id, [ALLOW_UNLESS_TARGETED])
    players[0].act(game_id, {"type": "tax"})
    players[1].act(game_id, {"type": "income"})
    for seat in (2, 0):  # seats 0 and 2 leave the game to seat 1
        players[seat].post(f"/v1/games/{game_id}/resign")
    response = requests.get(f"{server}/v1/games/{game_id}/log", timeout=10)
    assert response.status_code == 200
    lines = response.text.splitlines()
    assert sum('"type":"StandingOrdersSet"' in line for line in lines) == 2
    report = audit(read_log(lines))
    assert report.finished
    # An order the seat never set does not pass for one, even in a chain sealed anew.
    events = read_log(lines)
    game_events = [e for e in events if e.type != "StandingOrdersSet"]
    forged, prev = [], GENESIS_HASH
    for event in (e for e in events if e.type == "StandingOrdersSet"):
        data = dict(event.data)
        if event.actor == 1:
            data["orders"] = [{**ALLOW_UNLESS_TARGETED, "once": False}]
        forged.append(seal(event.seq, event.type, event.at, event.actor, data, event.cause, prev))
        prev = forged[-1].hash
    with pytest.raises(AuditError, match="standing orders"):
        audit(game_events + forged)


def test_an_order_set_while_its_decision_waits_answers_at_the_next_move(server: str) -> None:
    players, game_id = _table(server)
    players[0].act(game_id, {"type": "tax"})
    _put(players[1], game_id, [ALLOW_UNLESS_TARGETED])
    assert players[0].game(game_id)["awaiting"] == [1, 2]  # setting it played nothing
    answer = players[2].act(game_id, {"type": "pass"})
    assert answer["game"]["awaiting_kinds"] == {"1": "turn"}


# ------------------------------------------------------------------ what a clock can tell

def test_times_shown_while_the_game_is_on_cannot_tell_an_order_from_a_prompt_hand(server: str) -> None:
    """An order's answer carries its opening move's time; a hand's comes a moment later. Both
    are shown rounded down to the hour (an untimed game), to every seat and spectator, so an
    answer typed within the hour reads the same; the operator's log keeps the exact times."""
    players, game_id = _table(server)
    _put(players[1], game_id, [ALLOW_UNLESS_TARGETED])
    players[0].act(game_id, {"type": "tax"})  # seat 1 passes by order, in this commit
    players[2].act(game_id, {"type": "pass"})  # seat 2 by hand, a moment later
    exact = {e["seq"]: e["at"] for e in _log(server, game_id) if e["type"] != "StandingOrdersSet"}
    for reader in (players[0], players[2], Client(players[0].base_url)):
        feed = reader.events(game_id)["events"]
        for item in feed:
            assert item["at"].endswith(":00:00.000Z"), item
            assert item["at"][:13] == exact[item["seq"]][:13]  # the same hour as the log's
        game = reader.game(game_id)
        assert game["updated_at"].endswith(":00:00.000Z")
        shown = {item["actor"]: item["at"] for item in feed if item["type"] == "Passed"}
        if exact_hours_agree := {exact[item["seq"]][:13] for item in feed if item["type"] in ("Passed", "Declared")}:
            # Within one hour of the log (as ever but for a run across the hour), the order's
            # pass and the hand's read the same.
            assert len(exact_hours_agree) > 1 or shown[1] == shown[2]
    for seat in (2, 1):  # the game over, its log is public: every time is shown as it is
        players[seat].post(f"/v1/games/{game_id}/resign")
    final = {e["seq"]: e["at"] for e in _log(server, game_id)
             if e["type"] not in ("StandingOrdersSet", "LogSigned")}  # the seat's orders and the server's signature
    assert {e["seq"]: e["at"] for e in players[0].events(game_id)["events"]} == final


def _orders_commands(redis_client: Any, game_id: str, act: Any) -> list[str]:
    """The commands the server sends that touch the game's standing orders while ``act()`` runs
    (the append's guard names them; a read of them too), as Redis's MONITOR saw them."""
    marker = f"{{g:{game_id}}}:orders"
    sentinel = f"orders-probe-{game_id}"
    seen: list[str] = []
    with redis_client.monitor() as monitor:
        act()
        redis_client.echo(sentinel)
        while True:
            command = monitor.next_command()
            if sentinel in command["command"]:
                return seen
            if command["client_type"] != "lua" and marker in command["command"]:
                seen.append(command["command"].split(" ", 1)[0])


@pytest.fixture(scope="module")
def second_api(redis_server: Any, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A second API process on the same Redis, as a deployment with several has."""
    env = {**os.environ, "REDIS_URL": redis_server.url, "INTRIGUE_LOG_LEVEL": "WARNING",
           "INTRIGUE_OPERATOR_TOKEN": "operator-secret", **UNREACHABLE_LIMITS}
    with gunicorn_serving(env, tmp_path_factory.mktemp("second-api") / "gunicorn.log") as base:
        yield base


def _on(base: str, player: Client) -> Client:
    return Client(base, token=player.token)


def test_a_commit_costs_the_same_round_trips_whether_or_not_orders_changed(
        server: str, second_api: str, redis_client: Any) -> None:
    """A mover times their own move: its round trips to Redis must not tell that another
    seat's orders changed since the last move (set on another process, as a load balancer may)."""
    players, game_id = _table(server)
    there = [_on(second_api, player) for player in players]
    there[0].act(game_id, {"type": "income"})  # the second process's first commit in the game
    unchanged = _orders_commands(redis_client, game_id, lambda: there[1].act(game_id, {"type": "income"}))
    _put(players[1], game_id, [ALLOW_UNLESS_TARGETED])  # on the first process
    _heard_on(second_api, players, game_id)  # as it would be by the next move, but for a race
    changed = _orders_commands(redis_client, game_id, lambda: there[2].act(game_id, {"type": "income"}))
    assert changed == unchanged == ["EVALSHA"]


def _heard_on(base: str, players: list[Client], game_id: str) -> None:
    """Block until the process at ``base`` has heard every announcement made so far: a word
    said now reaches its stream through its listener, which hears announcements in order."""
    stream = _Stream(base, players[0].token, game_id)
    said = players[0].post(f"/v1/games/{game_id}/messages", {"text": "your move"}, expect=201)
    stream.wait(lambda: any(f.get("event") == "ChatMessage" and said["id"] in f["data"] for f in stream.frames),
                "the word, on the stream")
    stream.close()


def test_a_once_order_spent_on_one_process_costs_another_no_round_trip(
        server: str, second_api: str, redis_client: Any) -> None:
    players, game_id = _table(server)
    there = [_on(second_api, player) for player in players]
    there[0].act(game_id, {"type": "income"})  # the second process holds the game's orders (none)
    _put(players[1], game_id, [{"decision": "react", "answer": {"type": "pass"}, "once": True}])
    players[1].act(game_id, {"type": "income"})
    players[2].act(game_id, {"type": "tax"})  # on the first process: seat 1's once order passes, and is spent
    assert players[1].get(f"/v1/games/{game_id}/orders")["orders"] == []
    _heard_on(second_api, players, game_id)
    answered = _orders_commands(redis_client, game_id, lambda: there[0].act(game_id, {"type": "pass"}))
    assert answered == ["EVALSHA"]


def test_a_first_commit_costs_the_same_round_trips_whether_or_not_anyone_has_orders(
        server: str, second_api: str, redis_client: Any) -> None:
    first_moves = []
    for with_orders in (True, False):
        players, game_id = _table(server)
        if with_orders:
            _put(players[2], game_id, [ALLOW_UNLESS_TARGETED])
        mover = _on(second_api, players[0])
        first_moves.append(_orders_commands(redis_client, game_id, partial(mover.act, game_id, {"type": "income"})))
    assert first_moves[0] == first_moves[1]
    assert first_moves[0].count("EVALSHA") == 1  # decided once, with the orders read first


@pytest.mark.parametrize("title", registry.available())
def test_the_api_document_lists_each_games_conditions(server: str, title: str) -> None:
    """Issue 49, item 2: the conditions are each game's, listed in the OpenAPI document too."""
    document = requests.get(f"{server}/v1/openapi.json", timeout=10).json()
    schema = document["components"]["schemas"][f"{title.capitalize()}OrderConditions"]
    rules = registry.load(title)
    assert set(schema["properties"]) == set(getattr(rules, "ORDER_CONDITIONS", {}))
    assert all(decision in schema["description"] for decision in rules.ORDER_DECISIONS)
    if title == "coup":
        assert {"targeted", "actor", "action", "claim", "blocking"} <= set(schema["properties"])
