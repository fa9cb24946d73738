"""Redis bytes per finished Coup game, measured with MEMORY USAGE.

    python bench/archive_size.py                    # 1,000 games of 3 seats and 1,000 of 6
    python bench/archive_size.py --games 200 --seats 3

Plays random legal games to the end in this process (the engine called directly, each
post with an Idempotency-Key, day-long clocks so deadline jobs are booked, worker steps
run inline), then sums MEMORY USAGE over every key of each finished game (its meta and
its archive) and reports the mean, the largest and how many exceed the aim. It also
reports the whole Redis's growth per game (player records, tokens and indexes included).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import redis  # noqa: E402

from bench.common import redis_for_bench  # noqa: E402
from engine.core import Engine  # noqa: E402
from engine.scheduling import JobScheduler, make_queue  # noqa: E402
from games.registry import load  # noqa: E402
from projections.record import awaiting  # noqa: E402
from service.progress import Progress  # noqa: E402

#: The issue's aims, in bytes per finished game.
AIMS = {3: 16 * 1024, 6: 32 * 1024}


def play(engine: Engine, players: list, rng: random.Random) -> str:
    """One random legal Coup game to its end; returns its id."""
    record = engine.create_game(players[0], "coup", len(players), {}, {"seconds_per_move": 86400})
    game_id = record["id"]
    for player in players:
        engine.join(player, game_id)
    rules = load("coup")
    posts = 0
    while True:
        record = engine.load(game_id)
        if record["status"] == "finished":
            return game_id
        waiting = awaiting(record)
        if not waiting:
            engine.advance(game_id)
            continue
        seat = rng.choice(sorted(waiting))
        action = rng.choice(rules.legal_actions(record["state"], seat))
        posts += 1
        engine.act(players[seat], game_id, action, idempotency_key=f"post-{posts}")


def game_bytes(client: redis.Redis, engine: Engine, game_id: str) -> int:
    keys = [key for key in client.scan_iter(match=f"{engine.keys.prefix}:{{g:{game_id}}}:*")]
    return sum(client.memory_usage(key) or 0 for key in keys)


def measure(redis_url: str, seats: int, games: int, seed: int = 1) -> dict[str, float]:
    """Bytes per finished game of ``seats`` seats over ``games`` games, and the share above the aim."""
    client = redis.Redis.from_url(redis_url)
    engine = Engine(client, JobScheduler(make_queue(client)))
    rng = random.Random(seed)
    players = [engine.create_player(f"seat{i}")[0] for i in range(seats)]
    before = client.info("memory")["used_memory"]
    progress = Progress(f"archive size, {seats} seats", games, "games")
    sizes, events = [], []
    for _ in range(games):
        game_id = play(engine, players, rng)
        engine.scheduler.queue.empty()  # system steps ran inline; their queued jobs would only idle
        sizes.append(game_bytes(client, engine, game_id))
        events.append(engine.store.version(game_id))
        progress.step()
    grown = client.info("memory")["used_memory"] - before
    return {"seats": seats, "games": games, "mean_bytes": statistics.fmean(sizes), "max_bytes": max(sizes),
            "p99_bytes": sorted(sizes)[int(0.99 * (len(sizes) - 1))], "aim_bytes": AIMS.get(seats, 0),
            "over_aim": sum(size > AIMS.get(seats, float("inf")) for size in sizes),
            "mean_events": statistics.fmean(events), "redis_growth_per_game": grown / games}


def report(row: dict[str, float]) -> str:
    return (f"Coup {row['seats']} seats, {row['games']} games ({row['mean_events']:.0f} events on average): "
            f"mean {row['mean_bytes'] / 1024:.1f} KiB, p99 {row['p99_bytes'] / 1024:.1f} KiB, "
            f"max {row['max_bytes'] / 1024:.1f} KiB per finished game (aim {row['aim_bytes'] / 1024:.0f} KiB; "
            f"{row['over_aim']} over); whole Redis grew {row['redis_growth_per_game'] / 1024:.1f} KiB per game")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seats", type=int, action="append", help="seat counts (default: 3 and 6)")
    parser.add_argument("--redis-url", help="measure on this Redis (a spare database!) instead of an embedded one")
    args = parser.parse_args()
    with redis_for_bench(args.redis_url) as url:
        for seats in args.seats or [3, 6]:
            print(report(measure(url, seats, args.games)), flush=True)


if __name__ == "__main__":
    main()
