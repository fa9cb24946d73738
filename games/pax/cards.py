"""The Pax Porfiriana card file format: marshmallow schemas, loading and set rules.

A card set is JSON: ``{"name": ..., "title": ..., "cards": [...]}``. Every card has an
``id``, a ``name`` and a ``category``; the other fields depend on the category. Effects
and abilities are small records drawn from a fixed vocabulary of named primitives (see
README.md, "The card file format"), never code. A set is validated card by card, and an
error names the card, its index and the field, so whoever wrote the file can fix it.

Sets come from the package (``data/<name>.json``, the starter set) or from a folder the
operator gives the server in ``INTRIGUE_PAX_CARD_SETS``; options name a set, never a path.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

DISTRICTS = ("sonora", "chihuahua", "america")
MEXICO = ("sonora", "chihuahua")
CONNECTIONS = ("boot", "mule", "rail", "ship")
FACTIONS = ("blue", "green", "white", "red")
PRESTIGE = ("loyalty", "outrage", "command", "revolution")
REGIMES = ("pax", "us_intervention", "martial_law", "anarchy")
INCOME_KINDS = ("fixed", "upgradable", "economy", "mine")
ICONS = ("bull", "bear")
DECK_CATEGORIES = ("enterprise", "partner", "troop", "black", "orange", "headline", "topple")
CATEGORIES = (*DECK_CATEGORIES, "public", "hacendado", "regime")
ACTION_KINDS = ("play", "buy", "buy_public", "sell", "redeploy", "buy_land", "upgrade", "police", "speculate")
CARD_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,47}$")
SET_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,47}$")
#: Counts a set must have of the cards outside the deck.
EXACT_COUNTS = {"topple": 4, "public": 2, "regime": 4}
MIN_HACENDADOS = 2
ENV_FOLDER = "INTRIGUE_PAX_CARD_SETS"


class CardSetError(ValueError):
    """A card set that does not follow the format; the message names the card and field."""


class WholeNumber(fields.Integer):
    """A count or a price: a JSON whole number only (never 1.5, 3.0, "3" or true), within bounds."""

    default_error_messages = {"invalid": "must be a whole number (not a fraction, text or true/false)"}

    def __init__(self, low: int = 0, high: int = 99, **kwargs: Any) -> None:
        super().__init__(strict=True, validate=validate.Range(min=low, max=high), **kwargs)


class Flag(fields.Boolean):
    """A yes/no field: JSON true or false only (never "true", 1 or "yes")."""

    default_error_messages = {"invalid": "must be true or false"}

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid")
        return value


class EffectSchema(Schema):
    """One effect primitive. Which kinds a category may use is checked by the card schema."""

    kind = fields.String(required=True, validate=validate.OneOf(
        ("regime_change", "unrest_others", "unrest_district", "conflict", "gain")))
    to = fields.String(validate=validate.OneOf(REGIMES))
    amount = WholeNumber(1, 20)
    district = fields.String(validate=validate.OneOf(DISTRICTS))
    factions = fields.List(fields.String(validate=validate.OneOf(FACTIONS)), validate=validate.Length(equal=2))
    faction = fields.String(validate=validate.OneOf(FACTIONS))

    @validates_schema
    def _complete(self, data: Mapping[str, Any], **_: Any) -> None:
        needs = {"regime_change": ("to",), "unrest_others": ("amount",), "unrest_district": ("district", "amount"),
                 "conflict": ("factions",), "gain": ("faction", "amount")}[data["kind"]]
        for name in needs:
            if name not in data:
                raise ValidationError(f"a {data['kind']} effect needs {name!r}", name)
        extra = set(data) - {"kind", *needs}
        if extra:
            raise ValidationError(f"a {data['kind']} effect takes only {', '.join(needs)}", sorted(extra)[0])
        if data["kind"] == "conflict" and data["factions"][0] == data["factions"][1]:
            raise ValidationError("a conflict is between two different factions", "factions")


class AbilitySchema(Schema):
    """One ability of a partner, a public card's face or a loyalist hacendado."""

    kind = fields.String(required=True, validate=validate.OneOf(
        ("discount", "bonus_action", "firepower", "topple_fraud")))
    amount = WholeNumber(1, 20)
    district = fields.String(validate=validate.OneOf(DISTRICTS))
    action = fields.String(validate=validate.OneOf(ACTION_KINDS))
    prestige = fields.String(validate=validate.OneOf((*PRESTIGE, "any")))

    @validates_schema
    def _complete(self, data: Mapping[str, Any], **_: Any) -> None:
        needs = {"discount": ("amount",), "bonus_action": ("action",), "firepower": ("amount",),
                 "topple_fraud": ("prestige", "amount")}[data["kind"]]
        allowed = {"discount": ("amount", "district")}.get(data["kind"], needs)
        for name in needs:
            if name not in data:
                raise ValidationError(f"a {data['kind']} ability needs {name!r}", name)
        extra = set(data) - {"kind", *allowed}
        if extra:
            raise ValidationError(f"a {data['kind']} ability does not take this field", sorted(extra)[0])


