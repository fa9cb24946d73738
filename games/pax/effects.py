"""What happens on the table, as sequences of events: the shared steps of many rules.

Every function here takes a :class:`Draft` (a private copy of the state plus the events
emitted so far), emits facts and folds them at once, so the next step sees them. None
of them checks whether an action is allowed: :mod:`.actions` does that before calling.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.base import GameEvent, Seat, State

from . import board as b
from .fold import apply_in_place, copy_state


class Draft:
    """A private working copy of the state and the events that brought it there."""

    def __init__(self, state: State) -> None:
        self.state = copy_state(state)
        self.events: list[GameEvent] = []

    def emit(self, type_: str, data: Mapping[str, Any], actor: Seat | None = None) -> None:
        apply_in_place(self.state, type_, data)
        self.events.append(GameEvent(type_, dict(data), actor))


def hand(seat: Seat) -> dict[str, Any]:
    return {"zone": "hand", "seat": seat}


def tableau(seat: Seat, face: int | None = None) -> dict[str, Any]:
    return {"zone": "tableau", "seat": seat} if face is None else {"zone": "tableau", "seat": seat, "face": face}


def zone(name: str) -> dict[str, Any]:
    return {"zone": name}


def troop_at(ent_card: str, owner: Seat) -> dict[str, Any]:
    return {"zone": "troop", "enterprise": ent_card, "owner": owner}


def move(d: Draft, card: str, frm: Mapping[str, Any], to: Mapping[str, Any], actor: Seat | None = None) -> None:
    d.emit("CardMoved", {"card": card, "from": dict(frm), "to": dict(to)}, actor)


def pay(d: Draft, frm: Seat | None, to: Seat | None, amount: int, why: str) -> None:
    if amount > 0 and frm != to:
        d.emit("GoldMoved", {"from": frm, "to": to, "amount": amount, "why": why})


def steal(d: Draft, thief: Seat, victim: Seat, amount: int) -> int:
    """Take up to ``amount`` from the victim; stealing from yourself does nothing."""
    if thief == victim:
        return 0
    taken = min(amount, d.state["players"][victim]["gold"])
    pay(d, victim, thief, taken, "steal")
    return taken


def add_income_cubes(d: Draft, owner: Seat, ent_card: str, wanted: int, land: int = 0) -> int:
    count = min(wanted, d.state["players"][owner]["supply"])
    if count > 0 or land:
        d.emit("IncomeCubesChanged", {"enterprise": ent_card, "delta": count, "land": land})
    return count


def clear_bribes(d: Draft, seat: Seat, card: str) -> None:
    count = d.state["players"][seat]["bribes"].get(card, 0)
    if count:
        d.emit("BribeCubesChanged", {"seat": seat, "card": card, "delta": -count})


def place_bribes(d: Draft, seat: Seat, card: str) -> None:
    """Under Pax, a bribe cube on each Loyalty icon of a card in play, as far as cubes last."""
    if d.state["regime"] != "pax":
        return
    wanted = b.loyalty_icons(d.state, seat).get(card, 0) - d.state["players"][seat]["bribes"].get(card, 0)
    count = min(wanted, d.state["players"][seat]["supply"])
    if count > 0:
        d.emit("BribeCubesChanged", {"seat": seat, "card": card, "delta": count})


def retreat_zone(state: State, owner: Seat, troop: str) -> dict[str, Any]:
    """Where a retreating troop goes: its owner's private army when the turned hacendado
    shares its faction, else back to its owner's hand."""
    if b.hacendado_faction(state, owner) == b.card(state, troop)["faction"]:
        return {"zone": "army", "seat": owner}
    return hand(owner)


def retreat(d: Draft, troop: str, frm: Mapping[str, Any]) -> None:
    """A troop retreats (its enterprise left play, or a battle between troops of one faction).

    While its owner's hacendado may still be turned, the troop waits aside and the owner
    owes a ``retreat`` decision first: the rules allow a manifesto during a retreat, so the
    troop can join the private army of the new faction. Otherwise it goes home at once."""
    owner = frm["owner"] if frm["zone"] == "troop" else frm["seat"]
    if b.can_turn(d.state, owner):
        move(d, troop, frm, zone("limbo"))
        queue(d, [{"seat": owner, "kind": "retreat", "card": troop}], front=True)
        return
    retreat_home(d, owner, troop, frm)


def retreat_home(d: Draft, owner: Seat, troop: str, frm: Mapping[str, Any]) -> None:
    """To the owner's private army, where it takes its bribe cubes again, or to the hand."""
    to = retreat_zone(d.state, owner, troop)
    move(d, troop, frm, to)
    if to["zone"] == "army":
        place_bribes(d, owner, troop)


