"""The components of Coup and their costs, loaded from ``data/cards.json``, and the names
the state gives to its reaction windows."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any


def _load_cards() -> dict[str, Any]:
    """The components and costs, kept as data beside the code."""
    text = resources.files(__package__).joinpath("data", "cards.json").read_text(encoding="utf-8")
    return json.loads(text)


CARDS: dict[str, Any] = _load_cards()
CHARACTERS: tuple[str, ...] = tuple(c["id"] for c in CARDS["characters"])
CARD_NAMES: dict[str, str] = {c["id"]: c["name"] for c in CARDS["characters"]}
COPIES: int = CARDS["copies_per_character"]
TREASURY: int = CARDS["treasury"]
STARTING_COINS: int = CARDS["starting_coins"]
STARTING_INFLUENCE: int = CARDS["starting_influence"]
COUP_COST: int = CARDS["coup_cost"]
FORCED_COUP_AT: int = CARDS["forced_coup_at"]
EXCHANGE_DRAW: int = CARDS["exchange_draw"]
ACTIONS: dict[str, dict[str, Any]] = CARDS["actions"]
COST: dict[str, int] = {name: spec["cost"] for name, spec in ACTIONS.items()}
GAIN: dict[str, int] = {name: spec["gain"] for name, spec in ACTIONS.items()}
TARGETED: frozenset[str] = frozenset(name for name, spec in ACTIONS.items() if spec["targeted"])
#: The card an action claims (income, foreign aid and coup claim none).
CLAIM: dict[str, str] = {c["action"]: c["id"] for c in CARDS["characters"] if c["action"]}
#: The cards that may block an action.
BLOCKERS: dict[str, tuple[str, ...]] = {
    action: tuple(c["id"] for c in CARDS["characters"] if action in c["blocks"]) for action in ACTIONS
}
FULL_DECK: tuple[str, ...] = tuple(card for card in CHARACTERS for _ in range(COPIES))
#: Foreign aid may be blocked by any seat; the other blockable actions only by their target.
BLOCKABLE_BY_ANYONE = frozenset({"foreign_aid"})

# Window kinds as the state records them.
ACTION_WINDOW = "action"  # the action was declared: challenge (if it claims), block (if allowed), pass
BLOCK_WINDOW = "block"  # a block was declared: challenge the blocker, or pass
BLOCK_OFFER = "block_offer"  # the action survived a challenge: its target may still block
