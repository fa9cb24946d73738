"""Each game's sampler: every sample is a state the seat could be in (same view, same legal
actions), and a sample depends only on what the seat has seen (the twin-deal test)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from bots.base import Observation
from bots.ismcts import Budget, IsmctsBot
from bots.play import SeatHistories, observation_for
from games import registry
from games.base import RuleViolation
from games.pax import board as pax_board
from games.table import Table

GAMES = ("coup", "revolution", "ideology", "pax")


def _options(game: str) -> dict[str, Any]:
    return dict(getattr(registry.load(game), "PLAYOUT_OPTIONS", {}))


@pytest.mark.parametrize("game", GAMES)
def test_every_sample_shows_the_seat_its_own_view_and_legal_actions(game: str) -> None:
    rules = registry.load(game)
    checked = 0
    every = 1 if game == "coup" else 5  # Coup games are short: look at every decision
    for index in range(4 if game == "coup" else 2):
        table = Table(rules, 3, _options(game), seed=f"sample-{game}-{index}")
        histories = SeatHistories(table)
        rng = random.Random(index)
        table.settle()
        for step in range(400):
            if table.outcome is not None:
                break
            seat = rng.choice(sorted(table.awaiting()))
            if step % every == 0:
                view = rules.view(table.current, seat)
                sampler = rules.prepare_sampler(view, histories.of(seat), seat)
                for draw in range(2):
                    sample = sampler.sample(random.Random(draw))
                    assert rules.view(sample, seat) == view
                    assert rules.legal_actions(sample, seat) == rules.legal_actions(table.current, seat)
                    checked += 1
            table.act(seat, rng.choice(rules.legal_actions(table.current, seat)))
    assert checked >= 20


def test_coup_samples_deal_the_unseen_cards_differently() -> None:
    """The rivals' hands come from the sample's generator, not from the table."""
    rules = registry.load("coup")
    table = Table(rules, 3, seed="spread")
    view = rules.view(table.current, 0)
    sampler = rules.prepare_sampler(view, SeatHistories(table).of(0), 0)
    hands = {tuple(sampler.sample(random.Random(k))["seats"][1]["hidden"]) for k in range(30)}
    assert len(hands) > 5
    assert all(sampler.sample(random.Random(k))["seats"][0]["hidden"] == view["seats"][0]["hand"] for k in range(5))


# --- Twin deals: two games that differ only in what seat 0 cannot see ---------------------------

def _coup_twins() -> tuple[dict[str, Any], dict[str, Any]]:
    deck = [card for card in ("duke", "assassin", "captain", "ambassador", "contessa") for _ in range(3)]
    random.Random(7).shuffle(deck)
    twin = deck[:2] + deck[4:6] + deck[2:4] + list(reversed(deck[6:]))  # seats 1 and 2 swap hands
    return {"deck": deck}, {"deck": twin}


def _ideology_twins() -> tuple[dict[str, Any], dict[str, Any]]:
    rules = registry.load("ideology")
    probe = Table(rules, 3, _options("ideology"), seed="twin")
    ideologies = probe.current["ideology"]
    board = probe.current["board"]["ideologies"]

    def deck(iid: str, flip: bool) -> list[str]:
        kinds = [kind for kind, total in board[iid]["deck"].items() for _ in range(total - 3)]
        random.Random(iid).shuffle(kinds)
        return list(reversed(kinds)) if flip else kinds

    base = {**_options("ideology"), "ideologies": list(ideologies)}
    return ({**base, "decks": {iid: deck(iid, False) for iid in ideologies}},
            {**base, "decks": {iid: deck(iid, seat != 0) for seat, iid in enumerate(ideologies)}})


def _pax_twins() -> tuple[dict[str, Any], dict[str, Any]]:
    rules = registry.load("pax")
    probe = Table(rules, 3, _options("pax"), seed="twin")
    setup = probe.events[0].data
    market = [setup["market"][i % pax_board.ROWS][i // pax_board.ROWS] for i in range(12)]
    pile = list(setup["deck"])
    base = {**_options("pax"), "first_seat": 0, "hacendados": list(setup["hacendados"])}
    return {**base, "deck": market + pile}, {**base, "deck": market + list(reversed(pile))}


TWINS: dict[str, Callable[[], tuple[dict[str, Any], dict[str, Any]]]] = {
    "coup": _coup_twins, "ideology": _ideology_twins, "pax": _pax_twins,
}


def _compare_twins(game: str, first: Table, second: Table, decisions: int) -> int:
    """Drive both tables alike; at each of seat 0's decisions its inputs, its sample and the
    bot's choice must be the same. Other seats take an action legal at both tables."""
    rules = registry.load(game)
    histories = (SeatHistories(first), SeatHistories(second))
    bot = IsmctsBot(Budget(iterations=8 if game == "pax" else 40, milliseconds=None))
    compared = 0
    order = random.Random(3)
    for table in (first, second):
        table.settle()
    for step in range(300):
        if first.outcome is not None or compared >= decisions:
            break
        waiting = sorted(first.awaiting())
        if waiting != sorted(second.awaiting()):
            break
        seat = order.choice(waiting)
        if seat == 0:
            seen = [observation_for(table, game, 0, h) for table, h in zip((first, second), histories, strict=True)]
            if seen[0] != seen[1]:
                break  # the seat could now tell the games apart: no longer twins
            samples = [rules.prepare_sampler(o.view, o.history, 0).sample(random.Random(step)) for o in seen]
            assert samples[0] == samples[1]
            choices = [bot.choose(o, random.Random(step)) for o in seen]
            assert choices[0] == choices[1]
            action = choices[0]
            compared += 1
        else:
            shared = [a for a in rules.legal_actions(first.current, seat)
                      if a in rules.legal_actions(second.current, seat)]
            if not shared:
                break
            action = order.choice(shared)
        try:
            first.act(seat, action)
            second.act(seat, action)
        except RuleViolation:
            break
    return compared


