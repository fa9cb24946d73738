"""Random legal Coup games to the end, checking the invariants after every event.

Games are driven the way the platform drives them (:class:`games.table.Table`): an
awaited seat posts an action taken from ``legal_actions`` (or, at a missed deadline,
``on_timeout``), and ``resolve`` runs whenever nobody is awaited. After every single
event the state keeps its 50 coins and 15 cards, every seat its two cards, and a seat
is in the game exactly while it holds a hidden card; at the end one seat is left, the
outcome names it, and folding the events from nothing rebuilds the state.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import games.coup as coup
from games.base import Outcome
from games.coup import components, rules
from games.table import Table, TableEvent

#: Seeded games: 1,000 under the default profile, 10,000 under ``long`` (HYPOTHESIS_PROFILE=long).
GAMES = max(1_000, settings.default.max_examples // 2)
#: Random play ends far sooner; this only turns a game that never ends into a failure.
MAX_STEPS = 2_000
STANDARD_DECK = Counter(components.FULL_DECK)


def check_state(state: dict[str, Any], seats: int) -> None:
    """The invariants of any state a game can be in."""
    players = state["seats"]
    assert len(players) == seats
    coins = [p["coins"] for p in players]
    assert min(coins) >= 0 and state["treasury"] >= 0
    assert sum(coins) + state["treasury"] == components.TREASURY
    exchange = state["exchange"]
    drawn = exchange["drawn"] if exchange else []
    cards = [c for p in players for c in p["hidden"] + p["revealed"]] + state["deck"] + drawn
    assert Counter(cards) == STANDARD_DECK
    assert len(state["deck"]) == len(components.FULL_DECK) - components.STARTING_INFLUENCE * seats - len(drawn)
    for player in players:
        assert len(player["hidden"]) + len(player["revealed"]) == components.STARTING_INFLUENCE
    living = [s for s, p in enumerate(players) if p["hidden"]]
    exiled = [s for s, p in enumerate(players) if not p["hidden"]]
    assert living == rules.alive_seats(state)
    waiting = rules.awaiting(state)
    for seat in exiled:  # out of the game: no coins, owes nothing, is offered nothing
        assert players[seat]["coins"] == 0
        assert seat not in waiting
        assert all(step.get("seat") != seat for step in state["steps"])
        assert state["window"] is None or seat not in state["window"]["waiting"]
    if state["winner"] is not None:
        assert living == [state["winner"]]
        assert rules.outcome(state) == Outcome((state["winner"],), "last_standing")
        assert waiting == {} and state["window"] is None and state["exchange"] is None
        return
    assert len(living) >= 2
    assert rules.outcome(state) is None
    if exchange is not None:
        assert exchange["seat"] in living and exchange["hand"] == players[exchange["seat"]]["hidden"]
        assert len(drawn) == components.EXCHANGE_DRAW
    if state["action"] is None:
        assert waiting == {state["turn"]: "turn"} and state["turn"] in living


def check_event(before: dict[str, Any], event: TableEvent, after: dict[str, Any]) -> None:
    """What single events promise beyond the state invariants."""
    if event.type == "TurnEnded":
        count = len(after["seats"])
        expected = next(s % count for s in range(event.data["seat"] + 1, event.data["seat"] + count + 1)
                        if after["seats"][s % count]["hidden"])
        assert event.data["next"] == expected  # the next living seat clockwise, none skipped
        assert after["turns"] == before["turns"] + 1
    if event.type == "InfluenceLost":
        seat = event.data["seat"]
        assert event.data["card"] in before["seats"][seat]["hidden"]
        assert event.data["exiled"] == (not after["seats"][seat]["hidden"])
    if event.type == "ChallengeSettled":
        claimant = event.data["claimant"]
        assert event.data["proven"] == (event.data["card"] in before["seats"][claimant]["hidden"])


def check_decisions(t: Table) -> None:
    """Every seat's choices: awaited seats have some and each is accepted; the others have none."""
    state = t.current
    waiting = t.awaiting()
    for seat in range(t.seats):
        legal = coup.legal_actions(state, seat)
        assert bool(legal) == (seat in waiting) == coup.may_act(state, seat)
        for action in legal:
            events = coup.decide(state, seat, action, t.rng())
            assert events, f"{action} was accepted but caused nothing"
        if seat in waiting:
            default = coup.on_timeout(state, seat)
            if default["type"] == "keep":
                assert sorted(default["cards"]) in [a["cards"] for a in legal]
            else:
                assert default in legal


def play_one(seats: int, seed: int, *, timeouts: float = 0.05, patience: float = 0.0, scenario: bool = False,
             every_choice: bool = False) -> Table:
    """A random game to its end.

    ``timeouts`` is the chance that a decision is a missed deadline (``on_timeout``);
    ``patience`` the chance that a seat in a window passes rather than choosing at random,
    which makes longer games that reach forced coups and an empty treasury.
    """
    rng = random.Random(seed)
    options = {"deck": rng.sample(components.FULL_DECK, len(components.FULL_DECK))} if scenario else {}
    t = Table(coup, seats, options, seed=f"coup-{seed}")  # type: ignore[arg-type]
    state = t.current
    check_state(state, seats)
    for _ in range(MAX_STEPS):
        if t.outcome is not None:
            break
        if every_choice:
            check_decisions(t)
        seat = rng.choice(sorted(t.awaiting()))
        before = len(t.events)
        if rng.random() < timeouts:
            t.timeout(seat)
        elif t.awaiting()[seat] == "react" and rng.random() < patience:
            t.act(seat, {"type": "pass"})
        else:
            t.act(seat, rng.choice(coup.legal_actions(t.current, seat)))
        for event in t.events[before:]:
            new = coup.evolve(state, event)
            check_event(state, event, new)
            check_state(new, seats)
            state = new
        assert state == t.current
    else:
        raise AssertionError(f"the game did not end in {MAX_STEPS} steps")
    return t


