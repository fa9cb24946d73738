"""Exile: coins back to the treasury, no longer a target, skipped in turn order; the last seat wins."""

from __future__ import annotations

import pytest

import games.coup as coup
from games.base import Outcome, RuleViolation
from games.table import Table, TableEvent

from .helpers import all_pass, coins, events_of, hidden, revealed, set_coins, set_turn, table, total_coins, types


def exile_seat_1(t: Table) -> list[TableEvent]:
    """Seat 0 launches two coups on seat 1 (7 coins each), seat 1 reveals the Captain first."""
    set_coins(t, {0: 14, 1: 4})
    t.act(0, {"type": "coup", "target": 1})
    t.act(1, {"type": "reveal", "card": "captain"})
    set_turn(t, 0)
    return t.act(0, {"type": "coup", "target": 1})


def test_an_exiled_seat_puts_its_coins_back_in_the_treasury() -> None:
    t = table(["duke", "contessa"], ["captain", "assassin"], ["ambassador", "duke"])
    events = exile_seat_1(t)
    (lost,) = events_of(events, "InfluenceLost")
    assert lost.data == {"seat": 1, "card": "assassin", "chosen": False, "exiled": True, "coins_returned": 4}
    assert lost.actor is None
    assert coins(t) == [0, 0, 2]
    assert t.current["treasury"] == 48 and total_coins(t) == 50
    assert hidden(t, 1) == [] and revealed(t, 1) == ["assassin", "captain"]
    assert coup.view(t.current, None)["seats"][1]["alive"] is False


def test_an_exiled_seat_is_skipped_in_turn_order_and_in_windows() -> None:
    t = table(["duke", "contessa"], ["captain", "assassin"], ["ambassador", "duke"])
    exile_seat_1(t)
    assert t.awaiting() == {2: "turn"}
    t.act(2, {"type": "tax"})
    assert t.awaiting() == {0: "react"}
    all_pass(t)
    assert t.awaiting() == {0: "turn"}
    events = t.act(0, {"type": "income"})
    assert events[-1].data == {"seat": 0, "next": 2}


@pytest.mark.parametrize("kind", ["steal", "assassinate", "coup"])
def test_an_exiled_seat_cannot_be_targeted(kind: str) -> None:
    t = table(["duke", "contessa"], ["captain", "assassin"], ["ambassador", "duke"])
    exile_seat_1(t)
    set_coins(t, {2: 7})
    assert all(action.get("target") != 1 for action in coup.legal_actions(t.current, 2))
    with pytest.raises(RuleViolation) as err:
        t.act(2, {"type": kind, "target": 1})
    assert err.value.code == "target_eliminated"


def test_the_game_ends_when_one_seat_is_left_and_the_outcome_names_it() -> None:
    t = table(["duke", "contessa"], ["captain", "assassin"], ["ambassador", "duke"])
    exile_seat_1(t)
    assert t.outcome is None
    set_coins(t, {2: 14})
    t.act(2, {"type": "coup", "target": 0})
    t.act(0, {"type": "reveal", "card": "contessa"})
    set_turn(t, 2)
    events = t.act(2, {"type": "coup", "target": 0})
    assert types(events) == ["ActionDeclared", "InfluenceLost"], "no turn ends after the last exile"
    assert t.outcome == Outcome((2,), "last_standing")
    assert t.current["winner"] == 2
    assert t.awaiting() == {}
    assert all(coup.legal_actions(t.current, seat) == [] for seat in range(3))
    assert coup.view(t.current, 0)["phase"] == "over"
    with pytest.raises(RuleViolation) as err:
        t.act(2, {"type": "income"})
    assert err.value.code == "game_over"


def test_a_two_seat_game_plays_to_its_end() -> None:
    t = table(["assassin", "duke"], ["captain", "contessa"])
    assert coins(t) == [2, 2] and t.current["treasury"] == 46 and len(t.current["deck"]) == 11
    t.act(0, {"type": "tax"})
    assert t.awaiting() == {1: "react"}
    all_pass(t)
    t.act(1, {"type": "steal", "target": 0})
    t.act(0, {"type": "block", "card": "captain"})  # a bluff
    t.act(1, {"type": "challenge"})
    t.act(0, {"type": "reveal", "card": "duke"})
    assert coins(t) == [3, 4]
    t.act(0, {"type": "assassinate", "target": 1})
    t.act(1, {"type": "block", "card": "contessa"})
    all_pass(t)
    assert hidden(t, 1) == ["captain", "contessa"] and coins(t) == [0, 4]
    t.act(1, {"type": "steal", "target": 0})
    all_pass(t)
    assert coins(t) == [0, 4]
    t.act(0, {"type": "income"})
    t.act(1, {"type": "tax"})  # a bluff nobody calls
    all_pass(t)
    t.act(0, {"type": "income"})
    assert coins(t) == [2, 7]
    events = t.act(1, {"type": "coup", "target": 0})
    assert events_of(events, "InfluenceLost")[0].data["exiled"] is True
    assert t.outcome == Outcome((1,), "last_standing")


def test_a_double_loss_can_end_a_two_seat_game_mid_turn() -> None:
    t = table(["assassin", "duke"], ["captain", "duke"])
    set_coins(t, {0: 3})
    t.act(0, {"type": "assassinate", "target": 1})
    t.act(1, {"type": "block", "card": "contessa"})
    t.act(0, {"type": "challenge"})
    assert t.awaiting() == {1: "reveal"}
    events = t.act(1, {"type": "reveal", "card": "duke"})
    assert [e.data["card"] for e in events_of(events, "InfluenceLost")] == ["duke", "captain"]
    assert t.outcome == Outcome((0,), "last_standing")
    assert coins(t) == [0, 0] and t.current["treasury"] == 50


def test_a_six_seat_game_deals_twelve_cards_and_goes_round_the_table() -> None:
    hands = (["duke", "duke"], ["assassin", "assassin"], ["captain", "captain"], ["ambassador", "ambassador"],
             ["contessa", "contessa"], ["duke", "assassin"])
    t = table(*hands)
    assert coins(t) == [2] * 6 and t.current["treasury"] == 38
    assert t.current["deck"] == ["captain", "ambassador", "contessa"]
    for seat in range(5):
        t.act(seat, {"type": "income"})
    t.act(5, {"type": "foreign_aid"})
    assert t.awaiting() == {seat: "react" for seat in range(5)}
    assert t.current["window"]["waiting"] == [0, 1, 2, 3, 4]
    all_pass(t)
    assert coins(t) == [3, 3, 3, 3, 3, 4]
    assert t.awaiting() == {0: "turn"}
    t.act(0, {"type": "tax"})
    assert t.current["window"]["waiting"] == [1, 2, 3, 4, 5]
    t.act(3, {"type": "challenge"})
    t.act(3, {"type": "reveal", "card": "ambassador"})
    assert coins(t)[0] == 6 and hidden(t, 0) == ["captain", "duke"]
    assert t.current["deck"] == ["ambassador", "contessa", "duke"]
    assert t.awaiting() == {1: "turn"}
