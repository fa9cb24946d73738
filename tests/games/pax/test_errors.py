"""Every malformed action is a RuleViolation with a code, never a crash, and changes nothing."""

from __future__ import annotations

import copy
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import games.pax as pax
from games.base import RuleViolation
from games.pax.actions import TURN_ACTIONS
from games.pax.rules import DECISIONS
from games.table import Table

TYPES = sorted(set(TURN_ACTIONS) | {t for types, _, _ in DECISIONS.values() for t in types})
FIELDS = ["card", "to", "target", "scapegoat", "side", "face", "enterprise", "oval", "jail", "from", "faction",
          "prestige", "first", "discard"]
JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 8) | st.sampled_from(
    ["supply", "hacendado", "minas_prietas", "event", "x", ""]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["market", "income", "connection", "oval", "bribe", "x"]), inner, max_size=2), max_leaves=6)


def positions() -> list[dict]:
    """States at a few moments of a random game: turns, topple showdowns, upkeep..."""
    out: list[dict] = []
    t = Table(pax, 3, {}, seed="errors")  # type: ignore[arg-type]
    rng = random.Random(4)
    kinds: set[str] = set()
    while t.outcome is None and len(out) < 40:
        (seat,) = t.awaiting()
        kind = t.awaiting()[seat]
        if kind not in kinds or rng.random() < 0.02:
            kinds.add(kind)
            out.append(t.current)
        t.act(seat, rng.choice(pax.legal_actions(t.current, seat)))
    return out


POSITIONS = positions()


@settings(max_examples=400)
@given(index=st.integers(0, len(POSITIONS) - 1), kind=st.sampled_from(TYPES),
       fields=st.dictionaries(st.sampled_from(FIELDS), JSON, max_size=3), anyone=st.booleans())
def test_malformed_actions_are_refused_with_a_code(index: int, kind: str, fields: dict, anyone: bool) -> None:
    state = POSITIONS[index]
    (awaited,) = pax.awaiting(state)
    seat = (awaited + 1) % 3 if anyone else awaited
    before = copy.deepcopy(state)
    try:
        pax.decide(state, seat, {"type": kind, **fields}, random.Random(0))
    except RuleViolation as err:
        assert err.code and err.message
    assert state == before


def test_cube_references_of_the_wrong_type_are_refused() -> None:
    state = POSITIONS[0]
    (seat,) = pax.awaiting(state)
    for action in ({"type": "speculate", "card": "x", "from": {"market": [1]}},
                   {"type": "speculate", "to": {"bribe": [1]}},
                   {"type": "speculate", "card": "x", "from": {"bribe": {}}},
                   {"type": "speculate", "to": {"income": None}, "from": {"connection": 3, "oval": "a"}}):
        try:
            pax.decide(state, seat, action, random.Random(0))
        except RuleViolation as err:
            assert err.code in ("bad_from", "bad_to", "not_in_market"), err.code
        else:
            raise AssertionError(f"{action} was accepted")
