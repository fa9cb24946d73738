"""Swiss pairing and scoring (engine.pairing): property tests against a brute-force search.

For any field and any history, the pairing seats every active player but the byes once,
at tables of sizes the game allows and no larger than asked; repeats table-mates only as
often as the best pairing there is must (found here by trying every partition); and never
gives a second bye to a player who had one.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.pairing import Entrant, PairingImpossible, pair_round, repeats, seat_points, table_sizes


def partitions(players: list[str], sizes: list[int]) -> list[list[list[str]]]:
    """Every way to seat ``players`` at tables of ``sizes`` (as sets): the brute force's ground truth."""
    if not sizes:
        return [[]] if not players else []
    out = []
    for group in combinations(players, sizes[0]):
        rest = [p for p in players if p not in group]
        for tail in partitions(rest, sizes[1:]):
            out.append([list(group), *tail])
    return out


@st.composite
def fields(draw: st.DrawFn) -> tuple[list[Entrant], dict[str, frozenset[str]], set[str], int, int, int]:
    count = draw(st.integers(min_value=2, max_value=9))
    ids = [f"p{i}" for i in range(count)]
    entrants = [Entrant(pid, Fraction(draw(st.integers(0, 8)), 4), draw(st.sampled_from([0.0, 5.5, 12.0])), i)
                for i, pid in enumerate(ids)]
    pairs = draw(st.lists(st.tuples(st.sampled_from(ids), st.sampled_from(ids)), max_size=12))
    met: dict[str, set[str]] = {pid: set() for pid in ids}
    for a, b in pairs:
        if a != b:
            met[a].add(b)
            met[b].add(a)
    byes = set(draw(st.lists(st.sampled_from(ids), max_size=3)))
    min_seats = draw(st.integers(2, 3))
    max_seats = draw(st.integers(min_seats, 6))
    per_table = draw(st.integers(min_seats, max_seats))
    return entrants, {k: frozenset(v) for k, v in met.items()}, byes, per_table, min_seats, max_seats


@given(fields())
def test_a_pairing_is_legal_and_repeats_only_when_no_pairing_avoids_it(field: tuple) -> None:
    entrants, met, had_bye, per_table, min_seats, max_seats = field
    try:
        pairing = pair_round(entrants, met, had_bye, per_table, min_seats, max_seats)
    except PairingImpossible:
        shape = table_sizes(len(entrants), per_table, min_seats, max_seats)
        eligible = [e for e in entrants if e.id not in had_bye]
        assert shape is None or len(eligible) < shape[1]
        return
    seated = [pid for table in pairing.tables for pid in table]
    assert sorted(seated + pairing.byes) == sorted(e.id for e in entrants)  # everyone once
    assert all(min_seats <= len(table) <= per_table for table in pairing.tables)
    assert not set(pairing.byes) & had_bye  # never a second bye
    sizes = sorted((len(t) for t in pairing.tables), reverse=True)
    if sum(sizes) == len(entrants):
        assert not pairing.byes
    best = min(repeats(option, met) for option in partitions(sorted(seated), sizes))
    assert repeats(pairing.tables, met) == best


