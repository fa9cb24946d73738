"""What each seat may see of a Pax Porfiriana game, built by inclusion (the
transcript lines are in :mod:`.describe`).

Public: gold, tableaux, troops, cubes, unrest, grievance piles, the market, the discard
piles, the regime, the public cards and the card definitions of the set. Secret: each
hand (a seat sees its own; the others see only how many cards it holds), the draw
pile's order and which cards of the set were left in the box. A seat's view names each
field it shows; nothing is copied from the state and then trimmed.
"""

from __future__ import annotations

import json
from typing import Any

from games.base import EventLike, Seat, State, clone_json, viewer_seat

from . import board as b
from . import cards as c
from .rules import NAME, assassination_cost, awaiting

PRIVATE_SETUP_FIELDS = ("deck", "box")


def _troop(state: State, troop: dict[str, Any]) -> dict[str, Any]:
    """A troop on an enterprise, with the bribe cubes on its Loyalty icons (tableaux are public)."""
    return {"card": troop["card"], "owner": troop["owner"],
            "bribes": state["players"][troop["owner"]]["bribes"].get(troop["card"], 0)}


def _enterprise(state: State, owner: Seat, ent: dict[str, Any]) -> dict[str, Any]:
    return {
        "card": ent["card"], "income": ent["income"], "extortion": ent["extortion"],
        "connections": list(ent["conn"]), "unrest": ent["unrest"], "land": ent["land"],
        "troop": None if ent["troop"] is None else _troop(state, ent["troop"]),
        "allowed_income": b.allowed_income(state, ent), "connection": b.connection(state, ent),
        "bribes": state["players"][owner]["bribes"].get(ent["card"], 0),
    }


def _player(state: State, seat: Seat) -> dict[str, Any]:
    player = state["players"][seat]
    return {
        "seat": seat,
        "gold": player["gold"],
        "hand_count": len(player["hand"]),
        "hacendado": {"card": player["hacendado"], "side": player["side"], "loyal_forever": player["loyal"],
                      "income_cubes": player["hac_cubes"]},
        "enterprises": [_enterprise(state, seat, ent) for ent in player["enterprises"]],
        "partners": [{"card": r["card"], "face": r["face"], "bribes": player["bribes"].get(r["card"], 0)}
                     for r in player["partners"]],
        "army": list(player["army"]),
        "bribes": dict(sorted(player["bribes"].items())),
        "troops": b.troops_of(state, seat),
        "grievances": list(player["grievances"]),
        "jail": player["jail"],
        "supply": player["supply"],
        "prestige": {kind: b.prestige(state, seat, kind) for kind in c.PRESTIGE},
        "income": b.income_of(state, seat),
        "assassination_cost": assassination_cost(state, seat),
    }


def _catalog_cards(state: State, seat: Seat | None) -> set[str]:
    """Cards whose definitions a view carries: those a seat can act on now (its hand, the
    market, the public cards, the regimes, a pending decision's). Every definition of the
    set is public and comes once in the GameSetUp event; tableaux name cards by id."""
    seen = set(state["public"]) | {card for _, _, card in b.market_slots(state)}
    seen |= {card for card in c.REGIMES if card in state["cards"]}
    if seat is not None:
        seen |= set(state["players"][seat]["hand"])
        seen.add(state["players"][seat]["hacendado"])
    if state["topple"] is not None:
        seen.add(state["topple"]["card"])
    for item in state["queue"][:1]:
        seen |= {item[key] for key in ("card", "source") if key in item}
    return seen


_TEXTS: dict[str, dict[str, str]] = {}


def _card_texts(state: State) -> dict[str, str]:
    """Each card definition as JSON text, cached per card set: parsing a short text is the
    cheapest way to hand every view its own copy of the definitions."""
    texts = _TEXTS.get(state["set_hash"])
    if texts is None:
        if len(_TEXTS) > 64:
            _TEXTS.clear()
        texts = {cid: json.dumps(card, ensure_ascii=False) for cid, card in state["cards"].items()}
        _TEXTS[state["set_hash"]] = texts
    return texts


def _named_cards(state: State) -> list[str]:
    """Every card on the table, for the view's id -> name index."""
    seen = set(state["discard"]) | set(state["bullbear"])
    for index, player in enumerate(state["players"]):
        seen.add(player["hacendado"])
        seen |= {e["card"] for e in player["enterprises"]} | {r["card"] for r in player["partners"]}
        seen |= set(b.troops_of(state, index)) | set(player["grievances"])
    return sorted(seen)


def view(state: State, seat: Seat | None) -> dict[str, Any]:
    """The game as ``seat`` (or a spectator, None) sees it now."""
    seat = viewer_seat(seat, state["seats"])
    regime = b.regime(state)
    queue = state["queue"]
    decision = None
    if queue and queue[0]["seat"] is not None:
        decision = {k: clone_json(v) for k, v in queue[0].items()}
    phase = "over" if state["result"] is not None else (decision["kind"] if decision else state["step"])
    out: dict[str, Any] = {
        "game": NAME,
        "seat": seat,
        "seats": state["seats"],
        "card_set": state["set"],
        "scenario": state["scenario"],
        "turn": state["turn"],
        "max_turns": state["options"]["max_turns"],
        "active": state["active"],
        "phase": phase,
        "actions_left": state["actions_left"],
        "market_buys": state["buys"],
        "bonus_actions": b.bonus_actions(state, state["active"]),
        "decision": decision,
        "awaiting": [{"seat": s, "kind": kind} for s, kind in sorted(awaiting(state).items())],
        "regime": {"id": regime["id"], "name": regime["name"], "mines": b.mines(state),
                   "economy": b.economy(state), "topple_prestige": regime["topple"]},
        "depression": state["depression"],
        "topples": {"bought": state["topples_bought"], "left_market": state["topples_out"]},
        "deck_count": len(state["deck"]),
        "market": [[None if card is None else {"card": card, "cost": b.MARKET_COSTS[col],
                                               "speculator": state["spec"].get(card)}
                    for col, card in enumerate(row)] for row in state["market"]],
        "public": list(state["public"]),
        "discard": list(state["discard"]),
        "bullbear": list(state["bullbear"]),
        "players": [_player(state, s) for s in range(state["seats"])],
        "topple": clone_json(state["topple"]),
        "limits": {"hand_limit": b.HAND_LIMIT, "market_costs": list(b.MARKET_COSTS), "market_buys_per_turn": 2,
                   "police_cost": b.POLICE_COST, "cubes_per_seat": 15},
        "result": clone_json(state["result"]),
    }
    if seat is not None:
        out["hand"] = list(state["players"][seat]["hand"])
    texts = _card_texts(state)
    out["cards"] = {card: json.loads(texts[card]) for card in sorted(_catalog_cards(state, seat))}
    out["names"] = {card: state["cards"][card]["name"] for card in _named_cards(state)}
    return out


def redact(event: EventLike, seat: Seat | None) -> dict[str, Any] | None:
    """The event's data as ``seat`` may see it: the setup hides the draw pile and the box."""
    data = event.data
    if event.type == "GameSetUp":
        out = {k: clone_json(v) for k, v in data.items() if k not in PRIVATE_SETUP_FIELDS}
        out["deck_count"] = len(data["deck"])
        return out
    return clone_json(dict(data))
