"""The turn's legal actions, listed directly rather than by checking every candidate.

The first generator named every action the turn could name (a troop to every enterprise,
every upgrade oval, a speculation from every market card to every other) and ran each
through its ``check_*``: a few hundred candidates for a few dozen legal actions, each
check finding the enterprise, the seat's abilities and its bonus actions afresh. Search
bots call this thousands of times a decision, so here the facts every check shares are
read once (enterprises by card, bonus actions, the firepower bonus, what each connection
costs) and each kind of action is kept only when its check would pass, in the order the
first generator listed them.

The checks in :mod:`.actions` stay the authority: ``decide`` runs them on every action,
and a property test (tests/games/pax/test_legal_actions.py) holds this list to exactly
the candidates those checks accept, in the same order. A change to a check is a change
here too.
"""

from __future__ import annotations

from typing import Any

from games.base import Action, Seat, State

from . import board as b
from .actions import last_topple, trunk_holder


class _Turn:
    """What one seat's checks read, read once."""

    __slots__ = ("state", "seat", "player", "cards", "gold", "left", "bonus", "supply", "owners", "fp_bonus",
                 "districts", "troops", "stationed")

    def __init__(self, state: State, seat: Seat) -> None:
        self.state = state
        self.seat = seat
        self.player = player = state["players"][seat]
        self.cards = state["cards"]
        self.gold = player["gold"]
        self.left = state["actions_left"]
        self.bonus = b.bonus_actions(state, seat)
        self.supply = player["supply"]
        #: enterprise card -> (owner, record), in the order ``board.enterprises`` walks them
        self.owners: dict[str, tuple[Seat, dict[str, Any]]] = {}
        #: each seat's troops as ``board.troops_of`` lists them: at enterprises, then its army
        self.troops: list[list[str]] = [[] for _ in state["players"]]
        #: troop card -> the enterprise record it stands on (``board.troop_location``'s second half)
        self.stationed: dict[str, dict[str, Any]] = {}
        for owner, other in enumerate(state["players"]):
            for ent in other["enterprises"]:
                self.owners[ent["card"]] = (owner, ent)
                troop = ent["troop"]
                if troop is not None:
                    self.troops[troop["owner"]].append(troop["card"])
                    self.stationed[troop["card"]] = ent
        for owner, other in enumerate(state["players"]):
            self.troops[owner] += other["army"]
        self.fp_bonus: dict[Seat, int] = {}
        self.districts = {card: self.cards[card]["district"] for card in self.owners}

    def may(self, kind: str, needed: int = 1) -> bool:
        """``actions._actions_for`` would pass: a matching bonus action or enough actions left."""
        return (needed == 1 and kind in self.bonus) or self.left >= needed

    def firepower(self, troop: str, owner: Seat) -> int:
        bonus = self.fp_bonus.get(owner)
        if bonus is None:
            bonus = self.fp_bonus[owner] = b.firepower_bonus(self.state, owner)
        return self.cards[troop]["firepower"] + bonus

    def destination_cost(self, troop: str, to: str, current: dict[str, Any] | None, in_army: bool) -> int | None:
        """What ``actions._check_destination`` would charge, or None where it refuses."""
        state, cards = self.state, self.cards
        definition = cards[troop]
        if to == "hacendado":
            player = self.player
            if player["side"] is None:
                return None
            orientation = cards[player["hacendado"]]["orientations"][player["side"]]
            if orientation["faction"] != definition["faction"]:
                return None
            return 0 if in_army else b.fare(state, troop, orientation["connection"])
        owner, ent = self.owners[to]
        if current is not None and current["card"] == to:
            return 0
        regime = state["regime"]
        district = self.districts[to]
        if not (regime == "anarchy" or definition["jurisdiction"] == district
                or (regime == "us_intervention" and definition["faction"] == "blue" and district != "america")
                or b.working_trunk(state, ent) is not None):
            return None
        defender = ent["troop"]
        if defender is not None and self.firepower(troop, self.seat) <= self.firepower(defender["card"],
                                                                                      defender["owner"]):
            return None
        if owner != self.seat and self.supply < 1:
            return None
        return b.fare(state, troop, b.connection(state, ent))


