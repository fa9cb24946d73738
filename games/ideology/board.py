"""The rulebook's fixed numbers and the readings of an Ideology state that every phase
shares: card types, Global Influence, trade power, defence, penalties, relations."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.base import Seat, State
from games.ideology.components import INFLUENCE_TYPES

WINNING_INFLUENCE = 12
CONTROL_MARKERS = 10
#: One marker of each ideology sits on the Turn Order Chart, so at most nine regions.
MAX_CONTROLLED = CONTROL_MARKERS - 1
LETTER = {"military": "m", "economic": "e", "cultural": "c"}
TYPE_OF_LETTER = {letter: kind for kind, letter in LETTER.items()}
STATUSES = ("peace", "neutral", "war")
#: Which conflict types each diplomatic status allows against the other ideology.
ALLOWED_CONFLICTS = {
    "peace": ("cultural",),
    "neutral": ("economic", "cultural"),
    "war": ("military", "economic", "cultural"),
}
RESOURCES, EXCHANGE, DEVELOPMENT = "resources", "exchange", "development"
FOREIGN, CONFLICT, DIPLOMACY = "foreign_affairs", "conflict", "diplomacy"
CONSOLIDATION, TURN_ORDER, TURN_END, OVER = "consolidation", "turn_order", "turn_end", "over"
PHASES = (RESOURCES, EXCHANGE, DEVELOPMENT, FOREIGN, CONFLICT, DIPLOMACY, CONSOLIDATION, TURN_ORDER)
DEFEND, PRESS = "defend", "press"


def card_type(card: str) -> str:
    """``"fascism:m7"`` -> ``"military"``."""
    return TYPE_OF_LETTER[card[card.index(":") + 1]]


def card_owner(state: State, card: str) -> Seat:
    return state["seat_of"][card[:card.index(":")]]


def count_types(cards: Iterable[str]) -> dict[str, int]:
    counts = dict.fromkeys(INFLUENCE_TYPES, 0)
    for card in cards:
        counts[card_type(card)] += 1
    return counts


def region_info(state: State, rid: str) -> dict[str, Any]:
    return state["board"]["regions"][rid]


def max_influence(state: State, rid: str) -> int:
    """Cards allowed per area: twice the printed level when controlled, else the current level."""
    region = state["regions"][rid]
    if region["controller"] is not None:
        return 2 * region_info(state, rid)["level"]
    return region["level"]


def controlled_by(state: State, seat: Seat) -> list[str]:
    return [rid for rid, region in state["regions"].items() if region["controller"] == seat]


def advancement_effect_total(state: State, seat: Seat, key: str, value: Any = None) -> int:
    total = 0
    for aid, count in state["advancements"][seat].items():
        effect = state["board"]["advancements"][aid]["effect"]
        if key in effect and (value is None or effect[key] == value):
            total += count * (effect[key] if value is None else 1)
    return total


def global_influence(state: State, seat: Seat) -> int:
    """Development levels of the seat's regions, plus what its advancements add (WMD: +1)."""
    levels = sum(region["level"] for region in state["regions"].values() if region["controller"] == seat)
    return levels + advancement_effect_total(state, seat, "global_influence")


def trade_power(state: State, seat: Seat) -> int:
    """Regions where the seat has at least one influence card, controlled or not."""
    prefix = state["ideology"][seat] + ":"
    return sum(1 for region in state["regions"].values() if region["status"] != "deck"
               and any(card.startswith(prefix) for cards in region["cards"].values() for card in cards))


def defence(state: State, seat: Seat, kind: str) -> int:
    """Copies of the Level-1 advancement that protects against ``kind`` conflicts.

    With ``level2_defends`` a Level-2 card counts as each Level-1 card it was paid with.
    """
    advancements = state["board"]["advancements"]
    total = 0
    for aid, count in state["advancements"][seat].items():
        card = advancements[aid]
        if card["effect"].get("defends") == kind:
            total += count
        elif state["options"]["level2_defends"] and card["level"] == 2:
            paid = card["cost"].get("advancements", [])
            total += count * sum(1 for p in paid if advancements[p]["effect"].get("defends") == kind)
    return total


def is_adjacent_to_own(state: State, seat: Seat, rid: str) -> bool:
    regions = state["regions"]
    return any(regions[other]["controller"] == seat for other in region_info(state, rid)["neighbours"])


def waives_distance(state: State, seat: Seat, kind: str) -> bool:
    return advancement_effect_total(state, seat, "no_distance_penalty", kind) > 0


def placement_penalty(state: State, seat: Seat, rid: str, kind: str) -> int:
    """Extra cards of ``kind`` to place influence on independent ``rid`` (the distance penalty)."""
    if is_adjacent_to_own(state, seat, rid) or waives_distance(state, seat, kind):
        return 0
    abilities = state["board"]["ideologies"][state["ideology"][seat]]["abilities"]
    if "global_colonization" in abilities and state["regions"][rid]["level"] == 1:
        return 0
    return 1


def conflict_penalty(state: State, attacker: Seat, defender: Seat, rid: str, kind: str) -> dict[str, int]:
    """The distance and advancement penalties of a conflict, in cards of its type."""
    distance = 0
    if (state["regions"][rid]["controller"] != attacker and not is_adjacent_to_own(state, attacker, rid)
            and not waives_distance(state, attacker, kind)):
        distance = 1
    gap = max(0, defence(state, defender, kind) - defence(state, attacker, kind))
    return {"distance": distance, "advancement": gap}


def relation(state: State, a: Seat, b: Seat) -> str:
    return state["relations"][a][b]


def cards_of(state: State, rid: str, seat: Seat, kind: str) -> list[str]:
    prefix = state["ideology"][seat] + ":"
    return [card for card in state["regions"][rid]["cards"][kind] if card.startswith(prefix)]


def seat_card_counts(state: State, rid: str) -> list[int]:
    counts = [0] * state["seats"]
    for cards in state["regions"][rid]["cards"].values():
        for card in cards:
            counts[card_owner(state, card)] += 1
    return counts


def strict_leader(counts: list[int]) -> Seat | None:
    """The seat with more cards than any other single seat, else None."""
    best = max(counts)
    if best == 0 or counts.count(best) > 1:
        return None
    return counts.index(best)


def tie_break_points(state: State, seat: Seat) -> int:
    board = state["board"]["advancements"]
    return sum(board[aid]["points"] * count for aid, count in state["advancements"][seat].items())


def in_play(state: State, rid: str) -> bool:
    return state["regions"][rid]["status"] != "deck"
