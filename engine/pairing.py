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
(leaders meet leaders), by a depth-first search that refuses a table where two players
already met. The first complete pairing found is the one closest to the plain order. When
no such pairing exists (the search tried everything, or spent ``SEARCH_BUDGET`` steps),
the search runs again allowing one repeated meeting, then two, and so on: repeats happen
only when no pairing avoids them (within the budget, which tournament sizes never reach
in practice: a field of 30 is paired in well under a thousand steps).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

#: Steps one search (for one number of repeats allowed) may take before it gives up.
SEARCH_BUDGET = 200_000

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
    for allowed in range(sum(size * (size - 1) // 2 for size in sizes) + 1):
        found = _search(seated, sizes, met, allowed)
        if found is not None:
            return Pairing(found, sorted(byes, key=lambda pid: [e.id for e in ranked].index(pid)))
    raise PairingImpossible("no pairing found within the search's budget")


def repeats(tables: Sequence[Sequence[str]], met: Mapping[str, frozenset[str]]) -> int:
    """How many pairs of table-mates already met."""
    return sum(1 for table in tables for i, a in enumerate(table) for b in table[i + 1:]
               if b in met.get(a, frozenset()))


def _search(players: list[str], sizes: list[int], met: Mapping[str, frozenset[str]],
            allowed: int) -> list[list[str]] | None:
    """Depth-first: fill the tables in order, players in rank order, at most ``allowed`` repeats."""
    steps = 0
    tables: list[list[str]] = [[] for _ in sizes]
    free = list(players)

    def clashes(table: list[str], player: str) -> int:
        known = met.get(player, frozenset())
        return sum(1 for other in table if other in known)

    def fill(index: int, start: int, budget: int) -> bool:
        nonlocal steps
        steps += 1
        if steps > SEARCH_BUDGET:
            raise _OutOfSteps
        if index == len(sizes):
            return True
        table = tables[index]
        if len(table) == sizes[index]:
            return fill(index + 1, 0, budget)
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
            cost = clashes(table, player)
            if cost > budget:
                continue
            table.append(player)
            del free[position]
            if fill(index, position, budget - cost):
                return True
            free.insert(position, player)
            table.pop()
            if table and len(free) - position - 1 < sizes[index] - len(table):
                break  # not enough players left after this one to finish the table
        return False

    try:
        return [list(t) for t in tables] if fill(0, 0, allowed) else None
    except _OutOfSteps:
        return None


class _OutOfSteps(Exception):
    """The search spent its budget."""
