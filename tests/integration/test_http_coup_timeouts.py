"""Coup over HTTP with one-second clocks: seats that never react are played by deadlines, then the bot.

Seat 0's client only ever plays its own turns; seats 1 and 2 never post anything. The
worker must close every reaction window and take every reveal at its deadline, hand
seats 1 and 2 to the built-in bot after three missed deadlines in a row, and bring the
game to its end. The published log must then pass ``intrigue verify``, and a tampered
copy must fail it, naming the event that was changed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

from events.envelope import Envelope, parse_time, seal
from projections.record import fold
from tests.integration.conftest import ROOT
from tests.support.client import Client

OPERATOR = "operator-secret"
PLAY_TIMEOUT = 150  # seconds; a typical game takes 30 to 50
#: How late one deadline's default may land on a loaded machine (the sweeper wakes at
#: each deadline; RQ's scheduler, counting whole seconds, is only its backup).
LATE_SLACK = timedelta(seconds=6)
#: How late the median default may land: well under the second RQ's scheduler alone needs.
MEDIAN_LATE = timedelta(milliseconds=300)


def choose_turn(legal: list[dict]) -> dict:
    """An aggressive client: coup when it can, else assassinate, else claim the Duke."""
    for kind in ("coup", "assassinate", "tax"):
        for action in legal:
            if action["type"] == kind:
                return action
    return legal[0]


def play_own_turns_only(client: Client, seat: int, game_id: str) -> dict:
    """Play ``seat``'s turns the moment they come; never answer a window, a reveal or a keep."""
    give_up = time.monotonic() + PLAY_TIMEOUT
    while time.monotonic() < give_up:
        body = client.game(game_id)
        if body["status"] == "finished":
            return body
        if body["awaiting_kinds"].get(str(seat)) == "turn":
            response = client.request("POST", f"/v1/games/{game_id}/actions", choose_turn(body["legal_actions"]),
                                      headers={"If-Match": str(body["version"])})
            # 409: the bot (if this seat drifted into autoplay) or a worker got there first.
            assert response.status_code in (200, 409), response.text
            continue
        client.events(game_id, after=body["version"], wait=5)  # long-poll until the game moves
    raise AssertionError(f"game {game_id} did not finish within {PLAY_TIMEOUT} s")


def verify(path: Path) -> subprocess.CompletedProcess[str]:
    """``intrigue verify FILE`` as a user runs it (the console script, else the module)."""
    script = shutil.which("intrigue", path=str(Path(sys.executable).parent))
    command = [script] if script else [sys.executable, "-m", "service.cli"]
    return subprocess.run([*command, "verify", str(path)], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "INTRIGUE_LOG_LEVEL": "WARNING"})


def reseal(events: list[Envelope], start: int) -> list[Envelope]:
    """Recompute the hash chain from index ``start`` on, as a careful forger would."""
    out = list(events[:start])
    prev = out[-1].hash if out else "0" * 64
    for event in events[start:]:
        sealed = seal(event.seq, event.type, event.at, event.actor, event.data, event.cause, prev)
        out.append(sealed)
        prev = sealed.hash
    return out


def write_log(path: Path, events: list[Envelope]) -> None:
    path.write_text("".join(e.to_json() + "\n" for e in events), encoding="utf-8")


