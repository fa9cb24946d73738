"""Income, foreign aid and the Duke's block, the coup and the forced coup, the Duke's tax."""

from __future__ import annotations

import pytest

import games.coup as coup
from games.base import RuleViolation

from .helpers import all_pass, coins, events_of, hidden, revealed, set_coins, table, total_coins, types

HANDS = (["duke", "contessa"], ["captain", "assassin"], ["ambassador", "duke"])


def test_setup_deals_two_cards_and_two_coins_each_and_seat_0_starts() -> None:
    t = table(*HANDS)
    assert [hidden(t, seat) for seat in range(3)] == [sorted(hand) for hand in HANDS]
    assert coins(t) == [2, 2, 2]
    assert t.current["treasury"] == 44
    assert len(t.current["deck"]) == 15 - 6
    assert t.awaiting() == {0: "turn"}


def test_income_takes_one_coin_and_opens_no_window() -> None:
    t = table(*HANDS)
    events = t.act(0, {"type": "income"})
    assert types(events) == ["ActionDeclared", "ActionSucceeded", "TurnEnded"]
    assert coins(t) == [3, 2, 2]
    assert t.current["treasury"] == 43
    assert t.awaiting() == {1: "turn"}


def test_foreign_aid_unopposed_takes_two_coins() -> None:
    t = table(*HANDS)
    t.act(0, {"type": "foreign_aid"})
    assert t.awaiting() == {1: "react", 2: "react"}
    assert coins(t) == [2, 2, 2], "nothing is taken before the window closes"
    all_pass(t)
    assert coins(t) == [4, 2, 2]
    assert t.current["treasury"] == 42
    assert t.awaiting() == {1: "turn"}


@pytest.mark.parametrize("blocker", [1, 2])
def test_any_seat_may_block_foreign_aid_with_a_duke(blocker: int) -> None:
    t = table(*HANDS)
    t.act(0, {"type": "foreign_aid"})
    assert coup.legal_actions(t.current, blocker) == [{"type": "pass"}, {"type": "block", "card": "duke"}]
    t.act(blocker, {"type": "block", "card": "duke"})
    assert t.current["block"] == {"seat": blocker, "card": "duke"}
    assert set(t.awaiting()) == {0, 1, 2} - {blocker}
    events = all_pass(t)
    assert "ActionSucceeded" not in types(events)
    assert coins(t) == [2, 2, 2]
    assert t.awaiting() == {1: "turn"}


def test_foreign_aid_claims_no_character_so_it_cannot_be_challenged() -> None:
    t = table(*HANDS)
    t.act(0, {"type": "foreign_aid"})
    with pytest.raises(RuleViolation) as err:
        t.act(1, {"type": "challenge"})
    assert err.value.code == "cannot_challenge"


def test_a_challenged_duke_block_that_was_a_bluff_lets_the_foreign_aid_through() -> None:
    t = table(*HANDS)
    t.act(0, {"type": "foreign_aid"})
    t.act(1, {"type": "block", "card": "duke"})  # seat 1 holds no Duke
    events = t.act(0, {"type": "challenge"})
    (settled,) = events_of(events, "ChallengeSettled")
    assert settled.data["proven"] is False and settled.data["about"] == "block"
    assert t.awaiting() == {1: "reveal"}
    t.act(1, {"type": "reveal", "card": "assassin"})
    assert revealed(t, 1) == ["assassin"]
    assert coins(t) == [4, 2, 2]
    assert t.awaiting() == {1: "turn"}


def test_a_challenged_duke_block_that_was_true_stands_and_the_challenger_loses() -> None:
    t = table(*HANDS, court=["captain"])
    t.act(0, {"type": "foreign_aid"})
    t.act(2, {"type": "block", "card": "duke"})
    events = t.act(1, {"type": "challenge"})  # any seat may challenge, not only the actor
    (settled,) = events_of(events, "ChallengeSettled")
    assert settled.data["proven"] is True and settled.data["claimant"] == 2
    assert hidden(t, 2) == ["ambassador", "captain"], "the Duke went back and a new card was drawn"
    assert t.current["deck"][-1] == "duke"
    assert t.awaiting() == {1: "reveal"}
    t.act(1, {"type": "reveal", "card": "captain"})
    assert coins(t) == [2, 2, 2]
    assert t.awaiting() == {1: "turn"}


