"""Shared builders for the Ideology tests: tables, hand-made positions, invariants.

Positions are built by moving real cards (from a seat's deck into its hand, onto a
region, into its discards), so every card stays in exactly one place and the
invariants of the property tests hold in the scenario tests too.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import games.ideology as ideology
from games.base import clone_json
from games.ideology import board as b
from games.ideology.components import INFLUENCE_TYPES
from games.table import Table

RNG = random.Random(0)


def table(seats: int, ideologies: list[str] | None = None, **options: Any) -> Table:
    if ideologies is not None:
        options["ideologies"] = ideologies
    return Table(ideology, seats, options)  # type: ignore[arg-type]


def seat_of(t: Table, iid: str) -> int:
    return t.current["seat_of"][iid]


def edit(t: Table) -> dict[str, Any]:
    """A private copy of the table's state to change by hand; store it with ``t.state = ...``."""
    return clone_json(t.current)


def _take_from_deck(state: dict[str, Any], seat: int, kind: str, count: int) -> list[str]:
    taken = []
    for pile in ("decks", "discards"):
        for card in list(state[pile][seat]):
            if len(taken) == count:
                break
            if b.card_type(card) == kind:
                state[pile][seat].remove(card)
                taken.append(card)
    assert len(taken) == count, f"seat {seat} has not {count} {kind} card(s) left to take"
    return taken


def give(t: Table, seat: int, **counts: int) -> None:
    """Put cards of these types into the seat's hand, taken from its deck (then discards)."""
    state = edit(t)
    for kind, count in counts.items():
        state["hands"][seat] += _take_from_deck(state, seat, kind, count)
    t.state = state


def empty_hand(t: Table, seat: int) -> None:
    state = edit(t)
    state["discards"][seat] += state["hands"][seat]
    state["hands"][seat] = []
    t.state = state


def put(t: Table, region: str, seat: int, **counts: int) -> None:
    """Lay cards of ``seat`` beside ``region`` (the region comes into play as independent if needed)."""
    state = edit(t)
    entry = state["regions"][region]
    if entry["status"] == "deck":
        entry["status"] = "independent"
        state["region_pile"].remove(region)
    for kind, count in counts.items():
        entry["cards"][kind] += _take_from_deck(state, seat, kind, count)
    t.state = state


def reveal(t: Table, region: str) -> None:
    """Bring ``region`` from the pile into play as an independent region."""
    put(t, region, 0)


def control(t: Table, region: str, seat: int | None) -> None:
    state = edit(t)
    entry = state["regions"][region]
    if entry["status"] == "deck":
        state["region_pile"].remove(region)
    entry["status"] = "controlled" if seat is not None else "independent"
    entry["controller"] = seat
    t.state = state


def set_level(t: Table, region: str, level: int) -> None:
    state = edit(t)
    state["regions"][region]["level"] = level
    t.state = state


def set_advancements(t: Table, seat: int, **held: int) -> None:
    state = edit(t)
    for aid, count in state["advancements"][seat].items():
        state["supply"][aid] += count
    state["advancements"][seat] = {}
    for aid, count in held.items():
        if count:
            state["advancements"][seat][aid] = count
            state["supply"][aid] -= count
    t.state = state


def set_relation(t: Table, a: int, b: int, status: str) -> None:
    state = edit(t)
    state["relations"][a][b] = state["relations"][b][a] = status
    t.state = state


def start_phase(t: Table, phase: str, first: int | None = None) -> None:
    """Jump to the start of a round-robin or ordered phase; ``first`` is the seat to act first."""
    state = edit(t)
    state["phase"] = phase
    state["passes"] = 0
    state["conflict"] = None
    state["owed"] = [0] * state["seats"]
    state["cursor"] = 0 if first is None else state["order"].index(first)
    if phase == b.DIPLOMACY:
        state["offers"] = [None] * state["seats"]
    t.state = state


def cards_by_seat(t: Table, region: str, kind: str) -> list[int]:
    return [b.card_owner(t.current, card) for card in t.current["regions"][region]["cards"][kind]]


def hand(t: Table, seat: int) -> dict[str, int]:
    return b.count_types(t.current["hands"][seat])


def every_card_place(state: dict[str, Any]) -> Counter[str]:
    """How many places hold each card: decks, hands, discards, regions, the attack in play."""
    places: Counter[str] = Counter()
    for seat in range(state["seats"]):
        for pile in ("decks", "hands", "discards"):
            places.update(state[pile][seat])
    for region in state["regions"].values():
        for kind in INFLUENCE_TYPES:
            places.update(region["cards"][kind])
    conflict = state["conflict"]
    if conflict is not None and conflict["card"] is not None:
        places[conflict["card"]] += 1
    return places


def all_cards(state: dict[str, Any]) -> set[str]:
    """Every influence card of the ideologies in the game, by the deck composition in the data."""
    cards = set()
    for iid in state["ideology"]:
        deck = state["board"]["ideologies"][iid]["deck"]
        for kind in INFLUENCE_TYPES:
            cards.update(f"{iid}:{b.LETTER[kind]}{n}" for n in range(1, deck[kind] + 1))
    return cards


def check_invariants(state: dict[str, Any]) -> None:
    """Every card in exactly one place; at most 10 control markers each; supplies consistent."""
    places = every_card_place(state)
    assert set(places) == all_cards(state)
    assert all(n == 1 for n in places.values()), [card for card, n in places.items() if n != 1]
    for seat in range(state["seats"]):
        controlled = b.controlled_by(state, seat)
        assert len(controlled) + 1 <= b.CONTROL_MARKERS  # one marker sits on the turn order chart
    board = state["board"]["advancements"]
    for aid, card in board.items():
        held = sum(adv.get(aid, 0) for adv in state["advancements"])
        assert held + state["supply"][aid] == card["copies"], aid
        assert state["supply"][aid] >= 0
    for rid, region in state["regions"].items():
        if region["status"] == "controlled":
            assert region["controller"] is not None
        else:
            assert region["controller"] is None
        if region["status"] == "deck":
            assert rid in state["region_pile"]
            assert not any(region["cards"].values())
        limit = 2 * state["board"]["regions"][rid]["level"]
        if region["status"] == "controlled":
            assert all(len(region["cards"][kind]) <= limit for kind in INFLUENCE_TYPES)
    assert len(set(state["region_pile"])) == len(state["region_pile"])
    assert sorted(state["order"]) == list(range(state["seats"]))
