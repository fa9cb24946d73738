"""CPU of the commit's render check (``projections.renderable.check_renders``) per move.

    python bench/render_check.py                 # 10 random games of each game, MIN and MAX seats
    python bench/render_check.py --games 40 --game pax

Every commit renders every seat's and a spectator's view of the state it leads to (with the
legal actions of each seat that may act) and its new events as each seat reads them, before
appending (issue 47). This plays random legal games in memory (``games.table.Table``) and,
after every move, times the check on that move's events and state with the process's CPU
clock. A budget counted in games and moves, not seconds, so the figures do not depend on how
loaded the machine is. Prints the median, the 99th percentile and the mean per game and seat
count; nothing is asserted.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from events.envelope import Envelope  # noqa: E402
from games import registry  # noqa: E402
from games.table import Table  # noqa: E402
from projections.renderable import check_renders  # noqa: E402


def envelope(event: object) -> Envelope:
    return Envelope(seq=event.seq, type=event.type, at="2026-01-01T00:00:00Z", actor=event.actor,  # type: ignore[attr-defined]
                    data=dict(event.data), cause={}, prev="", hash="")  # type: ignore[attr-defined]


def times_for(name: str, seats: int, games: int, max_moves: int) -> list[float]:
    rules = registry.load(name)
    spent: list[float] = []
    for game in range(games):
        table = Table(rules, seats, getattr(rules, "PLAYOUT_OPTIONS", {}), seed=f"bench-{game}")
        table.settle()
        rng = random.Random(game)
        for _ in range(max_moves):
            if table.outcome is not None:
                break
            legal = {seat: rules.legal_actions(table.current, seat) for seat in table.awaiting()}
            seat = rng.choice([s for s, actions in legal.items() if actions])
            added = table.act(seat, rng.choice(legal[seat]))
            record = {"game": name, "seats": seats, "status": "active", "state": table.current}
            events = [envelope(event) for event in added]
            started = time.process_time_ns()
            check_renders(record, events)
            spent.append((time.process_time_ns() - started) / 1000)
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--moves", type=int, default=300, help="the most moves of one game timed")
    parser.add_argument("--game", choices=registry.available())
    args = parser.parse_args()
    print(f"{'game':<11} {'seats':>5} {'moves':>6} {'median µs':>10} {'p99 µs':>8} {'mean µs':>8}")
    for name in [args.game] if args.game else registry.available():
        rules = registry.load(name)
        for seats in sorted({rules.MIN_SEATS, rules.MAX_SEATS}):
            spent = sorted(times_for(name, seats, args.games, args.moves))
            p99 = spent[min(len(spent) - 1, int(len(spent) * 0.99))]
            print(f"{name:<11} {seats:>5} {len(spent):>6} {statistics.median(spent):>10.0f} {p99:>8.0f} "
                  f"{statistics.fmean(spent):>8.0f}")


if __name__ == "__main__":
    main()
