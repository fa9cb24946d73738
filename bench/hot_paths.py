"""CPU of the per-move code paths, in one process (no HTTP server, no concurrency).

    python bench/hot_paths.py                   # embedded Redis, 1,500 Coup actions
    python bench/hot_paths.py --actions 3000 --redis-url redis://127.0.0.1:6379/15

Plays random legal Coup games through the Flask test client and prints the process CPU
(not wall time: waiting for Redis is not counted) of each ``POST /actions`` and of the
engine's commit inside it, then the cost per call of the pure functions every move runs:
folding an event, a seat's view, a feed item, sealing, parsing a stored event. Figures
that the side-by-side bench cannot resolve from its noise (a few µs per move) show here.
Nothing is asserted: it prints figures.
"""

from __future__ import annotations

import argparse
import time
import timeit
from collections.abc import Callable
from typing import Any

import redis
from common import play_coup_in_process, redis_for_bench

from engine.settings import Limits
from events.envelope import Envelope, seal
from projections.listing import card
from projections.record import fold
from projections.views import feed_item, game_view
from service.app import create_app


def per_call(calls: Callable[[], Any], count: int, repeat: int = 5) -> float:
    """Best of ``repeat`` runs of ``calls`` (which makes ``count`` calls), in µs per call."""
    return min(timeit.repeat(calls, number=1, repeat=repeat)) / count * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--actions", type=int, default=1500)
    parser.add_argument("--redis-url", help="use this Redis (its data is flushed) instead of an embedded one")
    args = parser.parse_args()

    with redis_for_bench(args.redis_url) as url:
        redis.Redis.from_url(url).flushdb()
        app = create_app(redis_url=url, limits=Limits.off())
        client = app.test_client()
        engine = app.extensions["intrigue"]
        commit = engine.commits.commit
        spent = {"post": 0.0, "commit": 0.0, "commits": 0}

        def timed_commit(*a: Any, **k: Any) -> Any:
            started = time.process_time()
            try:
                return commit(*a, **k)
            finally:
                spent["commit"] += time.process_time() - started
                spent["commits"] += 1

        def post(path: str, action: dict, headers: dict) -> Any:
            started = time.process_time()
            try:
                return client.post(path, json=action, headers=headers)
            finally:
                spent["post"] += time.process_time() - started

        engine.commits.commit = timed_commit
        games = play_coup_in_process(client, engine, args.actions, post, seed=5)
        done = args.actions
        print(f"POST /actions: {spent['post'] / done * 1e6:.0f} µs of CPU each over {done} "
              f"(the Flask test client's own work included)")
        print(f"CommitPath.commit: {spent['commit'] / spent['commits'] * 1e6:.0f} µs of CPU each over "
              f"{spent['commits']} commits (players', workers' and set-up commits)")

        steps = []  # (record before, event, record after) of every event of every game
        for game_id in games:
            record = None
            for event in engine.store.read(game_id):
                after = fold(record, event)
                steps.append((record, event, after))
                record = after
        mid = [(before, event, after) for before, event, after in steps
               if before is not None and after["status"] == "active"]
        stored = [event.to_json() for _, event, _ in steps]
        count = len(mid)
        print(f"per call, over the {count} mid-game events of {len(games)} games (best of 5):")
        rows = [
            ("fold an event into the record", lambda: [fold(b, e) for b, e, _ in mid]),
            ("a seat's view (GET /v1/games/<id>)", lambda: [game_view(a, 0) for _, _, a in mid]),
            ("a seat's feed item", lambda: [feed_item(a, e, 0) for _, e, a in mid]),
            ("seal an event (hash and stored JSON)",
             lambda: [seal(e.seq, e.type, e.at, e.actor, e.data, e.cause, e.prev) for _, e, _ in mid]),
            ("the lobby card", lambda: [card(a) for _, _, a in mid]),
        ]
        for label, calls in rows:
            print(f"  {label:<40} {per_call(calls, count):6.1f} µs")
        print(f"  {'parse a stored event':<40} "
              f"{per_call(lambda: [Envelope.from_json(j) for j in stored], len(stored)):6.1f} µs")
        engine.watcher.stop()  # before its Redis goes: else it says it lost it on the way out


if __name__ == "__main__":
    main()
