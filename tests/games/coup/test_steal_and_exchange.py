"""The Captain's steal and its blocks; the Ambassador's exchange."""

from __future__ import annotations

import pytest

import games.coup as coup
from games.base import RuleViolation

from .helpers import all_pass, coins, events_of, hidden, revealed, set_coins, table, total_coins, types

THIEF, TARGET, OTHER = 0, 1, 2


@pytest.mark.parametrize(("target_coins", "taken"), [(5, 2), (2, 2), (1, 1), (0, 0)])
def test_steal_takes_up_to_two_coins_from_the_target(target_coins: int, taken: int) -> None:
    t = table(["captain", "duke"], ["duke", "assassin"], ["duke", "contessa"])
    set_coins(t, {TARGET: target_coins})
    treasury = t.current["treasury"]
    t.act(THIEF, {"type": "steal", "target": TARGET})
    events = all_pass(t)
    (succeeded,) = events_of(events, "ActionSucceeded")
    assert succeeded.data["amount"] == taken
    assert coins(t)[THIEF] == 2 + taken and coins(t)[TARGET] == target_coins - taken
    assert t.current["treasury"] == treasury, "stolen coins never touch the treasury"


def test_only_the_target_may_block_a_steal_with_a_captain_or_an_ambassador() -> None:
    t = table(["captain", "duke"], ["duke", "assassin"], ["captain", "ambassador"])
    t.act(THIEF, {"type": "steal", "target": TARGET})
    assert coup.legal_actions(t.current, TARGET) == [
        {"type": "pass"}, {"type": "challenge"},
        {"type": "block", "card": "captain"}, {"type": "block", "card": "ambassador"}]
    assert coup.legal_actions(t.current, OTHER) == [{"type": "pass"}, {"type": "challenge"}]
    for seat, card in ((OTHER, "captain"), (OTHER, "ambassador"), (TARGET, "duke"), (TARGET, "contessa")):
        with pytest.raises(RuleViolation) as err:
            t.act(seat, {"type": "block", "card": card})
        assert err.value.code == "cannot_block"


@pytest.mark.parametrize("card", ["captain", "ambassador"])
def test_an_unchallenged_block_stops_the_steal(card: str) -> None:
    t = table(["captain", "duke"], ["duke", "assassin"], ["duke", "contessa"])
    t.act(THIEF, {"type": "steal", "target": TARGET})
    t.act(TARGET, {"type": "block", "card": card})  # a bluff nobody calls
    assert t.awaiting() == {OTHER: "react", THIEF: "react"}
    all_pass(t)
    assert coins(t) == [2, 2, 2]
    assert hidden(t, TARGET) == ["assassin", "duke"]
    assert t.awaiting() == {TARGET: "turn"}


def test_a_true_captain_block_survives_the_thiefs_challenge() -> None:
    t = table(["captain", "duke"], ["captain", "assassin"], ["duke", "contessa"], court=["ambassador"])
    t.act(THIEF, {"type": "steal", "target": TARGET})
    t.act(TARGET, {"type": "block", "card": "captain"})
    t.act(THIEF, {"type": "challenge"})
    assert hidden(t, TARGET) == ["ambassador", "assassin"]
    assert t.awaiting() == {THIEF: "reveal"}
    t.act(THIEF, {"type": "reveal", "card": "duke"})
    assert coins(t) == [2, 2, 2]
    assert t.awaiting() == {TARGET: "turn"}


def test_a_bluffed_steal_that_is_challenged_takes_nothing() -> None:
    t = table(["duke", "contessa"], ["duke", "assassin"], ["duke", "contessa"])
    t.act(THIEF, {"type": "steal", "target": TARGET})
    t.act(OTHER, {"type": "challenge"})
    t.act(THIEF, {"type": "reveal", "card": "contessa"})
    assert coins(t) == [2, 2, 2]
    assert revealed(t, THIEF) == ["contessa"]


