"""Builders for the Pax Porfiriana tests: scenario tables and hand-made positions.

Positions are edited on a copy of the state with the same bookkeeping the rules keep:
gold comes from the bank, cubes from the seat's supply, and a card moves from wherever
it was, so the conservation checks hold in scenarios too.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from typing import Any

import games.pax as pax
from games.pax import board as b
from games.pax.cards import load_named_set
from games.pax.fold import copy_state, find_enterprise
from games.table import Table

STARTER = {card["id"]: card for card in load_named_set("starter")["cards"]}
HACENDADOS = [c for c, d in STARTER.items() if d["category"] == "hacendado"]
#: Quiet cards for a scenario market: partners and blacks that change nothing until played.
FILLER = [c for c, d in STARTER.items() if d["category"] == "partner" and not d.get("effects")
          and not d.get("abilities")] + [c for c, d in STARTER.items() if d["category"] == "black"]


def scenario(seats: int = 3, deck: list[str] | None = None, **options: Any) -> Table:
    """A table with a fixed draw pile (market first), seat 0 first and the hacendados in set order."""
    if deck is None:
        deck = quiet_deck()
    opts = {"deck": deck, "first_seat": 0, "hacendados": HACENDADOS[:seats], **options}
    return Table(pax, seats, opts, seed="scenario")  # type: ignore[arg-type]


def quiet_deck(front: list[str] | None = None, size: int = 40) -> list[str]:
    """``front`` on top, then deck cards that start nothing when they reach the market."""
    front = list(front or [])
    rest = [c for c in FILLER if c not in front]
    rest += [c for c, d in STARTER.items() if d["category"] in ("enterprise", "troop", "orange")
             and c not in front and c not in rest]
    return front + rest[: max(0, size - len(front))]


def edit(t: Table, change: Callable[[dict[str, Any]], None]) -> None:
    state = copy_state(t.current)
    change(state)
    t.state = state


def take(state: dict[str, Any], card: str) -> None:
    """Remove ``card`` from the zone it is in (deck, box, market, discard piles, a hand)."""
    for key in ("deck", "box", "discard", "bullbear", "public"):
        if card in state[key]:
            state[key].remove(card)
            return
    for row in state["market"]:
        if card in row:
            row[row.index(card)] = None
            state["spec"].pop(card, None)
            return
    for player in state["players"]:
        if card in player["hand"]:
            player["hand"].remove(card)
            return
    raise AssertionError(f"{card} is not in a zone a builder can take it from")


def give(state: dict[str, Any], seat: int, *cards: str) -> None:
    for card in cards:
        take(state, card)
        state["players"][seat]["hand"].append(card)


def set_gold(state: dict[str, Any], seat: int, gold: int) -> None:
    state["bank"] += state["players"][seat]["gold"] - gold
    state["players"][seat]["gold"] = gold


def place_enterprise(state: dict[str, Any], seat: int, card: str, income: int | None = None,
                     connections: list[int | None] | None = None, unrest: int = 0) -> dict[str, Any]:
    take(state, card)
    definition = state["cards"][card]
    ent = {"card": card, "income": 0, "extortion": None, "conn": [None] * len(definition["ovals"]),
           "unrest": unrest, "troop": None, "land": 0}
    state["players"][seat]["enterprises"].append(ent)
    ent["income"] = b.allowed_income(state, ent) if income is None else income
    state["players"][seat]["supply"] -= ent["income"]
    for oval, holder in enumerate(connections or []):
        if holder is not None:
            ent["conn"][oval] = holder
            state["players"][holder]["supply"] -= 1
    return ent


def place_partner(state: dict[str, Any], seat: int, card: str, face: int | None = None) -> None:
    take(state, card)
    state["players"][seat]["partners"].append({"card": card, "face": face})
    if state["regime"] == "pax":
        icons = b.loyalty_icons(state, seat).get(card, 0)
        if icons:
            state["players"][seat]["bribes"][card] = icons
            state["players"][seat]["supply"] -= icons


def place_troop(state: dict[str, Any], owner: int, troop: str, ent_card: str, extort: bool = False) -> None:
    take(state, troop)
    _, ent = find_enterprise(state, ent_card)  # type: ignore[misc]
    ent["troop"] = {"card": troop, "owner": owner}
    if extort:
        ent["income"] -= 1
        ent_owner = find_enterprise(state, ent_card)[0]  # type: ignore[index]
        state["players"][ent_owner]["supply"] += 1
        ent["extortion"] = owner
        state["players"][owner]["supply"] -= 1


def turn_hacendado(state: dict[str, Any], seat: int, side: int) -> None:
    player = state["players"][seat]
    player["supply"] += player["hac_cubes"]
    player["hac_cubes"] = 0
    player["side"] = side


def card_zones(state: dict[str, Any]) -> Counter[str]:
    """Every deck card wherever it is: each must be in exactly one place."""
    seen: Counter[str] = Counter()
    for key in ("deck", "box", "discard", "bullbear", "public"):
        seen.update(state[key])
    seen.update(card for row in state["market"] for card in row if card is not None)
    for player in state["players"]:
        seen.update(player["hand"])
        seen.update(player["army"])
        seen.update(player["grievances"])
        seen.update(r["card"] for r in player["partners"])
        for ent in player["enterprises"]:
            seen[ent["card"]] += 1
            if ent["troop"] is not None:
                seen[ent["troop"]["card"]] += 1
    if state["topple"] is not None:
        seen[state["topple"]["card"]] += 1
    for item in state["queue"]:
        if item["kind"] in ("bullbear", "retreat", "battle_retreat"):
            seen[item["card"]] += 1
    return seen


def check_conservation(state: dict[str, Any]) -> None:
    """Gold, cubes and cards are neither made nor lost."""
    assert sum(p["gold"] for p in state["players"]) + state["bank"] == state["start_gold"]
    assert all(p["gold"] >= 0 for p in state["players"])
    for seat, player in enumerate(state["players"]):
        assert player["supply"] >= 0
        assert player["supply"] + b.placed_cubes(state, seat) == 15, f"seat {seat} cubes"
    zones = card_zones(state)
    assert all(n == 1 for n in zones.values()), [c for c, n in zones.items() if n != 1]
    expected = {c for c, d in state["cards"].items() if d["category"] not in ("hacendado", "regime")}
    assert set(zones) == expected, sorted(set(zones) ^ expected)
    for _, ent in b.enterprises(state):
        assert ent["unrest"] >= 0 and ent["income"] >= 0
        assert (ent["extortion"] is None) or (ent["troop"] is not None and ent["troop"]["owner"] == ent["extortion"])


def events_of(events: list[Any], kind: str) -> list[Any]:
    return [e for e in events if e.type == kind]


def dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True)
