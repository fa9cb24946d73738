"""What each seat may see of an Ideology game, built by inclusion (the
transcript lines are in :mod:`.describe`).

Public: the map, every card on a region (whose and of which type), hand sizes, deck and
discard sizes, advancements held and in supply, diplomatic statuses, the conflict in
play, who has sealed an offer, and every revealed offer. Private to one seat: its hand,
the cards it draws, discards from its hand (Resources and Exchange) and its sealed
offer until the reveal. Never shown to anyone while the game is on: the order of a
deck, of a reshuffled discard pile, of the region pile, and a scenario's fixed piles.
"""

from __future__ import annotations

from typing import Any

from games.base import EventLike, Seat, State, clone_json, viewer_seat
from games.ideology.board import (
    CONFLICT,
    DIPLOMACY,
    MAX_CONTROLLED,
    card_owner,
    card_type,
    controlled_by,
    count_types,
    global_influence,
    max_influence,
    tie_break_points,
    trade_power,
)
from games.ideology.components import INFLUENCE_TYPES
from games.ideology.rules import (
    NAME,
    SECRET_OPTIONS,
    awaiting,
    why,
)

# Events every seat sees, each card shown by its face (see :func:`card_face`).
PUBLIC_EVENTS = frozenset({
    "PhaseStarted",
    "RegionDeveloped",
    "AdvancementBought",
    "DevelopmentDone",
    "InfluencePlaced",
    "InfluenceRemoved",
    "Passed",
    "ConflictDeclared",
    "AttackCancelled",
    "AttackRenewed",
    "ConflictWon",
    "ConflictAbandoned",
    "WmdUsed",
    "OffersRevealed",
    "RegionsConsolidated",
    "TurnOrderSet",
    "GameScored",
})


#: The fields of public events that name cards: one card, or a list of them.
CARD_FIELDS = ("card", "replaced")
CARD_LIST_FIELDS = ("cards", "penalty", "destroyed")


def card_face(card: str) -> str:
    """What the table shows of a card: its ideology and type (``"fascism:military"``).

    A card's id tells its place in a deck, and the card a seat lays is the first of its
    type in its hand: the id would let the other seats tell which cards it exchanged or
    discarded in secret (issue 27). Cards of one type are interchangeable (D9), so the
    face is all the rules make public; ids reach the log once the game is over.
    """
    return f"{card[:card.index(':')]}:{card_type(card)}"