class OvalSchema(Schema):
    connection = fields.String(required=True, validate=validate.OneOf(("mule", "rail", "ship")))
    cost = WholeNumber(required=True)
    trunk = Flag(load_default=False)


class IncomeSchema(Schema):
    kind = fields.String(required=True, validate=validate.OneOf(INCOME_KINDS))
    value = WholeNumber(0, 9)

    @validates_schema
    def _value(self, data: Mapping[str, Any], **_: Any) -> None:
        if data["kind"] in ("fixed", "upgradable") and "value" not in data:
            raise ValidationError(f"{data['kind']} income needs a value", "value")
        if data["kind"] in ("economy", "mine") and "value" in data:
            raise ValidationError(f"{data['kind']} income comes from the regime; give no value", "value")


class TransportSchema(Schema):
    boot = WholeNumber(required=True)
    mule = WholeNumber(required=True)
    rail = WholeNumber(required=True)
    #: The fare by ship; a troop card without one sails for its rail fare.
    ship = WholeNumber()


class CardSchema(Schema):
    """Fields every card has."""

    id = fields.String(required=True, validate=validate.Regexp(CARD_ID, error="ids are lower-case letters, digits, "
                                                                               "'_' and '-', up to 48"))
    name = fields.String(required=True, validate=validate.Length(min=1, max=80))
    category = fields.String(required=True, validate=validate.OneOf(CATEGORIES))
    text = fields.String(validate=validate.Length(max=400))
    prestige = fields.List(fields.String(validate=validate.OneOf(PRESTIGE)), load_default=list)

    #: Effect kinds this category may carry (empty: none).
    EFFECTS: tuple[str, ...] = ()

    @validates_schema
    def _effects(self, data: Mapping[str, Any], **_: Any) -> None:
        key = "event" if "event" in data else "effects"
        for index, effect in enumerate(data.get(key, ())):
            if effect["kind"] not in self.EFFECTS:
                allowed = ", ".join(self.EFFECTS) or "none"
                raise ValidationError(f"effect {effect['kind']!r} is not allowed on a {data['category']} card "
                                      f"(allowed: {allowed})", f"{key}[{index}].kind")


class EnterpriseSchema(CardSchema):
    cost = WholeNumber(required=True)
    district = fields.String(required=True, validate=validate.OneOf(DISTRICTS))
    connection = fields.String(required=True, validate=validate.OneOf(CONNECTIONS))
    income = fields.Nested(IncomeSchema, required=True)
    ovals = fields.List(fields.Nested(OvalSchema), load_default=list, validate=validate.Length(max=2))
    slaves = Flag(load_default=False)
    arms = Flag(load_default=False)
    liberator_prestige = fields.List(fields.String(validate=validate.OneOf(PRESTIGE)), load_default=list)


class PartnerSchema(CardSchema):
    EFFECTS = ("regime_change", "conflict")
    cost = WholeNumber(required=True)
    faction = fields.String(required=True, validate=validate.OneOf(FACTIONS))
    abilities = fields.List(fields.Nested(AbilitySchema), load_default=list)
    effects = fields.List(fields.Nested(EffectSchema), load_default=list)


class TroopSchema(CardSchema):
    EFFECTS = ("regime_change", "unrest_others")
    faction = fields.String(required=True, validate=validate.OneOf(FACTIONS))
    jurisdiction = fields.String(required=True, validate=validate.OneOf(DISTRICTS))
    firepower = WholeNumber(1, 9, required=True)
    transport = fields.Nested(TransportSchema, required=True)
    effects = fields.List(fields.Nested(EffectSchema), load_default=list)


class BlackSchema(CardSchema):
    EFFECTS = ("regime_change",)
    cost = WholeNumber(required=True)
    target = fields.String(required=True, validate=validate.OneOf(("seat", "partner", "troop")))
    steal = WholeNumber(load_default=0)
    regime = fields.String(validate=validate.OneOf(REGIMES))
    opponent_only = Flag(load_default=False)
    jail = Flag(load_default=False)
    assassination = Flag(load_default=False)
    effects = fields.List(fields.Nested(EffectSchema), load_default=list)


