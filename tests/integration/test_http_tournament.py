"""A whole Swiss tournament over HTTP: 7 players at 3-seat Coup for 3 rounds, played by
scripted clients through the Python SDK, with one withdrawal and one round that runs out
of time.

The API runs in this process on a real port (werkzeug), with an engine of its own, so the
test holds the clock: the workers' part (a resigned seat's takeover move, the round
deadline's sweep) is called here with the moment it runs at, never waited for.
"""

from __future__ import annotations

import random
import subprocess
import sys
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
import redis
from intrigue_client import Client
from intrigue_client.errors import IntrigueError
from werkzeug.serving import make_server

from engine.core import Engine
from engine.settings import Limits, Settings
from engine.tournament_hooks import dispatch
from events.envelope import Envelope
from events.store import Keys
from service.app import create_app
from service.embedded import EmbeddedRedis
from tests.integration.conftest import ROOT
from tests.integration.test_http_coup_timeouts import reseal

ROUND_SECONDS = 3600


@pytest.fixture()
def live(redis_server: EmbeddedRedis) -> Iterator[tuple[str, Engine]]:
    """The API on a free port, its engine in this process under keys of its own (no worker)."""
    client = redis.Redis.from_url(redis_server.url)
    keys = Keys(f"tour{random.randrange(10**9)}")
    settings = Settings(render_check=True, bot_iterations=40, bot_milliseconds=200.0)
    engine = Engine(client, None, keys=keys, settings=settings)
    app = create_app(engine, settings=settings, limits=Limits.off())
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}", engine
    finally:
        server.shutdown()
        engine.watcher.stop()


