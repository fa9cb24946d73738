"""Development: each seat in turn order develops regions and buys advancements."""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.base import Action, GameEvent, RuleViolation, Seat, State, require_fields
from games.ideology.board import DEVELOPMENT, count_types, max_influence
from games.ideology.components import INFLUENCE_TYPES
from games.ideology.phases.checks import influence_field, pick_cards, region_field, require_phase


def decide_develop(state: State, seat: Seat, action: Action) -> list[GameEvent]:
    require_phase(state, DEVELOPMENT, "develop")
    require_fields(action, ("region", "influence"))
    rid, kind = region_field(state, action), influence_field(action)
    if state["regions"][rid]["controller"] != seat:
        raise RuleViolation("not_your_region", "you develop only regions you control")
    limit = max_influence(state, rid)
    if len(state["regions"][rid]["cards"][kind]) >= limit:
        raise RuleViolation("area_full", f"that region holds its maximum of {limit} {kind} card(s)")
    picked = pick_cards(state["hands"][seat], {kind: 1})
    card = picked[0] if picked else None
    if card is None:
        raise RuleViolation("not_enough_cards", f"you hold no {kind} card")
    return [GameEvent("RegionDeveloped", {"seat": seat, "region": rid, "card": card}, actor=seat)]


def buy_payment(state: State, seat: Seat, aid: str) -> dict[str, Any] | None:
    """What buying ``aid`` costs the seat now (cards and advancements), or None if it cannot."""
    card = state["board"]["advancements"].get(aid)
    if card is None or state["supply"][aid] <= 0:
        return None
    cost = card["cost"]
    if "cards" in cost:
        need = {kind: cost["cards"].get(kind, 0) for kind in INFLUENCE_TYPES}
        held = count_types(state["hands"][seat])
        if any(held[k] < need[k] for k in INFLUENCE_TYPES):
            return None
        return {"cards": pick_cards(state["hands"][seat], need), "advancements": []}
    need_adv = Counter(cost["advancements"])
    held_adv = state["advancements"][seat]
    if any(held_adv.get(a, 0) < n for a, n in need_adv.items()):
        return None
    return {"cards": [], "advancements": list(cost["advancements"])}


def decide_buy(state: State, seat: Seat, action: Action) -> list[GameEvent]:
    require_phase(state, DEVELOPMENT, "buy")
    require_fields(action, ("advancement",))
    aid = action.get("advancement")
    board = state["board"]["advancements"]
    if not isinstance(aid, str) or aid not in board:
        raise RuleViolation("unknown_advancement", f"advancement must be one of {', '.join(board)}")
    if state["supply"][aid] <= 0:
        raise RuleViolation("sold_out", f"no {board[aid]['name']} card is left in the supply")
    payment = buy_payment(state, seat, aid)
    if payment is None:
        cost = board[aid]["cost"]
        what = (", ".join(f"{n} {k}" for k, n in cost["cards"].items()) + " card(s)" if "cards" in cost
                else " + ".join(board[a]["name"] for a in cost["advancements"]))
        raise RuleViolation("cannot_afford", f"{board[aid]['name']} costs {what}")
    return [GameEvent("AdvancementBought", {"seat": seat, "advancement": aid, **payment}, actor=seat)]


def decide_done(state: State, seat: Seat, action: Action) -> list[GameEvent]:
    require_phase(state, DEVELOPMENT, "done")
    require_fields(action, ())
    return [GameEvent("DevelopmentDone", {"seat": seat}, actor=seat)]
