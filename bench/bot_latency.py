"""How long a bot seat takes to answer on ``intrigue serve``: from awaited to its action, p50/p95.

    python bench/bot_latency.py                        # 4 tables at once, 30 bot decisions each
    python bench/bot_latency.py --tables 8 --bot-workers 2
    python bench/bot_latency.py --redis-url redis://127.0.0.1:6379/15   # its database is flushed

Starts ``intrigue serve`` (one API process, ``--workers`` game workers, plus the bot worker
``serve`` starts; ``--bot-workers`` more are started beside it) against an embedded Redis,
with the settings' bot budget (``INTRIGUE_BOT_*``, 5,000 iterations or 450 ms by default) and
no rate limits. ``--tables`` people each play two-seat Coup games against one ISMCTS bot
seat, answering at once with a random legal action whenever they are awaited, so about as
many bot decisions are asked for at once as there are tables.

The latency is read from each finished game's log, so it is the server's own time: from
the event after which the bot seat was awaited to the first event of its action. Prints
the count, p50, p95 and max. Nothing is asserted; the machine's other work moves the
figures (the budget is counted in milliseconds as well as iterations), so say what else
ran when you quote them.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import threading
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from common import NO_LIMITS, intrigue_server, percentile, redis_for_bench  # noqa: E402

from service.datadir import stop_children  # noqa: E402

BOT_SEAT = 1


class Person:
    """One table's person: registers, plays Coup games against an ISMCTS seat, keeps their ids."""

    def __init__(self, base: str, index: int, decisions: int) -> None:
        self.base, self.decisions = base, decisions
        self.http = requests.Session()
        body = self.http.post(f"{base}/v1/players", json={"name": f"latency-{index}"}, timeout=30).json()
        self.http.headers["Authorization"] = f"Bearer {body['token']}"
        self.rng = random.Random(index)
        self.games: list[str] = []
        self.bot_moves = 0
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            while self.bot_moves < self.decisions:
                self.play_one()
        except BaseException as err:  # reported by main
            self.error = err

    def play_one(self) -> None:
        created = self.http.post(f"{self.base}/v1/games", json={"game": "coup", "seats": 2,
                                                                "bots": {str(BOT_SEAT): "ismcts"}}, timeout=30)
        game_id = created.json()["id"]
        self.games.append(game_id)
        self.http.post(f"{self.base}/v1/games/{game_id}/join", timeout=30).raise_for_status()
        view = self.http.get(f"{self.base}/v1/games/{game_id}", timeout=30).json()
        while view["status"] == "active":
            if view["seat"] in view["awaiting"] and view["legal_actions"]:
                answer = self.http.post(f"{self.base}/v1/games/{game_id}/actions",
                                        json=self.rng.choice(view["legal_actions"]), timeout=30)
                view = answer.json()["game"] if answer.status_code == 200 else self.fresh(game_id)
                continue
            if BOT_SEAT in view["awaiting"]:
                self.bot_moves += 1
            page = self.http.get(f"{self.base}/v1/games/{game_id}/events",
                                 params={"after": view["version"], "wait": 10, "view": "true"}, timeout=30).json()
            view = page["game"]

    def fresh(self, game_id: str) -> dict[str, Any]:
        return self.http.get(f"{self.base}/v1/games/{game_id}", timeout=30).json()


def awaiting_after_each_event(base: str, http: requests.Session, game_id: str) -> list[dict[str, Any]]:
    """The game's log, each event marked with the seats awaited right after it (replayed views)."""
    from projections.audit import game_events, read_log
    from projections.record import fold

    raw = http.get(f"{base}/v1/games/{game_id}/log", headers={"Accept": "application/x-ndjson"}, timeout=30).text
    record = None
    marked = []
    for envelope in game_events(read_log(raw.splitlines())):  # the game's chain, not the signed final record
        record = fold(record, envelope)
        marked.append({"seq": envelope.seq, "at": envelope.at, "cause": envelope.cause,
                       "_awaiting": [seat for seat, kind in enumerate(record["awaiting"]) if kind is not None]})
    return marked


def latencies_of(base: str, game_ids: list[str]) -> list[float]:
    http = requests.Session()
    found: list[float] = []
    for game_id in game_ids:
        events = awaiting_after_each_event(base, http, game_id)
        awaited_since: datetime | None = None
        for event in events:
            at = datetime.fromisoformat(event["at"].replace("Z", "+00:00"))
            cause = event["cause"]
            if cause.get("kind") == "bot" and cause.get("seat") == BOT_SEAT and cause.get("batch") == event["seq"]:
                if awaited_since is not None:
                    found.append((at - awaited_since).total_seconds())
                awaited_since = None
            if BOT_SEAT in event["_awaiting"]:
                awaited_since = awaited_since or at
            else:
                awaited_since = None
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=4, help="people playing at once, one bot seat each")
    parser.add_argument("--decisions", type=int, default=30, help="bot decisions to wait for at each table")
    parser.add_argument("--workers", type=int, default=1, help="game workers of intrigue serve")
    parser.add_argument("--bot-workers", type=int, default=1,
                        help="bot workers in all (intrigue serve starts one; the others are started beside it)")
    parser.add_argument("--redis-url", help="a Redis to use (its database is flushed); default: an embedded one")
    args = parser.parse_args()
    with redis_for_bench(args.redis_url) as url:
        if args.redis_url:
            import redis

            redis.Redis.from_url(url).flushdb()
        with intrigue_server(url, workers=args.workers) as base:
            env = {**os.environ, "REDIS_URL": url, "INTRIGUE_LOG_LEVEL": "WARNING", **NO_LIMITS}
            extra = [subprocess.Popen([sys.executable, "-m", "service.cli", "worker", "--queues", "bots"],
                                      cwd=ROOT, env=env) for _ in range(args.bot_workers - 1)]
            try:
                people = [Person(base, index, args.decisions) for index in range(args.tables)]
                threads = [threading.Thread(target=person.run, daemon=True) for person in people]
                started = time.monotonic()
                for thread in threads:
                    thread.start()
                for thread in threads:
                    thread.join()
                elapsed = time.monotonic() - started
                failed = [person.error for person in people if person.error is not None]
                if failed:
                    raise failed[0]
                latencies = latencies_of(base, [game for person in people for game in person.games])
            finally:
                stop_children(extra, timeout=10)
    print(f"bot seats' latency, awaited to action: {args.tables} tables at once, {args.bot_workers} bot worker(s), "
          f"{elapsed:.0f} s")
    print(f"  {len(latencies)} decisions  p50 {percentile(latencies, 0.5) * 1000:.0f} ms  "
          f"p95 {percentile(latencies, 0.95) * 1000:.0f} ms  max {max(latencies, default=0) * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
