"""A fleet of real processes to kill: API servers, workers and Redis, and the checks after.

Used by ``tests/faults`` (short runs in CI, long ones behind ``--faults-long``) and by
the bench. Every process is a real one started from the command line; a kill is
SIGKILL, with no chance to clean up; a restart reuses the same port (and, for Redis,
the same append-only file).
"""

from __future__ import annotations

import os
import random
import signal
import statistics
import subprocess
import sys
import threading
import time
import uuid
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from itertools import groupby
from pathlib import Path
from typing import Any

import requests

from events.envelope import Envelope, parse_time
from projections.record import Record, fold
from service.datadir import die_with_parent
from service.embedded import EmbeddedRedis, free_port

ROOT = Path(__file__).resolve().parents[2]

#: Limits no test reaches (the limiter stays in the path).
UNREACHABLE_LIMITS = {"INTRIGUE_RATE_LIMIT": "100000", "INTRIGUE_ANONYMOUS_RATE_LIMIT": "100000",
                      "INTRIGUE_REGISTRATIONS_PER_HOUR": "1000000", "INTRIGUE_GAMES_PER_HOUR": "1000000",
                      "INTRIGUE_OPEN_GAMES_PER_PLAYER": "100000",
                      "INTRIGUE_ADDRESS_RATE_LIMIT": "1000000",
                      "INTRIGUE_STREAMS_PER_PLAYER": "100000", "INTRIGUE_STREAMS_PER_ADDRESS": "100000",
                      "INTRIGUE_CONNECTIONS_PER_ADDRESS": "100000", "INTRIGUE_ACTIVE_GAMES_PER_PLAYER": "0"}
#: A takeover after missed deadlines is one ISMCTS search inside the step: small here, so the
#: one-second clocks of these tests are not spent searching.
SMALL_BOT_BUDGET = {"INTRIGUE_BOT_ITERATIONS": "40", "INTRIGUE_BOT_MILLISECONDS": "100"}


class Proc:
    """One supervised command: started, SIGKILLed and started again, logging to one file."""

    def __init__(self, name: str, argv: list[str], env: dict[str, str], log_path: Path) -> None:
        self.name, self.argv, self.env, self.log_path = name, argv, env, log_path
        self.process: subprocess.Popen[bytes] | None = None
        self.kills = 0

    def start(self) -> None:
        with open(self.log_path, "ab") as log:
            # Its own process group, dying with this test process: a kill takes what it
            # forked too (gunicorn's workers, RQ's scheduler), and nothing outlives the run.
            self.process = subprocess.Popen(self.argv, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
                                            process_group=0, preexec_fn=die_with_parent())

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self._signal_group(signal.SIGKILL)
            self.process.wait()
            self.kills += 1

    def _signal_group(self, sig: int) -> None:
        assert self.process is not None
        try:
            os.killpg(self.process.pid, sig)
        except ProcessLookupError:
            pass

    def stop(self) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            self._signal_group(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
        self._signal_group(signal.SIGKILL)  # whatever of the group is still there
        self.process.wait()


class KillableRedis:
    """The embedded redis-server with its append-only file (fsync every second)."""

    def __init__(self, data_dir: Path) -> None:
        self.server = EmbeddedRedis(data_dir, persist=True)
        self.kills = 0

    @property
    def url(self) -> str:
        return self.server.url

    def start(self) -> None:
        self.server.start(timeout=30)

    def kill(self) -> None:
        process = self.server.process
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGKILL)
            process.wait()
            self.kills += 1

    def stop(self) -> None:
        self.server.stop()