def test_abandoned_seats_are_played_by_deadlines_then_the_bot_and_the_log_verifies(server: str, tmp_path) -> None:
    players = [Client.register(server, f"clock{i}") for i in range(3)]
    operator = Client(server, token=OPERATOR)
    game_id = players[0].create_game("coup", 3, seconds_per_move=1, autoplay_after=3, autoplay_seconds=1)
    for seat, player in enumerate(players):
        assert player.join(game_id) == seat
    started = time.monotonic()

    # While the game runs its log is the operator's alone.
    refused = players[1].request("GET", f"/v1/games/{game_id}/log")
    assert refused.status_code == 403 and refused.json()["code"] == "game_in_progress"
    assert refused.headers["Content-Type"].startswith("application/problem+json")
    assert operator.request("GET", f"/v1/games/{game_id}/log").status_code == 200

    final = play_own_turns_only(players[0], 0, game_id)
    elapsed = time.monotonic() - started
    print(f"timed-out Coup game finished in {elapsed:.1f} s at version {final['version']}")

    # The end, as every seat sees it.
    assert final["status"] == "finished" and final["reason"] == "last_standing"
    assert len(final["winners"]) == 1
    winner = final["winners"][0]
    alive = [s["seat"] for s in final["view"]["seats"] if s["alive"]]
    assert alive == [winner] and final["view"]["phase"] == "over" and final["view"]["winner"] == winner
    assert final["awaiting"] == [] and final["deadline"] is None and final["seed"]
    for player in players:
        body = player.game(game_id)
        assert body["status"] == "finished" and body["winners"] == [winner] and body["legal_actions"] == []
        assert game_id not in [g["id"] for g in player.get("/v1/me/games", params={"awaiting": "me"})["games"]]
        assert game_id in [g["id"] for g in player.get("/v1/me/games")["games"]]
    late = players[0].request("POST", f"/v1/games/{game_id}/actions", {"type": "income"})
    assert late.status_code == 409 and late.json()["code"] == "game_over"

    # The published log: every event once, in order, as NDJSON.
    response = players[1].request("GET", f"/v1/games/{game_id}/log")
    assert response.status_code == 200 and response.headers["Content-Type"].startswith("application/x-ndjson")
    lines = [line for line in response.text.splitlines() if line]
    events = [Envelope.from_json(line) for line in lines]
    signed = events.pop()  # the server's signature of the final hash ends the log (engine.final_record)
    assert signed.type == "LogSigned" and signed.data["final_hash"] == events[-1].hash
    assert [e.seq for e in events] == list(range(1, final["version"] + 1))
    assert events[0].type == "GameCreated" and events[-1].type == "GameEnded"
    assert events[-1].data["winners"] == [winner] and events[-1].data["seed"] == final["seed"]
    check_the_clock_ran_the_game(events)

    # The seat feeds agree with the log once the game is over (everything is public then).
    feed = players[2].events(game_id, after=0)
    assert [(e["seq"], e["type"], e["data"]) for e in feed["events"]] == [(e.seq, e.type, e.data) for e in events]
    assert feed["status"] == "finished"
    # After the end a replay shows everything, the deal included.
    dealt = next(e for e in events if e.type == "CardsDealt")
    replayed = players[2].get(f"/v1/games/{game_id}/replay", params={"version": dealt.seq})
    assert [s["hidden"] for s in replayed["state"]["seats"]] == dealt.data["hands"]

    # intrigue verify: the genuine log passes...
    genuine = tmp_path / "game.ndjson"
    genuine.write_text(response.text, encoding="utf-8")
    ok = verify(genuine)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert f"OK: {len(events)} events" in ok.stdout and f"winners [{winner}]" in ok.stdout

    # ...an edited event breaks the hash chain right there...
    # The target is the last action that moved coins: every game has one (seat 0's first
    # turn is a tax nobody answers), wherever the random deal put it.
    target = max(i for i, e in enumerate(events) if e.type == "ActionSucceeded" and "amount" in e.data)
    edited = dict(events[target].data, amount=events[target].data["amount"] + 1)
    forged = [*events[:target], Envelope(**{**events[target].__dict__, "data": edited}), *events[target + 1:]]
    write_log(tmp_path / "edited.ndjson", forged)
    bad = verify(tmp_path / "edited.ndjson")
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert f"INVALID: event {events[target].seq}: hash does not match" in bad.stderr, bad.stderr

    # ...and re-sealing the chain after the edit does not help: the rules disown that event.
    write_log(tmp_path / "resealed.ndjson", reseal(forged, target))
    bad = verify(tmp_path / "resealed.ndjson")
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert f"INVALID: event {events[target].seq}: recorded ActionSucceeded differs" in bad.stderr, bad.stderr

    # A dropped event is named too (the first one out of sequence).
    write_log(tmp_path / "dropped.ndjson", [*events[:target], *events[target + 1:]])
    bad = verify(tmp_path / "dropped.ndjson")
    assert bad.returncode == 1 and f"event {events[target + 1].seq}: expected sequence number" in bad.stderr


