"""``python -m bench bots``: how strong the ISMCTS bot is, and how fast it decides.

For each title, 3-seat games in memory (no server): one ISMCTS bot against two random-legal
bots, then against two of the game's heuristic bots, and the heuristic bot against two
random ones for reference. The bot's seat rotates game by game (0, 1, 2, ...). A shared win
counts as a share. Prints, per row, the bot's win share with its 95% Wilson interval and
the p50/p95 time of its decisions (the search's own time, measured around ``choose``).

The search's budget here is a number of iterations (``--iterations``, no time cap), so a
result does not depend on how busy the machine is; the server's bots search under
``bots.ismcts.DEFAULT_BUDGET`` (iterations and a time cap, whichever ends first).

    python -m bench bots                          # 200 games a title (long: hours)
    python -m bench bots --games 20 --titles coup,revolution
    python -m bench bots --rows ismcts-random     # only the ISMCTS bot against random bots
    python -m bench bots --jobs 2                 # both cores, when the machine is free

Ideology and Pax Porfiriana are played with their ``PLAYOUT_OPTIONS`` (turn caps), as the
conformance suite plays them, so a game ends in minutes rather than hours.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bots.base import Bot, RandomBot  # noqa: E402
from bots.heuristics import heuristic_for  # noqa: E402
from bots.ismcts import Budget, IsmctsBot  # noqa: E402
from bots.play import play  # noqa: E402
from games import registry  # noqa: E402

TITLES = ("coup", "revolution", "ideology", "pax")
SEATS = 3
#: (bot under test, the two opponents)
PAIRINGS = (("ismcts", "random"), ("ismcts", "heuristic"), ("heuristic", "random"))
#: A game still on after this many decisions (bots blocking each other for ever) counts as lost.
MAX_DECISIONS = 2_000
#: The search's iterations a decision: about what the server's time cap allows on one idle core.
ITERATIONS = 100


def make_bot(kind: str, game: str, iterations: int = ITERATIONS) -> Bot:
    if kind == "ismcts":
        return IsmctsBot(Budget(iterations=iterations, milliseconds=None))
    if kind == "heuristic":
        return heuristic_for(game)
    return RandomBot()


def wilson(share_sum: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (wins counted as shares)."""
    if n == 0:
        return 0.0, 1.0
    p = share_sum / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


@dataclass(frozen=True)
class GameSpec:
    game: str
    tested: str
    opponents: str
    index: int
    iterations: int = ITERATIONS


def play_one(spec: GameSpec) -> tuple[GameSpec, float, list[float]]:
    """One game; the tested bot's win share and its decision times (seconds)."""
    seat = spec.index % SEATS
    bots = [make_bot(spec.opponents, spec.game, spec.iterations) for _ in range(SEATS)]
    bots[seat] = make_bot(spec.tested, spec.game, spec.iterations)
    options = dict(getattr(registry.load(spec.game), "PLAYOUT_OPTIONS", {}))
    record = play(spec.game, bots, seed=f"bench-bots:{spec.game}:{spec.tested}:{spec.opponents}:{spec.index}",
                  options=options, max_decisions=MAX_DECISIONS)
    winners = record.outcome.winners
    share = 1.0 / len(winners) if seat in winners else 0.0
    return spec, share, record.decisions[seat]


@dataclass
class Row:
    game: str
    bot: str
    opponents: str
    games: int
    win_share: float
    low: float
    high: float
    p50_ms: float
    p95_ms: float
    decisions: int
    seconds: float


def run(titles: Sequence[str], games: int, jobs: int, pairings: Sequence[tuple[str, str]],
        iterations: int = ITERATIONS) -> list[Row]:
    rows = []
    for game in titles:
        for tested, opponents in pairings:
            specs = [GameSpec(game, tested, opponents, index, iterations) for index in range(games)]
            started = time.perf_counter()
            if jobs > 1:
                with multiprocessing.Pool(jobs) as pool:
                    results = pool.map(play_one, specs, chunksize=1)
            else:
                results = [play_one(spec) for spec in specs]
            shares = sum(share for _, share, _ in results)
            times = [t for _, _, decisions in results for t in decisions]
            low, high = wilson(shares, games)
            row = Row(game, tested, f"2x {opponents}", games, shares / games, low, high,
                      1000 * percentile(times, 0.50), 1000 * percentile(times, 0.95), len(times),
                      time.perf_counter() - started)
            print(format_row(row), flush=True)
            rows.append(row)
    return rows


HEADER = (f"{'title':<11} {'bot':<10} {'against':<13} {'games':>5} {'win share':>9} {'95% interval':>14} "
          f"{'p50 ms':>7} {'p95 ms':>7}")


def format_row(row: Row) -> str:
    return (f"{row.game:<11} {row.bot:<10} {row.opponents:<13} {row.games:>5} {row.win_share:>9.1%} "
            f"{f'{row.low:.0%}-{row.high:.0%}':>14} {row.p50_ms:>7.1f} {row.p95_ms:>7.1f}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench bots", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per title and pairing (default 200)")
    parser.add_argument("--titles", default=",".join(TITLES), help=f"comma-separated, from {', '.join(TITLES)}")
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1: the machine is shared)")
    parser.add_argument("--rows", default=",".join(f"{a}-{b}" for a, b in PAIRINGS),
                        help="comma-separated pairings BOT-OPPONENTS (default: all three)")
    parser.add_argument("--iterations", type=int, default=ITERATIONS,
                        help=f"the search's iterations a decision (default {ITERATIONS}; no time cap)")
    parser.add_argument("--json", type=Path, help="also write the rows to this file")
    args = parser.parse_args(argv)
    titles = [title.strip() for title in args.titles.split(",") if title.strip()]
    unknown = sorted(set(titles) - set(TITLES))
    pairings = [tuple(row.strip().split("-", 1)) for row in args.rows.split(",") if row.strip()]
    bad_rows = [row for row in pairings if row not in PAIRINGS]
    if unknown or bad_rows or args.games < 1 or args.jobs < 1 or args.iterations < 1:
        parser.error(f"unknown title(s): {', '.join(unknown)}" if unknown
                     else f"unknown row(s); rows are {', '.join(f'{a}-{b}' for a, b in PAIRINGS)}" if bad_rows
                     else "--games, --jobs and --iterations must be >= 1")
    rows_flag = ",".join(f"{a}-{b}" for a, b in pairings)
    print(f"# python -m bench bots --games {args.games} --titles {','.join(titles)} --rows {rows_flag} "
          f"--jobs {args.jobs} --iterations {args.iterations}")
    print(HEADER)
    rows = run(titles, args.games, args.jobs, pairings, args.iterations)
    if args.json:
        args.json.write_text(json.dumps([asdict(row) for row in rows], indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