@given(st.integers(1, 40), st.integers(2, 6), st.integers(2, 3))
def test_tables_are_full_when_the_players_divide_and_byes_are_the_fewest(players: int, per_table: int,
                                                                      min_seats: int) -> None:
    per_table = max(per_table, min_seats)
    shape = table_sizes(players, per_table, min_seats, 6)
    if players < min_seats:
        assert shape is None
        return
    assert shape is not None
    sizes, byes = shape
    assert sum(sizes) + byes == players
    if players % per_table == 0:
        assert sizes == [per_table] * (players // per_table) and byes == 0
    for fewer in range(byes):  # no smaller number of byes seats everyone else at legal tables
        seated = players - fewer
        count = -(-seated // per_table)
        assert seated // count < min_seats


def test_leaders_meet_leaders() -> None:
    entrants = [Entrant(f"p{i}", Fraction(9 - i), 0.0, i) for i in range(9)]
    pairing = pair_round(entrants, {}, set(), 3, 2, 6)
    assert pairing.tables == [["p0", "p1", "p2"], ["p3", "p4", "p5"], ["p6", "p7", "p8"]]


def test_rating_orders_players_of_equal_points() -> None:
    entrants = [Entrant("low", Fraction(1), 1.0, 0), Entrant("high", Fraction(1), 20.0, 1),
                Entrant("top", Fraction(2), 0.0, 2), Entrant("last", Fraction(0), 30.0, 3)]
    assert pair_round(entrants, {}, set(), 2, 2, 6).tables == [["top", "high"], ["low", "last"]]


def test_a_bye_goes_to_the_lowest_player_without_one_when_smaller_tables_are_not_allowed() -> None:
    entrants = [Entrant(f"p{i}", Fraction(5 - i), 0.0, i) for i in range(5)]
    pairing = pair_round(entrants, {}, {"p4"}, 4, 3, 4)  # Revolution!: 3 to 4 seats; 5 = 4 + a bye
    assert pairing.byes == ["p3"] and pairing.tables == [["p0", "p1", "p2", "p4"]]
    with pytest.raises(PairingImpossible):
        pair_round(entrants, {}, {f"p{i}" for i in range(5)}, 4, 3, 4)


def test_seven_at_three_seats_make_one_full_table_and_two_of_two_where_the_game_allows_two() -> None:
    entrants = [Entrant(f"p{i}", Fraction(0), 0.0, i) for i in range(7)]
    pairing = pair_round(entrants, {}, set(), 3, 2, 6)
    assert [len(t) for t in pairing.tables] == [3, 2, 2] and pairing.byes == []


def test_seat_points_share_tied_ranks() -> None:
    assert seat_points([0, 1, 2]) == [1, Fraction(1, 2), 0]
    assert seat_points([0, 1, 1]) == [1, Fraction(1, 4), Fraction(1, 4)]
    assert seat_points([1, 0]) == [0, 1]
    assert seat_points([0, 0, 2, 3]) == [Fraction(5, 6), Fraction(5, 6), Fraction(1, 3), 0]
    assert sum(seat_points([0, 1, 1, 1, 2])) == Fraction(5, 2)  # a table always hands out seats / 2


@settings(max_examples=25)
@given(st.integers(2, 40), st.sampled_from([(2, 2, 6), (3, 2, 6), (4, 3, 4), (5, 2, 5), (6, 2, 6)]),
       st.integers(1, 8), st.randoms(use_true_random=False))
def test_round_after_round_tables_stay_legal_and_nobody_has_two_byes(
        count: int, game: tuple[int, int, int], rounds: int, rng: Any) -> None:
    per_table, min_seats, max_seats = game
    points = {f"p{i}": Fraction(0) for i in range(count)}
    met: dict[str, set[str]] = {pid: set() for pid in points}
    had_bye: set[str] = set()
    handed_out = Fraction(0)
    for _ in range(rounds):
        entrants = [Entrant(pid, got, 0.0, i) for i, (pid, got) in enumerate(points.items())]
        try:
            pairing = pair_round(entrants, {k: frozenset(v) for k, v in met.items()}, had_bye, per_table,
                                 min_seats, max_seats)
        except PairingImpossible:
            shape = table_sizes(count, per_table, min_seats, max_seats)
            assert shape is None or count - len(had_bye) < shape[1]
            return
        seated = [pid for table in pairing.tables for pid in table]
        assert sorted(seated + pairing.byes) == sorted(points)
        assert all(min_seats <= len(table) <= per_table for table in pairing.tables)
        assert not set(pairing.byes) & had_bye
        had_bye |= set(pairing.byes)
        for pid in pairing.byes:
            points[pid] += 1
        for table in pairing.tables:
            ranks = [rng.randrange(len(table)) for _ in table]
            for pid, got in zip(table, seat_points(ranks), strict=True):
                points[pid] += got
            for pid in table:
                met[pid].update(other for other in table if other != pid)
        # A table hands out seats / 2 points, a bye one: nothing is lost or made up.
        handed_out += sum(Fraction(len(t), 2) for t in pairing.tables) + len(pairing.byes)
        assert sum(points.values()) == handed_out