class Fleet:
    """Redis, ``apis`` API processes (``intrigue serve --workers 0``) and ``workers`` workers."""

    def __init__(self, tmp: Path, apis: int = 2, workers: int = 2) -> None:
        self.tmp = tmp
        self.redis = KillableRedis(tmp / "redis")
        env = {**os.environ, "REDIS_URL": self.redis.url, "INTRIGUE_LOG_LEVEL": "WARNING", **UNREACHABLE_LIMITS,
               **SMALL_BOT_BUDGET}
        self.ports = [free_port() for _ in range(apis)]
        self.apis = [Proc(f"api{i}", [sys.executable, "-m", "service.cli", "serve", "--port", str(port),
                                      "--workers", "0"], env, tmp / f"api{i}.log")
                     for i, port in enumerate(self.ports)]
        self.workers = [Proc(f"worker{i}", [sys.executable, "-m", "service.cli", "worker"], env,
                             tmp / f"worker{i}.log") for i in range(workers)]

    @property
    def bases(self) -> list[str]:
        return [f"http://127.0.0.1:{port}" for port in self.ports]

    def start(self) -> Fleet:
        self.redis.start()
        for proc in (*self.apis, *self.workers):
            proc.start()
        give_up = time.monotonic() + 60
        for base in self.bases:
            while True:
                try:
                    requests.get(base + "/v1/games?limit=1", timeout=5)  # a cheap route, unlike the reference
                    break
                except (requests.ConnectionError, requests.Timeout):
                    if time.monotonic() > give_up:
                        raise AssertionError(f"{base} did not come up") from None
                    threading.Event().wait(0.05)  # polling the server's start-up
        return self

    def stop(self) -> None:
        for proc in (*self.apis, *self.workers):
            proc.stop()
        self.redis.stop()

    def kill_and_restart(self, victim: Proc | KillableRedis) -> None:
        victim.kill()
        victim.start()

    def targets(self, redis: bool = True, apis: bool = True, workers: bool = True) -> list[Proc | KillableRedis]:
        return [*(self.apis if apis else []), *(self.workers if workers else []), *([self.redis] if redis else [])]

    def kills(self) -> dict[str, int]:
        counts = {proc.name: proc.kills for proc in (*self.apis, *self.workers)}
        return {**counts, "redis": self.redis.kills}


class Killer(threading.Thread):
    """SIGKILLs a random target and restarts it, every ``period`` seconds, until stopped."""

    def __init__(self, fleet: Fleet, targets: list[Proc | KillableRedis], period: float, seed: int = 7) -> None:
        super().__init__(name="killer", daemon=True)
        self.fleet, self.targets, self.period = fleet, targets, period
        self.rng = random.Random(seed)
        self.stopping = threading.Event()
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            while not self.stopping.wait(self.period):
                self.fleet.kill_and_restart(self.rng.choice(self.targets))
        except BaseException as err:  # reported by the test
            self.error = err


@dataclass
class Ledger:
    """What the servers acknowledged (a 200 to a POST): game, seat, key and the versions it got."""

    acks: list[tuple[str, int, str, list[int]]] = field(default_factory=list)
    retries: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def ack(self, game_id: str, seat: int, key: str, seqs: list[int]) -> None:
        with self.lock:
            self.acks.append((game_id, seat, key, seqs))


class Player:
    """A seat's HTTP client that fails over between API processes and retries what may have landed."""

    def __init__(self, bases: list[str], token: str, player_id: str, rng: random.Random) -> None:
        self.bases, self.token, self.id, self.rng = bases, token, player_id, rng
        self.http = requests.Session()

    @classmethod
    def register(cls, bases: list[str], name: str, rng: random.Random) -> Player:
        body = cls(bases, "", "", rng).call("POST", "/v1/players", {"name": name}, auth=False).json()
        return cls(bases, body["token"], body["id"], rng)

    def call(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None,
             params: dict[str, Any] | None = None, auth: bool = True, give_up_after: float = 60) -> requests.Response:
        """Retries connection errors, 503 and 500 (a POST only with an Idempotency-Key, or registration)."""
        deadline = time.monotonic() + give_up_after
        all_headers = {**({"Authorization": f"Bearer {self.token}"} if auth else {}), **(headers or {})}
        while True:
            base = self.rng.choice(self.bases)
            try:
                response = self.http.request(method, base + path, json=body, headers=all_headers, params=params,
                                             timeout=10)
                if response.status_code not in (500, 502, 503):
                    return response
            except requests.RequestException:
                pass
            if time.monotonic() > deadline:
                raise AssertionError(f"{method} {path} failed for {give_up_after} s")
            threading.Event().wait(0.05 + self.rng.random() * 0.2)  # back off before retrying


