"""Diplomacy: simultaneous sealed offers; the most critical status of each pair wins."""

from __future__ import annotations

import itertools
from collections.abc import Mapping

from games.base import Action, GameEvent, RuleViolation, Seat, State, clone_json, require_fields
from games.ideology.board import DIPLOMACY, STATUSES
from games.ideology.phases.checks import require_phase


def decide_offer(state: State, seat: Seat, action: Action) -> list[GameEvent]:
    require_phase(state, DIPLOMACY, "offer")
    require_fields(action, ("offers",))
    offers = action.get("offers", {})
    if not isinstance(offers, Mapping):
        raise RuleViolation("bad_offers", "offers must map ideology ids to peace, neutral or war")
    others = [state["ideology"][s] for s in range(state["seats"]) if s != seat]
    for iid, status in offers.items():
        if iid not in others:
            raise RuleViolation("unknown_ideology", f"offers are made to the other ideologies: {', '.join(others)}")
        if status not in STATUSES:
            raise RuleViolation("bad_status", f"an offer is one of {', '.join(STATUSES)}")
    complete = {iid: offers.get(iid, "neutral") for iid in others}
    return [GameEvent("OfferMade", {"seat": seat, "offers": complete}, actor=seat)]


def reveal_offers(state: State) -> GameEvent:
    seats = state["seats"]
    severity = {status: rank for rank, status in enumerate(STATUSES)}
    relations: list[list[str | None]] = [[None] * seats for _ in range(seats)]
    for a, b in itertools.combinations(range(seats), 2):
        mine = state["offers"][a][state["ideology"][b]]
        theirs = state["offers"][b][state["ideology"][a]]
        status = max(mine, theirs, key=severity.__getitem__)
        relations[a][b] = relations[b][a] = status
    return GameEvent("OffersRevealed", {"turn": state["turn"], "offers": clone_json(state["offers"]),
                                        "relations": relations})
