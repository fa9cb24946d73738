"""Conflict: attacks and weapons of mass destruction, and the reply loop between
attacker and defender."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.base import Action, GameEvent, RuleViolation, Seat, State, check_seat, require_fields
from games.ideology.board import ALLOWED_CONFLICTS, CONFLICT, DEFEND, PRESS, cards_of, conflict_penalty, relation
from games.ideology.components import INFLUENCE_TYPES
from games.ideology.phases.checks import influence_field, pick_cards, region_field, require_phase


def require_no_conflict(state: State, kind: str) -> None:
    require_phase(state, CONFLICT, kind)
    if state["conflict"] is not None:
        raise RuleViolation("conflict_in_progress", "a conflict is being fought: answer it first")


def decide_attack(state: State, seat: Seat, action: Action) -> list[GameEvent]:
    require_no_conflict(state, "attack")
    require_fields(action, ("region", "influence", "target"))
    rid, kind = region_field(state, action), influence_field(action)
    target = check_seat(state["seats"], action.get("target"))
    if target == seat:
        raise RuleViolation("own_influence", "a conflict is fought against another ideology")
    status = relation(state, seat, target)
    if kind not in ALLOWED_CONFLICTS[status]:
        raise RuleViolation("not_allowed_by_diplomacy",
                            f"at {status} you may start only {' or '.join(ALLOWED_CONFLICTS[status])} conflicts")
    if not cards_of(state, rid, target, kind):
        raise RuleViolation("no_target_influence", f"that ideology has no {kind} card on that region")
    penalty = conflict_penalty(state, seat, target, rid, kind)
    need = penalty["distance"] + penalty["advancement"] + 1
    cards = pick_cards(state["hands"][seat], {kind: need})
    if len(cards) < need:
        raise RuleViolation("not_enough_cards", f"this conflict takes {need} {kind} card(s): "
                                                f"{penalty['distance']} for distance, {penalty['advancement']} "
                                                "for the advancement gap and 1 to attack")
    return [GameEvent("ConflictDeclared", {"attacker": seat, "defender": target, "region": rid, "influence": kind,
                                           "penalty": cards[:-1], "card": cards[-1], **penalty}, actor=seat)]


def decide_wmd(state: State, seat: Seat, action: Action) -> list[GameEvent]:
    require_no_conflict(state, "wmd")
    require_fields(action, ("region", "target"))
    rid = region_field(state, action)
    target = check_seat(state["seats"], action.get("target"))
    weapon = next((aid for aid in sorted(state["advancements"][seat])
                   if state["board"]["advancements"][aid]["effect"].get("use") == "destroy_influence"), None)
    if weapon is None:
        raise RuleViolation("no_wmd", "you hold no Weapons of Mass Destruction")
    if target == seat:
        raise RuleViolation("own_influence", "weapons are used against another ideology")
    if relation(state, seat, target) != "war":
        raise RuleViolation("not_allowed_by_diplomacy", "using weapons of mass destruction is an act of war: "
                                                        "only against an ideology you are at war with")
    destroyed = [card for kind in INFLUENCE_TYPES for card in cards_of(state, rid, target, kind)]
    if not destroyed:
        raise RuleViolation("no_target_influence", "that ideology has no influence on that region")
    return [GameEvent("WmdUsed", {"seat": seat, "target": target, "region": rid, "advancement": weapon,
                                  "destroyed": destroyed}, actor=seat)]


def require_stage(state: State, seat: Seat, stage: str, kind: str) -> dict[str, Any]:
    conflict = state["conflict"]
    if state["phase"] != CONFLICT or conflict is None or conflict["stage"] != stage:
        raise RuleViolation("no_conflict_reply", f"{kind}: there is no conflict waiting for that answer")
    who = conflict["defender"] if stage == DEFEND else conflict["attacker"]
    if who != seat:
        raise RuleViolation("not_your_reply", f"{kind}: the answer is owed by seat {who}")
    return conflict


def decide_concede(state: State, seat: Seat, action: Action) -> list[GameEvent]:
    conflict = require_stage(state, seat, DEFEND, "concede")
    require_fields(action, ())
    replaced = cards_of(state, conflict["region"], seat, conflict["influence"])[-1]
    return [GameEvent("ConflictWon", {"attacker": conflict["attacker"], "defender": seat,
                                      "region": conflict["region"], "influence": conflict["influence"],
                                      "card": conflict["card"], "replaced": replaced}, actor=seat)]


def decide_cancel(state: State, seat: Seat, action: Action) -> list[GameEvent]:
    conflict = require_stage(state, seat, DEFEND, "cancel")
    require_fields(action, ())
    kind = conflict["influence"]
    cards = pick_cards(state["hands"][seat], {kind: 1})
    if not cards:
        raise RuleViolation("not_enough_cards", f"cancelling takes a {kind} card and you hold none")
    return [GameEvent("AttackCancelled", {"defender": seat, "card": cards[0],
                                          "attacker_card": conflict["card"]}, actor=seat)]


def decide_continue(state: State, seat: Seat, action: Action) -> list[GameEvent]:
    conflict = require_stage(state, seat, PRESS, "continue")
    require_fields(action, ())
    kind = conflict["influence"]
    cards = pick_cards(state["hands"][seat], {kind: 1})
    if not cards:
        raise RuleViolation("not_enough_cards", f"continuing takes a {kind} card and you hold none")
    return [GameEvent("AttackRenewed", {"attacker": seat, "card": cards[0]}, actor=seat)]


def decide_stop(state: State, seat: Seat, action: Action) -> list[GameEvent]:
    conflict = require_stage(state, seat, PRESS, "stop")
    require_fields(action, ())
    return [GameEvent("ConflictAbandoned", {"attacker": seat, "defender": conflict["defender"],
                                            "region": conflict["region"]}, actor=seat)]


def conflict_actions(state: State, seat: Seat, hand: Mapping[str, int]) -> list[Action]:
    actions: list[Action] = []
    has_wmd = any(state["board"]["advancements"][aid]["effect"].get("use") == "destroy_influence"
                  for aid in state["advancements"][seat])
    for rid, region in state["regions"].items():
        if region["status"] == "deck":
            continue
        for target in range(state["seats"]):
            if target == seat:
                continue
            prefix = state["ideology"][target] + ":"
            present = [influence for influence in INFLUENCE_TYPES
                       if any(card.startswith(prefix) for card in region["cards"][influence])]
            if not present:
                continue
            allowed = ALLOWED_CONFLICTS[relation(state, seat, target)]
            for influence in present:
                if influence in allowed and hand[influence]:
                    penalty = conflict_penalty(state, seat, target, rid, influence)
                    if hand[influence] >= penalty["distance"] + penalty["advancement"] + 1:
                        actions.append({"type": "attack", "region": rid, "influence": influence, "target": target})
            if has_wmd and relation(state, seat, target) == "war":
                actions.append({"type": "wmd", "region": rid, "target": target})
    return actions
