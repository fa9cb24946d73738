"""Ideology's components as data: regions, ideologies with their decks, advancements.

The shipped files in ``data/`` are the default. A game may replace any of their sections
with ``options.map`` (an object with ``regions``, ``ideologies``, ``two_seat_opponents``
or ``advancements``), so better data about the printed tiles needs no code change.
Whatever the source, :func:`check_components` validates the whole set before a game is
created; each refusal names the region, ideology or card and the field at fault, and
becomes a 422 at game creation.

The rules read advancements only through their data fields: ``cost`` (``cards`` by type
or ``advancements`` to hand back), ``points`` (the tie-break) and ``effect``
(``defends`` a conflict type, ``no_distance_penalty`` for a type, ``global_influence``
while held, ``use`` = ``destroy_influence`` for a weapon spent in the Conflict phase).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any, TypeGuard

from games.base import InvalidOptions, clone_json

INFLUENCE_TYPES: tuple[str, ...] = ("military", "economic", "cultural")
DECK_SIZE = 45
START_CARDS_PER_TYPE = 3
START_LEVEL = 3
ABILITIES = frozenset({"global_colonization"})
EFFECTS = frozenset({"defends", "no_distance_penalty", "global_influence", "use"})
USES = frozenset({"destroy_influence"})
SECTIONS = ("regions", "ideologies", "two_seat_opponents", "advancements")
DEFAULT_MAP = "reconstructed"


def _read(name: str) -> dict[str, Any]:
    text = resources.files(__package__).joinpath("data", name).read_text(encoding="utf-8")
    return json.loads(text)


@cache
def _shipped() -> dict[str, Any]:
    regions = _read("regions.json")
    ideologies = _read("ideologies.json")
    advancements = _read("advancements.json")
    return {
        "name": regions["name"],
        "reconstructed": bool(regions.get("reconstructed", False)),
        "notes": regions.get("notes", ""),
        "regions": regions["regions"],
        "ideologies": ideologies["ideologies"],
        "two_seat_opponents": ideologies["two_seat_opponents"],
        "advancements": advancements["advancements"],
    }


def shipped() -> dict[str, Any]:
    """A fresh copy of the default component set (the shipped data files)."""
    return clone_json(_shipped())


def resolve_map(value: Any) -> dict[str, Any]:
    """The component set that ``options.map`` names: the shipped one, or it with sections replaced."""
    if value is None or value == DEFAULT_MAP:
        return default_components()
    if isinstance(value, str):
        raise InvalidOptions("bad_map", f"map: the only shipped map is {DEFAULT_MAP!r}; "
                                        "pass an object with replacement sections instead")
    if not isinstance(value, Mapping):
        raise InvalidOptions("bad_map", f"map must be {DEFAULT_MAP!r} or an object with any of {', '.join(SECTIONS)}")
    unknown = sorted(str(key) for key in value if key not in (*SECTIONS, "name", "notes"))
    if unknown:
        raise InvalidOptions("bad_map", f"map: unknown field(s) {', '.join(unknown)}; "
                                        f"known: name, notes, {', '.join(SECTIONS)}")
    merged = shipped()
    for section in SECTIONS:
        if section in value:
            merged[section] = clone_json(value[section])
    if "regions" in value:
        merged["reconstructed"] = False
    merged["name"] = value.get("name", "custom")
    merged["notes"] = value.get("notes", "")
    if not isinstance(merged["name"], str) or not isinstance(merged["notes"], str):
        raise InvalidOptions("bad_map", "map: name and notes must be strings")
    return check_components(merged)


def _fail(where: str, field: str, problem: str) -> InvalidOptions:
    return InvalidOptions("bad_map", f"{where}, field '{field}': {problem}")


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _ident(value: Any) -> TypeGuard[str]:
    return isinstance(value, str) and 0 < len(value) <= 40 and value.replace("_", "").isalnum()


def _check_regions(regions: Any) -> dict[str, dict[str, Any]]:
    if not isinstance(regions, list) or not regions:
        raise InvalidOptions("bad_map", "map field 'regions' must be a non-empty list of region objects")
    by_id: dict[str, dict[str, Any]] = {}
    for index, region in enumerate(regions):
        where = f"region #{index + 1}"
        if not isinstance(region, Mapping):
            raise InvalidOptions("bad_map", f"{where} must be an object with id, name, level, neighbours")
        rid = region.get("id")
        if not _ident(rid):
            raise _fail(where, "id", "must be a short lowercase identifier")
        where = f"region '{rid}'"
        if rid in by_id:
            raise _fail(where, "id", "appears twice")
        extra = sorted(set(region) - {"id", "name", "level", "neighbours"})
        if extra:
            raise _fail(where, extra[0], "is not a region field (id, name, level, neighbours)")
        if not isinstance(region.get("name"), str) or not region["name"]:
            raise _fail(where, "name", "must be a non-empty string")
        level = region.get("level")
        if not _is_int(level) or not 1 <= level <= 3:
            raise _fail(where, "level", f"must be 1, 2 or 3, not {level!r}")
        neighbours = region.get("neighbours")
        if not isinstance(neighbours, list) or not all(isinstance(n, str) for n in neighbours):
            raise _fail(where, "neighbours", "must be a list of region ids")
        if len(set(neighbours)) != len(neighbours):
            raise _fail(where, "neighbours", "lists a region twice")
        if rid in neighbours:
            raise _fail(where, "neighbours", "lists the region itself")
        by_id[rid] = {"id": rid, "name": region["name"], "level": level, "neighbours": list(neighbours)}
    for rid, region in by_id.items():
        for other in region["neighbours"]:
            if other not in by_id:
                raise _fail(f"region '{rid}'", "neighbours", f"names unknown region '{other}'")
            if rid not in by_id[other]["neighbours"]:
                raise _fail(f"region '{rid}'", "neighbours",
                            f"lists '{other}' but region '{other}' does not list '{rid}' "
                            "(neighbours must be symmetric)")
    return by_id


def _check_advancements(advancements: Any) -> dict[str, dict[str, Any]]:
    if not isinstance(advancements, list) or not advancements:
        raise InvalidOptions("bad_map", "map field 'advancements' must be a non-empty list of advancement cards")
    by_id: dict[str, dict[str, Any]] = {}
    for index, card in enumerate(advancements):
        where = f"advancement #{index + 1}"
        if not isinstance(card, Mapping):
            raise InvalidOptions("bad_map", f"{where} must be an object")
        aid = card.get("id")
        if not _ident(aid):
            raise _fail(where, "id", "must be a short lowercase identifier")
        where = f"advancement '{aid}'"
        if aid in by_id:
            raise _fail(where, "id", "appears twice")
        extra = sorted(set(card) - {"id", "name", "level", "copies", "points", "cost", "effect"})
        if extra:
            raise _fail(where, extra[0], "is not an advancement field")
        if not isinstance(card.get("name"), str) or not card["name"]:
            raise _fail(where, "name", "must be a non-empty string")
        for field, low, high in (("level", 1, 3), ("copies", 0, 100), ("points", 0, 10)):
            value = card.get(field)
            if not _is_int(value) or not low <= value <= high:
                raise _fail(where, field, f"must be a whole number from {low} to {high}, not {value!r}")
        cost = card.get("cost")
        if not isinstance(cost, Mapping) or len(cost) != 1 or not set(cost) <= {"cards", "advancements"}:
            raise _fail(where, "cost", "must be {\"cards\": {type: count}} or {\"advancements\": [ids]}")
        if "cards" in cost:
            cards = cost["cards"]
            if (not isinstance(cards, Mapping) or not cards or not set(cards) <= set(INFLUENCE_TYPES)
                    or not all(_is_int(n) and 1 <= n <= 10 for n in cards.values())):
                raise _fail(where, "cost", f"cards must map influence types ({', '.join(INFLUENCE_TYPES)}) "
                                           "to counts from 1 to 10")
        else:
            paid = cost["advancements"]
            if not isinstance(paid, list) or not paid or not all(isinstance(p, str) for p in paid):
                raise _fail(where, "cost", "advancements must be a non-empty list of advancement ids")
        effect = card.get("effect")
        if not isinstance(effect, Mapping):
            raise _fail(where, "effect", "must be an object")
        for key, value in effect.items():
            if key not in EFFECTS:
                raise _fail(where, "effect", f"unknown effect '{key}'; known: {', '.join(sorted(EFFECTS))}")
            if key in ("defends", "no_distance_penalty") and value not in INFLUENCE_TYPES:
                raise _fail(where, "effect", f"{key} must name an influence type, not {value!r}")
            if key == "global_influence" and (not _is_int(value) or not 0 <= value <= 5):
                raise _fail(where, "effect", "global_influence must be a whole number from 0 to 5")
            if key == "use" and value not in USES:
                raise _fail(where, "effect", f"use must be one of {', '.join(sorted(USES))}")
        by_id[aid] = {"id": aid, "name": card["name"], "level": card["level"], "copies": card["copies"],
                      "points": card["points"], "cost": clone_json(dict(cost)), "effect": clone_json(dict(effect))}
    for aid, card in by_id.items():
        for paid in card["cost"].get("advancements", []):
            if paid not in by_id:
                raise _fail(f"advancement '{aid}'", "cost", f"names unknown advancement '{paid}'")
            if by_id[paid]["level"] >= card["level"]:
                raise _fail(f"advancement '{aid}'", "cost", f"is paid with '{paid}', which is not of a lower level")
    return by_id


def _check_ideologies(ideologies: Any, regions: Mapping[str, Any], advancements: Mapping[str, Any],
                      opponents: Any) -> dict[str, dict[str, Any]]:
    if not isinstance(ideologies, list) or not 2 <= len(ideologies) <= 5:
        raise InvalidOptions("bad_map", "map field 'ideologies' must be a list of 2 to 5 ideologies")
    by_id: dict[str, dict[str, Any]] = {}
    starts: dict[str, str] = {}
    places: dict[int, str] = {}
    for index, ideology in enumerate(ideologies):
        where = f"ideology #{index + 1}"
        if not isinstance(ideology, Mapping):
            raise InvalidOptions("bad_map", f"{where} must be an object")
        iid = ideology.get("id")
        if not _ident(iid):
            raise _fail(where, "id", "must be a short lowercase identifier")
        where = f"ideology '{iid}'"
        if iid in by_id:
            raise _fail(where, "id", "appears twice")
        extra = sorted(set(ideology) - {"id", "name", "start_region", "start_advancement", "turn_order", "deck",
                                        "abilities"})
        if extra:
            raise _fail(where, extra[0], "is not an ideology field")
        if not isinstance(ideology.get("name"), str) or not ideology["name"]:
            raise _fail(where, "name", "must be a non-empty string")
        start = ideology.get("start_region")
        if not isinstance(start, str) or start not in regions:
            raise _fail(where, "start_region", f"names unknown region {start!r}")
        if start in starts:
            raise _fail(where, "start_region", f"'{start}' is already the start of '{starts[start]}'")
        if regions[start]["level"] != START_LEVEL:
            raise _fail(where, "start_region", f"'{start}' must be a level-{START_LEVEL} region")
        starts[start] = iid
        advancement = ideology.get("start_advancement")
        if advancement is not None and advancement not in advancements:
            raise _fail(where, "start_advancement", f"names unknown advancement {advancement!r}")
        place = ideology.get("turn_order")
        if not _is_int(place) or place < 1:
            raise _fail(where, "turn_order", "must be a whole number from 1")
        if place in places:
            raise _fail(where, "turn_order", f"{place} is already the place of '{places[place]}'")
        places[place] = iid
        deck = ideology.get("deck")
        if not isinstance(deck, Mapping) or set(deck) != set(INFLUENCE_TYPES):
            raise _fail(where, "deck", f"must count cards of each type: {', '.join(INFLUENCE_TYPES)}")
        for kind in INFLUENCE_TYPES:
            if not _is_int(deck[kind]) or deck[kind] < START_CARDS_PER_TYPE:
                raise _fail(where, "deck", f"{kind} must be a whole number of at least {START_CARDS_PER_TYPE} "
                                           "(the cards that start beside the start region)")
        total = sum(deck.values())
        if total != DECK_SIZE:
            raise _fail(where, "deck", f"holds {total} influence cards, not {DECK_SIZE}")
        abilities = ideology.get("abilities", [])
        if not isinstance(abilities, list) or not set(abilities) <= ABILITIES:
            raise _fail(where, "abilities", f"must be a list of known abilities: {', '.join(sorted(ABILITIES))}")
        by_id[iid] = {"id": iid, "name": ideology["name"], "start_region": start, "start_advancement": advancement,
                      "turn_order": place, "deck": {k: deck[k] for k in INFLUENCE_TYPES},
                      "abilities": sorted(abilities)}
    if not isinstance(opponents, Mapping):
        raise InvalidOptions("bad_map", "map field 'two_seat_opponents' must map each ideology to its opponent")
    for iid in by_id:
        other = opponents.get(iid)
        if other not in by_id or other == iid:
            raise _fail(f"ideology '{iid}'", "two_seat_opponents", f"needs another known ideology, not {other!r}")
    extra = sorted(set(opponents) - set(by_id))
    if extra:
        raise _fail(f"ideology '{extra[0]}'", "two_seat_opponents", "is not a known ideology")
    return by_id


def check_components(data: Mapping[str, Any]) -> dict[str, Any]:
    """Validate a whole component set; return it normalised (lists in file order)."""
    regions = _check_regions(data.get("regions"))
    advancements = _check_advancements(data.get("advancements"))
    ideologies = _check_ideologies(data.get("ideologies"), regions, advancements, data.get("two_seat_opponents"))
    return {
        "name": data.get("name", "custom"),
        "reconstructed": bool(data.get("reconstructed", False)),
        "notes": data.get("notes", ""),
        "regions": list(regions.values()),
        "ideologies": sorted(ideologies.values(), key=lambda i: i["turn_order"]),
        "two_seat_opponents": {iid: data["two_seat_opponents"][iid] for iid in ideologies},
        "advancements": list(advancements.values()),
    }


@cache
def default_components() -> dict[str, Any]:
    """The validated shipped set; the caller must not change it (copy with clone_json first)."""
    return check_components(_shipped())
