"""``python -m bench correspondence``: how many days a correspondence game takes, with and
without the standing orders a careful player would set (issue 49).

Each player visits the game once a day at an hour of their own (drawn per game, seeded)
and, while there, makes every decision the game awaits of them: as a careful player, the
answer its standing orders would give where one applies, else its heuristic bot's choice.
Both settings play that same policy; they differ only in when. Without orders, a decision
that falls to a seat between its visits waits for the next one; with them, an order
answers it at once, as the server does inside the commit that opens it
(``projections.orders.first_answer``, the very function the engine calls). Nobody misses a
visit, so no deadline passes. A game's length is the time of its last decision, in days
from the first player's visit on day 0.

    python -m bench correspondence                    # 200 games per row
    python -m bench correspondence --games 40 --titles coup

Budgets are counted in games, not seconds, so the figures do not depend on the machine's
load. Ideology and Pax Porfiriana are played with their ``PLAYOUT_OPTIONS`` (turn caps),
as the conformance suite plays them.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bots.heuristics import heuristic_for  # noqa: E402
from bots.play import SeatHistories, observation_for  # noqa: E402
from games import registry  # noqa: E402
from games.base import derive_rng  # noqa: E402
from games.table import Table  # noqa: E402
from projections.orders import first_answer  # noqa: E402

#: (title, seats) rows, as the issue asks: 3- and 5-seat Coup, and each other title.
ROWS: tuple[tuple[str, int], ...] = (("coup", 3), ("coup", 5), ("revolution", 3), ("ideology", 3), ("pax", 3))
#: A game still on after this many decisions is dropped from the figures (and counted).
MAX_DECISIONS = 5_000
HOURS_PER_DAY = 24.0
#: The card a careful Coup player gives up first when losing an influence, and so on.
REVEAL_FIRST = ("ambassador", "contessa", "captain", "assassin", "duke")


def careful_orders(game: str, seats: int) -> dict[int, list[dict[str, Any]]]:
    """What a careful player of ``game`` sets: let through what is not aimed at them."""
    per_game: dict[str, list[dict[str, Any]]] = {
        # Coup: allow every claim and block unless I am its target (the "auto-pass"); when I
        # am, block with a card I hold; and when I must lose a card, give up the least useful first.
        "coup": [{"decision": "react", "when": {"targeted": False}, "answer": {"type": "pass"}},
                 *({"decision": "react", "when": {"action": action, "targeted": True, "holding": card},
                    "answer": {"type": "block", "card": card}}
                   for action, card in (("steal", "captain"), ("steal", "ambassador"), ("assassinate", "contessa"))),
                 # ... and when it cannot block, it does not gamble on a challenge: it lets the steal
                 # or the assassination through (the "never challenge").
                 *({"decision": "react", "when": {"action": action, "targeted": True}, "answer": {"type": "pass"}}
                   for action in ("steal", "assassinate")),
                 *({"decision": "reveal", "when": {"holding": card}, "answer": {"type": "reveal", "card": card}}
                   for card in REVEAL_FIRST)],
        # Revolution!: bid as last round whenever the hand allows it.
        "revolution": [{"decision": "bid", "when": {}, "answer": {"type": "bid_as_last_round"}}],
        # Ideology: cancel an attack while I can pay for it; stay neutral with everyone in diplomacy.
        "ideology": [{"decision": "defend", "when": {}, "answer": {"type": "cancel"}},
                     {"decision": "offer", "when": {}, "answer": {"type": "offer", "offers": {}}}],
        # Pax Porfiriana: stay out of topples I did not buy.
        "pax": [{"decision": "topple", "when": {"mine": False}, "answer": {"type": "done"}}],
    }
    orders = [{**order, "once": False} for order in per_game.get(game, [])]
    return {seat: list(orders) for seat in range(seats)} if orders else {}


@dataclass(frozen=True)
class Finished:
    days: float
    decisions: int
    by_order: int


def _record(game: str, table: Table) -> dict[str, Any]:
    owed = table.awaiting()
    return {"game": game, "state": table.current, "status": "active",
            "awaiting": [owed.get(seat) for seat in range(table.seats)], "resigned": []}


def simulate(game: str, seats: int, seed: str, with_orders: bool,
             options: Mapping[str, Any] | None = None) -> Finished | None:
    """One game, visit by visit; None when it did not end within :data:`MAX_DECISIONS`."""
    rules = registry.load(game)
    table = Table(rules, seats, options, seed=seed)
    table.settle()
    histories = SeatHistories(table)
    hours = [random.Random(f"{seed}:hour:{seat}").uniform(0, HOURS_PER_DAY) for seat in range(seats)]
    visiting = sorted(range(seats), key=lambda seat: hours[seat])
    bots = [heuristic_for(game) for _ in range(seats)]
    policy = careful_orders(game, seats)
    orders = policy if with_orders else {}
    decisions = by_order = 0

    def answer_by_orders() -> int:
        answered = 0
        while orders and table.outcome is None:
            found = first_answer(_record(game, table), orders, lambda: random.Random(0))
            if found is None:
                return answered
            table.act(found.seat, found.action)
            answered += 1
        return answered

    def by_hand(seat: int) -> dict[str, Any]:
        """The seat's choice at its visit: what its orders would have said, else its bot's."""
        mine = first_answer(_record(game, table), {seat: policy.get(seat, [])}, lambda: random.Random(0))
        if mine is not None:
            return mine.action
        observation = observation_for(table, game, seat, histories)
        return dict(bots[seat].choose(observation, derive_rng(seed, decisions, f"bot:{seat}")))

    by_order += answer_by_orders()
    day = 0
    last = 0.0
    while table.outcome is None:
        for seat in visiting:
            moment = day * HOURS_PER_DAY + hours[seat]
            while table.outcome is None and seat in table.awaiting():
                table.act(seat, by_hand(seat))
                decisions += 1
                by_order += answer_by_orders()
                last = moment
                if decisions >= MAX_DECISIONS:
                    return None
        day += 1
    return Finished(days=(last - hours[visiting[0]]) / HOURS_PER_DAY, decisions=decisions, by_order=by_order)


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def run_row(game: str, seats: int, games: int) -> dict[str, Any]:
    options = getattr(registry.load(game), "PLAYOUT_OPTIONS", {})
    row: dict[str, Any] = {"game": game, "seats": seats}
    for label, with_orders in (("without", False), ("with", True)):
        done = [simulate(game, seats, f"correspondence:{game}:{seats}:{n}", with_orders, options)
                for n in range(games)]
        finished = [result for result in done if result is not None]
        days = [result.days for result in finished]
        row[label] = {"games": len(finished), "unfinished": len(done) - len(finished),
                      "median": statistics.median(days) if days else float("nan"),
                      "p90": percentile(days, 0.9) if days else float("nan"),
                      "by_order": sum(result.by_order for result in finished) / max(1, len(finished))}
    return row


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench correspondence", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per row and per setting (default 200)")
    parser.add_argument("--titles", default=",".join(dict.fromkeys(game for game, _ in ROWS)),
                        help="comma-separated titles (default: all)")
    args = parser.parse_args(argv)
    wanted = set(args.titles.split(","))
    print(f"{'game':<11}{'seats':>6}{'games':>7}{'median without':>16}{'with':>7}{'change':>8}"
          f"{'p90 without':>13}{'with':>7}{'answers by order':>18}")
    for game, seats in ROWS:
        if game not in wanted:
            continue
        row = run_row(game, seats, args.games)
        without, with_ = row["without"], row["with"]
        change = (with_["median"] - without["median"]) / without["median"] * 100 if without["median"] else 0.0
        print(f"{game:<11}{seats:>6}{with_['games']:>7}{without['median']:>16.1f}{with_['median']:>7.1f}"
              f"{change:>7.0f}%{without['p90']:>13.1f}{with_['p90']:>7.1f}{with_['by_order']:>18.1f}", flush=True)
        if without["unfinished"] or with_["unfinished"]:
            print(f"  ({without['unfinished']} and {with_['unfinished']} games unfinished after "
                  f"{MAX_DECISIONS} decisions left out)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
