"""Whether ``GET /v1/me/games`` stays flat as a player's games accumulate.

    python bench/my_games.py                      # 10, 200 and 2,000 games
    python bench/my_games.py --sizes 10,5000 --requests 500

One player joins games one after another, all over HTTP against ``intrigue serve`` on an
embedded Redis. Each game is a two-seat Coup game opened by a second player; the first
player takes seat 0 and the second player's join starts it, so every game is in the
player's list and those whose first turn is theirs are in the inbox (``awaiting=me``) too.
At each size the script asks for the first page of both lists and the second page of the
list by its cursor, and counts the Redis commands of one page (INFO stats). Printed: the
wall time per request (p50 and mean, one keep-alive connection, one request in flight)
and the mean against the smallest size's. Nothing is asserted; ``tests/platform/test_listing.py`` holds the rules.
"""

from __future__ import annotations

import argparse
import statistics
import time

import redis
import requests
from common import intrigue_server, percentile, redis_for_bench

from service.progress import Progress

GAME = {"game": "coup", "seats": 2, "options": {}, "time_control": {"seconds_per_move": 86400}}


def register(http: requests.Session, base: str, name: str) -> dict[str, str]:
    answer = http.post(f"{base}/v1/players", json={"name": name})
    answer.raise_for_status()
    return {"Authorization": f"Bearer {answer.json()['token']}"}


def grow(http: requests.Session, base: str, host: dict[str, str], me: dict[str, str], count: int,
         progress: Progress) -> None:
    """``count`` more games, each opened by ``host``, joined by ``me`` (seat 0), started by ``host``."""
    for _ in range(count):
        created = http.post(f"{base}/v1/games", json=GAME, headers=host)
        created.raise_for_status()
        game_id = created.json()["id"]
        for who in (me, host):
            http.post(f"{base}/v1/games/{game_id}/join", headers=who).raise_for_status()
        progress.step()


def timed(http: requests.Session, url: str, headers: dict[str, str], params: dict[str, str],
          requests_: int) -> tuple[list[float], dict]:
    latencies, body = [], {}
    for _ in range(requests_):
        started = time.perf_counter()
        answer = http.get(url, headers=headers, params=params)
        latencies.append(time.perf_counter() - started)
        answer.raise_for_status()
        body = answer.json()
    return latencies, body


def commands_of_one(client: redis.Redis, http: requests.Session, url: str, headers: dict[str, str],
                    params: dict[str, str]) -> int:
    """Redis commands one page costs (the server's own bookkeeping of the request included)."""
    before = client.info("stats")["total_commands_processed"]
    http.get(url, headers=headers, params=params).raise_for_status()
    return client.info("stats")["total_commands_processed"] - before - 1  # the INFO itself


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="10,200,2000", help="games the player is in, in increasing order")
    parser.add_argument("--requests", type=int, default=300, help="requests per list and size")
    parser.add_argument("--limit", type=int, default=10,
                        help="the page size asked for (the smallest size should fill a page)")
    parser.add_argument("--redis-url", help="use this Redis (its data is flushed) instead of an embedded one")
    args = parser.parse_args()
    sizes = sorted(int(size) for size in args.sizes.split(","))

    with redis_for_bench(args.redis_url) as url:
        client = redis.Redis.from_url(url)
        client.flushdb()
        with intrigue_server(url, workers=1) as base, requests.Session() as http:
            host, me = register(http, base, "host"), register(http, base, "busy")
            mine = f"{base}/v1/me/games"
            rows, have = [], 0
            progress = Progress("games joined", sizes[-1], "games")
            for size in sizes:
                grow(http, base, host, me, size - have, progress)
                have = size
                row = {"games": size}
                for label, params in (("mine", {"limit": str(args.limit)}),
                                      ("inbox", {"limit": str(args.limit), "awaiting": "me"})):
                    latencies, body = timed(http, mine, me, params, args.requests)
                    row[label] = latencies
                    row[label + "_listed"] = len(body["games"])
                    row[label + "_commands"] = commands_of_one(client, http, mine, me, params)
                    if body.get("next_cursor"):
                        later, _ = timed(http, mine, me, {**params, "cursor": body["next_cursor"]},
                                         args.requests)
                        row[label + "_later"] = later
                rows.append(row)

    first = rows[0]
    print(f"GET /v1/me/games, first page of {args.limit}, {args.requests} requests per cell "
          f"(p50 / mean ms, and the mean against {first['games']} games):")
    print(f"{'games':>7}  {'your games':>24}  {'2nd page':>12}  {'awaiting=me':>24}  "
          f"{'commands/page':>13}")
    for row in rows:
        cells = []
        for label in ("mine", "inbox"):
            mean = statistics.fmean(row[label])
            cells.append(f"{percentile(row[label], 0.5) * 1000:6.2f} / {mean * 1000:6.2f} "
                         f"({mean / statistics.fmean(first[label]):4.2f}x)")
        later = row.get("mine_later")
        second = f"{statistics.fmean(later) * 1000:6.2f} mean" if later else "-"
        print(f"{row['games']:>7}  {cells[0]:>24}  {second:>12}  {cells[1]:>24}  "
              f"{row['mine_commands']:>6} / {row['inbox_commands']:<6}")
    print("(listed on the first page: " + ", ".join(
        f"{row['games']} games -> {row['mine_listed']} mine, {row['inbox_listed']} awaiting" for row in rows) + ")")


if __name__ == "__main__":
    main()
