"""Random legal games to the end, checking the invariants after every step.

Bids are drawn from the ``bid_limits`` of the seat's view (not only from the few
examples of ``legal_actions``); seats sometimes replace a sealed bid, miss a deadline,
or skip the Spy's and the Apothecary's choices.
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import games.revolution as revolution
from games.base import RuleViolation, clone_json
from games.revolution import components, rules
from games.table import Table, TableEvent

from .helpers import totals

# At least 1,000 games under the default profile; a longer profile may ask for more.
GAMES = max(1_000, settings.default.max_examples)
DECOY = {"bids": {"printer": {"gold": 99}}, "forfeit": False}


def random_bid(rng: random.Random, limits: dict[str, Any]) -> dict[str, Any]:
    """Any legal bid for these limits: one home per held kind, then extra characters, then
    every token dropped on a random chosen character that takes its kind."""
    hand = limits["tokens"]
    characters = limits["characters"]
    chosen: list[dict[str, Any]] = []
    for kind in rng.sample(list(hand), len(hand)):
        if hand[kind] and not any(kind in c["allowed"] for c in chosen):
            chosen.append(rng.choice([c for c in characters if kind in c["allowed"]]))
    extra = rng.randint(0, limits["max_characters"] - len(chosen))
    chosen += rng.sample([c for c in characters if c not in chosen], extra)
    weights = {c["id"]: rng.random() + 0.05 for c in chosen}
    bids: dict[str, dict[str, int]] = {}
    for kind, count in hand.items():
        homes = [c["id"] for c in chosen if kind in c["allowed"]]
        for _ in range(count):
            home = rng.choices(homes, [weights[h] for h in homes])[0]
            bids.setdefault(home, {})
            bids[home][kind] = bids[home].get(kind, 0) + 1
    return {"type": "bid", "bids": bids}


def check_step(t: Table, new_events: list[TableEvent], bank: dict[str, int]) -> None:
    state = t.current
    seats = state["seats"]
    assert totals(state) == bank
    assert all(n >= 0 for n in state["bank"].values())
    assert all(n >= 0 for hand in state["hands"] for n in hand.values())
    for area in components.AREAS:
        counts = state["areas"][area["id"]]
        assert sum(counts) <= area["spaces"]
        assert min(counts) >= 0
    for seat in range(seats):
        on_board = sum(state["areas"][area][seat] for area in components.AREA_IDS)
        assert on_board + state["supply"][seat] == components.CUBES_PER_SEAT
    assert_sealed_bids_private(state, new_events)


def assert_sealed_bids_private(state: dict[str, Any], new_events: list[TableEvent]) -> None:
    """Views and feeds of everyone but the bidder are the same whatever the sealed bids are."""
    seats = state["seats"]
    for viewer in [*range(seats), None]:
        if state["phase"] == "bidding":
            decoy = {**state, "sealed": [s if (s is None or i == viewer) else DECOY
                                         for i, s in enumerate(state["sealed"])]}
            assert revolution.view(state, viewer) == revolution.view(decoy, viewer)
            if viewer is not None:
                mine = state["sealed"][viewer]
                assert revolution.view(state, viewer)["my_bid"] == mine
        for event in new_events:
            if event.type == "BidPlaced" and event.data["seat"] != viewer:
                other = TableEvent(event.seq, event.type, {**event.data, **DECOY}, event.actor)
                assert revolution.redact(event, viewer) == revolution.redact(other, viewer) == {
                    "seat": event.data["seat"]}


def play_one(seats: int, seed: int, options: dict[str, Any]) -> Table:
    rng = random.Random(seed)
    t = Table(revolution, seats, options, seed=f"game-{seed}")  # type: ignore[arg-type]
    bank = totals(t.current)
    check_step(t, list(t.events), bank)
    for _ in range(5_000):
        if t.outcome is not None:
            break
        state = t.current
        waiting = t.awaiting()
        before = len(t.events)
        if state["phase"] == "bidding":
            seat = rng.randrange(seats) if rng.random() < 0.1 else rng.choice(sorted(waiting))
            roll = rng.random()
            if seat in waiting and roll < 0.03:
                t.timeout(seat)
            elif roll < 0.15:
                t.act(seat, rng.choice(revolution.legal_actions(state, seat)))
            else:
                t.act(seat, random_bid(rng, revolution.view(state, seat)["bid_limits"]))
        else:
            ((seat, kind),) = waiting.items()
            assert kind in ("spy", "apothecary")
            choices = revolution.legal_actions(state, seat)
            assert choices[-1] == {"type": "skip"} and len(choices) > 1
            if rng.random() < 0.1:
                t.timeout(seat)
            else:
                t.act(seat, rng.choice(choices))
        check_step(t, t.events[before:], bank)
    else:
        raise AssertionError("the game did not end")
    return t


def check_end(t: Table) -> None:
    state = t.current
    outcome = t.outcome
    assert outcome is not None
    assert outcome.reason in ("board_full", "round_limit")
    if outcome.reason == "board_full":
        assert rules.board_is_full(state)
    best = max(state["support"])
    assert outcome.winners == tuple(s for s, v in enumerate(state["support"]) if v == best)
    assert t.replay() == state
    assert json.loads(json.dumps(state)) == state
    for seat in range(t.seats):
        assert revolution.legal_actions(state, seat) == []


@settings(max_examples=GAMES)
@given(seats=st.sampled_from([3, 4]), seed=st.integers(0, 2**32 - 1),
       refund=st.booleans(), control=st.booleans(), german=st.booleans())
def test_random_games_keep_every_invariant_to_the_end(seats: int, seed: int, refund: bool, control: bool,
                                                      german: bool) -> None:
    options = {"refund_losing_bids": refund, "area_control_bonus": control, "german_edition": german}
    check_end(play_one(seats, seed, options))


def test_random_games_mostly_fill_the_city() -> None:
    """The round cap is a guard, not the usual ending."""
    reasons = [play_one(3 + seed % 2, seed, {}).outcome.reason for seed in range(20)]  # type: ignore[union-attr]
    assert reasons.count("board_full") >= 15



@settings(max_examples=200)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_bids_from_the_limits_are_accepted_and_broken_ones_refused(seed: int) -> None:
    rng = random.Random(seed)
    t = Table(revolution, 4, {})  # type: ignore[arg-type]
    state = clone_json(t.current)
    state["hands"][0] = {"force": rng.randint(0, 4), "blackmail": rng.randint(0, 4), "gold": rng.randint(0, 12)}
    limits = revolution.view(state, 0)["bid_limits"]
    action = random_bid(rng, limits)
    (event,) = revolution.decide(state, 0, action, rng)
    assert event.data["bids"] == rules.check_bid(action["bids"], state["hands"][0])
    held = [k for k, n in limits["tokens"].items() if n]
    if held:
        kind = rng.choice(held)
        short = json.loads(json.dumps(action))
        home = next(cid for cid, placed in short["bids"].items() if placed.get(kind))
        short["bids"][home][kind] -= 1
        try:
            revolution.decide(state, 0, short, rng)
        except RuleViolation as error:
            assert error.code == "must_bid_all_tokens"
        else:
            raise AssertionError("a bid that keeps a token back was accepted")
