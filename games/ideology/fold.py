"""The fold of Ideology: one small handler per event type, trusting the event."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from games.base import Seat, State, clone_json
from games.fold import Handler, make_evolve
from games.ideology.board import (
    CONSOLIDATION,
    DEFEND,
    OVER,
    PRESS,
    RESOURCES,
    TURN_END,
    TURN_ORDER,
    card_type,
    global_influence,
)
from games.ideology.components import INFLUENCE_TYPES


def _fold_table_set(data: Mapping[str, Any]) -> State:
    seats = data["seats"]
    return {
        "seats": seats,
        "options": clone_json(data["options"]),
        "board": clone_json(data["board"]),
        "scenario": data["scenario"],
        "ideology": list(data["ideologies"]),
        "seat_of": {iid: seat for seat, iid in enumerate(data["ideologies"])},
        "turn": 0,
        "phase": TURN_END,
        "order": list(data["order"]),
        "cursor": 0,
        "passes": 0,
        "hands": [[] for _ in range(seats)],
        "decks": [list(deck) for deck in data["decks"]],
        "discards": [[] for _ in range(seats)],
        "advancements": [dict(held) for held in data["advancements"]],
        "supply": dict(data["supply"]),
        "regions": clone_json(data["regions"]),
        "region_pile": list(data["region_pile"]),
        "relations": [[None if a == b else "neutral" for b in range(seats)] for a in range(seats)],
        "owed": [0] * seats,
        "offers": [None] * seats,
        "revealed_offers": None,
        "conflict": None,
        "standing": None,
        "quiet_turns": 0,
        "result": None,
    }


def _draw(state: State, seat: Seat, cards: list[str], deck: list[str] | None) -> None:
    """Fold a draw: ``deck`` is the new deck when the discards were shuffled into it."""
    if deck is not None:
        state["discards"][seat] = []
        state["decks"][seat] = list(deck)
    state["decks"][seat] = state["decks"][seat][len(cards):]
    state["hands"][seat] = state["hands"][seat] + list(cards)


def _apply_draws(state: State, draws: Sequence[Mapping[str, Any] | None]) -> None:
    """Each draw is ``{"cards": [...], "reshuffled": [new deck] | None, "after": [...]}``.

    A draw that ran the deck out takes the cards before the shuffle, then the rest from
    the shuffled discards: ``cards`` holds them all, ``reshuffled`` the whole new deck.
    """
    for seat, draw in enumerate(draws):
        if draw is None:
            continue
        before = draw["cards"][:len(draw["cards"]) - len(draw.get("after", []))]
        _draw(state, seat, before, None)
        if draw.get("reshuffled") is not None:
            _draw(state, seat, draw.get("after", []), draw["reshuffled"])


def _fold_turn_started(state: State, data: Mapping[str, Any]) -> None:
    state["turn"] = data["turn"]
    state["phase"] = RESOURCES
    state["offers"] = [None] * state["seats"]
    _apply_draws(state, data["draws"])
    state["owed"] = list(data["owed"])


def _discard_from_hand(state: State, seat: Seat, cards: Iterable[str]) -> None:
    cards = list(cards)
    hand = list(state["hands"][seat])
    for card in cards:
        hand.remove(card)
    state["hands"][seat] = hand
    state["discards"][seat] = state["discards"][seat] + cards


def _fold_cards_discarded(state: State, data: Mapping[str, Any]) -> None:
    _discard_from_hand(state, data["seat"], data["cards"])
    state["owed"][data["seat"]] = 0


def _fold_phase_started(state: State, data: Mapping[str, Any]) -> None:
    state["phase"] = data["phase"]
    state["cursor"] = 0
    state["passes"] = 0
    region = data.get("region")
    if region is not None:
        state["region_pile"] = state["region_pile"][1:]
        _region(state, region)["status"] = "independent"


def _fold_cards_exchanged(state: State, data: Mapping[str, Any]) -> None:
    seat = data["seat"]
    _discard_from_hand(state, seat, data["discarded"])
    _apply_draws(state, [data["draw"] if s == seat else None for s in range(state["seats"])])
    state["cursor"] += 1


def _region(state: State, rid: str) -> dict[str, Any]:
    """The region's entry, copied so the fold may change it (the old state keeps its own)."""
    region = state["regions"][rid]
    copied = {"status": region["status"], "controller": region["controller"], "level": region["level"],
              "cards": {kind: list(cards) for kind, cards in region["cards"].items()}}
    state["regions"][rid] = copied
    return copied


