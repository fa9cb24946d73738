"""Bidding: sealed, simultaneous, all tokens placed, at most six characters, immunities."""

from __future__ import annotations

from typing import Any

import pytest

import games.revolution as revolution
from games.base import RuleViolation, clone_json
from games.revolution import components

from .helpers import GREEN, RED, RNG, START, YELLOW, bid, set_hands, table, tokens


def refused(action: dict[str, Any], seat: int = 0, hand: dict[str, int] | None = None) -> RuleViolation:
    t = table()
    if hand is not None:
        set_hands(t, [hand] * 4)
    before = clone_json(t.current)
    with pytest.raises(RuleViolation) as caught:
        revolution.decide(t.current, seat, action, RNG)
    assert t.current == before
    return caught.value


def test_every_seat_is_awaited_for_a_bid_at_the_start_of_a_round() -> None:
    t = table()
    assert t.awaiting() == {0: "bid", 1: "bid", 2: "bid", 3: "bid"}
    assert all(revolution.may_act(t.current, seat) for seat in range(4))


def test_a_bid_places_all_tokens() -> None:
    error = refused(bid(priest=tokens(force=1, blackmail=1, gold=2)))
    assert error.code == "must_bid_all_tokens"
    assert "Gold" in error.message


def test_a_bid_cannot_place_tokens_the_seat_does_not_hold() -> None:
    error = refused(bid(priest=tokens(force=2, blackmail=1, gold=3)))
    assert error.code == "not_enough_tokens"
    assert "Force" in error.message


def test_an_empty_bid_with_tokens_in_hand_is_refused() -> None:
    assert refused(bid()).code == "must_bid_all_tokens"


def test_a_bid_names_at_most_six_characters() -> None:
    hand = tokens(gold=7)
    seven = {cid: {"gold": 1} for cid in ("general", "captain", "innkeeper", "magistrate", "priest",
                                           "aristocrat", "merchant")}
    error = refused({"type": "bid", "bids": seven}, hand=hand)
    assert error.code == "too_many_characters"
    assert "6" in error.message
    six = dict(list(seven.items())[:5]) | {"merchant": {"gold": 2}}
    t = table()
    set_hands(t, [hand] * 4)
    assert revolution.decide(t.current, 0, {"type": "bid", "bids": six}, RNG)


def test_zero_counts_are_dropped_and_do_not_count_as_characters() -> None:
    t = table()
    seven = {"general": {"gold": 0, "force": 0}, "captain": {"gold": 1}, "innkeeper": {"gold": 1},
             "magistrate": {"gold": 1}, "priest": {"force": 1, "blackmail": 1}, "aristocrat": {},
             "merchant": {"gold": 0}, "printer": {"gold": 0}}
    (event,) = revolution.decide(t.current, 0, {"type": "bid", "bids": seven}, RNG)
    assert event.data["bids"] == {"captain": {"gold": 1}, "innkeeper": {"gold": 1}, "magistrate": {"gold": 1},
                                  "priest": {"force": 1, "blackmail": 1}}


@pytest.mark.parametrize("character", ["general", "captain", "apothecary", "rogue", "mercenary"])
def test_characters_immune_to_force_refuse_force(character: str) -> None:
    error = refused(bid(**{character: tokens(force=1)}, priest=tokens(blackmail=1, gold=3)))
    assert error.code == "immune_to_force"
    assert components.CHARACTER_BY_ID[character]["name"] in error.message


@pytest.mark.parametrize("character", ["innkeeper", "magistrate", "spy", "rogue", "mercenary"])
def test_characters_immune_to_blackmail_refuse_blackmail(character: str) -> None:
    error = refused(bid(**{character: tokens(blackmail=1)}, priest=tokens(force=1, gold=3)))
    assert error.code == "immune_to_blackmail"


@pytest.mark.parametrize("character", ["priest", "aristocrat", "merchant", "printer"])
def test_characters_without_immunity_take_every_kind(character: str) -> None:
    t = table()
    (event,) = revolution.decide(t.current, 0, bid(**{character: START}), RNG)
    assert event.data["bids"] == {character: START}


