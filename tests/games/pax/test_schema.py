"""The declared action schema (the API reference's PaxAction) admits every legal action
of random games and refuses malformed ones."""

from __future__ import annotations

import random

import jsonschema_rs

import games.pax as pax
from games.table import Table

VALIDATOR = jsonschema_rs.validator_for(pax.ACTION_SCHEMA)


def test_every_legal_action_of_random_games_fits_the_schema() -> None:
    kinds = set()
    for seats in (2, 5):
        t = Table(pax, seats, {}, seed=f"schema-{seats}")  # type: ignore[arg-type]

        def check(table: Table) -> None:
            for action in pax.legal_actions(table.current, min(table.awaiting() or {0: ""})):
                assert VALIDATOR.is_valid(action), action
                kinds.add(action["type"])

        t.play_randomly(random.Random(seats), check=check)
    assert {"play", "buy", "sell", "speculate", "end_turn", "done", "manifesto"} <= kinds


def test_malformed_actions_do_not_fit() -> None:
    for bad in ({"type": "play"}, {"type": "buy", "card": "x", "side": "both"}, {"type": "upgrade", "enterprise": "x"},
                {"type": "speculate", "to": {"market": "x", "income": "y"}}, {"type": "end_turn", "now": True},
                {"type": "fly"}):
        assert not VALIDATOR.is_valid(bad), bad