def _fold_region_developed(state: State, data: Mapping[str, Any]) -> None:
    seat, card = data["seat"], data["card"]
    hand = list(state["hands"][seat])
    hand.remove(card)
    state["hands"][seat] = hand
    _region(state, data["region"])["cards"][card_type(card)].append(card)


def _fold_advancement_bought(state: State, data: Mapping[str, Any]) -> None:
    seat = data["seat"]
    _discard_from_hand(state, seat, data["cards"])
    held = dict(state["advancements"][seat])
    for paid in data["advancements"]:
        held[paid] -= 1
        if held[paid] == 0:
            del held[paid]
        state["supply"][paid] += 1
    held[data["advancement"]] = held.get(data["advancement"], 0) + 1
    state["supply"][data["advancement"]] -= 1
    state["advancements"][seat] = held


def _fold_development_done(state: State, data: Mapping[str, Any]) -> None:
    state["cursor"] += 1


def _next_in_round(state: State, passed: bool) -> None:
    state["cursor"] = (state["cursor"] + 1) % state["seats"]
    state["passes"] = state["passes"] + 1 if passed else 0


def _fold_influence_placed(state: State, data: Mapping[str, Any]) -> None:
    seat, card = data["seat"], data["card"]
    _discard_from_hand(state, seat, data["penalty"])
    hand = list(state["hands"][seat])
    hand.remove(card)
    state["hands"][seat] = hand
    _region(state, data["region"])["cards"][card_type(card)].append(card)
    _next_in_round(state, False)


def _fold_influence_removed(state: State, data: Mapping[str, Any]) -> None:
    seat, card = data["seat"], data["card"]
    _region(state, data["region"])["cards"][card_type(card)].remove(card)
    state["discards"][seat] = state["discards"][seat] + [card]
    _next_in_round(state, False)


def _fold_passed(state: State, data: Mapping[str, Any]) -> None:
    _next_in_round(state, True)


def _fold_conflict_declared(state: State, data: Mapping[str, Any]) -> None:
    attacker = data["attacker"]
    _discard_from_hand(state, attacker, data["penalty"])
    hand = list(state["hands"][attacker])
    hand.remove(data["card"])
    state["hands"][attacker] = hand
    state["conflict"] = {"attacker": attacker, "defender": data["defender"], "region": data["region"],
                         "influence": data["influence"], "card": data["card"], "stage": DEFEND,
                         "cancelled": 0}


def _fold_attack_cancelled(state: State, data: Mapping[str, Any]) -> None:
    conflict = dict(state["conflict"])
    _discard_from_hand(state, conflict["defender"], [data["card"]])
    state["discards"][conflict["attacker"]] = state["discards"][conflict["attacker"]] + [conflict["card"]]
    conflict["card"] = None
    conflict["stage"] = PRESS
    conflict["cancelled"] += 1
    state["conflict"] = conflict


def _fold_attack_renewed(state: State, data: Mapping[str, Any]) -> None:
    conflict = dict(state["conflict"])
    hand = list(state["hands"][conflict["attacker"]])
    hand.remove(data["card"])
    state["hands"][conflict["attacker"]] = hand
    conflict["card"] = data["card"]
    conflict["stage"] = DEFEND
    state["conflict"] = conflict


def _fold_conflict_won(state: State, data: Mapping[str, Any]) -> None:
    conflict = state["conflict"]
    region = _region(state, conflict["region"])
    pile = region["cards"][conflict["influence"]]
    pile[pile.index(data["replaced"])] = data["card"]
    defender = conflict["defender"]
    state["discards"][defender] = state["discards"][defender] + [data["replaced"]]
    state["conflict"] = None
    _next_in_round(state, False)


def _fold_conflict_abandoned(state: State, data: Mapping[str, Any]) -> None:
    state["conflict"] = None
    _next_in_round(state, False)