def withdraw_troop(d: Draft, ent_card: str, to: Mapping[str, Any]) -> None:
    """A troop leaves an enterprise: an extortion cube it held becomes the owner's cube again."""
    owner, ent = b.placed_enterprise(d.state, ent_card)
    troop = ent["troop"]
    if troop is None:
        return
    t_owner = troop["owner"]
    if ent["extortion"] is not None:
        d.emit("ExtortionCubeSet", {"enterprise": ent_card, "seat": None})
        add_income_cubes(d, owner, ent_card, 1)
    clear_bribes(d, t_owner, troop["card"])
    move(d, troop["card"], troop_at(ent_card, t_owner), to)


def discard_troop(d: Draft, troop: str) -> None:
    found = b.troop_location(d.state, troop)
    if found is None:
        return
    t_owner, ent = found
    if ent is None:
        clear_bribes(d, t_owner, troop)
        move(d, troop, {"zone": "army", "seat": t_owner}, zone("discard"))
    else:
        withdraw_troop(d, ent["card"], zone("discard"))


def discard_partner(d: Draft, seat: Seat, card: str) -> None:
    """A partner leaves play; a public card goes back to its public space."""
    clear_bribes(d, seat, card)
    to = zone("public") if b.card(d.state, card)["category"] == "public" else zone("discard")
    move(d, card, tableau(seat), to)


def clear_enterprise(d: Draft, ent_card: str, to: Mapping[str, Any]) -> None:
    """An enterprise leaves play: its troop retreats, every cube goes home, discs go back."""
    owner, ent = b.placed_enterprise(d.state, ent_card)
    if ent["extortion"] is not None:
        d.emit("ExtortionCubeSet", {"enterprise": ent_card, "seat": None})
    if ent["troop"] is not None:
        t_owner, troop = ent["troop"]["owner"], ent["troop"]["card"]
        clear_bribes(d, t_owner, troop)
        retreat(d, troop, troop_at(ent_card, t_owner))
    owner, ent = b.placed_enterprise(d.state, ent_card)
    if ent["income"]:
        d.emit("IncomeCubesChanged", {"enterprise": ent_card, "delta": -ent["income"]})
    for oval, holder in enumerate(ent["conn"]):
        if holder is not None:
            d.emit("ConnectionCubeSet", {"enterprise": ent_card, "oval": oval, "seat": None})
    if ent["unrest"]:
        d.emit("UnrestChanged", {"enterprise": ent_card, "delta": -ent["unrest"]})
    clear_bribes(d, owner, ent_card)
    move(d, ent_card, tableau(owner), to)


def loot(d: Draft, ent_card: str) -> None:
    """Looted: the enterprise goes back to its owner's hand."""
    owner, _ = b.placed_enterprise(d.state, ent_card)
    clear_enterprise(d, ent_card, hand(owner))


def adjust_profit(d: Draft, ent_card: str) -> None:
    """Bring an enterprise's income and extortion cubes to what it may hold now.

    Income cubes go first; when the extortion cube has to go too, the enterprise is looted.
    """
    found = b.enterprise(d.state, ent_card)
    if found is None:
        return
    owner, ent = found
    target = b.allowed_income(d.state, ent)
    current = b.profit(ent)
    if current > target:
        drop = min(ent["income"], current - target)
        if drop:
            d.emit("IncomeCubesChanged", {"enterprise": ent_card, "delta": -drop})
        if current - drop > target and ent["extortion"] is not None:
            d.emit("ExtortionCubeSet", {"enterprise": ent_card, "seat": None})
            loot(d, ent_card)
    elif current < target:
        add_income_cubes(d, owner, ent_card, target - current)


def adjust_regime_incomes(d: Draft) -> None:
    for _, ent_card in [(o, e["card"]) for o, e in b.enterprises(d.state)]:
        if b.card(d.state, ent_card)["income"]["kind"] in ("economy", "mine"):
            adjust_profit(d, ent_card)


def change_regime(d: Draft, new: str) -> None:
    old = d.state["regime"]
    if new == old:
        return
    if old == "pax":
        for seat, player in enumerate(d.state["players"]):
            for card in list(player["bribes"]):
                clear_bribes(d, seat, card)
    d.emit("RegimeChanged", {"regime": new, "previous": old})
    if new == "pax":
        for seat in range(d.state["seats"]):
            for card in b.loyalty_icons(d.state, seat):
                place_bribes(d, seat, card)
    adjust_regime_incomes(d)