class OrangeSchema(CardSchema):
    EFFECTS = ("regime_change",)
    cost = WholeNumber(required=True)
    unrest = WholeNumber(1, 9, required=True)
    steal = WholeNumber(load_default=0)
    district = fields.String(validate=validate.OneOf(DISTRICTS))
    jail = Flag(load_default=False)
    scapegoat = Flag(load_default=False)
    effects = fields.List(fields.Nested(EffectSchema), load_default=list)


class HeadlineSchema(CardSchema):
    EFFECTS = ("regime_change", "conflict", "unrest_district", "gain")
    icon = fields.String(required=True, validate=validate.OneOf(ICONS))
    event = fields.List(fields.Nested(EffectSchema), required=True, validate=validate.Length(min=1))


class HeelSchema(Schema):
    prestige = fields.String(required=True, validate=validate.OneOf(PRESTIGE))
    amount = WholeNumber(-5, 5, required=True)


class ToppleSchema(CardSchema):
    icon = fields.String(required=True, validate=validate.OneOf(ICONS))
    heel = fields.Nested(HeelSchema, required=True)


class FaceSchema(Schema):
    name = fields.String(required=True, validate=validate.Length(min=1, max=80))
    faction = fields.String(required=True, validate=validate.OneOf(FACTIONS))
    prestige = fields.List(fields.String(validate=validate.OneOf(PRESTIGE)), load_default=list)
    abilities = fields.List(fields.Nested(AbilitySchema), load_default=list)
    effects = fields.List(fields.Nested(EffectSchema), load_default=list)

    @validates_schema
    def _effects(self, data: Mapping[str, Any], **_: Any) -> None:
        for index, effect in enumerate(data.get("effects", ())):
            if effect["kind"] not in ("regime_change", "conflict"):
                raise ValidationError("a public card's face may only change the regime or start a conflict",
                                      f"effects[{index}].kind")


class PublicSchema(CardSchema):
    cost = WholeNumber(required=True)
    faces = fields.List(fields.Nested(FaceSchema), required=True, validate=validate.Length(equal=2))


class LoyalistSchema(Schema):
    income = WholeNumber(0, 5, load_default=2)
    abilities = fields.List(fields.Nested(AbilitySchema), load_default=list)


class OrientationSchema(Schema):
    name = fields.String(required=True, validate=validate.Length(min=1, max=80))
    faction = fields.String(required=True, validate=validate.OneOf(FACTIONS))
    prestige = fields.String(required=True, validate=validate.OneOf(PRESTIGE))
    connection = fields.String(required=True, validate=validate.OneOf(("boot", "rail")))


class HacendadoSchema(CardSchema):
    loyalist = fields.Nested(LoyalistSchema, required=True)
    orientations = fields.List(fields.Nested(OrientationSchema), required=True, validate=validate.Length(equal=2))


class RegimeSchema(CardSchema):
    id = fields.String(required=True, validate=validate.OneOf(REGIMES))
    mines = WholeNumber(0, 9, required=True)
    economy = WholeNumber(0, 9, required=True)
    topple = fields.String(required=True, validate=validate.OneOf(PRESTIGE))


SCHEMAS: dict[str, Schema] = {
    "enterprise": EnterpriseSchema(), "partner": PartnerSchema(), "troop": TroopSchema(),
    "black": BlackSchema(), "orange": OrangeSchema(), "headline": HeadlineSchema(), "topple": ToppleSchema(),
    "public": PublicSchema(), "hacendado": HacendadoSchema(), "regime": RegimeSchema(),
}


def _first_error(messages: Any, path: str = "") -> tuple[str, str]:
    """The first (field path, message) of marshmallow's nested error dict."""
    if isinstance(messages, dict):
        key = sorted(messages, key=str)[0]
        part = f"[{key}]" if isinstance(key, int) else (key if not path else f".{key}")
        if key == "_schema":
            part = ""
        return _first_error(messages[key], f"{path}{part}")
    if isinstance(messages, list) and messages:
        if all(isinstance(m, str) for m in messages):
            return path or "card", messages[0]
        return _first_error(messages[0], path)
    return path or "card", str(messages)


def load_card(raw: Any, index: int) -> dict[str, Any]:
    """Validate one card; a CardSetError names the card and the field."""
    label = f"cards[{index}]"
    if not isinstance(raw, dict):
        raise CardSetError(f"{label}: a card is an object")
    if isinstance(raw.get("id"), str):
        label = f"card {raw['id']!r} ({label})"
    category = raw.get("category")
    schema = SCHEMAS.get(category) if isinstance(category, str) else None
    if schema is None:
        raise CardSetError(f"{label}: field 'category': must be one of {', '.join(CATEGORIES)}")
    try:
        card = schema.load(raw)
    except ValidationError as err:
        where, message = _first_error(err.messages)
        raise CardSetError(f"{label}: field {where!r}: {message}") from None
    return card