def _fold_wmd_used(state: State, data: Mapping[str, Any]) -> None:
    seat, target = data["seat"], data["target"]
    held = dict(state["advancements"][seat])
    held[data["advancement"]] -= 1
    if held[data["advancement"]] == 0:
        del held[data["advancement"]]
    state["advancements"][seat] = held
    state["supply"][data["advancement"]] += 1
    region = _region(state, data["region"])
    destroyed = set(data["destroyed"])
    for kind in INFLUENCE_TYPES:
        region["cards"][kind] = [card for card in region["cards"][kind] if card not in destroyed]
    state["discards"][target] = state["discards"][target] + list(data["destroyed"])
    _next_in_round(state, False)


def _fold_offer_made(state: State, data: Mapping[str, Any]) -> None:
    state["offers"][data["seat"]] = dict(data["offers"])


def _fold_offers_revealed(state: State, data: Mapping[str, Any]) -> None:
    relations = [list(row) for row in data["relations"]]
    state["relations"] = relations
    state["revealed_offers"] = clone_json(data["offers"])
    state["offers"] = [None] * state["seats"]
    state["phase"] = CONSOLIDATION


def _fold_regions_consolidated(state: State, data: Mapping[str, Any]) -> None:
    for rid, level in data["levels"].items():
        _region(state, rid)["level"] = level
    for rid in data["lost"]:
        region = _region(state, rid)
        region["controller"] = None
        region["status"] = "independent"
    for rid, seat in data["gained"].items():
        region = _region(state, rid)
        region["controller"] = seat
        region["status"] = "controlled"
    state["phase"] = TURN_ORDER


def _standing(state: State) -> dict[str, Any]:
    """What a turn must change not to count as quiet: each seat's Global Influence and the
    controller of each region."""
    return {"influence": [global_influence(state, seat) for seat in range(state["seats"])],
            "control": {rid: region["controller"] for rid, region in state["regions"].items()
                        if region["controller"] is not None}}


def _fold_turn_order_set(state: State, data: Mapping[str, Any]) -> None:
    state["order"] = list(data["order"])
    standing = _standing(state)
    state["quiet_turns"] = state["quiet_turns"] + 1 if standing == state["standing"] else 0
    state["standing"] = standing
    state["phase"] = TURN_END


def _fold_game_scored(state: State, data: Mapping[str, Any]) -> None:
    state["phase"] = OVER
    state["result"] = {"reason": data["reason"], "winners": list(data["winners"]),
                       "influence": list(data["influence"]), "points": list(data["points"])}


HANDLERS: dict[str, Handler] = {
    "TurnStarted": _fold_turn_started,
    "CardsDiscarded": _fold_cards_discarded,
    "PhaseStarted": _fold_phase_started,
    "CardsExchanged": _fold_cards_exchanged,
    "RegionDeveloped": _fold_region_developed,
    "AdvancementBought": _fold_advancement_bought,
    "DevelopmentDone": _fold_development_done,
    "InfluencePlaced": _fold_influence_placed,
    "InfluenceRemoved": _fold_influence_removed,
    "Passed": _fold_passed,
    "ConflictDeclared": _fold_conflict_declared,
    "AttackCancelled": _fold_attack_cancelled,
    "AttackRenewed": _fold_attack_renewed,
    "ConflictWon": _fold_conflict_won,
    "ConflictAbandoned": _fold_conflict_abandoned,
    "WmdUsed": _fold_wmd_used,
    "OfferMade": _fold_offer_made,
    "OffersRevealed": _fold_offers_revealed,
    "RegionsConsolidated": _fold_regions_consolidated,
    "TurnOrderSet": _fold_turn_order_set,
    "GameScored": _fold_game_scored,
}
EVENT_TYPES: tuple[str, ...] = ("TableSet", *HANDLERS)


def copy_state(state: State) -> State:
    """A copy whose containers a handler may change: lists of seats and the region map are
    new; each region, hand or pile a handler changes is replaced, never edited in place.

    The board (static components) is shared between states: nothing ever changes it.
    """
    new = dict(state)
    for key in ("hands", "decks", "discards", "advancements", "owed", "offers", "order"):
        new[key] = list(state[key])
    new["supply"] = dict(state["supply"])
    new["regions"] = dict(state["regions"])
    return new


evolve = make_evolve("Ideology", "TableSet", _fold_table_set, HANDLERS, copy_state)
