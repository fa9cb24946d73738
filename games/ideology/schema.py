"""The JSON Schema of every Ideology action (``ACTION_SCHEMA``): the API reference's and the strict
check's (``CHECK``), from this one declaration. README.md, Part 3, "Actions", says what each does."""

from __future__ import annotations

from typing import Any

from games.action_schema import (
    ActionCheck,
    OptionsCheck,
    action,
    actions,
    any_of,
    array,
    boolean,
    free_object,
    integer,
    mapping,
    nullable,
    record,
    string,
)

from .board import STATUSES
from .components import INFLUENCE_TYPES

REGION = string(description="a region id on the map", code="unknown_region")
INFLUENCE = string(list(INFLUENCE_TYPES), "an influence type", code="unknown_influence")
SEAT = integer(0, 5, "a seat number", code="bad_target")
COUNTS = mapping(integer(0, description="how many cards of this type", code="bad_counts"), list(INFLUENCE_TYPES),
                 "influence type to a count of cards", code="bad_counts")

ACTION_SCHEMA: dict[str, Any] = actions(
    action("discard", {"discard": COUNTS}, ("discard",), "Resources: discard exactly the owed count"),
    action("exchange", {"discard": COUNTS}, ("discard",), "Exchange up to Trade Power cards ({} keeps the hand)"),
    action("develop", {"region": REGION, "influence": INFLUENCE}, ("region", "influence"),
           "Development: add influence in a region you control"),
    action("buy", {"advancement": string(description="an advancement id", code="unknown_advancement")},
           ("advancement",), "Development: buy an advancement"),
    action("done", description="End your development"),
    action("place", {"region": REGION, "influence": INFLUENCE}, ("region", "influence"),
           "Foreign affairs: place an influence card"),
    action("remove", {"region": REGION, "influence": INFLUENCE}, ("region", "influence"),
           "Foreign affairs: remove one of your cards"),
    action("pass", description="Foreign affairs or conflict: pass"),
    action("attack", {"region": REGION, "influence": INFLUENCE, "target": SEAT}, ("region", "influence", "target"),
           "Conflict: attack a seat in a region"),
    action("wmd", {"region": REGION, "target": SEAT}, ("region", "target"),
           "Conflict: use a weapon of mass destruction (needs war with the target)"),
    action("concede", description="Defend: concede the conflict"),
    action("cancel", description="Defend: cancel with a card of the conflict's type"),
    action("continue", description="Press: pay a card to continue the conflict"),
    action("stop", description="Press: stop the conflict"),
    action("offer", {"offers": mapping(string(list(STATUSES), "peace, neutral or war", code="bad_status"),
                                       description="ideology id to an offer; a missing one is neutral",
                                       code="bad_offers")},
           ("offers",), "Diplomacy: seal your offers to the other ideologies"),
)

#: The strict check ``decide`` runs first; its ``x-code`` keep the codes the rules gave a bad value.
CHECK = ActionCheck(ACTION_SCHEMA)
REQUIRED_FIELDS: dict[str, tuple[str, ...]] = {kind: fields for kind, fields in CHECK.required.items() if fields}

#: Ideology's options (README, "Options"), checked strictly first by ``validate_options``; the
#: contents of a replacement ``map`` are the components' to check.
OPTIONS_SCHEMA: dict[str, Any] = record({
    "map": nullable(any_of(string(), free_object(), description="'reconstructed', or replacement sections",
                           code="bad_map")),
    "ideologies": nullable(array(string(), "one ideology id per seat, in seat order", code="bad_ideologies")),
    "decks": nullable(mapping(array(string()), description="ideology id to its deck, top first",
                              code="bad_decks")),
    "regions": nullable(array(string(), "the region pile, top first", code="bad_regions")),
    "level2_defends": boolean(),
    "max_turns": nullable(integer()),
    "stall_turns": nullable(integer()),
})
OPTIONS_CHECK = OptionsCheck(OPTIONS_SCHEMA)