@pytest.mark.parametrize("game", sorted(TWINS))
def test_twin_deals_give_the_same_inputs_and_the_same_decisions(game: str) -> None:
    rules = registry.load(game)
    options_a, options_b = TWINS[game]()
    first = Table(rules, 3, options_a, seed="twins")
    second = Table(rules, 3, options_b, seed="twins")
    assert first.current != second.current  # the hidden parts really differ
    assert _compare_twins(game, first, second, decisions=3) >= 2


def test_revolution_rivals_sealed_bids_do_not_change_the_decision() -> None:
    game = "revolution"
    rules = registry.load(game)
    tables = [Table(rules, 3, seed="twins") for _ in range(2)]
    for table, spot in zip(tables, ("priest", "printer"), strict=True):
        table.settle()
        hand = {k: v for k, v in table.current["hands"][1].items() if v}
        table.act(1, {"type": "bid", "bids": {spot: hand}})
        table.act(2, {"type": "bid", "bids": {"aristocrat": {k: v for k, v in table.current["hands"][2].items() if v}}})
    assert tables[0].current["sealed"] != tables[1].current["sealed"]
    seen = [observation_for(table, game, 0, SeatHistories(table)) for table in tables]
    assert seen[0] == seen[1]
    bot = IsmctsBot(Budget(iterations=60, milliseconds=None))
    assert bot.choose(seen[0], random.Random(1)) == bot.choose(seen[1], random.Random(1))


def test_an_observation_carries_no_hidden_state() -> None:
    """What the bot is handed is the view, the legal actions and the redacted history: nothing else."""
    assert set(Observation.__dataclass_fields__) == {"game", "seat", "view", "legal_actions", "history"}


def test_coup_belief_deals_rivals_their_claims_and_keeps_the_view() -> None:
    from bots.knowledge import knowledge_for
    from bots.knowledge.coup import standing_claims

    rules = registry.load("coup")
    deck = ["duke", "assassin", "contessa", "contessa", "ambassador", "ambassador", *["captain"] * 3,
            "duke", "duke", "assassin", "assassin", "contessa", "ambassador"]
    table = Table(rules, 3, {"deck": deck}, seed="claims")
    table.act(0, {"type": "steal", "target": 1})
    table.act(1, {"type": "block", "card": "captain"})  # a bluff: seat 1 holds two contessas
    table.act(2, {"type": "pass"})
    table.act(0, {"type": "pass"})
    table.settle()
    observation = observation_for(table, "coup", 0, SeatHistories(table))
    assert standing_claims(observation) == {1: ["captain"]}
    shape = knowledge_for("coup").shaper(observation)
    sampler = rules.prepare_sampler(observation.view, observation.history, 0)
    holding = 0
    for k in range(200):
        sample = shape(sampler.sample(random.Random(k)), random.Random(k))
        assert rules.view(sample, 0) == observation.view
        holding += "captain" in sample["seats"][1]["hidden"]
    plain = sum("captain" in sampler.sample(random.Random(k))["seats"][1]["hidden"] for k in range(200))
    assert holding > plain + 40