def test_coup_costs_seven_and_the_target_loses_an_influence_of_its_choice() -> None:
    t = table(*HANDS)
    set_coins(t, {0: 7})
    events = t.act(0, {"type": "coup", "target": 2})
    assert types(events) == ["ActionDeclared"]
    assert coins(t)[0] == 0
    assert t.current["treasury"] == 39 + 7  # 44, minus the 5 set_coins gave seat 0, plus the coup
    assert t.awaiting() == {2: "reveal"}, "nobody may block or challenge a coup"
    assert coup.legal_actions(t.current, 1) == []
    assert coup.legal_actions(t.current, 2) == [{"type": "reveal", "card": "ambassador"},
                                                {"type": "reveal", "card": "duke"}]
    t.act(2, {"type": "reveal", "card": "duke"})
    assert hidden(t, 2) == ["ambassador"] and revealed(t, 2) == ["duke"]
    assert t.awaiting() == {1: "turn"}


def test_coup_on_a_seat_with_one_card_takes_it_without_a_decision() -> None:
    t = table(*HANDS)
    set_coins(t, {0: 7, 1: 8})
    t.act(0, {"type": "coup", "target": 2})
    t.act(2, {"type": "reveal", "card": "ambassador"})
    t.act(1, {"type": "coup", "target": 2})
    assert hidden(t, 2) == [] and revealed(t, 2) == ["ambassador", "duke"]
    assert coins(t) == [0, 1, 0]


@pytest.mark.parametrize("reaction", [{"type": "challenge"}, {"type": "block", "card": "contessa"},
                                      {"type": "pass"}])
def test_no_seat_can_react_to_a_coup(reaction: dict) -> None:
    t = table(*HANDS)
    set_coins(t, {0: 7})
    t.act(0, {"type": "coup", "target": 1})
    with pytest.raises(RuleViolation) as err:
        t.act(2, reaction)
    assert err.value.code == "not_your_turn"


def test_coup_needs_seven_coins() -> None:
    t = table(*HANDS)
    set_coins(t, {0: 6})
    assert {"type": "coup", "target": 1} not in coup.legal_actions(t.current, 0)
    with pytest.raises(RuleViolation) as err:
        t.act(0, {"type": "coup", "target": 1})
    assert err.value.code == "not_enough_coins"


@pytest.mark.parametrize("amount", [10, 12])
def test_ten_coins_or_more_at_the_start_of_a_turn_force_a_coup(amount: int) -> None:
    t = table(*HANDS)
    set_coins(t, {0: amount})
    assert coup.legal_actions(t.current, 0) == [{"type": "coup", "target": 1}, {"type": "coup", "target": 2}]
    for action in ({"type": "income"}, {"type": "tax"}, {"type": "steal", "target": 1},
                   {"type": "assassinate", "target": 1}):
        with pytest.raises(RuleViolation) as err:
            t.act(0, action)
        assert err.value.code == "must_coup"
    t.act(0, {"type": "coup", "target": 1})
    assert coins(t)[0] == amount - 7


def test_nine_coins_do_not_force_a_coup() -> None:
    t = table(*HANDS)
    set_coins(t, {0: 9})
    assert {"type": "income"} in coup.legal_actions(t.current, 0)
    t.act(0, {"type": "income"})
    assert coins(t)[0] == 10
    assert t.awaiting() == {1: "turn"}


def test_tax_claims_the_duke_and_takes_three_coins() -> None:
    t = table(*HANDS)
    events = t.act(0, {"type": "tax"})
    assert events[0].data["claim"] == "duke"
    assert coup.legal_actions(t.current, 1) == [{"type": "pass"}, {"type": "challenge"}]
    all_pass(t)
    assert coins(t) == [5, 2, 2]
    assert total_coins(t) == 50


def test_tax_cannot_be_blocked() -> None:
    t = table(*HANDS)
    t.act(0, {"type": "tax"})
    with pytest.raises(RuleViolation) as err:
        t.act(2, {"type": "block", "card": "duke"})
    assert err.value.code == "cannot_block"


def test_a_bluffed_tax_that_is_challenged_gains_nothing() -> None:
    t = table(*HANDS)
    t.act(0, {"type": "income"})
    t.act(1, {"type": "tax"})  # seat 1 holds Captain and Assassin
    events = t.act(0, {"type": "challenge"})
    (settled,) = events_of(events, "ChallengeSettled")
    assert settled.data["proven"] is False and settled.data["refund"] == 0
    t.act(1, {"type": "reveal", "card": "captain"})
    assert coins(t) == [3, 2, 2]
    assert hidden(t, 1) == ["assassin"]
    assert t.awaiting() == {2: "turn"}
