"""How long random Ideology games run, and how they end: figures for the game's README.

    python bench/ideology_playouts.py                  # 200 games each of 2, 3 and 5 seats
    python bench/ideology_playouts.py --games 50 --seats 3 --option max_turns=20

Every awaited seat picks uniformly among its legal actions (``Table.play_randomly``, the
same call sequence as the server). Prints, per seat count, how the games ended, and the
median, 99th percentile and maximum of seat actions and of turns.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
from collections import Counter

import games.ideology as ideology
from games.table import Table
from service.progress import Progress


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="games per seat count (default %(default)s)")
    parser.add_argument("--seats", type=int, nargs="+", default=[2, 3, 5])
    parser.add_argument("--option", action="append", default=[], help="key=JSON value, e.g. max_turns=20")
    args = parser.parse_args()
    options = {key: json.loads(value) for key, value in (item.split("=", 1) for item in args.option)}
    for seats in args.seats:
        reasons: Counter[str] = Counter()
        actions, turns = [], []
        progress = Progress(f"{seats} seats", args.games)
        for index in range(args.games):
            table = Table(ideology, seats, options, seed=f"playout-{seats}-{index}")  # type: ignore[arg-type]
            outcome = table.play_randomly(random.Random(index), max_steps=50_000)
            reasons[outcome.reason] += 1
            actions.append(sum(1 for event in table.events if event.actor is not None))
            turns.append(table.current["turn"])
            progress.step()
        actions.sort()
        turns.sort()
        p99 = max(0, round(0.99 * len(actions)) - 1)
        print(f"{seats} seats, {args.games} games: ended by {dict(sorted(reasons.items()))}; "
              f"seat actions median {statistics.median(actions):.0f}, p99 {actions[p99]}, max {actions[-1]}; "
              f"turns median {statistics.median(turns):.0f}, p99 {turns[p99]}, max {turns[-1]}")


if __name__ == "__main__":
    main()
