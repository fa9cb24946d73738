"""Transcript lines of a finished Pax Porfiriana game: one readable English line per event
worth a line, None for bookkeeping."""

from __future__ import annotations

import games.pax as pax

from .helpers import edit, give, place_enterprise, place_troop, scenario, set_gold, turn_hacendado


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


def test_retreats_read_as_sentences() -> None:
    t = scenario(battle_retreat=True)
    edit(t, lambda s: (turn_hacendado(s, 1, 0), place_enterprise(s, 2, "rancho_los_ojitos"),
                       place_troop(s, 1, "maderista_volunteers", "rancho_los_ojitos", extort=True),
                       place_enterprise(s, 0, "juarez_customs_house"),
                       place_troop(s, 2, "chihuahua_home_guard", "juarez_customs_house", extort=True),
                       give(s, 0, "yaqui_raiders"), set_gold(s, 0, 10)))
    start, state = len(t.events), t.current
    t.act(0, {"type": "play", "card": "yaqui_raiders", "to": "rancho_los_ojitos"})
    t.act(1, {"type": "retreat", "to": "army"})
    t.act(0, {"type": "sell", "card": "juarez_customs_house"})
    t.act(2, {"type": "manifesto", "side": 1})
    assert lines(t, state, start) == [
        "Seat 0 sends Yaqui Raiders to Rancho Los Ojitos for 1 gold",
        "Seat 1's Maderista Volunteers retreats from the battle into its private army",
        "Seat 0 sells Juarez Customs House for 3 gold",
        "Seat 2 publishes a manifesto: Cattle Caudillo",
        "Seat 2's Chihuahua Home Guard retreats",
    ]
