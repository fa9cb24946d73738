"""Standing-order conditions: declared by each game, listed in its README, read from public facts."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from games import registry
from games.base import clone_json
from games.coup.orders import ORDER_CONDITIONS as COUP
from games.table import Table
from projections.orders import first_answer

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", registry.available())
def test_each_games_readme_lists_its_conditions_or_says_why_it_has_none(name: str) -> None:
    rules = registry.load(name)
    readme = (ROOT / "games" / name / "README.md").read_text(encoding="utf-8")
    assert "### Standing orders" in readme
    for condition in getattr(rules, "ORDER_CONDITIONS", {}):
        assert f"`{condition}`" in readme, condition
    for decision in getattr(rules, "ORDER_DECISIONS", ()):
        assert f"`{decision}`" in readme, decision


def _coup_after(*moves: tuple[int, dict]) -> Table:
    deck = ["duke", "contessa", "duke", "captain", "ambassador", "assassin", "captain", "contessa", "ambassador",
            "assassin", "duke", "captain", "contessa", "ambassador", "assassin"]
    table = Table(registry.load("coup"), 3, {"deck": deck}, seed="orders")
    for seat, action in moves:
        table.act(seat, action)
    return table


def test_coup_conditions_read_the_pending_steal() -> None:
    state = _coup_after((0, {"type": "steal", "target": 1})).current
    facts = {name: [value for value in (True, False, 0, 1, 2, "steal", "tax", "captain", "duke")
                    if condition.accepts(value, 3) and condition.test(state, 1, value)]
             for name, condition in COUP.items()}
    assert facts == {"targeted": [True], "actor": [0], "action": ["steal"], "claim": ["captain"],
                     "blocking": [False], "holding": ["captain", "duke"]}
    assert COUP["targeted"].test(state, 2, False)


def test_coup_claim_in_a_window_about_a_block_is_the_blockers_card() -> None:
    state = _coup_after((0, {"type": "steal", "target": 1}), (1, {"type": "block", "card": "ambassador"})).current
    assert COUP["blocking"].test(state, 2, True)
    assert COUP["claim"].test(state, 2, "ambassador")
    assert not COUP["claim"].test(state, 2, "captain")


def _record(name: str, state: dict, seats: int) -> dict:
    """The few fields of a platform record :func:`first_answer` reads."""
    owed = registry.load(name).awaiting(state)
    return {"game": name, "state": state, "awaiting": [owed.get(s) for s in range(seats)], "resigned": []}


def test_revolution_bid_as_last_round_repeats_the_revealed_bid_only_while_the_hand_allows() -> None:
    rules = registry.load("revolution")
    table = Table(rules, 3, {}, seed="orders")
    as_last = {0: [{"decision": "bid", "when": {}, "answer": {"type": "bid_as_last_round"}, "once": False}]}
    assert first_answer(_record("revolution", table.current, 3), as_last, lambda: random.Random(5)) is None
    first_bid = rules.legal_actions(table.current, 0)[0]
    for seat in range(3):
        table.act(seat, rules.legal_actions(table.current, seat)[0])
    while table.current["phase"] != "bidding":
        seat = next(iter(table.awaiting()))
        table.act(seat, rules.legal_actions(table.current, seat)[0])
    state = clone_json(table.current)
    placed = {kind: 0 for kind in state["hands"][0]}
    for tokens in first_bid["bids"].values():
        for kind, count in tokens.items():
            placed[kind] += count
    state["hands"][0] = placed  # the same hand as last round: the same bid is legal again
    found = first_answer(_record("revolution", state, 3), as_last, lambda: random.Random(5))
    assert found is not None and found.action == {"type": "bid", "bids": first_bid["bids"]}
    assert found.drafts[0].type == "BidPlaced"
    state["hands"][0] = {**placed, "gold": placed["gold"] + 1}  # a hand that grew: that bid no longer places it all
    assert first_answer(_record("revolution", state, 3), as_last, lambda: random.Random(5)) is None


def test_ideology_and_pax_conditions_read_nothing_before_their_decision() -> None:
    for name in ("ideology", "pax"):
        rules = registry.load(name)
        table = Table(rules, 3, getattr(rules, "PLAYOUT_OPTIONS", {}), seed="orders")
        for condition in rules.ORDER_CONDITIONS.values():
            for value in (0, 1, True, False, *(condition.values if isinstance(condition.values, tuple) else ())):
                if condition.accepts(value, 3) and condition.values != "boolean":
                    assert not condition.test(table.current, 0, value), (name, condition.description, value)
