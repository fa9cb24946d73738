"""Challenges: settled at once from the hidden cards; a proven claim swaps the card; the loser chooses."""

from __future__ import annotations

from collections import Counter

import pytest

import games.coup as coup
from games.base import RuleViolation
from games.coup import components
from games.table import Table

from .helpers import RNG, all_pass, coins, events_of, hidden, revealed, table


def test_a_proven_claim_goes_to_the_bottom_of_the_court_deck_and_the_top_card_is_drawn() -> None:
    t = table(["duke", "contessa"], ["captain", "assassin"], ["ambassador", "duke"], court=["assassin", "captain"])
    deck = list(t.current["deck"])
    t.act(0, {"type": "tax"})
    events = t.act(2, {"type": "challenge"})
    (settled,) = events_of(events, "ChallengeSettled")
    assert settled.data["proven"] is True and settled.data["drawn"] == "assassin"
    assert hidden(t, 0) == ["assassin", "contessa"]
    assert t.current["deck"] == [*deck[1:], "duke"]
    assert revealed(t, 0) == [], "the winner of a challenge loses nothing"
    t.act(2, {"type": "reveal", "card": "duke"})
    assert coins(t) == [5, 2, 2], "the action goes on after the challenge"


def test_outside_a_scenario_the_proven_card_is_shuffled_back_and_a_card_drawn() -> None:
    for seed in range(100):
        t = Table(coup, 3, seed=f"shuffled-{seed}")  # type: ignore[arg-type]
        if "duke" in t.current["seats"][0]["hidden"]:
            break
    else:
        raise AssertionError("no seed dealt seat 0 a Duke")
    assert t.current["scenario"] is False
    t.act(0, {"type": "tax"})
    events = t.act(1, {"type": "challenge"})
    (settled,) = events_of(events, "ChallengeSettled")
    assert settled.data["proven"] is True
    assert len(t.current["seats"][0]["hidden"]) == 2 and len(t.current["deck"]) == 9
    cards = Counter(t.current["deck"])
    for seat in t.current["seats"]:
        cards.update(seat["hidden"] + seat["revealed"])
    assert cards == Counter(components.FULL_DECK)


def test_the_loser_of_a_challenge_chooses_the_card_to_reveal() -> None:
    t = table(["duke", "contessa"], ["captain", "assassin"], ["ambassador", "duke"])
    t.act(0, {"type": "tax"})
    t.act(1, {"type": "challenge"})
    assert t.awaiting() == {1: "reveal"}
    assert coup.view(t.current, None)["phase"] == "reveal"
    assert coup.legal_actions(t.current, 1) == [{"type": "reveal", "card": "assassin"},
                                                {"type": "reveal", "card": "captain"}]
    events = t.act(1, {"type": "reveal", "card": "assassin"})
    (lost,) = events_of(events, "InfluenceLost")
    assert lost.actor == 1
    assert lost.data == {"seat": 1, "card": "assassin", "chosen": True, "exiled": False}
    assert hidden(t, 1) == ["captain"] and revealed(t, 1) == ["assassin"]


def test_two_equal_cards_offer_one_reveal() -> None:
    t = table(["duke", "contessa"], ["captain", "captain"], ["ambassador", "duke"])
    t.act(0, {"type": "tax"})
    t.act(1, {"type": "challenge"})
    assert coup.legal_actions(t.current, 1) == [{"type": "reveal", "card": "captain"}]


def test_the_first_challenge_settles_the_window_for_everyone() -> None:
    t = table(["captain", "contessa"], ["captain", "assassin"], ["ambassador", "duke"])
    t.act(0, {"type": "tax"})
    assert t.awaiting() == {1: "react", 2: "react"}
    t.act(2, {"type": "challenge"})
    assert t.awaiting() == {0: "reveal"}
    with pytest.raises(RuleViolation) as err:
        t.act(1, {"type": "challenge"})
    assert err.value.code == "not_your_turn"


def test_a_claim_nobody_challenged_cannot_be_challenged_later() -> None:
    t = table(["captain", "contessa"], ["captain", "assassin"], ["ambassador", "duke"])
    t.act(0, {"type": "tax"})
    all_pass(t)
    assert coins(t)[0] == 5
    with pytest.raises(RuleViolation) as err:
        t.act(2, {"type": "challenge"})
    assert err.value.code == "not_your_turn"


def test_a_pass_waits_for_the_other_seats() -> None:
    t = table(["duke", "contessa"], ["captain", "assassin"], ["ambassador", "duke"])
    t.act(0, {"type": "tax"})
    events = t.act(2, {"type": "pass"})
    assert [e.type for e in events] == ["Passed"]
    assert t.awaiting() == {1: "react"}
    events = t.act(1, {"type": "pass"})
    assert [e.type for e in events] == ["Passed", "WindowClosed", "ActionSucceeded", "TurnEnded"]


def test_resolve_closes_a_window_everyone_passed() -> None:
    t = table(["duke", "contessa"], ["captain", "assassin"], ["ambassador", "duke"])
    t.act(0, {"type": "tax"})
    t.act(1, {"type": "pass"})
    t.act(2, {"type": "pass"}, settle=False)
    assert t.awaiting() == {} and t.current["window"] == {"kind": "action", "waiting": []}
    events = coup.resolve(t.current, RNG)
    assert [e.type for e in events] == ["WindowClosed", "ActionSucceeded", "TurnEnded"]
