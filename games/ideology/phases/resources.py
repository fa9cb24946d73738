"""Resources: every hand is drawn, or discarded, to the seat's Global Influence."""

from __future__ import annotations

import random
from typing import Any

from games.base import Action, GameEvent, RuleViolation, Seat, State, require_fields
from games.ideology.board import RESOURCES, global_influence
from games.ideology.phases.checks import check_in_hand, counts_field, pick_cards, require_phase


def decide_discard(state: State, seat: Seat, action: Action) -> list[GameEvent]:
    require_phase(state, RESOURCES, "discard")
    require_fields(action, ("discard",))
    counts = counts_field(action, "discard")
    owed = state["owed"][seat]
    if sum(counts.values()) != owed:
        raise RuleViolation("wrong_discard_count", f"you must discard exactly {owed} card(s) to match your "
                                                   "Global Influence")
    check_in_hand(state, seat, counts)
    cards = pick_cards(state["hands"][seat], counts)
    return [GameEvent("CardsDiscarded", {"seat": seat, "cards": cards}, actor=seat)]


def draw_cards(state: State, seat: Seat, count: int, rng: random.Random,
                extra_discards: list[str] | None = None) -> dict[str, Any]:
    """Draw ``count`` cards; an empty deck takes the shuffled discards (scenario: in discard order)."""
    deck = state["decks"][seat]
    cards = deck[:count]
    if len(cards) == count:
        return {"cards": cards, "reshuffled": None, "after": []}
    pile = list(state["discards"][seat]) + list(extra_discards or [])
    if not pile:
        return {"cards": cards, "reshuffled": None, "after": []}
    if not (state["scenario"] and state["options"]["decks"] and state["ideology"][seat] in state["options"]["decks"]):
        rng.shuffle(pile)
    after = pile[:count - len(cards)]
    return {"cards": cards + after, "reshuffled": pile, "after": after}


def turn_started(state: State, rng: random.Random) -> GameEvent:
    """Resources: every seat draws up to its Global Influence; a seat above it owes a discard."""
    draws, owed = [], []
    for seat in range(state["seats"]):
        target = global_influence(state, seat)
        held = len(state["hands"][seat])
        draws.append(draw_cards(state, seat, target - held, rng) if held < target else
                     {"cards": [], "reshuffled": None, "after": []})
        owed.append(max(0, held - target))
    return GameEvent("TurnStarted", {"turn": state["turn"] + 1, "draws": draws, "owed": owed})