def turn_actions(state: State, seat: Seat) -> list[Action]:
    """Every action ``seat`` may take in its actions step (no decision queued), in the first
    generator's order."""
    t = _Turn(state, seat)
    cards, player, gold, supply = t.cards, t.player, t.gold, t.supply
    ents = list(t.owners)
    out: list[Action] = []
    #: (column, card) of every market slot that holds a card, as ``board.market_slots`` walks them
    slots = [(col, card) for row in state["market"] for col, card in enumerate(row) if card is not None]
    may_play = t.may("play")
    for card in player["hand"]:
        definition = cards[card]
        category = definition["category"]
        if category in ("enterprise", "partner"):
            cost = definition["cost"]
            if category == "enterprise":
                cost = max(0, cost - b.discount(state, seat, card))
            if may_play and gold >= cost:
                out.append({"type": "play", "card": card})
        elif category == "troop":
            if may_play:
                for to in [*ents, "hacendado"]:
                    cost = t.destination_cost(card, to, None, False)
                    if cost is not None and gold >= cost:
                        out.append({"type": "play", "card": card, "to": to})
        elif category == "orange":
            if not may_play:
                continue
            district = definition.get("district")
            full = gold >= definition["cost"]
            for target in ents:
                owner, record = t.owners[target]
                if district and t.districts[target] != district:
                    continue
                if owner == seat and record["unrest"] > 0:
                    continue
                if full:
                    out.append({"type": "play", "card": card, "target": target})
                if definition["scapegoat"]:
                    out.append({"type": "play", "card": card, "target": target, "scapegoat": True})
        elif category == "black":
            needed = 2 if definition.get("regime") and definition["regime"] != state["regime"] else 1
            if not t.may("play", needed) or gold < definition["cost"]:
                continue
            target = definition["target"]
            if target == "seat":
                for victim in range(state["seats"]):
                    if definition["opponent_only"] and victim == seat:
                        continue
                    if definition["steal"] and victim != seat and state["players"][victim]["gold"] == 0 \
                            and not definition["jail"] and not definition["prestige"]:
                        continue
                    out.append({"type": "play", "card": card, "target": victim})
            elif target == "partner":
                for victim, other in enumerate(state["players"]):
                    if definition["opponent_only"] and victim == seat:
                        continue
                    out += [{"type": "play", "card": card, "target": r["card"]} for r in other["partners"]]
            else:
                for victim in range(state["seats"]):
                    if definition["opponent_only"] and victim == seat:
                        continue
                    out += [{"type": "play", "card": card, "target": troop} for troop in t.troops[victim]]
    if state["buys"] < 2:
        needed = 2 if state["buys"] == 1 else 1
        may_buy = t.may("buy", needed)
        hand_full = len(player["hand"]) >= b.HAND_LIMIT
        for col, card in slots:
            if not may_buy or gold < b.MARKET_COSTS[col]:
                continue
            if cards[card]["category"] in ("headline", "topple"):
                out += [{"type": "buy", "card": card, "side": side} for side in ("event", "status_quo")]
            elif not hand_full:
                out.append({"type": "buy", "card": card})
    if t.may("buy_public"):
        out += [{"type": "buy_public", "card": card, "face": face} for card in state["public"]
                if gold >= cards[card]["cost"] for face in (0, 1)]
    own_troops = t.troops[seat]
    if t.may("sell"):
        out += [{"type": "sell", "card": card} for card in player["hand"]]
        out += [{"type": "sell", "card": ent["card"]} for ent in player["enterprises"] if not ent["unrest"]]
        out += [{"type": "sell", "card": record["card"]} for record in player["partners"]]
        out += [{"type": "sell", "card": troop} for troop in own_troops]
    if t.may("redeploy"):
        for troop in own_troops:
            current = t.stationed.get(troop)
            for to in [*ents, "hacendado"]:
                cost = t.destination_cost(troop, to, current, current is None)
                if cost is not None and gold >= cost:
                    out.append({"type": "redeploy", "card": troop, "to": to})
    may_land = supply >= 1 and t.left >= 2
    may_police = t.may("police")
    free_police = state["regime"] == "martial_law"
    may_speculate = t.may("speculate")
    for ent in player["enterprises"]:
        card = ent["card"]
        income = cards[card]["income"]
        if may_land and income["kind"] == "upgradable" and gold >= b.cubes_on(state, ent, seat):
            out.append({"type": "buy_land", "enterprise": card})
        if ent["unrest"] and may_police and (free_police or ent["troop"] is not None or gold >= b.POLICE_COST):
            out.append({"type": "police", "enterprise": card})
        if may_speculate and supply >= 1 and income["kind"] != "upgradable" \
                and b.profit(ent) < b.allowed_income(state, ent):
            out.append({"type": "speculate", "to": {"income": card}})
    if supply >= 1 and t.may("upgrade"):
        cheap = None  # whether upgrades cost this seat 1 gold: asked only when an oval costs more than its gold
        for card in ents:
            ent = t.owners[card][1]
            ovals = cards[card]["ovals"]
            for oval, holder in enumerate(ent["conn"]):
                if holder is not None:
                    continue
                cost = ovals[oval]["cost"]
                if gold < cost:
                    if cheap is None:
                        cheap = trunk_holder(state, seat)
                    if not cheap or gold < min(cost, 1):
                        continue
                out.append({"type": "upgrade", "enterprise": card, "oval": oval})
    if player["jail"] and may_police and (free_police or gold >= b.POLICE_COST):
        out.append({"type": "police", "jail": True})
    spec = state["spec"]
    last = last_topple(state)
    open_market = [card for _, card in slots if card not in spec and not (last and cards[card]["category"] == "topple")]
    if may_speculate and supply >= 1:
        out += [{"type": "speculate", "card": card} for card in open_market]
    if supply >= 1 and state["regime"] == "pax":
        bribes = player["bribes"]
        out += [{"type": "speculate", "to": {"bribe": card}} for card, want in b.loyalty_icons(state, seat).items()
                if want > bribes.get(card, 0)]
    mine = [card for card, holder in spec.items() if holder == seat]
    if may_speculate:
        out += [{"type": "speculate", "card": card, "from": {"market": old}} for old in mine for card in open_market]
    if supply == 0 and may_speculate:
        out += [{"type": "speculate", "to": "supply", "from": {"income": ent["card"]}}
                for ent in player["enterprises"] if ent["income"] >= 1]
        for card in ents:
            out += [{"type": "speculate", "to": "supply", "from": {"connection": card, "oval": i}}
                    for i, holder in enumerate(t.owners[card][1]["conn"]) if holder == seat]
        out += [{"type": "speculate", "to": "supply", "from": {"bribe": card}}
                for card, count in player["bribes"].items() if count >= 1]
        out += [{"type": "speculate", "to": "supply", "from": {"market": old}} for old in mine]
    out.append({"type": "end_turn"})
    return out
