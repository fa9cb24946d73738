"""Issue 47, ring one: no action a seat can post leaves a state the fold and the views cannot take.

For every game, random play; at each step the legal actions of the awaited seats are posted
again with one field given a value of another JSON type (a float for an integer, a bool, a
string, null, a list, an object, a huge number; at every depth) or with a field they do not
take. Whatever the rules answer is a ``RuleViolation`` with a declared code, never another
exception (the server's 500); an accepted variant is folded, the system steps after it run, and
every seat's and a spectator's view, every redacted event and every seat's legal actions render
as JSON. (Pax once took ``{"type": "manifesto", "side": 0.0}``, since ``0.0 in (0, 1)``, and every
view after it failed indexing a list with a float.) A few games per game here; the ``long``
hypothesis profile plays many more.
"""

from __future__ import annotations

import json
import os
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import registry
from games.action_schema import ActionCheck, compile_schema
from games.base import GameRules, RuleViolation, State
from games.table import TABLE_RULE_CODES, Table, TableEvent, stored_form
from tests.support.action_variants import variants

GAMES = registry.available()
#: Random games per game and test run: a handful by default, many under HYPOTHESIS_PROFILE=long.
GAMES_PER_RUN = 20_000 if os.environ.get("HYPOTHESIS_PROFILE") == "long" else 3
#: Steps of one game whose actions are varied (a whole random game of some titles is long).
STEPS = 40


def render_after(rules: GameRules, state: State, drafts: list[Any], seats: int, seed: int) -> None:
    """Fold ``drafts`` as the server would, run the system steps, and render everything a reader
    of the game may ask for: a failure here is what would have broken a stored game for good."""
    rng = random.Random(seed)
    readers = [None, *range(seats)]
    for step in range(200):
        for draft in drafts:
            event = TableEvent(0, draft.type, stored_form(draft.data), draft.actor)
            state = rules.evolve(state, event)
            for seat in readers:
                json.dumps(rules.redact(event, seat))
        if rules.outcome(state) is not None or rules.awaiting(state) or step == 199:
            break
        drafts = rules.resolve(state, rng)
    for seat in readers:
        json.dumps(rules.view(state, seat))
    for seat in range(seats):
        json.dumps(rules.legal_actions(state, seat))
    rules.outcome(state)


def probe_game(name: str, seed: int) -> int:
    """One random game with each step's legal actions varied; how many variants were posted."""
    rules = registry.load(name)
    declared = set(rules.RULE_CODES) | set(TABLE_RULE_CODES)
    rng = random.Random(seed)
    seats = rng.randint(rules.MIN_SEATS, rules.MAX_SEATS)
    table = Table(rules, seats, getattr(rules, "PLAYOUT_OPTIONS", {}), seed=f"shapes-{seed}")
    table.settle()
    posted = 0
    for _ in range(STEPS):
        if table.outcome is not None:
            break
        state = table.current
        legal = {seat: rules.legal_actions(state, seat) for seat in sorted(table.awaiting())}
        for seat, actions in legal.items():
            for action in rng.sample(actions, min(3, len(actions))):
                for variant in variants(action):
                    posted += 1
                    try:
                        drafts = rules.decide(state, seat, variant, table.rng())
                    except RuleViolation as refusal:
                        assert refusal.code in declared, (variant, refusal.code)
                        continue
                    render_after(rules, state, drafts, seats, seed)
        mover = rng.choice([seat for seat, actions in legal.items() if actions])
        table.act(mover, rng.choice(legal[mover]))
    return posted


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=GAMES_PER_RUN, derandomize=GAMES_PER_RUN < 100)
@given(seed=st.integers(0, 2**32))
def test_actions_of_every_wrong_shape_are_refused_or_render(name: str, seed: int) -> None:
    assert probe_game(name, seed) > 0


@pytest.mark.parametrize("name", GAMES)
def test_every_game_declares_its_actions_for_the_strict_check(name: str) -> None:
    """The check is the game's first step, built from its one declaration: every branch compiles,
    and a field of the wrong type is refused before the rules read it."""
    rules = registry.load(name)
    schema = rules.ACTION_SCHEMA
    check = ActionCheck(schema)
    for branch in schema["oneOf"]:
        compile_schema(branch)
    table = Table(rules, rules.MIN_SEATS, seed="declared")
    seat = min(table.awaiting())
    for branch in schema["oneOf"]:
        kind = branch["title"]
        for field, shape in branch["properties"].items():
            if field == "type":
                continue
            wrong = "not a number" if shape.get("type") in ("integer", "array", "object", "boolean") else 0.0
            action = {"type": kind, **{name: wrong for name in check.required[kind]}, field: wrong}
            with pytest.raises(RuleViolation) as refusal:
                rules.decide(table.current, seat, action, table.rng())
            assert refusal.value.code in rules.RULE_CODES, (action, refusal.value.code)


def test_the_pax_manifesto_of_a_float_side_is_refused() -> None:
    """The report's case: a seat offered the manifesto posts ``side: 0.0`` (and ``-0.0``, ``1.0``)."""
    pax = registry.load("pax")
    check = ActionCheck(pax.ACTION_SCHEMA)
    for side in (0.0, -0.0, 1.0, True):
        with pytest.raises(RuleViolation) as refusal:
            check({"type": "manifesto", "side": side})
        assert refusal.value.code == "bad_field" and "'side' must be an integer" in refusal.value.message
    check({"type": "manifesto", "side": 0})
