"""The JSON Schema of every Pax Porfiriana action, for the API reference (``ACTION_SCHEMA``).

Declared rather than inferred from playouts (with the builders of :mod:`games.action_schema`,
which also compile it into the strict check ``decide`` runs first): several actions take a
field in more than one shape (a black card's ``target`` is a seat or a card id; a
speculation's ``to`` is ``"supply"`` or an object), which a client author needs spelled out. README.md, part 4,
says what each action does.
"""

from __future__ import annotations

from typing import Any

from games.action_schema import (
    CODE,
    ActionCheck,
    OptionsCheck,
    action,
    actions,
    any_of,
    array,
    boolean,
    free_object,
    integer,
    nullable,
    record,
    string,
)

from .cards import PRESTIGE

CARD: dict[str, Any] = {"type": "string", "minLength": 1, "maxLength": 48, "description": "a card id"}
SEAT: dict[str, Any] = {"type": "integer", "minimum": 0, "maximum": 5}


_action = action


def _one_key(**options: dict[str, Any]) -> dict[str, Any]:
    return any_of(*(record({key: schema}, (key,)) for key, schema in options.items()))


_SOURCE = {"anyOf": [{"type": "string", "enum": ["supply"]}, _one_key(market=CARD, income=CARD, bribe=CARD),
                     record({"connection": CARD, "oval": integer(0, 1)}, ("connection", "oval"))], CODE: "bad_from"}
_TARGET = {"anyOf": [{"type": "string", "enum": ["supply"]}, _one_key(market=CARD, income=CARD, bribe=CARD)],
           CODE: "bad_to"}

ACTION_SCHEMA: dict[str, Any] = actions(
    _action("play", {"card": CARD, "to": {"type": "string", "description": "troops: an enterprise id or 'hacendado'"},
                     "target": {"anyOf": [SEAT, CARD], "description": "orange: an enterprise; black: a seat, "
                                                                      "a partner or a troop"},
                     "scapegoat": {"type": "boolean"}}, ("card",), "Play a card from your hand"),
    _action("buy", {"card": CARD, "side": {"type": "string", "enum": ["event", "status_quo"],
                                           "description": "headlines and topples only"}}, ("card",),
            "Buy a market card"),
    _action("buy_public", {"card": CARD, "face": {"type": "integer", "enum": [0, 1]}}, ("card", "face"),
            "Buy a public card onto your tableau"),
    _action("sell", {"card": CARD}, ("card",), "Sell a card from your hand or in play"),
    _action("redeploy", {"card": CARD, "to": {"type": "string", "description": "an enterprise id or 'hacendado'"}},
            ("card", "to"), "Move one of your troops (to its own place: in place)"),
    _action("buy_land", {"enterprise": CARD}, ("enterprise",), "Two actions: one more income cube on a ranch"),
    _action("upgrade", {"enterprise": CARD, "oval": {"type": "integer", "enum": [0, 1]}}, ("enterprise", "oval"),
            "Build a connection"),
    _action("police", {"enterprise": CARD, "jail": {"type": "boolean", "enum": [True]}}, (),
            "Remove one unrest from your enterprise, or leave jail"),
    _action("speculate", {"card": CARD, "to": _TARGET, "from": _SOURCE}, (),
            "Place or move a cube: 'card' (a market card) or 'to'; 'from' defaults to the supply"),
    _action("end_turn", {}, (), "End the action phase (the default on a missed deadline)"),
    _action("conflict", {"faction": {"type": "string", "enum": ["blue", "green", "white", "red"]}}, ("faction",),
            "A conflict: the faction whose cards you discard"),
    _action("manifesto", {"side": {"type": "integer", "enum": [0, 1]}}, ("side",),
            "Topple or retreat: turn your hacendado to one orientation"),
    _action("fraud", {"card": CARD, "prestige": {"type": "string", "enum": list(PRESTIGE)}}, ("card",),
            "Topple: discard a card that acts during toppling"),
    _action("assassinate", {"card": CARD, "target": SEAT}, ("card", "target"),
            "Topple: play an Assassination on a turned hacendado"),
    _action("done", {}, (), "Topple or retreat: end your part of the showdown, or let the troop go home (the default)"),
    _action("retreat", {"to": {"type": "string", "enum": ["army", "discard"]}}, ("to",),
            "Retreat from battle (optional rule): your beaten troop joins your private army, or is discarded"),
        _action("discard_order", {"first": CARD}, ("first",), "Which free-column headline is discarded first"),
    _action("upkeep", {"discard": {"type": "array", "items": CARD}}, (),
            "Depression: the cards you will not pay for"),
)

#: The strict check ``decide`` runs first (``games.action_schema``): a missing field
#: (``missing_field``: the gap is never read as a choice), a field the type does not take, or a
#: value of the wrong JSON type (``bad_field``: ``side: 0.0`` is not the integer 0) is refused.
CHECK = ActionCheck(ACTION_SCHEMA)
#: The fields each action type must carry, as the schema above marks them.
REQUIRED_FIELDS: dict[str, tuple[str, ...]] = CHECK.required

#: Pax Porfiriana's options (README, "Options"), checked strictly first by ``validate_options``:
#: null is the default for each; an inline card set's contents are the card set's to check.
OPTIONS_SCHEMA: dict[str, Any] = record({
    "card_set": nullable(string(description="a shipped card set's name", code="bad_card_set")),
    "cards": nullable(any_of(free_object(), array(free_object()), description="an inline card set",
                             code="bad_card_set")),
    "deck": nullable(array(string(), "a scenario's deck, top first", code="bad_deck")),
    "first_seat": nullable(integer()),
    "hacendados": nullable(array(string(), "one hacendado id per seat")),
    "max_turns": nullable(integer()),
    "battle_retreat": nullable(boolean()),
    "quick_setup": nullable(boolean()),
})
OPTIONS_CHECK = OptionsCheck(OPTIONS_SCHEMA)
