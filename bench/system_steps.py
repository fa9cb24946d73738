"""CPU of each game's system step (``resolve``), which the commit that completes a phase runs.

    python bench/system_steps.py                 # 40 random games of each game and seat count
    python bench/system_steps.py --games 200 --game pax

The step runs inside the request that completes the phase (docs/ARCHITECTURE.md, "System
steps in the commit"), so its cost is added to that one request's answer. This plays random
legal games in memory (``games.table.Table``, the server's sequence of calls without
Redis) and times every ``resolve`` call with the process's CPU clock: the median, the 99th
percentile and the longest, per game and seat count. Nothing is asserted: it prints figures.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games import registry  # noqa: E402
from games.table import Table  # noqa: E402


class TimedRules:
    """A game's rules whose ``resolve`` calls are timed; everything else passes through."""

    def __init__(self, rules: Any) -> None:
        self._rules = rules
        self.times_us: list[float] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._rules, name)

    def resolve(self, state: Any, rng: random.Random) -> Any:
        started = time.process_time_ns()
        events = self._rules.resolve(state, rng)
        self.times_us.append((time.process_time_ns() - started) / 1000)
        return events


def measure(name: str, seats: int, games: int) -> list[float]:
    """The time of every system step in ``games`` random games of ``name`` at ``seats``, in µs."""
    rules = TimedRules(registry.load(name))
    for number in range(games):
        table = Table(rules, seats, seed=f"steps-{name}-{seats}-{number}")  # type: ignore[arg-type]
        table.play_randomly(random.Random(number))
    return rules.times_us


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=40, help="random games per game and seat count")
    parser.add_argument("--game", action="append", help="only this game (repeatable; default: all four)")
    args = parser.parse_args()
    names = args.game or [name for name in registry.available() if name != "toy"]
    print(f"{'game':<12}{'seats':>6}{'steps':>8}{'median µs':>11}{'p99 µs':>9}{'max µs':>9}")
    for name in names:
        rules = registry.load(name)
        for seats in range(rules.MIN_SEATS, rules.MAX_SEATS + 1):
            times = sorted(measure(name, seats, args.games))
            if not times:
                print(f"{name:<12}{seats:>6}{0:>8}")
                continue
            p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
            print(f"{name:<12}{seats:>6}{len(times):>8}{statistics.median(times):>11.0f}{p99:>9.0f}"
                  f"{times[-1]:>9.0f}", flush=True)


if __name__ == "__main__":
    main()
