"""Random legal games of Pax Porfiriana to the end, at 2, 4 and 6 seats.

After every step: gold, cubes and cards are conserved; the market holds 12 cards while
the draw pile lasts; seats not awaited have no legal action. At the end: replay
rebuilds the state, and every event has a transcript line or None.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import games.pax as pax
from games.pax import board as b
from games.table import Table

from .helpers import check_conservation

#: Random games: 36 under the default profile (under a minute on two cores); the long
#: profile (HYPOTHESIS_PROFILE=long) plays 2,000.
GAMES = max(36, settings.default.max_examples // 10)


def check_step(t: Table) -> None:
    state = t.current
    check_conservation(state)
    in_market = sum(1 for _ in b.market_slots(state))
    if state["step"] == "actions" and state["actions_left"] == (2 if state["players"][state["active"]]["jail"] else 3) \
            and state["buys"] == 0 and state["deck"] and not state["queue"]:
        assert in_market == 12, "the market is refilled to 12 cards while the deck lasts"
    waiting = pax.awaiting(state)
    assert len(waiting) <= 1
    for seat in range(state["seats"]):
        if seat not in waiting:
            assert pax.legal_actions(state, seat) == []


def play(seats: int, seed: int, timeouts: float = 0.05, options: dict | None = None) -> Table:
    rng = random.Random(seed)
    t = Table(pax, seats, options or {}, seed=f"prop-{seed}")  # type: ignore[arg-type]
    check_step(t)
    for _ in range(20_000):
        if t.outcome is not None:
            return t
        (seat,) = t.awaiting()
        if rng.random() < timeouts:
            t.timeout(seat)
        else:
            legal = pax.legal_actions(t.current, seat)
            assert legal
            # Favour the market so that games reach their topples rather than the turn cap.
            buys = [a for a in legal if a["type"] == "buy"]
            t.act(seat, rng.choice(buys if buys and rng.random() < 0.3 else legal))
        check_step(t)
    raise AssertionError("the game did not end")


def check_end(t: Table) -> None:
    state = t.current
    outcome = t.outcome
    assert outcome is not None and outcome.winners
    assert outcome.reason in ("succession", "annexation", "coup", "revolt", "diaz_survives", "turn_limit")
    if outcome.reason in ("diaz_survives", "turn_limit"):
        best = max(p["gold"] for p in state["players"])
        assert set(outcome.winners) == {s for s, p in enumerate(state["players"]) if p["gold"] == best}
    assert t.replay() == state
    before = None
    for event in t.events:
        after = pax.evolve(before, event)
        line = pax.describe(before, event, after)
        assert line is None or (isinstance(line, str) and line)
        before = after
    for seat in range(t.seats):
        assert pax.legal_actions(state, seat) == []


@settings(max_examples=GAMES)
@given(seats=st.sampled_from([2, 4, 6]), seed=st.integers(0, 2**32 - 1))
def test_random_games_conserve_gold_cubes_and_cards_and_replay(seats: int, seed: int) -> None:
    check_end(play(seats, seed))


def test_random_games_end_by_their_topples_not_the_turn_cap() -> None:
    reasons = [play(2 + 2 * (seed % 3), 1000 + seed).outcome.reason for seed in range(6)]  # type: ignore[union-attr]
    assert "turn_limit" not in reasons


@settings(max_examples=max(8, GAMES // 4))
@given(seats=st.sampled_from([2, 3, 5]), seed=st.integers(0, 2**32 - 1))
def test_random_games_with_the_optional_rules_and_no_turn_cap(seats: int, seed: int) -> None:
    """Battle retreat and the quick set-up on, the turn cap off: the printed rules alone."""
    check_end(play(seats, seed, options={"battle_retreat": True, "quick_setup": True, "max_turns": 0}))