def check_the_clock_ran_the_game(events: list[Envelope]) -> None:
    """Fold the log batch by batch and check who decided each step, and when."""
    record = None
    batches: list[list[Envelope]] = []
    for event in events:
        if batches and batches[-1][0].cause.get("batch") == event.cause.get("batch"):
            batches[-1].append(event)
        else:
            batches.append([event])
    kinds_by_seat: dict[int, list[tuple[str, dict]]] = {0: [], 1: [], 2: []}
    windows_closed = 0
    lateness: list[timedelta] = []
    for batch in batches:
        head = batch[0]
        cause = head.cause
        kind = cause["kind"]
        if kind == "player":
            # The only client that ever posts is seat 0, and only on its own turn.
            assert head.actor == 0, f"event {head.seq}: seat {head.actor} never posts"
            assert record["awaiting"][0] == "turn", f"event {head.seq}: seat 0 answered a {record['awaiting'][0]}"
        elif kind in ("timeout", "bot"):
            seat = head.actor
            assert head.type == "DeadlineMissed" and head.data["seat"] == seat
            assert record["awaiting"][seat] is not None, f"event {head.seq}: seat {seat} owed nothing"
            deadline = parse_time(record["deadlines"][seat])
            at = parse_time(head.at)
            assert at >= deadline, f"event {head.seq}: default played {deadline - at} before the deadline"
            assert at - deadline <= LATE_SLACK, f"event {head.seq}: default played {at - deadline} after the deadline"
            lateness.append(at - deadline)
            assert head.data["misses"] == record["misses"][seat] + 1
            was_bot = record["autoplay"][seat]
            assert kind == ("bot" if was_bot else "timeout"), f"event {head.seq}: {kind} while autoplay={was_bot}"
            if was_bot:  # the takeover is the strong bot's, searched within the server's bot budget
                assert cause["strategy"] == "ismcts", f"event {head.seq}: the takeover played {cause['strategy']}"
            assert head.data["autoplay"] == (was_bot or head.data["misses"] >= 3)
            kinds_by_seat[seat].append((kind, {"misses": head.data["misses"], "owed": record["awaiting"][seat]}))
        elif kind == "system":
            # A window everyone passed is closed by the worker, never by a seat.
            assert record["awaiting"] == [None, None, None] and record["state"]["window"] is not None
            assert head.type == "WindowClosed"
            windows_closed += 1
        for event in batch:
            record = fold(record, event)
    assert record["status"] == "finished"
    assert windows_closed >= 1
    lateness.sort()
    median = lateness[len(lateness) // 2]
    print(f"{len(lateness)} defaults: median {median.total_seconds() * 1000:.0f} ms late, "
          f"max {lateness[-1].total_seconds() * 1000:.0f} ms")
    assert median <= MEDIAN_LATE, f"deadlines land {median} late at the median"
    # Seats 1 and 2 never post: three timeouts (misses 1, 2, 3), then the bot for good.
    for seat in (1, 2):
        history = kinds_by_seat[seat]
        assert [k for k, _ in history[:3]] == ["timeout"] * 3, history[:4]
        assert [m["misses"] for _, m in history[:3]] == [1, 2, 3]
        assert all(k == "bot" for k, _ in history[3:]), history
        assert len(history) > 3, f"seat {seat} never played as the bot"
    # Seat 0 let every window and reveal it owed run out too.
    owed = {m["owed"] for _, m in kinds_by_seat[0]}
    assert owed <= {"react", "reveal", "keep", "turn"}
    assert "react" in owed
