"""Options: the rulebook's optional rules, the German bank and the round cap."""

from __future__ import annotations

from typing import Any

import pytest

import games.revolution as revolution
from games.base import InvalidOptions, RuleViolation
from games.revolution import rules

from .helpers import (
    BLUE,
    GREEN,
    RED,
    RNG,
    START,
    YELLOW,
    bid,
    events_of,
    fill_board,
    play_bids,
    resolved,
    set_areas,
    set_hands,
    table,
    tokens,
    totals,
)


def test_options_default_to_the_base_game() -> None:
    assert revolution.validate_options({}, 3) == {"refund_losing_bids": False, "area_control_bonus": False,
                                                  "german_edition": False, "max_rounds": 40}


@pytest.mark.parametrize(("options", "seats", "code"), [
    ({}, 2, "bad_seats"),
    ({}, 5, "bad_seats"),
    ({}, True, "bad_seats"),
    ({"deals": True}, 4, "unknown_option"),
    ({"refund_losing_bids": 1}, 4, "bad_option"),
    ({"area_control_bonus": "yes"}, 4, "bad_option"),
    ({"german_edition": None}, 4, "bad_option"),
    ({"max_rounds": 7}, 4, "bad_option"),
    ({"max_rounds": 201}, 4, "bad_option"),
    ({"max_rounds": True}, 4, "bad_option"),
    ({"max_rounds": 12.0}, 4, "bad_option"),
])
def test_bad_options_and_seat_counts_are_refused(options: dict[str, Any], seats: int, code: str) -> None:
    with pytest.raises(InvalidOptions) as caught:
        revolution.validate_options(options, seats)
    assert caught.value.code == code


def test_the_base_bank_holds_12_force_12_blackmail_32_gold() -> None:
    for seats in (3, 4):
        state = table(seats).current
        assert totals(state) == {"force": 12, "blackmail": 12, "gold": 32}
        assert state["bank"] == {"force": 12 - seats, "blackmail": 12 - seats, "gold": 32 - 3 * seats}
        assert state["hands"] == [START] * seats
        assert state["supply"] == [25] * seats


def test_german_edition_bank_holds_36_gold() -> None:
    state = table(4, german_edition=True).current
    assert totals(state) == {"force": 12, "blackmail": 12, "gold": 36}


def test_refund_option_returns_losing_and_tied_bids_to_their_bidders() -> None:
    t = table(refund_losing_bids=True)
    events = play_bids(t, {
        YELLOW: bid(priest=tokens(force=1), printer=tokens(gold=3), general=tokens(blackmail=1)),
        GREEN: bid(priest=tokens(blackmail=1, gold=3), printer=tokens(force=1)),
        BLUE: bid(printer=tokens(force=1), aristocrat=tokens(blackmail=1, gold=3)),
        RED: bid(merchant=START),
    })
    assert resolved(events, "priest")["refunds"][GREEN] == tokens(blackmail=1, gold=3)
    assert resolved(events, "priest")["to_bank"] == tokens(force=1)
    printer = resolved(events, "printer")  # Green and Blue tie with 1 Force; Yellow's 3 Gold lose
    assert printer["winner"] is None
    assert printer["refunds"] == [tokens(gold=3), tokens(force=1), tokens(force=1), tokens()]
    assert printer["to_bank"] == tokens()
    # Refunds are in hand for the next round, and Patronage counts them: Yellow holds the
    # General's Force and 3 refunded Gold, Blue 1 refunded Force and the Aristocrat's 3 Gold,
    # Green 5 refunded tokens, Red the Merchant's 5 Gold.
    (patronage,) = events_of(events, "PatronagePaid")
    assert patronage.data["gold"] == [1, 0, 1, 0]
    assert t.current["hands"][YELLOW] == tokens(force=1, gold=4)
    assert t.current["hands"][GREEN] == tokens(force=1, blackmail=1, gold=3)
    assert totals(t.current) == {"force": 12, "blackmail": 12, "gold": 32}


def test_without_refunds_losing_bids_go_to_the_bank() -> None:
    t = table()
    events = play_bids(t, {
        YELLOW: bid(priest=tokens(force=1), printer=tokens(gold=3), general=tokens(blackmail=1)),
        GREEN: bid(priest=tokens(blackmail=1, gold=3), printer=tokens(force=1)),
        BLUE: bid(printer=tokens(force=1), aristocrat=tokens(blackmail=1, gold=3)),
        RED: bid(merchant=START),
    })
    printer = resolved(events, "printer")
    assert printer["to_bank"] == tokens(force=2, gold=3)
    assert printer["refunds"] == [tokens()] * 4