def test_after_a_true_captain_survives_a_challenge_the_target_may_still_block() -> None:
    t = table(["captain", "duke"], ["duke", "assassin"], ["duke", "contessa"])
    t.act(THIEF, {"type": "steal", "target": TARGET})
    events = t.act(OTHER, {"type": "challenge"})
    assert t.awaiting() == {OTHER: "reveal"}
    events = t.act(OTHER, {"type": "reveal", "card": "duke"})
    (offered,) = events_of(events, "BlockOffered")
    assert offered.data == {"seat": TARGET, "type": "steal"}
    assert t.awaiting() == {TARGET: "react"}
    with pytest.raises(RuleViolation) as err:
        t.act(TARGET, {"type": "challenge"})
    assert err.value.code == "cannot_challenge", "the claim was already challenged"
    t.act(TARGET, {"type": "pass"})
    assert coins(t) == [4, 0, 2]


def test_exchange_draws_two_and_keeps_as_many_as_the_hand() -> None:
    t = table(["ambassador", "duke"], ["duke", "assassin"], ["duke", "contessa"], court=["captain", "contessa"])
    deck = list(t.current["deck"])
    t.act(0, {"type": "exchange"})
    events = all_pass(t)
    (succeeded,) = events_of(events, "ActionSucceeded")
    assert succeeded.data["drawn"] == ["captain", "contessa"]
    assert t.awaiting() == {0: "keep"}
    assert t.current["deck"] == deck[2:]
    keeps = coup.legal_actions(t.current, 0)
    assert len(keeps) == 6 and all(len(k["cards"]) == 2 for k in keeps)
    events = t.act(0, {"type": "keep", "cards": ["captain", "contessa"]})
    (completed,) = events_of(events, "ExchangeCompleted")
    assert completed.data["returned"] == ["ambassador", "duke"]
    assert hidden(t, 0) == ["captain", "contessa"]
    assert t.current["deck"] == [*deck[2:], "ambassador", "duke"]
    assert coins(t) == [2, 2, 2] and total_coins(t) == 50
    assert t.awaiting() == {1: "turn"}


def test_a_seat_with_one_influence_keeps_one_card_and_returns_two() -> None:
    t = table(["ambassador", "duke"], ["duke", "assassin"], ["duke", "contessa"], court=["captain", "contessa"])
    set_coins(t, {2: 7})
    t.act(0, {"type": "income"})
    t.act(1, {"type": "income"})
    t.act(2, {"type": "coup", "target": 0})
    t.act(0, {"type": "reveal", "card": "duke"})
    t.act(0, {"type": "exchange"})
    all_pass(t)
    assert coup.legal_actions(t.current, 0) == [{"type": "keep", "cards": [card]}
                                                for card in ("ambassador", "captain", "contessa")]
    with pytest.raises(RuleViolation) as err:
        t.act(0, {"type": "keep", "cards": ["captain", "contessa"]})
    assert err.value.code == "bad_keep"
    events = t.act(0, {"type": "keep", "cards": ["contessa"]})
    (completed,) = events_of(events, "ExchangeCompleted")
    assert completed.data["returned"] == ["ambassador", "captain"]
    assert hidden(t, 0) == ["contessa"] and revealed(t, 0) == ["duke"]
    assert t.current["deck"][-2:] == ["ambassador", "captain"]
    assert len(t.current["deck"]) == 9


def test_keeping_the_old_hand_returns_the_two_drawn_cards() -> None:
    t = table(["ambassador", "duke"], ["duke", "assassin"], ["duke", "contessa"], court=["captain", "contessa"])
    t.act(0, {"type": "exchange"})
    all_pass(t)
    t.act(0, {"type": "keep", "cards": ["duke", "ambassador"]})
    assert hidden(t, 0) == ["ambassador", "duke"]
    assert t.current["deck"][-2:] == ["captain", "contessa"]


def test_a_challenged_bluffed_exchange_draws_nothing() -> None:
    t = table(["duke", "contessa"], ["duke", "assassin"], ["duke", "contessa"])
    deck = list(t.current["deck"])
    t.act(0, {"type": "exchange"})
    events = t.act(1, {"type": "challenge"})
    assert "ActionSucceeded" not in types(events)
    t.act(0, {"type": "reveal", "card": "duke"})
    assert t.current["exchange"] is None and t.current["deck"] == deck
    assert t.awaiting() == {1: "turn"}


def test_exchange_cannot_be_blocked() -> None:
    t = table(["ambassador", "duke"], ["duke", "assassin"], ["duke", "contessa"])
    t.act(0, {"type": "exchange"})
    with pytest.raises(RuleViolation) as err:
        t.act(1, {"type": "block", "card": "ambassador"})
    assert err.value.code == "cannot_block"