def set_depression(d: Draft, on: bool) -> None:
    if d.state["depression"] == on:
        return
    d.emit("DepressionChanged", {"on": on})
    adjust_regime_incomes(d)


def jail(d: Draft, seat: Seat) -> None:
    if not d.state["players"][seat]["jail"]:
        d.emit("JailChanged", {"seat": seat, "jailed": True})


def add_unrest(d: Draft, ent_card: str, amount: int, liberator: Seat) -> None:
    if amount <= 0 or b.enterprise(d.state, ent_card) is None:
        return
    d.emit("UnrestChanged", {"enterprise": ent_card, "delta": amount})
    check_slave_revolt(d, ent_card, liberator)


def check_slave_revolt(d: Draft, ent_card: str, liberator: Seat) -> None:
    """A plantation or slave mine with more unrest discs than cubes revolts: the card goes to
    the Liberator's grievance pile and its owner goes to jail."""
    found = b.enterprise(d.state, ent_card)
    if found is None:
        return
    owner, ent = found
    if b.card(d.state, ent_card).get("slaves") and ent["unrest"] > b.cubes_on(d.state, ent, owner):
        clear_enterprise(d, ent_card, {"zone": "grievances", "seat": liberator})
        jail(d, owner)


def to_bullbear(d: Draft, card: str, frm: Mapping[str, Any]) -> None:
    """A played or discarded headline goes to the bull-bear pile: two bears in a row start a
    depression, two bulls in a row end it."""
    pile = d.state["bullbear"]
    previous = b.card(d.state, pile[-1])["icon"] if pile else None
    move(d, card, frm, zone("bullbear"))
    icon = b.card(d.state, card)["icon"]
    if previous == icon == "bear":
        set_depression(d, True)
    elif previous == icon == "bull":
        set_depression(d, False)


def queue(d: Draft, items: list[dict[str, Any]], front: bool = False) -> None:
    if items:
        d.emit("DecisionsQueued", {"items": items, "front": front})


def effect_items(effects: list[dict[str, Any]], actor: Seat, source: str, district: str | None = None,
                 spare: str | None = None) -> list[dict[str, Any]]:
    """System steps for a card's effects, run in the order printed."""
    return [{"seat": None, "kind": "effect", "effect": effect, "actor": actor, "source": source,
             "district": district, "spare": spare} for effect in effects]


def run_effect(d: Draft, item: Mapping[str, Any]) -> None:
    effect, actor = item["effect"], item["actor"]
    kind = effect["kind"]
    state = d.state
    if kind == "regime_change":
        change_regime(d, effect["to"])
    elif kind in ("unrest_others", "unrest_district"):
        district = effect.get("district", item.get("district"))
        if district is None:
            return
        for _, ent_card in [(o, e["card"]) for o, e in b.enterprises(state)]:
            if ent_card != item.get("spare") and b.card(d.state, ent_card)["district"] == district:
                add_unrest(d, ent_card, effect["amount"], actor)
    elif kind == "gain":
        for seat in b.left_of(state, actor):
            if effect["faction"] in b.factions_in_tableau(d.state, seat) \
                    or b.hacendado_faction(d.state, seat) == effect["faction"]:
                pay(d, None, seat, effect["amount"], "headline")
    elif kind == "conflict":
        first, second = effect["factions"]
        owed = []
        for seat in b.left_of(state, actor):
            held = b.factions_in_tableau(d.state, seat)
            hac = b.hacendado_faction(d.state, seat)
            has = {f for f in (first, second) if f in held or hac == f}
            if has == {first, second} and (held.get(first) or held.get(second)):
                owed.append({"seat": seat, "kind": "conflict", "factions": [first, second], "source": item["source"]})
        queue(d, owed, front=True)


def discard_faction(d: Draft, seat: Seat, faction: str) -> None:
    """Conflict: every partner, public card and troop of one faction leaves ``seat``'s tableau."""
    cards = b.factions_in_tableau(d.state, seat).get(faction, [])
    for card in cards:
        if b.card(d.state, card)["category"] == "troop":
            discard_troop(d, card)
        else:
            discard_partner(d, seat, card)


def end_game(d: Draft, reason: str, candidates: list[Seat] | None = None) -> None:
    """The richest of ``candidates`` (every seat by default) wins; equal gold shares the win."""
    seats = candidates if candidates else list(range(d.state["seats"]))
    gold = [p["gold"] for p in d.state["players"]]
    best = max(gold[s] for s in seats)
    winners = sorted(s for s in seats if gold[s] == best)
    d.emit("GameDecided", {"reason": reason, "winners": winners, "gold": gold})
