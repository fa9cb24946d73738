"""Transcript lines of a finished Pax Porfiriana game: one readable English line per event
worth a line, None for bookkeeping."""

from __future__ import annotations

import games.pax as pax

from .helpers import edit, give, place_enterprise, scenario, set_gold


def lines(t, state: dict, start: int) -> list[str]:  # noqa: ANN001
    """The lines of the events after ``start``, folded from ``state`` (the state at ``start``)."""
    out = []
    for event in t.events[start:]:
        after = pax.evolve(state, event)
        line = pax.describe(state, event, after)
        if line is not None:
            out.append(line)
        state = after
    return out


def test_purchases_plays_and_turns_read_as_sentences() -> None:
    t = scenario()
    card = t.current["market"][0][2]  # column 2: 2 gold
    name = t.current["cards"][card]["name"]
    edit(t, lambda s: (give(s, 0, "indian_fighters"), place_enterprise(s, 0, "minas_prietas", connections=[0]),
                       set_gold(s, 0, 10)))
    start, state = len(t.events), t.current
    t.act(0, {"type": "buy", "card": card})
    t.act(0, {"type": "play", "card": "indian_fighters", "to": "minas_prietas"})
    assert lines(t, state, start) == [
        f"Seat 0 buys {name} from the market for 2 gold",
        "Seat 0 sends Indian Fighters to Minas Prietas for 1 gold",
        "The regime changes to Martial Law",
    ]


def test_bookkeeping_events_have_no_line() -> None:
    t = scenario()
    start, state = len(t.events), t.current
    t.act(0, {"type": "end_turn"})
    kinds = {e.type for e in t.events[start:]}
    assert {"StepChanged", "MarketRestored", "GoldMoved"} <= kinds
    assert lines(t, state, start) == ["Seat 0 ends the turn", "Turn 2: seat 1 has 3 actions"]