def _faces(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` (a copy) with every card it names shown by its face."""
    for field in CARD_FIELDS:
        if isinstance(data.get(field), str):
            data[field] = card_face(data[field])
    for field in CARD_LIST_FIELDS:
        if isinstance(data.get(field), list):
            data[field] = [card_face(card) for card in data[field]]
    return data


def public_options(options: dict[str, Any]) -> dict[str, Any]:
    shown = {key: clone_json(value) for key, value in sorted(options.items()) if key not in SECRET_OPTIONS}
    if isinstance(shown.get("map"), dict):
        shown["map"] = {"name": shown["map"].get("name", "custom"), "custom": True}
    for key in SECRET_OPTIONS:
        shown[f"{key}_fixed"] = options.get(key) is not None
    return shown


def _region_entry(state: State, rid: str) -> dict[str, Any]:
    region = state["regions"][rid]
    info = state["board"]["regions"][rid]
    return {
        "id": rid,
        "name": info["name"],
        "level": info["level"],
        "development": region["level"],
        "max_influence": max_influence(state, rid),
        "status": region["status"],
        "controller": region["controller"],
        "neighbours": list(info["neighbours"]),
        "influence": {kind: [card_owner(state, card) for card in region["cards"][kind]] for kind in INFLUENCE_TYPES},
    }


def view(state: State, seat: Seat | None) -> dict[str, Any]:
    """The game as ``seat`` (or a spectator, None) sees it now."""
    seat = viewer_seat(seat, state["seats"])
    board = state["board"]
    waiting = awaiting(state)
    players = []
    for index in range(state["seats"]):
        iid = state["ideology"][index]
        regions = controlled_by(state, index)
        players.append({
            "seat": index,
            "ideology": iid,
            "name": board["ideologies"][iid]["name"],
            "global_influence": global_influence(state, index),
            "trade_power": trade_power(state, index),
            "hand_size": len(state["hands"][index]),
            "deck_size": len(state["decks"][index]),
            "discard_size": len(state["discards"][index]),
            "advancements": dict(sorted(state["advancements"][index].items())),
            "tie_break_points": tie_break_points(state, index),
            "regions": regions,
            "control_markers_left": MAX_CONTROLLED - len(regions),
        })
    out: dict[str, Any] = {
        "game": NAME,
        "seat": seat,
        "seats": state["seats"],
        "turn": state["turn"],
        "phase": state["phase"],
        "why": why(state),
        "awaiting": [{"seat": s, "kind": kind} for s, kind in sorted(waiting.items())],
        "order": list(state["order"]),
        "map": {"name": board["name"], "reconstructed": board["reconstructed"], "notes": board["notes"]},
        "options": public_options(state["options"]),
        "scenario": state["scenario"],
        "players": players,
        "regions": [_region_entry(state, rid) for rid, region in state["regions"].items()
                    if region["status"] != "deck"],
        "region_pile_size": len(state["region_pile"]),
        "supply": dict(state["supply"]),
        "advancement_cards": [clone_json(card) for card in board["advancements"].values()],
        "relations": [{"seats": [a, b], "status": state["relations"][a][b]}
                      for a in range(state["seats"]) for b in range(a + 1, state["seats"])],
        "legal_actions_complete": True,
    }
    if waiting:
        kinds = sorted(set(waiting.values()))
        out["decision"] = {"seats": sorted(waiting), "kind": kinds[0] if len(kinds) == 1 else kinds,
                           "why": why(state)}
    conflict = state["conflict"]
    if state["phase"] == CONFLICT and conflict is not None:
        out["conflict"] = {key: conflict[key] for key in ("attacker", "defender", "region", "influence", "stage",
                                                          "cancelled")}
    if state["phase"] == DIPLOMACY:
        out["offers_sealed"] = [offer is not None for offer in state["offers"]]
        if seat is not None:
            mine = state["offers"][seat]
            out["my_offer"] = None if mine is None else dict(mine)
    if state["revealed_offers"] is not None:
        out["last_offers"] = clone_json(state["revealed_offers"])
    if seat is not None:
        hand = state["hands"][seat]
        out["hand"] = {"cards": list(hand), "counts": count_types(hand)}
        if state["owed"][seat]:
            out["discard_owed"] = state["owed"][seat]
    result = state["result"]
    if result is not None:
        out["result"] = clone_json(result)
    return out


def _draw_shown(draw: dict[str, Any] | None, own: bool) -> dict[str, Any] | None:
    if draw is None:
        return None
    shown: dict[str, Any] = {"count": len(draw["cards"]), "reshuffled": draw.get("reshuffled") is not None}
    if own:
        shown["cards"] = list(draw["cards"])
    return shown


def redact(event: EventLike, seat: Seat | None) -> dict[str, Any] | None:
    """The event's data as ``seat`` may see it: hands, draws and sealed offers only to their seat."""
    data = event.data
    kind = event.type
    if isinstance(seat, bool) or not isinstance(seat, int):
        seat = None
    if kind == "TableSet":
        return {
            "seats": data["seats"], "options": public_options(data["options"]), "board": clone_json(data["board"]),
            "ideologies": list(data["ideologies"]), "order": list(data["order"]),
            "regions": {rid: {**clone_json(region), "cards": {kind: [card_face(card) for card in cards]
                                                            for kind, cards in region["cards"].items()}}
                        for rid, region in data["regions"].items() if region["status"] != "deck"},
            "region_pile_size": len(data["region_pile"]), "deck_sizes": [len(deck) for deck in data["decks"]],
            "advancements": clone_json(data["advancements"]), "supply": dict(data["supply"]),
            "scenario": data["scenario"],
        }
    if kind == "TurnStarted":
        return {"turn": data["turn"], "owed": list(data["owed"]),
                "draws": [_draw_shown(draw, index == seat) for index, draw in enumerate(data["draws"])]}
    if kind == "CardsDiscarded":
        shown = {"seat": data["seat"], "count": len(data["cards"])}
        if seat == data["seat"]:
            shown["cards"] = list(data["cards"])
        return shown
    if kind == "CardsExchanged":
        own = seat == data["seat"]
        shown = {"seat": data["seat"], "count": len(data["discarded"]), "draw": _draw_shown(data["draw"], own)}
        if own:
            shown["discarded"] = list(data["discarded"])
        return shown
    if kind == "OfferMade":
        if seat == data["seat"]:
            return {"seat": data["seat"], "offers": dict(data["offers"])}
        return {"seat": data["seat"]}
    if kind in PUBLIC_EVENTS:
        return _faces(clone_json(dict(data)))
    return None
