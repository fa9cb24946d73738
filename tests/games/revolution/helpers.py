"""Shared builders for the Revolution! tests: tables, bids and hand-made positions."""

from __future__ import annotations

import random
from typing import Any

import games.revolution as revolution
from games.base import clone_json
from games.revolution import components
from games.table import Table

# The rulebooks' examples name seats by colour.
YELLOW, GREEN, BLUE, RED = 0, 1, 2, 3

RNG = random.Random(0)


def table(seats: int = 4, **options: Any) -> Table:
    return Table(revolution, seats, options)  # type: ignore[arg-type]


def bid(**bids: dict[str, int]) -> dict[str, Any]:
    """``bid(priest={"gold": 3})`` -> a bid action."""
    return {"type": "bid", "bids": bids}


def tokens(force: int = 0, blackmail: int = 0, gold: int = 0) -> dict[str, int]:
    return {"force": force, "blackmail": blackmail, "gold": gold}


def totals(state: dict[str, Any]) -> dict[str, int]:
    """Every token of each kind: in hands, still on the bid board, and in the bank."""
    counts = dict(state["bank"])
    for hand in state["hands"]:
        for kind, n in hand.items():
            counts[kind] += n
    if state["revealed"] is not None:
        pending = set(components.CHARACTER_IDS[state["next"]:])
        for bids in state["revealed"]:
            for cid, placed in bids.items():
                if cid in pending:
                    for kind, n in placed.items():
                        counts[kind] += n
    return counts


#: Every seat's tokens at the start of the game (the rulebook's setup).
START = tokens(force=1, blackmail=1, gold=3)


def set_hands(t: Table, hands: list[dict[str, int]]) -> None:
    """Give the seats these hands at the start of bidding, keeping the token totals (bank pays)."""
    state = clone_json(t.current)
    for seat, hand in enumerate(hands):
        for kind in components.KINDS:
            state["bank"][kind] += state["hands"][seat][kind] - hand.get(kind, 0)
        state["hands"][seat] = tokens(**hand)
    assert all(n >= 0 for n in state["bank"].values())
    t.state = state


def set_areas(t: Table, areas: dict[str, list[int]]) -> None:
    """Put cubes on the city board (taken from each seat's supply)."""
    state = clone_json(t.current)
    for area, counts in areas.items():
        for seat, n in enumerate(counts):
            state["supply"][seat] -= n - state["areas"][area][seat]
        state["areas"][area] = list(counts)
    t.state = state


def fill_board(seats: int, leave_empty: dict[str, int] | None = None) -> dict[str, list[int]]:
    """Every area full, cubes dealt round the seats; ``leave_empty`` keeps spaces free."""
    leave_empty = leave_empty or {}
    areas = {}
    for area in components.AREAS:
        counts = [0] * seats
        for i in range(area["spaces"] - leave_empty.get(area["id"], 0)):
            counts[i % seats] += 1
        areas[area["id"]] = counts
    return areas


def play_bids(t: Table, bids: dict[int, dict[str, Any]]) -> list[Any]:
    """Every seat posts its bid, in seat order; the last one triggers the resolution."""
    events = []
    for seat in range(t.seats):
        events += t.act(seat, bids[seat])
    return events


def events_of(events: list[Any], kind: str) -> list[Any]:
    return [e for e in events if e.type == kind]


def resolved(events: list[Any], character: str) -> dict[str, Any]:
    """The CharacterResolved data of ``character`` among ``events``."""
    (found,) = [e.data for e in events if e.type == "CharacterResolved" and e.data["character"] == character]
    return found
