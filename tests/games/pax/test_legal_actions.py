"""The fast move generator lists exactly what the first one listed, in the same order.

The reference (reference_actions.py) is the first generator, frozen: every candidate run
through the rules' own checks. States come from random legal games (every state of each
game is compared) and from those states nudged where the checks look: gold, actions and
bonus actions left, buys made, the regime, an empty supply, jail, unrest, speculation
cubes, and the last topple, so rare branches (Anarchy's jurisdiction, an empty supply's
cube moves, prestige cubes under Pax) are compared too.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import games.pax as pax
from games.pax import board as b
from games.pax.fold import copy_state
from games.pax.legal import turn_actions
from games.table import Table

from .reference_actions import reference_legal_actions

REGIMES = ("pax", "us_intervention", "martial_law", "anarchy")


def same(state: dict[str, Any], seats: int) -> None:
    for seat in range(seats):
        assert pax.legal_actions(state, seat) == reference_legal_actions(state, seat), f"seat {seat}"


def nudge(state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A copy of ``state`` with the facts the checks read changed at random (a position the
    rules might never reach: the two generators must still agree on it)."""
    state = copy_state(state)
    seat = state["active"]
    for player in state["players"]:
        if rng.random() < 0.5:
            player["gold"] = rng.choice([0, 0, 1, 2, 3, 5, 8, 16, 40])
        if rng.random() < 0.3:
            player["jail"] = not player["jail"]
    me = state["players"][seat]
    if rng.random() < 0.4:
        me["supply"] = 0
    state["actions_left"] = rng.choice([0, 1, 2, 3])
    state["buys"] = rng.choice([0, 1, 2])
    if rng.random() < 0.5:
        state["regime"] = rng.choice(REGIMES)
    if rng.random() < 0.3:
        state["topples_out"] = 3
    if rng.random() < 0.3:
        state["bonus_used"] = [rng.choice(["play", "buy", "sell", "redeploy", "upgrade", "speculate"])]
    market = [card for _, _, card in b.market_slots(state)]
    for card in rng.sample(market, min(len(market), rng.choice([0, 1, 3]))):
        state["spec"][card] = rng.choice([seat, (seat + 1) % state["seats"]])
    for _, ent in b.enterprises(state):
        if rng.random() < 0.3:
            ent["unrest"] = rng.choice([0, 1, 2])
        if ent["conn"] and rng.random() < 0.3:
            ent["conn"][rng.randrange(len(ent["conn"]))] = rng.choice([None, seat])
    for card in me["bribes"]:
        me["bribes"][card] = rng.choice([0, 1])
    return state


@settings(max_examples=30)
@given(seats=st.integers(2, 6), seed=st.integers(0, 2**32 - 1), retreat=st.booleans(),
       steps=st.integers(1, 250))
def test_the_fast_generator_lists_the_same_actions_as_the_checks(seats: int, seed: int, retreat: bool,
                                                                 steps: int) -> None:
    rng = random.Random(seed)
    table = Table(pax, seats, {"battle_retreat": retreat, "max_turns": 40}, seed=f"legal-{seed}")  # type: ignore[arg-type]
    table.settle()
    for _ in range(steps):
        if table.outcome is not None:
            break
        same(table.current, seats)
        if not table.current["queue"]:
            for _ in range(3):
                same(nudge(table.current, rng), seats)
        (seat,) = table.awaiting()
        legal = pax.legal_actions(table.current, seat)
        buys = [a for a in legal if a["type"] == "buy"]  # toward the topples and the later regimes
        table.act(seat, rng.choice(buys if buys and rng.random() < 0.3 else legal))
    same(table.current, seats)


def test_the_generator_is_the_one_legal_actions_uses_on_a_turn() -> None:
    """A guard against a test that compares the reference with itself."""
    table = Table(pax, 3, {}, seed="legal-guard")  # type: ignore[arg-type]
    table.settle()
    state = table.current
    (seat,) = table.awaiting()
    assert not state["queue"]
    listed = turn_actions(state, seat)
    assert listed == pax.legal_actions(state, seat) == reference_legal_actions(state, seat)
    assert {"type": "end_turn"} in listed and len(listed) > 5
