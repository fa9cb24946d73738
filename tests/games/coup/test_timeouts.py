"""Deadlines: pass, reveal a hidden card, keep the old hand, take income (or the forced coup)."""

from __future__ import annotations

import games.coup as coup

from .helpers import all_pass, coins, hidden, revealed, set_coins, set_turn, table, types

HANDS = (["duke", "contessa"], ["captain", "assassin"], ["ambassador", "duke"])


def test_a_silent_turn_takes_income() -> None:
    t = table(*HANDS)
    assert coup.on_timeout(t.current, 0) == {"type": "income"}
    t.timeout(0)
    assert coins(t) == [3, 2, 2]
    assert t.awaiting() == {1: "turn"}


def test_a_silent_seat_with_ten_coins_launches_the_forced_coup_on_the_next_seat() -> None:
    t = table(*HANDS)
    set_coins(t, {0: 10})
    assert coup.on_timeout(t.current, 0) == {"type": "coup", "target": 1}
    t.timeout(0)
    assert coins(t)[0] == 3 and t.awaiting() == {1: "reveal"}


def test_the_forced_coup_of_a_timeout_skips_exiled_seats() -> None:
    t = table(*HANDS)
    set_coins(t, {0: 14})
    t.act(0, {"type": "coup", "target": 1})
    t.act(1, {"type": "reveal", "card": "captain"})
    set_turn(t, 0)
    t.act(0, {"type": "coup", "target": 1})
    set_coins(t, {2: 11})
    assert coup.on_timeout(t.current, 2) == {"type": "coup", "target": 0}
    set_turn(t, 0)
    set_coins(t, {0: 10})
    assert coup.on_timeout(t.current, 0) == {"type": "coup", "target": 2}


def test_with_the_treasury_empty_a_silent_seat_that_can_afford_it_launches_a_coup() -> None:
    t = table(*HANDS, seats=6)
    set_coins(t, {0: 7, 1: 9, 2: 9, 3: 9, 4: 9, 5: 7})
    assert t.current["treasury"] == 0
    assert coup.on_timeout(t.current, 0) == {"type": "coup", "target": 1}
    set_coins(t, {0: 6, 5: 8})
    assert coup.on_timeout(t.current, 0) == {"type": "income"}
    events = t.timeout(0)
    assert events[1].type == "ActionSucceeded" and events[1].data["amount"] == 0
    assert coins(t)[0] == 6


def test_a_silent_responder_passes() -> None:
    t = table(*HANDS)
    t.act(0, {"type": "steal", "target": 1})
    assert coup.on_timeout(t.current, 1) == {"type": "pass"}
    assert coup.on_timeout(t.current, 2) == {"type": "pass"}
    t.timeout(2)
    events = t.timeout(1)
    assert types(events)[-2:] == ["ActionSucceeded", "TurnEnded"]
    assert coins(t) == [4, 0, 2]


def test_a_silent_loser_reveals_a_hidden_card() -> None:
    t = table(*HANDS)
    t.act(0, {"type": "tax"})
    t.act(1, {"type": "challenge"})
    action = coup.on_timeout(t.current, 1)
    assert action["type"] == "reveal" and action["card"] in hidden(t, 1)
    t.timeout(1)
    assert revealed(t, 1) == [action["card"]] and len(hidden(t, 1)) == 1


def test_a_silent_exchanger_keeps_its_old_hand() -> None:
    t = table(*HANDS, court=["captain", "contessa"])
    set_turn(t, 2)
    t.act(2, {"type": "exchange"})
    all_pass(t)
    assert coup.on_timeout(t.current, 2) == {"type": "keep", "cards": ["ambassador", "duke"]}
    t.timeout(2)
    assert hidden(t, 2) == ["ambassador", "duke"]
    assert t.current["deck"][-2:] == ["captain", "contessa"]
    assert t.awaiting() == {0: "turn"}
