"""Swiss pairing and scoring for tournaments: pure functions of the standings before a round.

Nothing here reads Redis or a clock, so a tournament's stream can be replayed and each
``RoundPaired`` checked against what :func:`pair_round` gives for the results before it
(``intrigue verify``).

Scoring. A finished table gives each seat ``(seats - position) / (seats - 1)`` points,
positions counted from 1; seats that share a rank share the points of the positions they
take together (three seats, one winner and two tied: 1, 1/4, 1/4). A bye is worth a win: 1.
Points are kept as fractions, so orderings never depend on rounding.

Pairing. The active players are ordered by points, then rating, then the order they
joined (the last only breaks exact ties, deterministically). The table sizes come first
(:func:`table_sizes`): full tables of ``seats_per_table`` where the players divide; else as
many tables as full ones would need, with the players spread evenly over them, when the
game allows that many seats; else the fewest byes that make that possible, given to the
lowest-ordered players who never had one. Then the tables are filled in order, the best
player still unseated first at each table and the next seats taken in the players' order
(leaders meet leaders), by a branch-and-bound search for the fewest repeated meetings (pairs
of table-mates who already sat together). Its first bound is the greedy pairing (each seat
taken by the first player left with the fewest table-mates met); a pairing without repeats
ends the search at once, and of those with the fewest repeats the first found in the
players' order wins. So two players meet again only when no pairing avoids it: exactly so
within ``SEARCH_BUDGET`` steps (every field of a dozen players, and any field where a
pairing without repeats exists near the plain order); past it, the best pairing found then.
The steps are counted, not timed, so a replay (``intrigue verify``) finds the same pairing.
A late round of a large field (60 players at 4 seats, round 10) is paired in under a second
(``bench/tournament_pairing.py``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

#: Steps one search (for one number of repeats allowed) may take before it gives up.
SEARCH_BUDGET = 50_000

#: A bye is worth a win.
BYE_POINTS = Fraction(1)


class PairingImpossible(ValueError):
    """No legal round: too few active players, or byes would go to a player twice."""


@dataclass(frozen=True)
class Entrant:
    """What pairing knows of one active player: points so far, rating at joining, joining order."""

    id: str
    points: Fraction
    rating: float
    joined: int


@dataclass(frozen=True)
class Pairing:
    tables: list[list[str]]
    byes: list[str]


def seat_points(ranks: Sequence[int]) -> list[Fraction]:
    """Each seat's points from its rank (0 the best; equal ranks are ties)."""
    seats = len(ranks)
    if seats < 2:
        return [BYE_POINTS] * seats
    order = sorted(range(seats), key=lambda seat: ranks[seat])
    points = [Fraction(0)] * seats
    position = 0
    while position < seats:
        tied = [seat for seat in order[position:] if ranks[seat] == ranks[order[position]]]
        shared = sum((Fraction(seats - 1 - (position + i), seats - 1) for i in range(len(tied))), Fraction(0))
        for seat in tied:
            points[seat] = shared / len(tied)
        position += len(tied)
    return points


