"""How long Pax Porfiriana's ``legal_actions`` takes: µs per call over states from random play.

    python bench/pax_legal_actions.py                  # 6 seeded games, 3 seats
    python bench/pax_legal_actions.py --games 20 --seats 4

Plays seeded random legal games (the conformance suite's turn cap), keeps every state
where a seat is awaited, then times ``games.pax.legal_actions`` and the frozen first
generator (tests/games/pax/reference_actions.py: every candidate through the rules'
checks) on the same states, in interleaved rounds, and prints the best round's mean CPU µs
per call, the speed-up, and whether the two lists agree on every state. CPU time, not a
budget: run it on a quiet machine, or compare the two lines of one run.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import games.pax as pax  # noqa: E402
from games.base import Action, Seat, State  # noqa: E402
from games.table import Table  # noqa: E402
from tests.games.pax.reference_actions import reference_legal_actions  # noqa: E402


def positions(games: int, seats: int, seed: int) -> list[tuple[State, Seat]]:
    """Every (state, awaited seat) of ``games`` seeded random games."""
    found: list[tuple[State, Seat]] = []
    for index in range(games):
        rng = random.Random(f"{seed}:{index}")
        table = Table(pax, seats, dict(pax.PLAYOUT_OPTIONS), seed=f"bench-pax-legal:{seed}:{index}")  # type: ignore[arg-type]
        table.settle()
        while table.outcome is None:
            (seat,) = table.awaiting()
            legal = pax.legal_actions(table.current, seat)
            found.append((table.current, seat))
            table.act(seat, rng.choice(legal))
    return found


def one_pass(generator: Callable[[State, Seat], list[Action]], states: list[tuple[State, Seat]]) -> float:
    """Mean CPU seconds per call over one pass of ``states``."""
    started = time.process_time()
    for state, seat in states:
        generator(state, seat)
    return (time.process_time() - started) / len(states)


def best_of(generators: list[Callable[[State, Seat], list[Action]]], states: list[tuple[State, Seat]],
            rounds: int) -> list[float]:
    """Each generator's best pass out of ``rounds``, the passes interleaved so that a busy spell of
    a shared machine slows both alike rather than only the one it happens to fall on."""
    best = [float("inf")] * len(generators)
    for _ in range(rounds):
        for index, generator in enumerate(generators):
            best[index] = min(best[index], one_pass(generator, states))
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=46)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    states = positions(args.games, args.seats, args.seed)
    agree = all(pax.legal_actions(s, seat) == reference_legal_actions(s, seat) for s, seat in states)
    fast, slow = best_of([pax.legal_actions, reference_legal_actions], states, args.rounds)
    mean_legal = sum(len(pax.legal_actions(s, seat)) for s, seat in states) / len(states)
    print(f"# python bench/pax_legal_actions.py --games {args.games} --seats {args.seats} --seed {args.seed} "
          f"--rounds {args.rounds}")
    print(f"{len(states)} states from {args.games} seeded random games, {mean_legal:.1f} legal actions on average")
    print(f"reference (candidates through the checks) {slow * 1e6:9.1f} µs per call")
    print(f"legal_actions                             {fast * 1e6:9.1f} µs per call")
    print(f"speed-up {slow / fast:.1f}x; lists identical on every state: {agree}")
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())
