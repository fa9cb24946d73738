"""Reading an action's fields and checking them against the hand and the phase: the
checks every phase's decisions share."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.base import Action, RuleViolation, Seat, State
from games.ideology.board import card_type, count_types, in_play
from games.ideology.components import INFLUENCE_TYPES


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def pick_cards(hand: list[str], counts: Mapping[str, int]) -> list[str]:
    """The first cards of ``hand`` of each type, ``counts[type]`` of them (hand order)."""
    need = dict(counts)
    picked = []
    for card in hand:
        kind = card_type(card)
        if need.get(kind, 0) > 0:
            picked.append(card)
            need[kind] -= 1
    return picked


def counts_field(action: Action, field: str) -> dict[str, int]:
    value = action.get(field, {})
    if not isinstance(value, Mapping):
        raise RuleViolation("bad_counts", f"{field} must map influence types to counts")
    counts = dict.fromkeys(INFLUENCE_TYPES, 0)
    for kind, count in value.items():
        if kind not in INFLUENCE_TYPES:
            raise RuleViolation("unknown_influence", f"{kind!r} is not an influence type; the types are "
                                                     f"{', '.join(INFLUENCE_TYPES)}")
        if not is_int(count) or count < 0:
            raise RuleViolation("bad_counts", f"the count of {kind} cards must be a whole number of at least 0")
        counts[kind] = count
    return counts


def check_in_hand(state: State, seat: Seat, counts: Mapping[str, int]) -> None:
    held = count_types(state["hands"][seat])
    for kind in INFLUENCE_TYPES:
        if counts[kind] > held[kind]:
            raise RuleViolation("not_enough_cards", f"you hold {held[kind]} {kind} card(s), not {counts[kind]}")


def influence_field(action: Action) -> str:
    kind = action.get("influence")
    if kind not in INFLUENCE_TYPES:
        raise RuleViolation("unknown_influence", f"influence must be one of {', '.join(INFLUENCE_TYPES)}")
    return kind


def region_field(state: State, action: Action) -> str:
    rid = action.get("region")
    if not isinstance(rid, str) or rid not in state["regions"]:
        raise RuleViolation("unknown_region", "region must be the id of a region on the map")
    if not in_play(state, rid):
        raise RuleViolation("region_not_in_play", "that region is still face down in the region pile")
    return rid


def require_phase(state: State, phase: str, kind: str) -> None:
    if state["phase"] != phase:
        raise RuleViolation("wrong_phase", f"{kind} is not an action of the {state['phase'].replace('_', ' ')} phase")
