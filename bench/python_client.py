"""The API's CPU per request for a client written with ``requests``, this checkout beside another.

    python bench/python_client.py --before BEFORE          # BEFORE: a `git archive` of another commit
    python bench/python_client.py --before BEFORE --rounds 4 --requests 3000

``requests`` (urllib3) writes a POST's head and its body in two writes, so the server often
reads the head before the body has come: the case a server's fast path for small requests
is most likely to give up on. One ``requests.Session`` (one kept-alive connection) plays,
one request at a time, a POST of an action the rules refuse (the game has not started: 403,
nothing appended) and a GET of the game, over and over, so each request is served on the
same connection after a POST. Intrigue runs as the image runs it (``bench/side_by_side.py``'s
production shape, the per-player rate limit off), each checkout in turn, round by round.
Printed per round and checkout: the requests, the API process's CPU per request and the
requests per second; then the medians. Nothing is asserted: it prints figures.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import requests
from common import PRODUCTION_API_PROCESSES, ROOT
from interpreter import image_like
from side_by_side import IMAGE, cpu_seconds, intrigue, settle


def one_round(root: Path, python: str, count: int, round_number: int) -> tuple[float, float]:
    """(API CPU µs per request, requests per second) of ``count`` requests against ``root``."""
    with intrigue("gunicorn", PRODUCTION_API_PROCESSES, 1, IMAGE, root=root, python=python,
                  env_extra={"INTRIGUE_RATE_LIMIT": "0"}) as (base, pids, _), requests.Session() as http:
        api = pids()[-1]
        player = http.post(f"{base}/v1/players", json={"name": f"bench{round_number}"})
        player.raise_for_status()
        headers = {"Authorization": f"Bearer {player.json()['token']}"}
        game = http.post(f"{base}/v1/games", json={"game": "coup", "seats": 2}, headers=headers)
        game.raise_for_status()
        game_url = f"{base}/v1/games/{game.json()['id']}"
        for _ in range(100):  # warm-up: the first requests pay for imports and caches
            http.get(game_url, headers=headers)
        settle(pids())
        spent, started = cpu_seconds([api]), time.monotonic()
        for _ in range(count // 2):
            refused = http.post(f"{game_url}/actions", json={"type": "income"}, headers=headers)
            shown = http.get(game_url, headers=headers)
            if refused.status_code != 403 or shown.status_code != 200:
                raise SystemExit(f"unexpected answers {refused.status_code} {shown.status_code}: {refused.text[:200]}")
        elapsed = time.monotonic() - started
        spent = cpu_seconds([api]) - spent
    done = count // 2 * 2
    return spent / done * 1e6, done / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", type=Path, required=True, help="the other checkout (a `git archive`, say)")
    parser.add_argument("--rounds", type=int, default=3, help="alternations (default %(default)s)")
    parser.add_argument("--requests", type=int, default=3000, help="requests per round (default %(default)s)")
    parser.add_argument("--python", help="the interpreter that runs Intrigue (default: as bench/side_by_side.py "
                                         "chooses, the image's CPython or the nearest build)")
    args = parser.parse_args()
    python = args.python or image_like().path
    sides = {"this checkout": ROOT, "before": args.before.resolve()}
    figures: dict[str, list[float]] = {name: [] for name in sides}
    for number in range(1, args.rounds + 1):
        for name, root in sides.items():
            cpu, rate = one_round(root, python, args.requests, number)
            figures[name].append(cpu)
            print(f"round {number} {name:14s} {args.requests} requests  API {cpu:5.0f} µs CPU/request  "
                  f"{rate:5.0f} requests/s", flush=True)
    for name, values in figures.items():
        print(f"median {name:13s} API {statistics.median(values):5.0f} µs CPU/request "
              f"({', '.join(f'{v:.0f}' for v in values)})")


if __name__ == "__main__":
    main()
