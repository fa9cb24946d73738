"""The JSON Schema of every Revolution! action (``ACTION_SCHEMA``): the API reference's and the
strict check's (``CHECK``), from this one declaration. README.md, "Actions", says what each does."""

from __future__ import annotations

from typing import Any

from games.action_schema import ActionCheck, OptionsCheck, action, actions, boolean, integer, mapping, record, string

from .components import AREA_IDS, CHARACTER_IDS, KINDS

AREA = string(list(AREA_IDS), "an area id", code="unknown_area")
OWNER = integer(0, 5, "the seat whose cube it is", code="bad_owner")
CUBE = record({"area": AREA, "owner": OWNER}, ("area", "owner"), "a cube on the board", code="unknown_area")

ACTION_SCHEMA: dict[str, Any] = actions(
    action("bid", {"bids": mapping(mapping(integer(0, description="tokens of this kind", code="bad_count"),
                                           list(KINDS), code="bad_bid"),
                                   list(CHARACTER_IDS), "character id to the tokens bid on it", code="bad_bid")},
           ("bids",), "Seal this round's bid: every token in hand, on at most six characters"),
    action("forfeit", description="Sit the round out: the hand goes to the bank (the timeout default)"),
    action("spy", {"area": AREA, "owner": OWNER}, ("area", "owner"),
           "The Spy's reward: replace a rival's cube with one of yours"),
    action("apothecary", {"first": CUBE, "second": CUBE}, ("first", "second"),
           "The Apothecary's reward: swap two cubes of different owners in different areas"),
    action("skip", description="Decline the Spy's or the Apothecary's reward"),
)

#: The strict check ``decide`` runs first; its ``x-code`` keep the codes the rules gave a bad value.
CHECK = ActionCheck(ACTION_SCHEMA)
REQUIRED_FIELDS: dict[str, tuple[str, ...]] = {kind: fields for kind, fields in CHECK.required.items() if fields}

#: Revolution!'s options (README, "Options"), checked strictly first by ``validate_options``.
OPTIONS_SCHEMA: dict[str, Any] = record({
    "refund_losing_bids": boolean(), "area_control_bonus": boolean(), "german_edition": boolean(),
    "max_rounds": integer(description="a cap on rounds"),
})
OPTIONS_CHECK = OptionsCheck(OPTIONS_SCHEMA)