def play_game(players: list[Player], game_id: str, ledger: Ledger, rng: random.Random, skip: float,
              until: float) -> None:
    """Random legal moves for every seat until the game ends or ``until`` (monotonic) passes.

    With probability ``skip`` an awaited seat lets its clock run out instead, so the
    workers' deadlines are exercised too. Every post carries a fresh Idempotency-Key
    and the version it decided on; a post whose outcome is unknown is posted again
    with the same key.
    """
    watcher = players[0]
    while time.monotonic() < until:
        game = watcher.call("GET", f"/v1/games/{game_id}").json()
        if game["status"] == "finished":
            return
        awaited = game["awaiting"]
        if not awaited or rng.random() < skip:
            watcher.call("GET", f"/v1/games/{game_id}/events",
                         params={"after": game["version"], "wait": 2})
            continue
        seat = rng.choice(awaited)
        mine = players[seat].call("GET", f"/v1/games/{game_id}").json()
        if not mine["legal_actions"]:
            continue
        action = rng.choice(mine["legal_actions"])
        key = uuid.uuid4().hex
        answer = players[seat].call("POST", f"/v1/games/{game_id}/actions", action,
                                    headers={"Idempotency-Key": key, "If-Match": str(mine["version"])})
        if answer.status_code == 200:
            ledger.ack(game_id, seat, key, [event["seq"] for event in answer.json()["events"]])


def batches(events: Iterable[Envelope]) -> Iterable[list[Envelope]]:
    for _, batch in groupby(events, key=lambda e: e.cause.get("batch")):
        yield list(batch)


def deadline_lateness(events: list[Envelope]) -> list[float]:
    """Seconds from each expired deadline to the event that played its default."""
    late: list[float] = []
    record: Record | None = None
    for batch in batches(events):
        head = batch[0]
        if record is not None and head.cause.get("kind") in ("timeout", "bot") and head.actor is not None:
            deadline = record["deadlines"][head.actor]
            if deadline is not None:
                late.append((parse_time(head.at) - parse_time(deadline)).total_seconds())
        for event in batch:
            record = fold(record, event)
    return late


@dataclass
class Verdict:
    acknowledged: int
    lost: int
    duplicated: int
    misplaced: int
    unfinished: list[str]
    unverified: dict[str, str]
    lateness: list[float]

    def figures(self) -> str:
        late = sorted(self.lateness)

        def pct(fraction: float) -> str:
            return f"{late[min(len(late) - 1, int(fraction * len(late)))]:.3f}" if late else "n/a"

        return (f"acknowledged {self.acknowledged}, lost {self.lost}, duplicated {self.duplicated}, "
                f"misplaced {self.misplaced}, unfinished {len(self.unfinished)}, unverified {len(self.unverified)}; "
                f"deadline lateness (s) over {len(late)} deadlines: p50 {pct(0.5)} p99 {pct(0.99)} "
                f"max {late[-1] if late else float('nan'):.3f}"
                + (f" mean {statistics.fmean(late):.3f}" if late else ""))


def check(read_events: Callable[[str], list[Envelope]], game_ids: list[str], ledger: Ledger,
          is_finished: Callable[[str], bool]) -> Verdict:
    """Every acknowledged action in its stream at its versions, none applied twice, every game verified."""
    from projections.audit import AuditError, audit

    streams = {game_id: read_events(game_id) for game_id in game_ids}
    keyed: dict[tuple[str, int, str], list[list[int]]] = defaultdict(list)
    for game_id, events in streams.items():
        answered: dict[int, list[int]] = {}  # a keyed batch's number -> the seqs its answer gave
        for batch in batches(events):
            cause = batch[0].cause
            if cause.get("follows") in answered:  # a system step its commit took: in the same answer
                answered[cause["follows"]].extend(e.seq for e in batch)
            elif cause.get("kind") == "player" and "key" in cause:
                seat = cause.get("seat", batch[0].actor)  # the cause names the seat (older logs: the first event)
                answered[cause["batch"]] = seqs = [e.seq for e in batch]
                keyed[(game_id, seat, cause["key"])].append(seqs)  # type: ignore[index]
    lost = misplaced = 0
    duplicated = sum(1 for applied in keyed.values() if len(applied) > 1)  # acknowledged or not
    for game_id, seat, key, seqs in ledger.acks:
        found = keyed.get((game_id, seat, key), [])
        if not found:
            lost += 1
        elif found[0] != seqs:
            misplaced += 1
    unverified: dict[str, str] = {}
    unfinished = [game_id for game_id in game_ids if not is_finished(game_id)]
    lateness: list[float] = []
    for game_id, events in streams.items():
        lateness += deadline_lateness(events)
        if game_id in unfinished:
            continue
        try:
            audit(events)
        except AuditError as err:
            unverified[game_id] = str(err)
    return Verdict(len(ledger.acks), lost, duplicated, misplaced, unfinished, unverified, lateness)