def table_sizes(players: int, per_table: int, min_seats: int, max_seats: int) -> tuple[list[int], int] | None:
    """The tables' sizes, largest first, and how many byes; None when no round can be played.

    Full tables when they divide; else ``ceil(n / per_table)`` tables spread evenly, if
    the game allows the smaller size; else the fewest byes that make a legal spread.
    """
    per_table = min(per_table, max_seats)
    for byes in range(players + 1):
        seated = players - byes
        if seated < max(min_seats, 1):
            return None
        count = -(-seated // per_table)
        small, extra = divmod(seated, count)
        if small >= min_seats and small + (1 if extra else 0) <= per_table:
            return [small + 1] * extra + [small] * (count - extra), byes
    return None


def order(entrants: Iterable[Entrant]) -> list[Entrant]:
    """Pairing order: points, then rating, best first; then the order they joined."""
    return sorted(entrants, key=lambda e: (-e.points, -e.rating, e.joined))


def pair_round(entrants: Sequence[Entrant], met: Mapping[str, frozenset[str]], had_bye: Iterable[str],
               per_table: int, min_seats: int, max_seats: int) -> Pairing:
    """The round's tables (each in seat order) and byes; raises :class:`PairingImpossible`."""
    ranked = order(entrants)
    shape = table_sizes(len(ranked), per_table, min_seats, max_seats)
    if shape is None:
        raise PairingImpossible(f"{len(ranked)} players cannot fill a table of at least {min_seats}")
    sizes, bye_count = shape
    byes: list[str] = []
    if bye_count:
        had = set(had_bye)
        eligible = [e.id for e in reversed(ranked) if e.id not in had]
        if len(eligible) < bye_count:
            raise PairingImpossible("every player who could take a bye has had one")
        byes = eligible[:bye_count]
    seated = [e.id for e in ranked if e.id not in byes]
    order_of = {e.id: place for place, e in enumerate(ranked)}
    return Pairing(_search(seated, sizes, met), sorted(byes, key=order_of.__getitem__))


def repeats(tables: Sequence[Sequence[str]], met: Mapping[str, frozenset[str]]) -> int:
    """How many pairs of table-mates already met."""
    return sum(1 for table in tables for i, a in enumerate(table) for b in table[i + 1:]
               if b in met.get(a, frozenset()))


def _greedy(players: list[str], sizes: list[int], met: Mapping[str, frozenset[str]]) -> list[list[str]]:
    """Tables in order, each seat taken by the first player left (in order) with the fewest
    table-mates met already: the search's first bound."""
    free = list(players)
    tables = []
    for size in sizes:
        table = [free.pop(0)]
        while len(table) < size:
            costs = [sum(1 for other in table if other in met.get(player, frozenset())) for player in free]
            table.append(free.pop(costs.index(min(costs))))
        tables.append(table)
    return tables


def _search(players: list[str], sizes: list[int], met: Mapping[str, frozenset[str]]) -> list[list[str]]:
    """The pairing with the fewest repeated meetings: branch and bound over the tables in order,
    players in order, from the greedy pairing's count; the first found at the best count wins
    (the one nearest the plain order). Within ``SEARCH_BUDGET`` steps: then the best found."""
    best = _greedy(players, sizes, met)
    best_cost = repeats(best, met)
    if best_cost == 0:
        return best
    steps = 0
    tables: list[list[str]] = [[] for _ in sizes]
    free = list(players)

    def clashes(table: list[str], player: str) -> int:
        known = met.get(player, frozenset())
        return sum(1 for other in table if other in known)

    def fill(index: int, start: int, cost: int) -> None:
        nonlocal steps, best, best_cost
        steps += 1
        if steps > SEARCH_BUDGET:
            raise _OutOfSteps
        if index == len(sizes):
            best, best_cost = [list(t) for t in tables], cost
            if cost == 0:
                raise _OutOfSteps  # nothing beats no repeat: stop here
            return
        table = tables[index]
        if len(table) == sizes[index]:
            fill(index + 1, 0, cost)
            return
        # An empty table's first seat is the best player left when the tables after it are of its
        # size (no set of table-mates is tried twice over); before a table of another size, anyone.
        if table:
            candidates = range(start, len(free))
        elif all(size == sizes[index] for size in sizes[index:]):
            candidates = range(0, 1)
        else:
            candidates = range(len(free))
        for position in candidates:
            player = free[position]
            added = clashes(table, player)
            if cost + added >= best_cost:
                continue
            table.append(player)
            del free[position]
            fill(index, position, cost + added)
            free.insert(position, player)
            table.pop()
            if table and len(free) - position - 1 < sizes[index] - len(table):
                break  # not enough players left after this one to finish the table

    try:
        fill(0, 0, 0)
    except _OutOfSteps:
        pass
    return best


class _OutOfSteps(Exception):
    """The search spent its budget, or found a pairing nothing can beat."""
