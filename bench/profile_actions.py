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
import random
import time

import redis
from common import redis_for_bench

from service.app import create_app
from service.progress import Progress
from service.ratelimit import Limits


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
        tokens = []
        for index in range(3):
            tokens.append(client.post("/v1/players", json={"name": f"p{index}"}).get_json()["token"])
        auth = [{"Authorization": f"Bearer {token}"} for token in tokens]
        engine = app.extensions["intrigue"]
        rng = random.Random(7)
        profile = cProfile.Profile()
        redis_client = redis.Redis.from_url(url)
        done = 0
        spent = 0.0
        commands: dict[str, int] = {}
        progress = Progress("actions", args.actions)
        while done < args.actions:
            game_id = client.post("/v1/games", json={"game": "coup", "seats": 3,
                                                     "time_control": {"seconds_per_move": 3600}},
                                  headers=auth[0]).get_json()["id"]
            for headers in auth:
                client.post(f"/v1/games/{game_id}/join", headers=headers)
            while done < args.actions:
                view = client.get(f"/v1/games/{game_id}", headers=auth[0]).get_json()
                if view["status"] == "finished":
                    break
                if not view["awaiting"]:
                    engine.advance(game_id)  # what a worker would do
                    continue
                seat = rng.choice(view["awaiting"])
                legal = client.get(f"/v1/games/{game_id}", headers=auth[seat]).get_json()["legal_actions"]
                before = command_counts(redis_client)
                started = time.perf_counter()
                profile.enable()
                response = client.post(f"/v1/games/{game_id}/actions", json=rng.choice(legal), headers=auth[seat])
                profile.disable()
                spent += time.perf_counter() - started
                after = command_counts(redis_client)
                assert response.status_code == 200, response.get_data(as_text=True)
                for name, calls in after.items():
                    delta = calls - before.get(name, 0) - (1 if name == "cmdstat_info" else 0)
                    if delta:
                        commands[name] = commands.get(name, 0) + delta
                done += 1
                progress.step()
        print()
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
