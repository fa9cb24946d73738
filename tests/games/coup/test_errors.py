"""Every refusal has its code, and a refused action leaves the game exactly as it was."""

from __future__ import annotations

import copy
from typing import Any

import pytest

import games.coup as coup
from games.base import RuleViolation
from games.table import Table

from .helpers import RNG, all_pass, set_coins, set_turn, table

HANDS = (["duke", "contessa"], ["captain", "assassin"], ["ambassador", "duke"])


def refused(t: Table, seat: int, action: Any, code: str) -> None:
    """``decide`` refuses with ``code``; the state and the event log are untouched."""
    before = copy.deepcopy(t.current)
    count = len(t.events)
    with pytest.raises(RuleViolation) as err:
        coup.decide(t.current, seat, action, RNG)
    assert err.value.code == code, err.value.message
    assert err.value.message
    with pytest.raises(RuleViolation) as again:
        t.act(seat, action)
    assert again.value.code == code
    assert t.current == before and len(t.events) == count


def fresh() -> Table:
    return table(*HANDS)


def in_window() -> Table:
    t = fresh()
    t.act(0, {"type": "tax"})
    return t


def revealing() -> Table:
    t = in_window()
    t.act(1, {"type": "challenge"})
    assert t.awaiting() == {1: "reveal"}
    return t


def exchanging() -> Table:
    t = fresh()
    set_turn(t, 2)
    t.act(2, {"type": "exchange"})
    all_pass(t)
    assert t.awaiting() == {2: "keep"}
    return t


def with_exiled_seat_1() -> Table:
    t = fresh()
    set_coins(t, {0: 14})
    t.act(0, {"type": "coup", "target": 1})
    t.act(1, {"type": "reveal", "card": "captain"})
    set_turn(t, 0)
    t.act(0, {"type": "coup", "target": 1})
    set_turn(t, 0)
    return t


CASES = [
    # (position, seat, action, code)
    (fresh, 1, {"type": "income"}, "not_your_turn"),
    (in_window, 0, {"type": "pass"}, "not_your_turn"),
    (in_window, 1, {"type": "income"}, "not_your_turn"),
    (fresh, 0, {"type": "fly"}, "unknown_action"),
    (fresh, 0, {"target": 1}, "unknown_action"),
    (fresh, 0, "income", "unknown_action"),
    (in_window, 1, {"type": "shrug"}, "unknown_action"),
    (revealing, 1, {"type": "shrug"}, "unknown_action"),
    (exchanging, 2, {"type": "shrug"}, "unknown_action"),
    (fresh, 0, {"type": "income", "target": 1}, "unknown_field"),
    (fresh, 0, {"type": "steal", "target": 1, "amount": 2}, "unknown_field"),
    (in_window, 1, {"type": "pass", "card": "duke"}, "unknown_field"),
    (in_window, 1, {"type": "challenge", "target": 0}, "unknown_field"),
    (revealing, 1, {"type": "reveal", "card": "captain", "why": "x"}, "unknown_field"),
    (fresh, 0, {"type": "steal"}, "missing_target"),
    (fresh, 0, {"type": "coup"}, "missing_target"),
    (fresh, 0, {"type": "steal", "target": 0}, "bad_target"),
    (fresh, 0, {"type": "steal", "target": 3}, "bad_target"),
    (fresh, 0, {"type": "steal", "target": -1}, "bad_target"),
    (fresh, 0, {"type": "steal", "target": "1"}, "bad_target"),
    (fresh, 0, {"type": "steal", "target": True}, "bad_target"),
    (with_exiled_seat_1, 0, {"type": "steal", "target": 1}, "target_eliminated"),
    (fresh, 0, {"type": "assassinate", "target": 1}, "not_enough_coins"),
    (fresh, 0, {"type": "coup", "target": 1}, "not_enough_coins"),
    (in_window, 1, {"type": "block", "card": "duke"}, "cannot_block"),
    (in_window, 1, {"type": "block"}, "missing_field"),
    (revealing, 1, {"type": "pass"}, "must_reveal"),
    (revealing, 1, {"type": "income"}, "must_reveal"),
    (revealing, 1, {"type": "reveal", "card": "duke"}, "card_not_in_hand"),
    (revealing, 1, {"type": "reveal"}, "missing_field"),
    (exchanging, 2, {"type": "keep", "cards": ["captain", "captain"]}, "card_not_in_hand"),
    (exchanging, 2, {"type": "reveal", "card": "duke"}, "must_keep"),
    (exchanging, 2, {"type": "pass"}, "must_keep"),
    (exchanging, 2, {"type": "keep", "cards": ["duke"]}, "bad_keep"),
    (exchanging, 2, {"type": "keep", "cards": ["duke", "duke", "duke"]}, "bad_keep"),
    (exchanging, 2, {"type": "keep", "cards": "duke"}, "bad_keep"),
    (exchanging, 2, {"type": "keep", "cards": [1, 2]}, "bad_keep"),
    (exchanging, 2, {"type": "keep"}, "missing_field"),
]


@pytest.mark.parametrize(("position", "seat", "action", "code"), CASES,
                         ids=[f"{case[3]}-{i}" for i, case in enumerate(CASES)])
def test_a_bad_action_is_refused_with_its_code(position, seat: int, action: Any, code: str) -> None:
    refused(position(), seat, action, code)


def test_must_coup() -> None:
    t = fresh()
    set_coins(t, {0: 10})
    refused(t, 0, {"type": "income"}, "must_coup")
    refused(t, 0, {"type": "exchange"}, "must_coup")


def test_cannot_challenge_an_action_that_claims_no_character() -> None:
    t = fresh()
    t.act(0, {"type": "foreign_aid"})
    refused(t, 1, {"type": "challenge"}, "cannot_challenge")


def test_cannot_block_a_block() -> None:
    t = fresh()
    t.act(0, {"type": "foreign_aid"})
    t.act(1, {"type": "block", "card": "duke"})
    refused(t, 2, {"type": "block", "card": "duke"}, "cannot_block")


def test_not_enough_coins_for_a_coup_with_six() -> None:
    t = fresh()
    set_coins(t, {0: 6})
    refused(t, 0, {"type": "coup", "target": 2}, "not_enough_coins")


def test_every_listed_code_is_covered() -> None:
    codes = {case[3] for case in CASES} | {"must_coup", "cannot_challenge"}
    assert codes == {"not_your_turn", "unknown_action", "unknown_field", "must_coup", "missing_target", "missing_field",
                     "bad_target", "target_eliminated", "not_enough_coins", "cannot_challenge", "cannot_block",
                     "must_reveal", "card_not_in_hand", "must_keep", "bad_keep"}
