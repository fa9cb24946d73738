"""How long a Swiss round takes to pair, and how many repeated meetings it has to make.

    python bench/tournament_pairing.py                       # the default fields
    python bench/tournament_pairing.py --field 60x4x10 --seed 3

Plays whole tournaments of random results (engine.pairing only: no Redis, no games): each
field is players x seats per table x rounds; every round is paired from the standings
before it, as the server does. Prints, per field, the slowest round's pairing time and the
repeats made in all (two players who meet again count one). The search is bounded in
steps, not time, so the repeats do not depend on the machine; the times do.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.pairing import Entrant, pair_round, repeats, seat_points  # noqa: E402

FIELDS = ("7x3x3", "30x3x8", "100x3x12", "12x4x6", "20x5x6", "60x4x10")


def play(players: int, seats: int, rounds: int, seed: int) -> tuple[float, int]:
    rng = random.Random(seed)
    points = {f"p{i}": Fraction(0) for i in range(players)}
    ratings = {pid: rng.uniform(0, 30) for pid in points}
    met: dict[str, set[str]] = {pid: set() for pid in points}
    byes: set[str] = set()
    slowest, repeated = 0.0, 0
    for _ in range(rounds):
        entrants = [Entrant(pid, got, ratings[pid], i) for i, (pid, got) in enumerate(points.items())]
        known = {pid: frozenset(others) for pid, others in met.items()}
        started = time.perf_counter()
        pairing = pair_round(entrants, known, byes, seats, 2, 6)
        slowest = max(slowest, time.perf_counter() - started)
        repeated += repeats(pairing.tables, known)
        for pid in pairing.byes:
            points[pid] += 1
            byes.add(pid)
        for table in pairing.tables:
            ranks = rng.sample(range(len(table)), len(table))
            for pid, got in zip(table, seat_points(ranks), strict=True):
                points[pid] += got
            for pid in table:
                met[pid].update(other for other in table if other != pid)
    return slowest, repeated


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--field", action="append", help="players x seats x rounds, e.g. 30x3x8 (repeatable)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{'field':>10}  {'slowest round':>14}  {'repeats':>7}")
    for field in args.field or FIELDS:
        players, seats, rounds = (int(part) for part in field.split("x"))
        slowest, repeated = play(players, seats, rounds, args.seed)
        print(f"{field:>10}  {slowest * 1000:11.1f} ms  {repeated:7d}")


if __name__ == "__main__":
    main()
