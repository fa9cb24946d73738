"""Issue 47, item 3: no option value makes a game's creation fail other than as a refusal.

Every game declares its options (``OPTIONS_SCHEMA``, with the builders of
``games.action_schema``) and ``validate_options`` checks them strictly first. Here each option
is given values of its declared shape, then those with one place (at any depth) swapped for a
value of another JSON type: whatever ``validate_options`` answers is an ``InvalidOptions`` with a
declared code, and options it accepts set up a game whose every view renders. (Pax once took
``"hacendados": [[1], [2], [3]]`` to a 500.)
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from games import registry
from games.base import RuleViolation
from games.table import Table
from tests.support.action_variants import ODD_VALUES, variants

GAMES = registry.available()


def examples(schema: dict[str, Any], seats: int) -> Iterator[Any]:
    """Values of ``schema``'s shape: not necessarily ones the game takes, but shaped as it reads."""
    options = schema.get("anyOf")
    if options is not None:
        for option in options:
            yield from examples(option, seats)
        return
    kind = schema.get("type")
    if kind == "integer":
        yield from (0, 1, seats - 1, seats, 40)
    elif kind == "string":
        yield from schema.get("enum", ["x", "reconstructed", "starter"])
    elif kind == "boolean":
        yield from (True, False)
    elif kind == "array":
        item = next(examples(schema["items"], seats))
        for length in (1, seats):
            yield [f"{item}{i}" if isinstance(item, str) else item for i in range(length)]
    elif kind == "object":
        properties = schema.get("properties") or {}
        extra = schema.get("additionalProperties")
        shaped = {name: next(examples(sub, seats)) for name, sub in properties.items()}
        if isinstance(extra, dict):
            shaped["x"] = next(examples(extra, seats))
        yield shaped
        yield {}


def option_values(rules: Any, seats: int) -> Iterator[dict[str, Any]]:
    for name, schema in rules.OPTIONS_SCHEMA["properties"].items():
        for odd in ODD_VALUES:
            yield {name: odd}
        for value in examples(schema, seats):
            yield {name: value}
            for variant in variants({"v": value}):
                if "v" in variant:
                    yield {name: variant["v"]}


@pytest.mark.parametrize("name", GAMES)
def test_no_option_value_fails_a_creation_other_than_as_a_refusal(name: str) -> None:
    rules = registry.load(name)
    tried = refused = 0
    for seats in (rules.MIN_SEATS, rules.MAX_SEATS):
        for options in option_values(rules, seats):
            tried += 1
            try:
                table = Table(rules, seats, options, seed="options")
            except RuleViolation as refusal:
                assert refusal.code in rules.RULE_CODES, (options, refusal.code)
                refused += 1
                continue
            table.settle()
            for seat in [None, *range(seats)]:
                json.dumps(rules.view(table.current, seat))
    assert refused > 0 and tried > refused


@pytest.mark.parametrize("name", GAMES)
def test_every_option_is_declared(name: str) -> None:
    rules = registry.load(name)
    assert set(rules.OPTIONS_SCHEMA["properties"]) == set(rules.validate_options({}, rules.MIN_SEATS))
