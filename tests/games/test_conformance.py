"""Ring one: every registered game honours the protocol the platform relies on.

Random legal playouts to the end through the same call sequence as the server; after
every step: seats that may not act have no legal actions, awaited seats have some, every
legal action is accepted as it is, views and redacted events are JSON, evolve leaves its
input alone, and replaying the events rebuilds the state.
"""

from __future__ import annotations

import copy
import json
import random

import pytest

from games import registry
from games.base import RuleViolation
from games.table import Table, TableEvent

GAMES = registry.available()


def seat_counts(name: str) -> list[int]:
    rules = registry.load(name)
    return list(range(rules.MIN_SEATS, rules.MAX_SEATS + 1))


def check_step(table: Table) -> None:
    rules, state = table.rules, table.current
    waiting = rules.awaiting(state)
    for seat in range(table.seats):
        legal = rules.legal_actions(state, seat)
        if not rules.may_act(state, seat):
            assert legal == [], f"seat {seat} may not act but has legal actions"
        if seat in waiting:
            assert legal, f"seat {seat} is awaited but has no legal action"
        json.dumps(rules.view(state, seat))
    json.dumps(rules.view(state, None))
    event = table.events[-1]
    for seat in [None, *range(table.seats)]:
        json.dumps(rules.redact(event, seat))


@pytest.mark.parametrize("name", GAMES)
def test_random_playouts_end_and_replay(name: str) -> None:
    rules = registry.load(name)
    for seats in seat_counts(name):
        for seed in range(3):
            table = Table(rules, seats, seed=f"conformance-{seed}")
            table.play_randomly(random.Random(seed), check=check_step)
            assert table.outcome is not None and table.outcome.winners
            assert table.replay() == table.state
            assert rules.awaiting(table.current) == {}
            assert all(rules.legal_actions(table.current, s) == [] for s in range(seats))


@pytest.mark.parametrize("name", GAMES)
def test_decide_and_evolve_leave_their_input_alone(name: str) -> None:
    rules = registry.load(name)
    table = Table(rules, rules.MIN_SEATS, seed="purity")
    rng = random.Random(1)
    for _ in range(60):
        if table.outcome is not None:
            break
        if not table.awaiting():
            table.settle()
            continue
        seat = rng.choice(sorted(table.awaiting()))
        action = rng.choice(rules.legal_actions(table.current, seat))
        before = copy.deepcopy(table.current)
        drafts = rules.decide(table.current, seat, action, table.rng())
        assert table.current == before, "decide changed the state it was given"
        state = table.current
        for offset, draft in enumerate(drafts, 1):
            frozen = copy.deepcopy(state)
            state = rules.evolve(state, TableEvent(len(table.events) + offset, draft.type, dict(draft.data),
                                                   draft.actor))
            assert frozen == copy.deepcopy(frozen) and table.current == before
        table.act(seat, action)


@pytest.mark.parametrize("name", GAMES)
def test_timeouts_give_accepted_actions(name: str) -> None:
    rules = registry.load(name)
    table = Table(rules, rules.MAX_SEATS, seed="timeouts")
    for _ in range(3000):
        if table.outcome is not None:
            break
        seat = min(table.awaiting())
        table.timeout(seat)
    assert table.outcome is not None, "a game played only by timeouts must still end"


@pytest.mark.parametrize("name", GAMES)
def test_unknown_action_is_refused_with_a_code(name: str) -> None:
    rules = registry.load(name)
    table = Table(rules, rules.MIN_SEATS, seed="refusal")
    seat = min(table.awaiting())
    with pytest.raises(RuleViolation) as err:
        rules.decide(table.current, seat, {"type": "no-such-action"}, table.rng())
    assert err.value.code and err.value.message
