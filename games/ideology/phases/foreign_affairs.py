"""Foreign Affairs: round-robin placements and removals of influence, until every
seat passes in a row."""

from __future__ import annotations

from collections.abc import Mapping

from games.base import Action, GameEvent, RuleViolation, Seat, State, require_fields
from games.ideology.board import FOREIGN, cards_of, max_influence, placement_penalty
from games.ideology.components import INFLUENCE_TYPES
from games.ideology.phases.checks import influence_field, pick_cards, region_field, require_phase


def decide_place(state: State, seat: Seat, action: Action) -> list[GameEvent]:
    require_phase(state, FOREIGN, "place")
    require_fields(action, ("region", "influence"))
    rid, kind = region_field(state, action), influence_field(action)
    if state["regions"][rid]["controller"] is not None:
        raise RuleViolation("not_independent", "influence is placed only on independent regions")
    limit = max_influence(state, rid)
    if len(state["regions"][rid]["cards"][kind]) >= limit:
        raise RuleViolation("area_full", f"that region holds its maximum of {limit} {kind} card(s)")
    penalty = placement_penalty(state, seat, rid, kind)
    cards = pick_cards(state["hands"][seat], {kind: penalty + 1})
    if len(cards) < penalty + 1:
        raise RuleViolation("not_enough_cards", f"placing there takes {penalty + 1} {kind} card(s)"
                                                + (" (one for the distance penalty)" if penalty else ""))
    return [GameEvent("InfluencePlaced", {"seat": seat, "region": rid, "card": cards[-1], "penalty": cards[:-1]},
                      actor=seat)]


def decide_remove(state: State, seat: Seat, action: Action) -> list[GameEvent]:
    require_phase(state, FOREIGN, "remove")
    require_fields(action, ("region", "influence"))
    rid, kind = region_field(state, action), influence_field(action)
    if state["regions"][rid]["controller"] == seat:
        raise RuleViolation("own_region", "you remove influence only from independent or rival regions")
    mine = cards_of(state, rid, seat, kind)
    if not mine:
        raise RuleViolation("no_influence_there", f"you have no {kind} card on that region")
    return [GameEvent("InfluenceRemoved", {"seat": seat, "region": rid, "card": mine[-1]}, actor=seat)]


def foreign_actions(state: State, seat: Seat, hand: Mapping[str, int]) -> list[Action]:
    actions: list[Action] = []
    prefix = state["ideology"][seat] + ":"
    for rid, region in state["regions"].items():
        if region["status"] == "deck":
            continue
        if region["controller"] is None:
            limit = region["level"]
            for influence in INFLUENCE_TYPES:
                if (hand[influence] and len(region["cards"][influence]) < limit
                        and hand[influence] > placement_penalty(state, seat, rid, influence)):
                    actions.append({"type": "place", "region": rid, "influence": influence})
        if region["controller"] != seat:
            for influence in INFLUENCE_TYPES:
                if any(card.startswith(prefix) for card in region["cards"][influence]):
                    actions.append({"type": "remove", "region": rid, "influence": influence})
    return actions
