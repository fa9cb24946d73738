"""Where an action's time goes: Redis commands per request and the hottest Python functions.

    python bench/profile_actions.py                 # embedded Redis, 300 Coup actions
    python bench/profile_actions.py --actions 1000 --redis-url redis://127.0.0.1:6379/15

Plays random legal Coup games through the Flask test client (no HTTP server, so the
figures are the application's own cost), counting Redis commands with INFO
commandstats and profiling the action requests with cProfile.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import time
from typing import Any

import redis
from common import play_coup_in_process, redis_for_bench

from engine.settings import Limits
from service.app import create_app


def command_counts(client: redis.Redis) -> dict[str, int]:
    return {name: stats["calls"] for name, stats in client.info("commandstats").items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--actions", type=int, default=300)
    parser.add_argument("--redis-url", help="profile against this Redis instead of an embedded one")
    parser.add_argument("--top", type=int, default=25, help="functions to list")
    args = parser.parse_args()

    with redis_for_bench(args.redis_url) as url:
        app = create_app(redis_url=url, limits=Limits.off())
        client = app.test_client()
        engine = app.extensions["intrigue"]
        profile = cProfile.Profile()
        redis_client = redis.Redis.from_url(url)
        spent = 0.0
        commands: dict[str, int] = {}

        def post(path: str, action: dict, headers: dict) -> Any:
            nonlocal spent
            before = command_counts(redis_client)
            started = time.perf_counter()
            profile.enable()
            response = client.post(path, json=action, headers=headers)
            profile.disable()
            spent += time.perf_counter() - started
            for name, calls in command_counts(redis_client).items():
                delta = calls - before.get(name, 0) - (1 if name == "cmdstat_info" else 0)
                if delta:
                    commands[name] = commands.get(name, 0) + delta
            return response

        play_coup_in_process(client, engine, args.actions, post)
        done = args.actions
        print(f"{done} actions, mean {spent / done * 1000:.2f} ms in the application (profiler on)")
        total = sum(commands.values())
        print(f"Redis commands per action: {total / done:.1f}")
        for name, calls in sorted(commands.items(), key=lambda item: -item[1]):
            print(f"  {name.removeprefix('cmdstat_'):<24} {calls / done:6.2f}")
        out = io.StringIO()
        pstats.Stats(profile, stream=out).sort_stats("cumulative").print_stats(args.top)
        print(out.getvalue())


if __name__ == "__main__":
    main()
