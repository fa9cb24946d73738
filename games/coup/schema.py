"""The JSON Schema of every Coup action (``ACTION_SCHEMA``): the API reference's and the strict
check's (``CHECK``), from this one declaration. README.md, "Actions", says what each does."""

from __future__ import annotations

from typing import Any

from games.action_schema import ActionCheck, OptionsCheck, action, actions, array, integer, nullable, record, string

from .components import CHARACTERS

SEAT = integer(0, 5, "a seat number", code="bad_target")
CARD = string(list(CHARACTERS), "a character")

ACTION_SCHEMA: dict[str, Any] = actions(
    action("income", description="Take one coin (turn)"),
    action("foreign_aid", description="Take two coins; a Duke may block (turn)"),
    action("tax", description="Claim the Duke: take three coins (turn)"),
    action("exchange", description="Claim the Ambassador: draw two cards, then keep (turn)"),
    action("steal", {"target": SEAT}, ("target",), "Claim the Captain: take two coins from a seat (turn)"),
    action("assassinate", {"target": SEAT}, ("target",), "Claim the Assassin: pay three, a seat loses an influence"),
    action("coup", {"target": SEAT}, ("target",), "Pay seven: a seat loses an influence (turn)"),
    action("pass", description="Let the claim on the table stand (react)"),
    action("challenge", description="Challenge the claim on the table (react)"),
    action("block", {"card": CARD}, ("card",), "Block with a character you claim (react)"),
    action("reveal", {"card": CARD}, ("card",), "The influence you lose (reveal)"),
    action("keep", {"cards": array(CARD, code="bad_keep")}, ("cards",), "The cards you keep after an exchange (keep)"),
)

#: The strict check ``decide`` runs first; a missing ``target`` keeps its own code.
CHECK = ActionCheck(ACTION_SCHEMA, {"target": "missing_target"})
REQUIRED_FIELDS: dict[str, tuple[str, ...]] = {kind: fields for kind, fields in CHECK.required.items() if fields}

#: Coup's one option (README, "Options"), checked strictly first by ``validate_options``.
OPTIONS_SCHEMA: dict[str, Any] = record({
    "deck": nullable(array(CARD, "a scenario's court deck, top first: every card once", code="bad_deck")),
})
OPTIONS_CHECK = OptionsCheck(OPTIONS_SCHEMA)
