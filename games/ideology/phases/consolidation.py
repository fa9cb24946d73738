"""Consolidation: development levels, control kept or lost, control taken (a system step)."""

from __future__ import annotations

from games.base import GameEvent, Seat, State
from games.ideology.board import MAX_CONTROLLED, controlled_by, seat_card_counts, strict_leader
from games.ideology.components import INFLUENCE_TYPES


def consolidate(state: State) -> GameEvent:
    """New development levels; control kept only by a strict majority; full regions taken."""
    levels: dict[str, int] = {}
    lost: list[str] = []
    gained: dict[str, Seat] = {}
    regions = state["regions"]
    # In the order of region ids, never the map's own order: a state read back from JSON
    # (a log, a snapshot) and one folded from fresh drafts spell it differently, and which
    # region misses a last control marker must not depend on the spelling (D15).
    ordered = [(rid, regions[rid]) for rid in sorted(regions)]
    for rid, region in ordered:
        if region["controller"] is not None:
            level = max(1, min(len(region["cards"][kind]) for kind in INFLUENCE_TYPES))
            if level != region["level"]:
                levels[rid] = level
    for rid, region in ordered:
        controller = region["controller"]
        if controller is not None and strict_leader(seat_card_counts(state, rid)) != controller:
            lost.append(rid)
    held = [len(controlled_by(state, seat)) - sum(1 for rid in lost if regions[rid]["controller"] == seat)
            for seat in range(state["seats"])]
    for rid, region in ordered:
        if region["status"] == "deck" or (region["controller"] is not None and rid not in lost):
            continue
        level = levels.get(rid, region["level"])
        if any(len(region["cards"][kind]) < level for kind in INFLUENCE_TYPES):
            continue
        leader = strict_leader(seat_card_counts(state, rid))
        if leader is not None and held[leader] < MAX_CONTROLLED:
            gained[rid] = leader
            held[leader] += 1
    return GameEvent("RegionsConsolidated", {"turn": state["turn"], "levels": levels, "lost": lost,
                                             "gained": gained})