def check_end(t: Table) -> None:
    state = t.current
    outcome = t.outcome
    assert outcome is not None and outcome.reason == "last_standing"
    (winner,) = outcome.winners
    assert rules.alive_seats(state) == [winner] == [state["winner"]]
    assert t.replay() == state
    assert json.loads(json.dumps(state)) == state
    assert coup.awaiting(state) == {}
    assert all(coup.legal_actions(state, seat) == [] for seat in range(t.seats))
    revealed = sum(len(p["revealed"]) for p in state["seats"])
    assert revealed >= components.STARTING_INFLUENCE * (t.seats - 1) + len(state["seats"][winner]["revealed"])


def features(t: Table) -> set[str]:
    """The situations a game went through, so the seeded games can be shown to cover them all."""
    seen: set[str] = set()
    state = None
    lost: Counter[int] = Counter()  # influence lost by each seat this turn
    for event in t.events:
        data = event.data
        if event.type == "ActionDeclared":
            seen.add(data["type"])
            if state is not None and state["seats"][data["seat"]]["coins"] >= components.FORCED_COUP_AT:
                seen.add("forced_coup")
        elif event.type == "ChallengeSettled":
            seen.add(f"challenge_{data['about']}_{'proven' if data['proven'] else 'bluff'}")
        elif event.type == "InfluenceLost":
            seen.add("chosen_loss" if data["chosen"] else "forced_loss")
            if data["exiled"]:
                seen.add("exiled")
            lost[data["seat"]] += 1
            if lost[data["seat"]] == 2:
                seen.add("two_losses_in_one_turn")  # e.g. the Assassin's double danger
        elif event.type == "TurnEnded":
            lost.clear()
        elif event.type in ("BlockOffered", "BlockDeclared", "WindowClosed", "ExchangeCompleted"):
            seen.add(event.type)
        elif event.type == "ActionSucceeded" and data.get("amount", 1) == 0:
            seen.add(f"nothing_to_{data['type']}")
        state = coup.evolve(state, event)
        if state["treasury"] == 0:
            seen.add("empty_treasury")
    return seen


def test_seeded_games_keep_every_invariant_to_the_end() -> None:
    winners: Counter[int] = Counter()
    counts: Counter[int] = Counter()
    seen: set[str] = set()
    for seed in range(GAMES):
        seats = 2 + (seed + seed // 20) % 5
        mix = seed % 20  # all timeouts, many timeouts, a scenario deck, patient or bold seats
        t = play_one(seats, seed, timeouts=1.0 if mix == 0 else 0.3 if mix < 4 else 0.02,
                     patience=0.8 if mix >= 12 else 0.0, scenario=mix == 4)
        check_end(t)
        winners[t.outcome.winners[0]] += 1  # type: ignore[union-attr]
        counts[seats] += 1
        seen |= features(t)
    assert sum(counts.values()) == GAMES and set(counts) == {2, 3, 4, 5, 6}
    assert set(winners) == set(range(6))  # every seat number wins some game
    assert seen >= {*components.ACTIONS, "forced_coup", "challenge_action_proven", "challenge_action_bluff",
                    "challenge_block_proven", "challenge_block_bluff", "BlockOffered", "BlockDeclared",
                    "WindowClosed", "ExchangeCompleted", "chosen_loss", "forced_loss", "exiled",
                    "two_losses_in_one_turn", "nothing_to_steal", "empty_treasury"}, seen


@settings(max_examples=max(200, settings.default.max_examples // 10))
@given(seats=st.integers(rules.MIN_SEATS, rules.MAX_SEATS), seed=st.integers(0, 2**32 - 1),
       timeouts=st.sampled_from([0.0, 0.1, 0.5, 1.0]), patience=st.sampled_from([0.0, 0.8]),
       scenario=st.booleans())
def test_every_legal_action_is_accepted_all_game_long(seats: int, seed: int, timeouts: float, patience: float,
                                                      scenario: bool) -> None:
    check_end(play_one(seats, seed, timeouts=timeouts, patience=patience, scenario=scenario, every_choice=True))


@settings(max_examples=max(30, settings.default.max_examples // 100))
@given(seats=st.integers(rules.MIN_SEATS, rules.MAX_SEATS), seed=st.integers(0, 2**32 - 1))
def test_a_game_of_missed_deadlines_ends_too(seats: int, seed: int) -> None:
    """What workers do when nobody plays: every decision is ``on_timeout``."""
    t = play_one(seats, seed, timeouts=1.0)
    check_end(t)
    assert all(e.type != "ChallengeSettled" and e.type != "BlockDeclared" for e in t.events)