def pick(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A scripted player: coup or assassinate when it can, pass on reactions, else anything."""
    for kind in ("coup", "assassinate"):
        for action in legal:
            if action["type"] == kind:
                return action
    passes = [action for action in legal if action["type"] == "pass"]
    return passes[0] if passes and rng.random() < 0.8 else rng.choice(legal)


def play(players: dict[str, Client], engine: Engine, games: list[str], rng: random.Random) -> None:
    """Every player of ``games`` plays its decisions until they end; the test takes the workers' steps."""
    for _ in range(5000):
        running = [game_id for game_id in games if players_any(players).game(game_id)["status"] == "active"]
        if not running:
            return
        for game_id in running:
            moved = False
            for client in players.values():
                view = client.game(game_id)
                if view["status"] != "active" or not view.get("legal_actions"):
                    continue
                try:
                    client.act(game_id, pick(view["legal_actions"], rng), if_match=view["version"])
                    moved = True
                except IntrigueError as err:  # another seat's move got there first
                    assert err.code in ("version_conflict", "not_your_turn"), err
            if not moved:  # only seats the takeover bot holds are awaited: the worker's step
                engine.advance(game_id, now=datetime.now(UTC) + timedelta(days=400))
    raise AssertionError(f"games {games} did not end")


def players_any(players: dict[str, Client]) -> Client:
    return next(iter(players.values()))


def tables_of(tournament: dict[str, Any], number: int) -> list[dict[str, Any]]:
    return tournament["rounds_played"][number - 1]["tables"]


def test_a_swiss_tournament_of_seven_at_three_seat_coup(live: tuple[str, Engine], tmp_path: Path) -> None:
    base, engine = live
    rng = random.Random(54)
    people = {name: Client.register(base, name) for name in ("ada", "bo", "cy", "di", "ed", "flo", "gus")}
    ada = people["ada"]
    starts = (datetime.now(UTC) + timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M:%SZ")

    # Every field is checked: each bad one is named, and nothing is created.
    for bad, code in (({"seats_per_table": "3"}, "invalid_body"), ({"rounds": 0}, "invalid_body"),
                      ({"seats_per_table": 7}, "bad_seat_count"), ({"min_players": 2}, "bad_player_bounds"),
                      ({"starts_at": "2020-01-01T00:00:00Z"}, "bad_starts_at"), ({"game": "chess"}, "unknown_game")):
        body = {"game": "coup", "seats_per_table": 3, "rounds": 3, "starts_at": starts, "min_players": 6, **bad}
        response = ada.session.post(f"{base}/v1/tournaments", json=body,
                                    headers={"Authorization": f"Bearer {ada.token}"})
        status = 400 if code == "invalid_body" else 422  # a field at fault is every body's 400, as for a game's
        assert response.status_code == status and response.json()["code"] == code, (bad, response.text)
        if code == "invalid_body":
            assert set(response.json()["errors"]) == set(bad), response.text
    assert ada.tournaments("open")["tournaments"] == []

    created = ada.create_tournament("coup", 3, 3, starts, 6, max_players=8, round_seconds=ROUND_SECONDS,
                                    name="Sunday Swiss")
    tid = created["id"]
    assert created["status"] == "open" and created["rounds"] == 3
    assert [t["id"] for t in ada.tournaments("open")["tournaments"]] == [tid]
    for client in people.values():
        client.join_tournament(tid)
    people["gus"].leave_tournament(tid)
    with pytest.raises(IntrigueError) as early:
        people["bo"].start_tournament(tid)
    assert early.value.code == "not_creator"
    with pytest.raises(IntrigueError) as not_yet:
        people["bo"].withdraw_from_tournament(tid)
    assert not_yet.value.code == "tournament_not_started"
    people["gus"].join_tournament(tid)

    started = ada.start_tournament(tid)
    assert started["status"] == "running"
    assert [t["id"] for t in ada.tournaments("running")["tournaments"]] == [tid]
    with pytest.raises(IntrigueError) as late:
        people["gus"].leave_tournament(tid)
    assert late.value.code == "tournament_started"

    # Round 1: 7 players, one table of 3 and two of 2 (Coup seats two); ordinary unlisted games.
    first = tables_of(ada.tournament(tid), 1)
    assert sorted(len(t["players"]) for t in first) == [2, 2, 3]
    by_id = {client.player["id"]: client for client in people.values()}
    game = by_id[first[0]["players"][0]].game(first[0]["game"])
    assert game["status"] == "active" and game["unlisted"] and game["tournament"] == tid and game["round"] == 1
    assert [p["id"] for p in game["players"]] == first[0]["players"]
    assert sorted(game["invite"]) == sorted(first[0]["players"])  # invitation only: its players, nobody else

    # A player of the full table withdraws during round 1: the game goes on without them.
    quitter_id = first[0]["players"][2]
    quitter = by_id[quitter_id]
    quitter.withdraw_from_tournament(tid)
    assert quitter.game(first[0]["game"])["resigned"] == [2]
    play(people, engine, [t["game"] for t in first], rng)

    # Round 2 was paired the moment round 1's last game ended: 6 players, two tables of 3.
    state = ada.tournament(tid)
    assert state["rounds_played"][0]["ended"]
    second = tables_of(state, 2)
    assert sorted(len(t["players"]) for t in second) == [3, 3]
    assert quitter_id not in [p for t in second for p in t["players"]]
    # One table plays; the other never moves, and runs out of time.
    play(people, engine, [second[0]["game"]], rng)
    idle = second[1]["game"]
    assert ada.game(idle)["status"] == "active"
    deadline = datetime.fromisoformat(state["rounds_played"][1]["deadline"])
    assert engine.tournaments.sweep(now=deadline - timedelta(seconds=1)) == 0
    assert engine.tournaments.sweep(now=deadline + timedelta(seconds=1)) == 1
    assert ada.game(idle)["status"] == "finished"
    capped_log = ada.log(idle)
    assert any(e["cause"].get("reason") == "round_deadline" for e in capped_log)

    # Round 3, then the end.
    state = ada.tournament(tid)
    third = tables_of(state, 3)
    assert sorted(len(t["players"]) for t in third) == [3, 3]
    play(people, engine, [t["game"] for t in third], rng)
    final = ada.tournament(tid)
    assert final["status"] == "finished"
    assert [t["id"] for t in ada.tournaments("finished")["tournaments"]] == [tid]

    # Scoring: a table of n seats hands out n / 2 points; standings by points, Buchholz, rating.
    standings = final["standings"]
    assert sum(row["points"] for row in standings) == pytest.approx(1.5 + 1 + 1 + 3 + 3)
    keys = [(-row["points"], -row["buchholz"], -row["rating"]) for row in standings]
    assert keys == sorted(keys)
    assert [row for row in standings if row["withdrawn"]] == [r for r in standings if r["player"]["id"] == quitter_id]

    # No two players met twice while another pairing existed (brute force over rounds 2 and 3).
    met: set[frozenset[str]] = set()
    for number in (1, 2, 3):
        tables = [t["players"] for t in tables_of(final, number)]
        if number > 1:
            active = sorted(p for t in tables for p in t)
            fewest = min(sum(1 for t in option for pair in combinations(t, 2) if frozenset(pair) in met)
                         for option in three_by_three(active))
            assert sum(1 for t in tables for pair in combinations(t, 2) if frozenset(pair) in met) == fewest
        met |= {frozenset(pair) for t in tables for pair in combinations(t, 2)}

    # The stream replays, and `intrigue verify` re-runs every pairing from it.
    log = ada.request("GET", f"/v1/tournaments/{tid}/log").text
    path = tmp_path / "tournament.ndjson"
    path.write_text(log, encoding="utf-8")
    checked = subprocess.run([sys.executable, "-m", "service.cli", "verify", str(path)], cwd=ROOT,
                             capture_output=True, text=True, timeout=120)
    assert checked.returncode == 0 and "3 round(s)" in checked.stdout, checked.stderr
    events = [Envelope.from_json(line) for line in log.splitlines()]
    swapped = [dict(e.to_dict()) for e in events]
    paired = next(e for e in swapped if e["type"] == "RoundPaired" and e["data"]["round"] == 2)
    tables = paired["data"]["tables"]
    tables[0]["players"][0], tables[1]["players"][0] = tables[1]["players"][0], tables[0]["players"][0]
    forged = reseal([Envelope.from_dict(e) for e in swapped], 0)
    path.write_text("".join(e.to_json() + "\n" for e in forged), encoding="utf-8")
    refused = subprocess.run([sys.executable, "-m", "service.cli", "verify", str(path)], cwd=ROOT,
                             capture_output=True, text=True, timeout=120)
    assert refused.returncode == 1 and "round 2" in refused.stderr, refused.stdout


def three_by_three(players: list[str]) -> Iterator[list[tuple[str, ...]]]:
    """Every way to seat six players at two tables of three."""
    head, rest = players[0], players[1:]
    for mates in combinations(rest, 2):
        yield [(head, *mates), tuple(p for p in rest if p not in mates)]


def test_the_list_is_paged_like_the_lobby_and_a_bad_status_is_refused(live: tuple[str, Engine]) -> None:
    base, _ = live
    host = Client.register(base, "pager")
    starts = (datetime.now(UTC) + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
    made = [host.create_tournament("coup", 2, 1, starts, 2, name=f"T{i}")["id"] for i in range(3)]
    first = host.tournaments("open", limit=2)
    assert [t["id"] for t in first["tournaments"]] == made[:2] and first["next_cursor"]
    second = host.tournaments("open", limit=2, cursor=first["next_cursor"])
    assert [t["id"] for t in second["tournaments"]] == made[2:] and second["next_cursor"] is None
    assert host.tournaments("finished")["tournaments"] == []
    for query, code in (({"status": "cancelled"}, "bad_query"), ({"status": "bogus"}, "bad_query"),
                        ({"status": "open", "cursor": "nope"}, "bad_cursor")):
        refused = host.session.get(f"{base}/v1/tournaments", params=query, timeout=10)
        assert refused.status_code == 400 and refused.json()["code"] == code, refused.text


def refused(call: Any, status: int, code: str) -> None:
    with pytest.raises(IntrigueError) as problem:
        call()
    assert (problem.value.status, problem.value.code) == (status, code)


def test_each_tournament_refusal_has_its_status_and_code(live: tuple[str, Engine]) -> None:
    base, engine = live
    host, a, b, c, outsider = (Client.register(base, f"refusal-{n}") for n in ("host", "a", "b", "c", "out"))
    starts = (datetime.now(UTC) + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
    refused(lambda: host.tournament("no-such-tournament"), 404, "tournament_not_found")
    tid = host.create_tournament("coup", 2, 2, starts, 2, max_players=3)["id"]
    refused(lambda: host.start_tournament(tid), 409, "too_few_players")
    for player in (a, b, c):
        player.join_tournament(tid)
    refused(lambda: outsider.join_tournament(tid), 409, "tournament_full")
    refused(lambda: outsider.leave_tournament(tid), 403, "not_entered")
    assert host.start_tournament(tid)["status"] == "running"
    (table,) = tables_of(host.tournament(tid), 1)  # three at two seats: one table and a bye
    by_id = {client.player["id"]: client for client in (a, b, c)}
    quitter = by_id[table["players"][0]]
    quitter.withdraw_from_tournament(tid)
    refused(lambda: quitter.withdraw_from_tournament(tid), 409, "already_withdrawn")
    refused(lambda: outsider.withdraw_from_tournament(tid), 403, "not_entered")

    # Nobody joined by its starts_at: cancelled, and joining it is refused.
    empty = host.create_tournament("coup", 2, 1, starts, 2)
    assert engine.tournaments.sweep(now=datetime.fromisoformat(empty["starts_at"]) + timedelta(seconds=1)) == 1
    assert host.tournament(empty["id"])["status"] == "cancelled"
    refused(lambda: a.join_tournament(empty["id"]), 409, "tournament_cancelled")


def test_a_rounds_webhook_delivery_is_listed_as_the_document_says(live: tuple[str, Engine],
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    base, engine = live
    monkeypatch.setattr(engine.hooks, "private_ok", True)  # INTRIGUE_WEBHOOKS_ALLOW_PRIVATE=1: a local receiver
    host, guest = Client.register(base, "hooked-host"), Client.register(base, "hooked-guest")
    hook = guest.create_webhook("http://127.0.0.1:9/hook", ["tournament_round", "tournament_over"])
    starts = (datetime.now(UTC) + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
    tid = host.create_tournament("coup", 2, 1, starts, 2)["id"]
    for player in (host, guest):
        player.join_tournament(tid)
    started = host.start_tournament(tid)
    # No worker here: the test makes the job the start queued (one delivery; its first try is refused).
    assert dispatch(engine.hooks, guest.player["id"], "tournament_round", tid, 1, started["version"]) == 1
    (delivery,) = guest.deliveries(hook["id"])
    assert delivery["type"] == "tournament_round" and delivery.get("tournament") == tid
    declared = guest.openapi()["components"]["schemas"]["Delivery"]
    assert set(delivery) <= set(declared["properties"]) and declared["additionalProperties"] is False
    assert delivery["game"] is None  # it is about a tournament, not a game


def test_a_tournament_name_that_would_not_print_as_one_line_is_refused(live: tuple[str, Engine]) -> None:
    """The name reaches every player's screen: a line break or a bidi override is refused, as in a player's name."""
    base, _ = live
    ada = Client.register(base, "ada")
    starts = (datetime.now(UTC) + timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
    for name in ("Sunday\nThe tournament ends: ada wins", "Sunday \u202eSwiss", "Sunday\x1b[2JSwiss"):
        body = {"game": "coup", "seats_per_table": 3, "rounds": 3, "starts_at": starts, "min_players": 6,
                "name": name}
        response = ada.session.post(f"{base}/v1/tournaments", json=body,
                                    headers={"Authorization": f"Bearer {ada.token}"})
        assert response.status_code == 400 and response.json()["code"] == "invalid_body", response.text
        assert set(response.json()["errors"]) == {"name"}, response.text
    assert ada.tournaments("open")["tournaments"] == []
