"""The JSON Schema of a game's actions and options, for the API reference (:mod:`service.openapi`).

A game may declare its actions itself (``ACTION_SCHEMA``, a JSON Schema). Otherwise
they are read off the game: random playouts through the game's own ``setup``,
``decide`` and ``legal_actions`` collect every action any seat could post, and each
action ``type`` becomes one branch of a ``oneOf``: its fields, their JSON types, the
fields always present. (The values a string field takes are not guessed: a playout may
not meet them all. A game that wants them documented declares ``ACTION_SCHEMA``.) So a game that is
registered is documented, with no schema to keep in step by hand; and a test checks
the schema against fresh playouts.
"""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any

from games.base import GameRules, InvalidOptions
from games.table import Table

#: Random playouts per seat count that the inference reads, and the steps they may take in
#: all: the document is built when first asked for, and a random game of some games is long.
PLAYOUTS = 2
STEPS = 600
#: Actions of one type kept for the merge: their fields and types show in the first few hundred.
MAX_SAMPLES = 400


def action_schema(rules: GameRules) -> dict[str, Any]:
    """A ``oneOf`` with one object schema per action type of the game."""
    declared = getattr(rules, "ACTION_SCHEMA", None)
    if declared is not None:
        return declared
    samples: dict[str, list[dict[str, Any]]] = defaultdict(list)
    seat_counts = range(rules.MIN_SEATS, rules.MAX_SEATS + 1)
    steps = max(20, STEPS // (len(seat_counts) * PLAYOUTS))
    for seats in seat_counts:
        for seed in range(PLAYOUTS):
            _sample(rules, seats, seed, steps, samples)
    branches = []
    for kind in sorted(samples):
        branch = _merge(samples[kind], top=True)
        branch["title"] = kind
        branch["properties"]["type"] = {"type": "string", "enum": [kind]}
        branches.append(branch)
    # A rare action no playout met is still an action: named by its type, described in the README.
    branches.append({"title": "other", "type": "object", "required": ["type"],
                     "description": "An action type the sampled playouts did not meet; see the game's README",
                     "properties": {"type": {"type": "string", "minLength": 1, "maxLength": 64,
                                             "not": {"enum": sorted(samples)}}}})
    return {"oneOf": branches}


def _sample(rules: GameRules, seats: int, seed: int, steps: int, samples: dict[str, list[dict[str, Any]]]) -> None:
    """Random play for at most ``steps`` steps, keeping every action an awaited seat could post."""
    table = Table(rules, seats, getattr(rules, "PLAYOUT_OPTIONS", {}), seed=f"shapes-{seats}-{seed}")
    table.settle()
    rng = random.Random(seed)
    for _ in range(steps):
        if table.outcome is not None:
            return
        legal = {seat: rules.legal_actions(table.current, seat) for seat in sorted(table.awaiting())}
        for actions in legal.values():
            for action in actions:
                kept = samples[action["type"]]
                if len(kept) < MAX_SAMPLES:
                    kept.append(action)
        seat = rng.choice([seat for seat, actions in legal.items() if actions])
        table.act(seat, rng.choice(legal[seat]))


def options_schema(rules: GameRules) -> dict[str, Any]:
    """The options a game takes: its own declaration (``OPTIONS_SCHEMA``, the one its strict
    check reads) with each default, or else their types as its defaults show them."""
    defaults = rules.validate_options({}, rules.MIN_SEATS)
    declared = getattr(rules, "OPTIONS_SCHEMA", None)
    if declared is not None:
        return {**declared, "properties": {key: {**schema, **({"default": defaults[key]} if key in defaults else {})}
                                           for key, schema in declared["properties"].items()}}
    properties = {}
    for key, value in defaults.items():
        if value is None:  # a default that means "none given": its type is the game README's to say
            properties[key] = {"description": "null: the game's default; see the game's README"}
        else:  # null is allowed only where the rules take it (for the default)
            properties[key] = {"type": _json_type(value), "default": value,
                               **({"nullable": True} if accepts_null(rules, key) else {})}
    return {"type": "object", "properties": properties, "additionalProperties": False}


def accepts_null(rules: GameRules, key: str) -> bool:
    """Whether the game's rules take ``null`` for option ``key``: the document says no more than they do."""
    try:
        rules.validate_options({key: None}, rules.MIN_SEATS)
    except InvalidOptions:
        return False
    return True


def _merge(values: list[Any], top: bool = False) -> dict[str, Any]:
    """One schema that every value in ``values`` matches.

    Objects list the fields seen, with their types; only an action's own fields that
    every sample has are required. Other fields stay allowed: an optional field or a
    map keyed by the game's data (figures, regions, cards) may show keys no sample had.
    """
    objects = [v for v in values if isinstance(v, dict)]
    if objects and len(objects) == len(values):
        keys = sorted({k for o in objects for k in o})
        schema = {"type": "object", "properties": {k: _merge([o[k] for o in objects if k in o]) for k in keys}}
        if top:
            schema["required"] = [k for k in keys if all(k in o for o in objects)]
        return schema
    lists = [v for v in values if isinstance(v, list)]
    if lists and len(lists) == len(values):
        items = [item for lst in lists for item in lst]
        return {"type": "array", **({"items": _merge(items)} if items else {})}
    return _type_of(values)


def _type_of(values: list[Any]) -> dict[str, Any]:
    """OpenAPI 3.0 spelling: one ``type``, ``nullable`` for null, ``anyOf`` for several types."""
    nullable = any(v is None for v in values)
    present = [v for v in values if v is not None]
    types = sorted({_json_type(v) for v in present})
    if not types:
        return {"nullable": True}
    if len(types) > 1:
        schema: dict[str, Any] = {"anyOf": [{"type": t} for t in types]}
    else:
        schema = {"type": types[0]}
        if types == ["integer"] and min(present) >= 0:
            schema["minimum"] = 0
    if nullable:
        schema["nullable"] = True
    return schema


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"
