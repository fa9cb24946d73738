"""Shared builders for the Coup tests: scenario tables, hand-made positions, window helpers."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import games.coup as coup
from games.coup import components, fold
from games.table import Table, TableEvent

# The rulebook's "Esempio di partita" names its three seats.
NATASHA, SACHA, HAIG = 0, 1, 2

#: The court deck that deals the rulebook example (top first): the three hands, then the
#: nine court cards in the order the example draws them.
EXAMPLE_DECK = ["contessa", "duke", "captain", "contessa", "assassin", "duke", "assassin", "duke", "contessa",
                "captain", "captain", "ambassador", "ambassador", "ambassador", "assassin"]

RNG = random.Random(0)


def deck_for(*hands: list[str], court: list[str] | None = None) -> list[str]:
    """A full scenario deck dealing ``hands`` in seat order; ``court`` starts the court deck.

    The cards left over follow in the rules' character order, so the deck is always legal.
    """
    dealt = [card for hand in hands for card in hand] + list(court or [])
    left = Counter(components.FULL_DECK) - Counter(dealt)
    assert not Counter(dealt) - Counter(components.FULL_DECK), "more copies than the game has"
    rest = []
    for card in components.FULL_DECK:
        if left[card]:
            rest.append(card)
            left[card] -= 1
    return dealt + rest


def table(*hands: list[str], court: list[str] | None = None, seats: int | None = None,
          seed: str = "coup-tests") -> Table:
    """A scenario table dealing ``hands`` (two cards each) to seats 0, 1, 2..."""
    count = seats if seats is not None else len(hands)
    while len(hands) < count:
        hands = (*hands, [])
    return Table(coup, count, {"deck": deck_for(*hands, court=court)}, seed=seed)  # type: ignore[arg-type]


def example_table() -> Table:
    return Table(coup, 3, {"deck": list(EXAMPLE_DECK)}, seed="esempio")  # type: ignore[arg-type]


def set_coins(t: Table, coins: dict[int, int]) -> None:
    """Give seats these coins; the treasury pays or takes the difference, so coins are kept."""
    state = fold.copy_state(t.current)
    for seat, n in coins.items():
        state["treasury"] -= n - state["seats"][seat]["coins"]
        state["seats"][seat]["coins"] = n
    assert state["treasury"] >= 0
    t.state = state


def set_turn(t: Table, seat: int) -> None:
    """Start the next turn with ``seat`` (between turns only)."""
    assert t.awaiting() == {t.current["turn"]: "turn"}
    state = fold.copy_state(t.current)
    state["turn"] = seat
    t.state = state


def coins(t: Table) -> list[int]:
    return [s["coins"] for s in t.current["seats"]]


def hidden(t: Table, seat: int) -> list[str]:
    return sorted(t.current["seats"][seat]["hidden"])


def revealed(t: Table, seat: int) -> list[str]:
    return sorted(t.current["seats"][seat]["revealed"])


def all_revealed(t: Table) -> list[str]:
    return sorted(card for s in t.current["seats"] for card in s["revealed"])


def total_coins(t: Table) -> int:
    return t.current["treasury"] + sum(coins(t))


def all_pass(t: Table) -> list[TableEvent]:
    """Every seat awaited in the open window passes, in seat order (the last pass settles it)."""
    events: list[TableEvent] = []
    waiting = t.awaiting()
    assert waiting and set(waiting.values()) == {"react"}, waiting
    for seat in sorted(waiting):
        events += t.act(seat, {"type": "pass"})
    return events


def events_of(events: list[Any], kind: str) -> list[Any]:
    return [e for e in events if e.type == kind]


def types(events: list[Any]) -> list[str]:
    return [e.type for e in events]