def validate_set(raw: Any) -> dict[str, Any]:
    """A whole card set: each card, then the set's own rules (unique ids, the fixed counts)."""
    if isinstance(raw, list):
        raw = {"name": "inline", "cards": raw}
    if not isinstance(raw, dict) or not isinstance(raw.get("cards"), list):
        raise CardSetError("a card set is an object with a 'cards' list")
    extra = sorted(set(raw) - {"name", "title", "notice", "cards"})
    if extra:
        raise CardSetError(f"unknown field(s) of a card set: {', '.join(extra)}")
    cards = [load_card(card, index) for index, card in enumerate(raw["cards"])]
    seen: set[str] = set()
    for index, card in enumerate(cards):
        if card["id"] in seen:
            raise CardSetError(f"card {card['id']!r} (cards[{index}]): field 'id': the id is used twice")
        seen.add(card["id"])
    counts = {category: sum(1 for c in cards if c["category"] == category) for category in CATEGORIES}
    for category, wanted in EXACT_COUNTS.items():
        if counts[category] != wanted:
            raise CardSetError(f"field 'cards': a set needs exactly {wanted} {category} cards, this one has "
                               f"{counts[category]}")
    if {c["id"] for c in cards if c["category"] == "regime"} != set(REGIMES):
        raise CardSetError(f"field 'cards': the regimes must be {', '.join(REGIMES)}")
    if counts["hacendado"] < MIN_HACENDADOS:
        raise CardSetError(f"field 'cards': a set needs at least {MIN_HACENDADOS} hacendado cards")
    return {"name": str(raw.get("name", "inline")), "title": str(raw.get("title", "")),
            "notice": str(raw.get("notice", "")), "cards": cards}


def deck_size(seats: int) -> int:
    """Cards a game shuffles into the draw pile (topples apart), market included at 5-6 seats."""
    return 50 + 10 * seats + (12 if seats >= 5 else 0)


def check_set_fits(card_set: Mapping[str, Any], seats: int) -> None:
    """Enough deck cards and hacendados for this many seats."""
    deck = [c for c in card_set["cards"] if c["category"] in DECK_CATEGORIES and c["category"] != "topple"]
    if len(deck) < deck_size(seats):
        raise CardSetError(f"field 'cards': {seats} seats need {deck_size(seats)} deck cards besides the topples; "
                           f"this set has {len(deck)}")
    hacendados = sum(1 for c in card_set["cards"] if c["category"] == "hacendado")
    if hacendados < seats:
        raise CardSetError(f"field 'cards': {seats} seats need {seats} hacendado cards; this set has {hacendados}")


#: The operator's folder of card sets (``INTRIGUE_PAX_CARD_SETS``), handed in at start.
_operator_folder: str | None = None


def use_operator_folder(folder: str | None) -> None:
    """Read sets the package lacks from ``<folder>/<name>.json`` (the process's settings say which folder)."""
    global _operator_folder
    _operator_folder = folder


@lru_cache(maxsize=8)
def _package_set(name: str) -> dict[str, Any]:
    text = resources.files(__package__).joinpath("data", f"{name}.json").read_text(encoding="utf-8")
    return validate_set(json.loads(text))


@lru_cache(maxsize=32)
def _folder_set(path: str, mtime: float) -> dict[str, Any]:
    return validate_set(json.loads(Path(path).read_text(encoding="utf-8")))


def package_sets() -> list[str]:
    folder = resources.files(__package__).joinpath("data")
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".json"))


def load_named_set(name: Any) -> dict[str, Any]:
    """A set by name: the package's own, else ``<name>.json`` in the operator's folder."""
    if not isinstance(name, str) or not SET_NAME.match(name):
        raise CardSetError("field 'card_set': a set name is lower-case letters, digits, '_' and '-'")
    if name in package_sets():
        return _package_set(name)
    folder = _operator_folder
    if folder:
        path = Path(folder) / f"{name}.json"
        if path.is_file():
            try:
                return _folder_set(str(path), path.stat().st_mtime)
            except json.JSONDecodeError as err:
                raise CardSetError(f"card set {name!r} is not valid JSON: {err.msg} at line {err.lineno}") from None
    raise CardSetError(f"field 'card_set': there is no card set {name!r}")
