"""Random legal games of 2, 3 and 5 seats, checking the invariants after every step.

Seats mostly pick a random legal action, sometimes miss a deadline (the documented
default is played), sometimes revise a sealed offer, and sometimes post a broken action,
which must be refused with a code and change nothing. After every step: every influence
card is in exactly one place, no ideology uses more than its 10 control markers, the
advancement supply adds up; at the end the winners follow the scoring rule, replaying
the events rebuilds the state, and every event gives a transcript line or None.

The default profile keeps to about a minute (games with a turn limit of 2 to 8, as the
conformance suite plays them); ``HYPOTHESIS_PROFILE=long`` plays thousands of games with
limits up to 40 turns.
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import games.ideology as ideology
from games.base import RuleViolation
from games.ideology import board as b
from games.ideology import rules
from games.table import Table

from .helpers import check_invariants

LONG = settings.default.max_examples > 1_000
#: Random games per seat count: 100 under the default profile, a third of ``long``'s examples.
GAMES = max(100, settings.default.max_examples // 3)
MAX_TURNS = 40 if LONG else 8

BROKEN = [
    {"type": "place", "region": "atlantis", "influence": "military"},
    {"type": "attack", "region": "germany", "influence": "naval", "target": 0},
    {"type": "exchange", "discard": {"military": 99}},
    {"type": "offer", "offers": {"nobody": "war"}},
    {"type": "buy", "advancement": "flight"},
    {"type": "develop", "region": "cuba", "influence": "cultural", "extra": 1},
    {"type": "cancel"},
    {"type": "discard", "discard": {"military": -1}},
]


def play_one(seats: int, seed: int, options: dict[str, Any]) -> Table:
    rng = random.Random(seed)
    t = Table(ideology, seats, options, seed=f"prop-{seed}")  # type: ignore[arg-type]
    check_invariants(t.current)
    t.settle()
    for _ in range(40_000):
        if t.outcome is not None:
            break
        state = t.current
        waiting = t.awaiting()
        seat = rng.choice(sorted(waiting))
        roll = rng.random()
        if roll < 0.02:
            t.timeout(seat)
        elif roll < 0.04:
            action = rng.choice(BROKEN)
            frozen = json.dumps(state, sort_keys=True)
            try:
                t.act(seat, action)
            except RuleViolation as err:
                assert err.code and err.message
                assert json.dumps(t.current, sort_keys=True) == frozen
        elif roll < 0.06 and state["phase"] == b.DIPLOMACY:
            # Any seat may seal an offer, or replace its own, until the last seat has offered.
            other = rng.randrange(seats)
            t.act(other, rng.choice(ideology.legal_actions(state, other)))
        else:
            choices = ideology.legal_actions(state, seat)
            assert choices, f"seat {seat} is awaited but has no legal action"
            t.act(seat, rng.choice(choices))
        check_invariants(t.current)
    else:
        raise AssertionError("the game did not end")
    return t


def check_end(t: Table) -> None:
    state = t.current
    outcome = t.outcome
    assert outcome is not None
    result = state["result"]
    influence = [b.global_influence(state, seat) for seat in range(t.seats)]
    assert result["influence"] == influence
    best = max(influence)
    if outcome.reason == "global_influence":
        assert best >= b.WINNING_INFLUENCE
    tied = [seat for seat in range(t.seats) if influence[seat] == best]
    points = [b.tie_break_points(state, seat) for seat in tied]
    assert list(outcome.winners) == [seat for seat, p in zip(tied, points, strict=True) if p == max(points)]
    assert t.replay() == state
    assert json.loads(json.dumps(state)) == state
    for seat in range(t.seats):
        assert ideology.legal_actions(state, seat) == []
    before = None
    for event in t.events:
        after = ideology.evolve(before, event)
        line = ideology.describe(before, event, after)
        assert line is None or (isinstance(line, str) and line and "\n" not in line)
        before = after


def _game(seats: int):
    @settings(max_examples=GAMES)
    @given(seed=st.integers(0, 2**32 - 1), level2=st.booleans(), turns=st.integers(2, MAX_TURNS))
    def run(seed: int, level2: bool, turns: int) -> None:
        check_end(play_one(seats, seed, {"level2_defends": level2, "max_turns": turns}))
    return run


test_random_two_seat_games_keep_every_invariant = _game(2)
test_random_three_seat_games_keep_every_invariant = _game(3)
test_random_five_seat_games_keep_every_invariant = _game(5)


def test_random_games_without_a_turn_limit_end_in_a_few_thousand_actions() -> None:
    """Uniform random play with the default options (no turn limit) ends by 12 Global
    Influence or by the stalemate rule: ten turns in a row that change no seat's Global
    Influence and no region's controller (README, "Ending")."""
    reasons = []
    for seed in range(8):
        t = Table(ideology, 3, {}, seed=f"unlimited-{seed}")  # type: ignore[arg-type]
        outcome = t.play_randomly(random.Random(seed), max_steps=5_000)
        reasons.append(outcome.reason)
        if outcome.reason == "stalled":
            assert t.current["quiet_turns"] >= 10
        assert t.replay() == t.state
    assert set(reasons) <= {"global_influence", "stalled"}
    assert "global_influence" in reasons


def test_a_table_where_nobody_ever_answers_stalls_after_ten_quiet_turns() -> None:
    t = Table(ideology, 5)  # type: ignore[arg-type]
    for _ in range(1000):
        if t.outcome is not None:
            break
        t.timeout(min(t.awaiting()))
    assert t.outcome is not None and t.outcome.reason == "stalled"
    assert t.current["turn"] == 11  # turn 1 sets the standing, ten quiet turns follow
    # Everyone at 3 Global Influence: Capitalism's starting Innovation (2 points) breaks the tie.
    assert t.outcome.winners == (t.current["seat_of"]["capitalism"],)


def test_with_the_stalemate_rule_off_the_silent_table_plays_on_by_the_printed_rules() -> None:
    """``stall_turns: null`` turns the server's stalemate rule off (it is not the rulebook's):
    the rulebook ends a game only at 12 Global Influence, so the silent table never ends."""
    t = Table(ideology, 5, {"stall_turns": None})  # type: ignore[arg-type]
    assert t.options["stall_turns"] is None and t.options["max_turns"] is None
    while t.current["turn"] < 25:
        assert t.outcome is None
        t.timeout(min(t.awaiting()))
    assert t.outcome is None and t.current["quiet_turns"] >= 20
    assert rules.OPTION_DEFAULTS["stall_turns"] == 10 and rules.OPTION_DEFAULTS["max_turns"] is None
