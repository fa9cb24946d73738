"""Revising a sealed decision is bounded (``INTRIGUE_REVISIONS_PER_DECISION``), and the count is
folded from the events: a replay of the stored log and the engine's record agree on it."""

from __future__ import annotations

import random

import pytest

from engine.core import Engine, Player
from engine.errors import Conflict
from engine.settings import Settings
from projections.record import fold, revisions
from projections.views import game_view

LIMIT = 5


@pytest.fixture()
def engine(engine: Engine) -> Engine:
    return Engine(engine.redis, engine.scheduler, snapshot_every=5, settings=Settings(revisions_per_decision=LIMIT))


def _to_sealed_offer(engine: Engine) -> tuple[str, list[Player]]:
    """An Ideology game of two people played at random until seat 0 has sealed its diplomacy
    offer and seat 1 still owes its own."""
    people = [engine.create_player(f"diplomat-{seat}")[0] for seat in range(2)]
    game_id = engine.create_game(people[0], "ideology", 2, {}, {"seconds_per_move": 3600})["id"]
    for person in people:
        engine.join(person, game_id)
    rng = random.Random(8)
    for _ in range(3000):
        record = engine.load(game_id)
        assert record["status"] == "active", "the game ended before a diplomacy phase"
        awaiting = record["awaiting"]
        if record["state"]["phase"] == "diplomacy" and awaiting[0] is None and awaiting[1] == "offer":
            return game_id, people
        seat = 0 if awaiting[0] is not None else 1
        if awaiting[seat] is None:
            engine.advance(game_id)
            continue
        engine.act(people[seat], game_id, rng.choice(game_view(record, seat)["legal_actions"]))
    raise AssertionError("no diplomacy phase reached")


def test_an_ideology_offer_is_revised_at_most_the_limit_then_refused_and_the_fold_agrees(engine: Engine) -> None:
    game_id, people = _to_sealed_offer(engine)
    offers = game_view(engine.load(game_id), 0)["legal_actions"]
    assert offers, "a sealed offer may be replaced (or withdrawn) while the other seat decides"
    withdrawal = {"type": "offer", "offers": {}}
    posted = 0
    for index in range(LIMIT * 3):
        action = withdrawal if index % 2 else offers[index % len(offers)]
        before = engine.version(game_id)
        try:
            engine.act(people[0], game_id, action)
        except Conflict as refused:
            assert refused.code == "too_many_revisions"
            assert engine.version(game_id) == before, "a refused revision appends nothing"
            continue
        posted += 1
    assert posted == LIMIT
    record = engine.load(game_id)
    assert revisions(record) == [LIMIT, 0]
    replayed = None
    for event in engine.store.read(game_id):
        replayed = fold(replayed, event)
    assert replayed == record, "the stored events fold to the same counts"

    # Seat 1's offer ends the phase: once seat 0 is awaited again its count starts afresh.
    engine.act(people[1], game_id, game_view(record, 1)["legal_actions"][0])
    for _ in range(200):
        after = engine.load(game_id)
        if after["status"] != "active" or after["awaiting"][0] is not None:
            break
        if after["awaiting"][1] is None:
            engine.advance(game_id)
        else:
            engine.act(people[1], game_id, game_view(after, 1)["legal_actions"][0])
    assert after["awaiting"][0] is not None and revisions(after) == [0, 0]