def test_refunded_tokens_score_at_the_end() -> None:
    t = table(refund_losing_bids=True)
    set_areas(t, fill_board(4, leave_empty={"fortress": 1}))
    events = play_bids(t, {
        YELLOW: bid(general=tokens(blackmail=1, gold=3), printer=tokens(force=1)),
        GREEN: bid(printer=tokens(force=1), priest=tokens(blackmail=1, gold=3)),
        BLUE: bid(printer=tokens(force=1), priest=tokens(blackmail=1, gold=2), rogue=tokens(gold=1)),
        RED: bid(printer=tokens(force=1), priest=tokens(blackmail=1, gold=2), mercenary=tokens(gold=1)),
    })
    (scored,) = events_of(events, "GameScored")
    # Yellow: General's Force + the refunded Force from the tied Printer = 2 Force.
    assert t.current["hands"][YELLOW] == tokens(force=2)
    assert scored.data["token_support"][YELLOW] == 10


def area_control_table(**options: Any) -> Any:
    t = table(**options)
    set_areas(t, {"tavern": [4, 0, 0, 0], "market": [0, 2, 1, 0]})
    return t


def test_area_control_bonus_adds_ten_for_an_area_holding_only_your_cubes() -> None:
    t = area_control_table(area_control_bonus=True)
    areas = rules.final_scores(t.current)["areas"]
    assert areas["tavern"] == {"winner": YELLOW, "support": 30, "bonus": 10}
    assert areas["market"] == {"winner": GREEN, "support": 25, "bonus": 0}
    assert revolution.view(t.current, None)["areas"][0]["controlled_by"] == YELLOW


def test_without_the_option_full_control_scores_no_bonus() -> None:
    t = area_control_table()
    assert rules.final_scores(t.current)["areas"]["tavern"] == {"winner": YELLOW, "support": 20, "bonus": 0}
    assert revolution.view(t.current, None)["areas"][0]["controlled_by"] is None


def _win_alone(t: Any, character: str, seat: int) -> None:
    plans = {s: {"printer": {"gold": 1}} for s in range(t.seats)}
    plans[seat][character] = {"gold": 1}
    set_hands(t, [tokens(gold=len(plans[s])) for s in range(t.seats)])
    for s in range(t.seats):
        t.act(s, bid(**plans[s]))


def test_area_control_protects_cubes_from_the_spy() -> None:
    t = area_control_table(area_control_bonus=True)
    _win_alone(t, "spy", RED)
    assert t.awaiting() == {RED: "spy"}
    targets = revolution.legal_actions(t.current, RED)
    assert {"type": "spy", "area": "tavern", "owner": YELLOW} not in targets
    with pytest.raises(RuleViolation) as caught:
        revolution.decide(t.current, RED, {"type": "spy", "area": "tavern", "owner": YELLOW}, RNG)
    assert caught.value.code == "area_controlled"


def test_area_control_protects_cubes_from_the_apothecary() -> None:
    t = area_control_table(area_control_bonus=True)
    set_areas(t, {"tavern": [4, 0, 0, 0], "market": [0, 2, 1, 0], "fortress": [1, 0, 0, 1]})
    _win_alone(t, "apothecary", BLUE)
    action = {"type": "apothecary", "first": {"area": "tavern", "owner": YELLOW},
              "second": {"area": "market", "owner": GREEN}}
    assert action not in revolution.legal_actions(t.current, BLUE)
    with pytest.raises(RuleViolation) as caught:
        revolution.decide(t.current, BLUE, action, RNG)
    assert caught.value.code == "area_controlled"


def test_without_area_control_a_fully_held_area_is_open_to_the_spy() -> None:
    t = area_control_table()
    _win_alone(t, "spy", RED)
    assert {"type": "spy", "area": "tavern", "owner": YELLOW} in revolution.legal_actions(t.current, RED)


def test_a_full_area_held_by_several_seats_is_not_protected() -> None:
    t = table(area_control_bonus=True)
    set_areas(t, {"tavern": [3, 1, 0, 0]})
    _win_alone(t, "spy", RED)
    assert {"type": "spy", "area": "tavern", "owner": YELLOW} in revolution.legal_actions(t.current, RED)