def test_rulebook_illegal_placement_example() -> None:
    """Force on the General, Blackmail on the Innkeeper, Force and Blackmail on the Rogue
    are each refused; the Gold on the Rogue alone is a fine bid."""
    hand = tokens(force=2, blackmail=2, gold=1)
    assert refused(bid(general=tokens(force=1), innkeeper=tokens(blackmail=1), priest=tokens(force=1, blackmail=1),
                       rogue=tokens(gold=1)), hand=hand).code == "immune_to_force"
    assert refused(bid(innkeeper=tokens(blackmail=1), priest=tokens(force=2, blackmail=1), rogue=tokens(gold=1)),
                   hand=hand).code == "immune_to_blackmail"
    assert refused(bid(rogue=tokens(force=1, blackmail=1, gold=1), priest=tokens(force=1, blackmail=1)),
                   hand=hand).code == "immune_to_force"
    t = table()
    set_hands(t, [hand] * 4)
    (event,) = revolution.decide(t.current, 0, bid(priest=tokens(force=2, blackmail=2), rogue=tokens(gold=1)), RNG)
    assert event.data["bids"]["rogue"] == {"gold": 1}


@pytest.mark.parametrize(("action", "code"), [
    ({"type": "bid", "bids": {"king": {"gold": 5}}}, "unknown_character"),
    ({"type": "bid", "bids": {"Priest": START}}, "unknown_character"),
    ({"type": "bid", "bids": {"priest": {"silver": 1}}}, "unknown_token_kind"),
    ({"type": "bid", "bids": {"priest": {"gold": -1, "force": 1}}}, "negative_count"),
    ({"type": "bid", "bids": {"priest": {"gold": 1.5}}}, "bad_count"),
    ({"type": "bid", "bids": {"priest": {"gold": True}}}, "bad_count"),
    ({"type": "bid", "bids": {"priest": {"gold": "3"}}}, "bad_count"),
    ({"type": "bid", "bids": {"priest": 5}}, "bad_bid"),
    ({"type": "bid", "bids": [["priest", START]]}, "bad_bid"),
    ({"type": "bid"}, "missing_field"),
    ({"type": "bid", "bids": {"priest": START}, "extra": 1}, "unknown_field"),
    ({"type": "bribe"}, "unknown_action"),
    ({"type": "spy", "area": "tavern", "owner": 1}, "not_your_decision"),
    ({"type": "skip"}, "not_your_decision"),
])
def test_malformed_actions_are_refused_with_stable_codes(action: dict[str, Any], code: str) -> None:
    assert refused(action).code == code


def test_messages_never_mention_other_seats_bids() -> None:
    t = table()
    t.act(GREEN, bid(printer=tokens(force=1, blackmail=1, gold=3)))
    for action in (bid(printer=START, priest=tokens(gold=1)), bid(priest=tokens(gold=3)),
                   bid(general=tokens(force=1), priest=tokens(blackmail=1, gold=3))):
        with pytest.raises(RuleViolation) as caught:
            revolution.decide(t.current, YELLOW, action, RNG)
        assert "seat 1" not in caught.value.message and "Printer" not in caught.value.message


def test_a_seat_may_replace_its_bid_until_the_last_seat_bids() -> None:
    t = table()
    t.act(YELLOW, bid(printer=START))
    assert YELLOW not in t.awaiting()
    assert revolution.may_act(t.current, YELLOW)
    replaced = t.act(YELLOW, bid(priest=START))
    assert [e.type for e in replaced] == ["BidPlaced"]
    assert t.current["sealed"][YELLOW]["bids"] == {"priest": START}
    for seat in (GREEN, 2):
        t.act(seat, bid(merchant=START))
    assert t.awaiting() == {RED: "bid"}
    events = t.act(RED, bid(aristocrat=START))
    revealed = next(e for e in events if e.type == "BidsRevealed")
    assert revealed.data["bids"][YELLOW] == {"priest": START}
    assert t.current["support"][YELLOW] == 6


def test_once_every_seat_has_bid_nobody_may_act_until_the_resolution() -> None:
    t = table()
    for seat in range(4):
        t.act(seat, bid(printer=START), settle=False)
    assert t.awaiting() == {}
    assert not any(revolution.may_act(t.current, seat) for seat in range(4))
    assert revolution.legal_actions(t.current, 0) == []
    with pytest.raises(RuleViolation) as caught:
        revolution.decide(t.current, 0, bid(priest=START), RNG)
    assert caught.value.code == "not_bidding"


def test_a_seat_with_no_tokens_bids_nothing() -> None:
    t = table()
    set_hands(t, [tokens(), START, START, START])
    assert revolution.legal_actions(t.current, 0) == [{"type": "bid", "bids": {}}]
    (event,) = revolution.decide(t.current, 0, bid(), RNG)
    assert event.data["bids"] == {}
