"""The components of Revolution! (bid board, city board, token bank), loaded from
``data/board.json``, with the option defaults and the phases as the state names them."""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib import resources
from typing import Any


def _load_board() -> dict[str, Any]:
    """The bid board, city board and token bank, kept as data beside the code."""
    text = resources.files(__package__).joinpath("data", "board.json").read_text(encoding="utf-8")
    return json.loads(text)


BOARD: dict[str, Any] = _load_board()
KINDS: tuple[str, ...] = tuple(BOARD["token_kinds"])
KIND_NAMES = {"force": "Force", "blackmail": "Blackmail", "gold": "Gold"}
TOKEN_SUPPORT: dict[str, int] = dict(BOARD["token_support"])
CHARACTERS: tuple[dict[str, Any], ...] = tuple(BOARD["characters"])
CHARACTER_IDS: tuple[str, ...] = tuple(c["id"] for c in CHARACTERS)
CHARACTER_BY_ID: dict[str, dict[str, Any]] = {c["id"]: c for c in CHARACTERS}
ALLOWED_KINDS: dict[str, tuple[str, ...]] = {
    c["id"]: tuple(k for k in KINDS if k not in c["immune"]) for c in CHARACTERS
}
AREAS: tuple[dict[str, Any], ...] = tuple(BOARD["areas"])
AREA_IDS: tuple[str, ...] = tuple(a["id"] for a in AREAS)
AREA_BY_ID: dict[str, dict[str, Any]] = {a["id"]: a for a in AREAS}
TOTAL_SPACES = sum(a["spaces"] for a in AREAS)
MAX_CHARACTERS: int = BOARD["max_characters_per_bid"]
HAND_SIZE: int = BOARD["patronage_hand_size"]
CUBES_PER_SEAT: int = BOARD["cubes_per_seat"]
CONTROL_BONUS: int = BOARD["area_control_bonus"]

# The Fortress has 8 spaces and only the General fills it, so no game fills the city
# in fewer than 8 rounds; the cap only stops a table that has stalled.
MIN_ROUND_CAP = 8
MAX_ROUND_CAP = 200
OPTION_DEFAULTS: dict[str, Any] = {
    "refund_losing_bids": False,
    "area_control_bonus": False,
    "german_edition": False,
    "max_rounds": 40,
}

# Phases as the state records them (Spying has no decision: RoundStarted shows the hands).
BIDDING, RESOLUTION, PATRONAGE, OVER = "bidding", "resolution", "patronage", "over"




def no_tokens() -> dict[str, int]:
    return {k: 0 for k in KINDS}


def token_counts(counts: Mapping[str, int]) -> dict[str, int]:
    """Counts of every kind, in the canonical order, zeros included."""
    return {k: int(counts.get(k, 0)) for k in KINDS}
