"""The fold skeleton every game shares (games/fold.py): one evolve contract for all four.

A log the rules never wrote (an event type no game makes, or a game's event before its
opening one) is refused with the same IntegrityError everywhere, never folded into a
state and never an AssertionError that the audit would not report.
"""

from __future__ import annotations

import importlib
import pickle
import random

import pytest

from games import registry
from games.base import GameEvent
from games.fold import IntegrityError, evolve_all

GAMES = registry.available()


def opened(name: str) -> tuple[dict, list[GameEvent]]:
    rules = registry.load(name)
    options = rules.validate_options({}, rules.MIN_SEATS)
    events = rules.setup(options, rules.MIN_SEATS, random.Random(7))
    state = None
    for event in events:
        state = rules.evolve(state, event)
    assert state is not None
    return state, events


@pytest.mark.parametrize("name", GAMES)
def test_an_unknown_event_type_is_an_integrity_error(name: str) -> None:
    rules = registry.load(name)
    state, _ = opened(name)
    with pytest.raises(IntegrityError, match="unknown"):
        rules.evolve(state, GameEvent("NoSuchEvent", {}))


@pytest.mark.parametrize("name", GAMES)
def test_an_event_before_the_opening_one_is_an_integrity_error(name: str) -> None:
    rules = registry.load(name)
    _, events = opened(name)
    opening, later = rules.fold.EVENT_TYPES[:2]
    assert events[0].type == opening
    with pytest.raises(IntegrityError, match=f"before {opening}"):
        rules.evolve(None, GameEvent(later, {}))


@pytest.mark.parametrize("name", GAMES)
def test_every_game_keeps_the_shared_layout(name: str) -> None:
    """The same file for the same role: the fold, the views and the transcript lines."""
    rules = registry.load(name)
    assert rules.evolve is rules.fold.evolve
    assert rules.view is rules.views.view and rules.redact is rules.views.redact
    assert rules.describe is importlib.import_module(f"games.{name}.describe").describe
    assert set(rules.fold.EVENT_TYPES) == {rules.fold.EVENT_TYPES[0], *rules.fold.HANDLERS}


@pytest.mark.parametrize("name", GAMES)
def test_folding_a_step_on_one_copy_gives_what_folding_event_by_event_gives(name: str) -> None:
    """``evolve_all`` (one copy a step, as the search folds) against ``evolve`` one event at a
    time, over every step of a random game from its opening; the state given is never changed."""
    rules = registry.load(name)
    options = rules.validate_options(dict(getattr(rules, "PLAYOUT_OPTIONS", {})), 3)
    rng = random.Random(f"evolve-all-{name}")
    events = rules.setup(options, 3, rng)
    state = evolve_all(rules.evolve, None, events)
    one_by_one = None
    for event in events:
        one_by_one = rules.evolve(one_by_one, event)
    assert state == one_by_one
    for _ in range(150):
        if rules.outcome(state) is not None:
            break
        waiting = sorted(rules.awaiting(state))
        if waiting:
            seat = rng.choice(waiting)
            events = rules.decide(state, seat, rng.choice(rules.legal_actions(state, seat)), rng)
        else:
            events = rules.resolve(state, rng)
        before = pickle.dumps(state)
        expected = state
        for event in events:
            expected = rules.evolve(expected, event)
        folded = evolve_all(rules.evolve, state, events)
        assert folded == expected
        assert pickle.dumps(state) == before, "evolve_all changed the state it was given"
        assert folded is not state or not events
        state = folded
