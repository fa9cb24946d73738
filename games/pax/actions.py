"""The nine actions of a turn and the decisions a seat may owe, as check-then-do pairs.

``check_*`` reads the state and either raises :class:`RuleViolation` or returns a
*plan* (the facts the action needs: costs, victims, cubes); ``do_*`` turns a plan into
events on a :class:`Draft`. Legal actions are found by running the checks alone, so
listing them never copies the state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.base import Action, RuleViolation, Seat, State, require_fields

from . import board as b
from . import effects as fx
from .effects import Draft

Plan = dict[str, Any]
SIDES = ("event", "status_quo")


# --- Shared checks ----------------------------------------------------------------------------

def _actions_for(state: State, seat: Seat, kind: str, needed: int) -> tuple[int, str | None]:
    """(actions spent, bonus used): a one-action step uses a matching bonus action first."""
    if needed == 1 and kind in b.bonus_actions(state, seat):
        return 0, kind
    if state["actions_left"] < needed:
        left = state["actions_left"]
        raise RuleViolation("no_actions_left", f"this needs {needed} action(s); you have {left} left this turn")
    return needed, None


def _gold(state: State, seat: Seat, amount: int, what: str) -> None:
    if state["players"][seat]["gold"] < amount:
        raise RuleViolation("not_enough_gold", f"{what} costs {amount} gold; you have "
                                               f"{state['players'][seat]['gold']}")


def _in_hand(state: State, seat: Seat, card: Any) -> dict[str, Any]:
    if not isinstance(card, str) or card not in state["players"][seat]["hand"]:
        raise RuleViolation("not_in_hand", "that card is not in your hand")
    return b.card(state, card)


def _own_enterprise(state: State, seat: Seat, ent_card: Any) -> dict[str, Any]:
    found = b.enterprise(state, ent_card) if isinstance(ent_card, str) else None
    if found is None or found[0] != seat:
        raise RuleViolation("not_your_enterprise", "name one of your enterprises in play")
    return found[1]


def _any_enterprise(state: State, ent_card: Any) -> tuple[Seat, dict[str, Any]]:
    found = b.enterprise(state, ent_card) if isinstance(ent_card, str) else None
    if found is None:
        raise RuleViolation("no_such_enterprise", "name an enterprise in play")
    return found


def _taken(spent: int, bonus: str | None) -> dict[str, Any]:
    return {"spent": spent, "bonus": bonus}


def _action_taken(d: Draft, seat: Seat, action: Action, plan: Plan, **extra: Any) -> None:
    data = {"seat": seat, "action": dict(action), "spent": plan["spent"], "bonus": plan["bonus"], **extra}
    d.emit("ActionTaken", data, seat)


# --- Troop movement (play and redeploy share it) -----------------------------------------------

def _check_destination(state: State, seat: Seat, troop: str, to: Any, current: dict[str, Any] | None,
                       in_army: bool) -> Plan:
    """Where a troop may go and what it costs; raises when it may not."""
    definition = b.card(state, troop)
    fp = b.firepower(state, troop, seat)
    if to == "hacendado":
        player = state["players"][seat]
        if player["side"] is None:
            raise RuleViolation("hacendado_not_turned", "troops join a private army only under a turned hacendado")
        orientation = b.card(state, player["hacendado"])["orientations"][player["side"]]
        if orientation["faction"] != definition["faction"]:
            raise RuleViolation("wrong_faction", "a private army takes only troops of your hacendado's faction")
        if in_army:
            return {"to": "hacendado", "cost": 0, "in_place": True, "fp": fp}
        return {"to": "hacendado", "cost": b.fare(state, troop, orientation["connection"]), "in_place": False,
                "fp": fp}
    owner, ent = _any_enterprise(state, to)
    if current is not None and current["card"] == to:
        return {"to": to, "cost": 0, "in_place": True, "fp": fp, "owner": owner}
    if not b.can_reach(state, troop, to):
        raise RuleViolation("out_of_jurisdiction", "that enterprise is outside the troop's jurisdiction")
    defender = ent["troop"]
    if defender is not None:
        if fp <= b.firepower(state, defender["card"], defender["owner"]):
            raise RuleViolation("outgunned", "a troop already there has as much firepower or more")
    if owner != seat and state["players"][seat]["supply"] < 1:
        raise RuleViolation("no_cube", "extorting an enterprise needs a cube in your supply")
    mode = b.connection(state, ent)
    return {"to": to, "cost": b.fare(state, troop, mode), "in_place": False, "fp": fp, "owner": owner,
            "mode": mode}


def may_retreat_from_battle(state: State, attacker: str, defender: str, owner: Seat) -> bool:
    """The optional rule of retreat from battle (``options.battle_retreat``): a beaten troop of
    its owner's turned hacendado's faction, beaten by a troop of that same faction, may
    retreat into the private army instead of being discarded (troops of one faction do not
    fight each other: the stronger one relieves the weaker)."""
    if not state["options"].get("battle_retreat"):
        return False
    faction = b.card(state, defender)["faction"]
    return b.hacendado_faction(state, owner) == faction == b.card(state, attacker)["faction"]


def _arrive(d: Draft, seat: Seat, troop: str, plan: Plan, frm: dict[str, Any]) -> None:
    """Battle, unrest, looting, placement and extortion (rules G2 and G4)."""
    if plan["to"] == "hacendado":
        fx.move(d, troop, frm, {"zone": "army", "seat": seat})
        fx.place_bribes(d, seat, troop)
        return
    ent_card = plan["to"]
    owner, ent = b.placed_enterprise(d.state, ent_card)
    defender = ent["troop"]
    if defender is not None:  # the battle: the loser is discarded; its extortion cube stays for now
        fx.clear_bribes(d, defender["owner"], defender["card"])
        beaten = fx.troop_at(ent_card, defender["owner"])
        if may_retreat_from_battle(d.state, troop, defender["card"], defender["owner"]):
            fx.move(d, defender["card"], beaten, fx.zone("limbo"))
            fx.queue(d, [{"seat": defender["owner"], "kind": "battle_retreat", "card": defender["card"]}],
                     front=True)
        else:
            fx.move(d, defender["card"], beaten, fx.zone("discard"))
    owner, ent = b.placed_enterprise(d.state, ent_card)
    removed = min(ent["unrest"], plan["fp"])
    if removed:
        d.emit("UnrestChanged", {"enterprise": ent_card, "delta": -removed})
    if owner != seat and ent["income"] == 0 and ent["extortion"] is None:
        fx.loot(d, ent_card)
        fx.move(d, troop, frm, fx.hand(seat))
        return
    fx.move(d, troop, frm, fx.troop_at(ent_card, seat))
    owner, ent = b.placed_enterprise(d.state, ent_card)
    if owner != seat:
        if ent["extortion"] is None:
            d.emit("IncomeCubesChanged", {"enterprise": ent_card, "delta": -1})
        d.emit("ExtortionCubeSet", {"enterprise": ent_card, "seat": seat})
    elif ent["extortion"] is not None:
        d.emit("ExtortionCubeSet", {"enterprise": ent_card, "seat": None})
        fx.add_income_cubes(d, owner, ent_card, 1)
    fx.place_bribes(d, seat, troop)


# --- 1. Play a card ---------------------------------------------------------------------------

def check_play(state: State, seat: Seat, action: Action) -> Plan:
    require_fields(action, ("card", "to", "target", "scapegoat"))
    definition = _in_hand(state, seat, action.get("card"))
    category = definition["category"]
    card = definition["id"]
    if category in ("enterprise", "partner"):
        require_fields(action, ("card",))
        cost = definition["cost"]
        if category == "enterprise":
            cost = max(0, cost - b.discount(state, seat, card))
        spent, bonus = _actions_for(state, seat, "play", 1)
        _gold(state, seat, cost, f"playing {definition['name']}")
        return {"cost": cost, "spent": spent, "bonus": bonus}
    if category == "troop":
        require_fields(action, ("card", "to"))
        if "to" not in action:
            raise RuleViolation("missing_field", "a troop is played 'to' an enterprise id or to 'hacendado'")
        plan = _check_destination(state, seat, card, action["to"], None, False)
        spent, bonus = _actions_for(state, seat, "play", 1)
        _gold(state, seat, plan["cost"], f"moving {definition['name']} there")
        return {**plan, "spent": spent, "bonus": bonus}
    if category == "orange":
        require_fields(action, ("card", "target", "scapegoat"))
        owner, ent = _any_enterprise(state, action.get("target"))
        scapegoat = action.get("scapegoat", False)
        if not isinstance(scapegoat, bool):
            raise RuleViolation("bad_field", "scapegoat is true or false")
        if scapegoat and not definition["scapegoat"]:
            raise RuleViolation("no_scapegoat", "this card cannot be played as a scapegoat")
        district = definition.get("district")
        if district and b.card(state, ent["card"])["district"] != district:
            raise RuleViolation("wrong_district", f"this card targets only enterprises in {district}")
        if owner == seat and ent["unrest"] > 0:
            raise RuleViolation("straw_man_unrest", "a straw man cannot target your own enterprise with unrest")
        cost = 0 if scapegoat else definition["cost"]
        spent, bonus = _actions_for(state, seat, "play", 1)
        _gold(state, seat, cost, f"playing {definition['name']}")
        return {"cost": cost, "spent": spent, "bonus": bonus, "victim": owner, "enterprise": ent["card"],
                "unrest": 0 if scapegoat else definition["unrest"]}
    if category == "black":
        require_fields(action, ("card", "target"))
        target = action.get("target")
        plan = {}
        if definition["target"] == "seat":
            if not isinstance(target, int) or isinstance(target, bool) or not 0 <= target < state["seats"]:
                raise RuleViolation("bad_target", f"target is a seat number from 0 to {state['seats'] - 1}")
            plan = {"victim": target}
        elif definition["target"] == "partner":
            victim = next((s for s, p in enumerate(state["players"])
                           if any(r["card"] == target for r in p["partners"])), None)
            if victim is None:
                raise RuleViolation("bad_target", "target is a partner card in play")
            plan = {"victim": victim, "partner": target}
        else:
            found = b.troop_location(state, target) if isinstance(target, str) else None
            if found is None:
                raise RuleViolation("bad_target", "target is a troop card in play")
            plan = {"victim": found[0], "troop": target}
        if definition["opponent_only"] and plan["victim"] == seat:
            raise RuleViolation("opponent_only", "this card is played only against an opponent")
        if definition["steal"] and plan["victim"] != seat and state["players"][plan["victim"]]["gold"] == 0 \
                and definition["target"] == "seat" and not definition["jail"] and not definition["prestige"]:
            raise RuleViolation("nothing_to_steal", "the victim has no gold to steal")
        needed = 2 if definition.get("regime") and definition["regime"] != state["regime"] else 1
        spent, bonus = _actions_for(state, seat, "play", needed)
        _gold(state, seat, definition["cost"], f"playing {definition['name']}")
        return {**plan, "cost": definition["cost"], "spent": spent, "bonus": bonus}
    raise RuleViolation("not_playable", "headlines and topples are played when bought")


def do_play(d: Draft, seat: Seat, action: Action, plan: Plan) -> None:
    card = action["card"]
    definition = b.card(d.state, card)
    category = definition["category"]
    _action_taken(d, seat, action, plan, cost=plan["cost"])
    fx.pay(d, seat, None, plan["cost"], "play")
    if category in ("enterprise", "partner"):
        fx.move(d, card, fx.hand(seat), fx.tableau(seat), seat)
        if category == "enterprise":
            placed = b.enterprise(d.state, card)
            assert placed is not None, "the enterprise was just moved to the tableau"
            fx.add_income_cubes(d, seat, card, b.allowed_income(d.state, placed[1]))
        fx.place_bribes(d, seat, card)
        if category == "partner":
            fx.queue(d, fx.effect_items(definition["effects"], seat, card), front=True)
    elif category == "troop":
        _arrive(d, seat, card, plan, fx.hand(seat))
        district = None if plan["to"] == "hacendado" else b.card(d.state, plan["to"])["district"]
        spare = None if plan["to"] == "hacendado" else plan["to"]
        fx.queue(d, fx.effect_items(definition["effects"], seat, card, district, spare), front=True)
    elif category == "orange":
        ent_card, victim = plan["enterprise"], plan["victim"]
        fx.move(d, card, fx.hand(seat), fx.zone("limbo"), seat)
        if plan["unrest"]:
            d.emit("UnrestChanged", {"enterprise": ent_card, "delta": plan["unrest"]})
        fx.steal(d, seat, victim, definition["steal"])
        dealers = sorted({o for o, e in b.enterprises(d.state) if b.card(d.state, e["card"]).get("arms")})
        for dealer in dealers:
            fx.pay(d, None, dealer, b.ARMS_BONUS, "arms dealer")
        _award(d, card, victim, definition)
        fx.check_slave_revolt(d, ent_card, seat)
        fx.queue(d, fx.effect_items(definition["effects"], seat, card), front=True)
    elif category == "black":
        victim = plan["victim"]
        fx.move(d, card, fx.hand(seat), fx.zone("limbo"), seat)
        if "partner" in plan:
            fx.discard_partner(d, victim, plan["partner"])
        if "troop" in plan:
            fx.discard_troop(d, plan["troop"])
        fx.steal(d, seat, victim, definition["steal"])
        _award(d, card, victim, definition)
        fx.queue(d, fx.effect_items(definition["effects"], seat, card), front=True)


def _award(d: Draft, card: str, victim: Seat, definition: dict[str, Any]) -> None:
    """A played black or orange card goes to the victim's grievance pile when it shows
    prestige (else to the discards); it may send the victim to jail."""
    to = {"zone": "grievances", "seat": victim} if definition["prestige"] else fx.zone("discard")
    fx.move(d, card, fx.zone("limbo"), to)
    if definition.get("jail"):
        fx.jail(d, victim)


# --- 2. Buy from the market -------------------------------------------------------------------

def last_topple(state: State) -> bool:
    """True when only one topple has not yet left the market: it may not be speculated on."""
    return state["topples_out"] >= 3


def check_buy(state: State, seat: Seat, action: Action) -> Plan:
    require_fields(action, ("card", "side"))
    card = action.get("card")
    position = b.market_position(state, card) if isinstance(card, str) else None
    if position is None or not isinstance(card, str):
        raise RuleViolation("not_in_market", "that card is not in the market")
    if state["buys"] >= 2:
        raise RuleViolation("two_buys", "you may buy from the market at most twice a turn")
    definition = b.card(state, card)
    immediate = definition["category"] in ("headline", "topple")
    if immediate:
        if action.get("side") not in SIDES:
            raise RuleViolation("missing_side", "a headline is played at once: choose side 'event' or 'status_quo'")
    else:
        require_fields(action, ("card",))
        if len(state["players"][seat]["hand"]) >= b.HAND_LIMIT:
            raise RuleViolation("hand_limit", f"your hand holds {b.HAND_LIMIT} cards: buy only headlines")
    needed = 2 if state["buys"] == 1 else 1
    spent, bonus = _actions_for(state, seat, "buy", needed)
    price = b.MARKET_COSTS[position[1]]
    _gold(state, seat, price, f"{definition['name']}")
    holder = state["spec"].get(card)
    return {"row": position[0], "col": position[1], "cost": price, "spent": spent, "bonus": bonus,
            "payee": holder if holder is not None and holder != seat else None}


def do_buy(d: Draft, seat: Seat, action: Action, plan: Plan) -> None:
    card = action["card"]
    definition = b.card(d.state, card)
    _action_taken(d, seat, action, plan, cost=plan["cost"], payee=plan["payee"])
    fx.pay(d, seat, plan["payee"], plan["cost"], "buy")
    if card in d.state["spec"]:
        d.emit("SpeculationCubeSet", {"card": card, "seat": None})
    market = {"zone": "market", "row": plan["row"], "col": plan["col"]}
    category = definition["category"]
    if category == "headline":
        fx.move(d, card, market, fx.zone("limbo"), seat)
        if action["side"] == "event":
            fx.queue(d, [*fx.effect_items(definition["event"], seat, card),
                         {"seat": None, "kind": "bullbear", "card": card}], front=True)
        else:
            fx.to_bullbear(d, card, fx.zone("limbo"))
    elif category == "topple":
        fx.move(d, card, market, fx.zone("limbo"), seat)
        d.emit("ToppleLeftMarket", {"card": card})
        kind = b.regime(d.state)["topple"]
        heel = definition["heel"]
        diaz = b.DIAZ_PRESTIGE + (heel["amount"] if action["side"] == "event" and heel["prestige"] == kind else 0)
        d.emit("ToppleStarted", {"card": card, "buyer": seat, "side": action["side"], "regime": d.state["regime"],
                                 "prestige": kind, "diaz": diaz})
        items = [{"seat": s, "kind": "topple", "card": card} for s in b.left_of(d.state, seat)]
        fx.queue(d, [*items, {"seat": None, "kind": "topple_score", "card": card}], front=True)
    else:
        fx.move(d, card, market, fx.hand(seat), seat)


# --- 3. Buy a public card ---------------------------------------------------------------------

def check_buy_public(state: State, seat: Seat, action: Action) -> Plan:
    require_fields(action, ("card", "face"))
    card = action.get("card")
    if not isinstance(card, str) or card not in state["public"]:
        raise RuleViolation("not_public", "that public card is not available")
    face = action.get("face")
    if face not in (0, 1) or isinstance(face, bool):
        raise RuleViolation("bad_face", "face is 0 or 1")
    definition = b.card(state, card)
    spent, bonus = _actions_for(state, seat, "buy_public", 1)
    _gold(state, seat, definition["cost"], definition["name"])
    return {"cost": definition["cost"], "spent": spent, "bonus": bonus}


def do_buy_public(d: Draft, seat: Seat, action: Action, plan: Plan) -> None:
    card, face = action["card"], action["face"]
    _action_taken(d, seat, action, plan, cost=plan["cost"])
    fx.pay(d, seat, None, plan["cost"], "buy_public")
    fx.move(d, card, fx.zone("public"), fx.tableau(seat, face), seat)
    fx.place_bribes(d, seat, card)
    fx.queue(d, fx.effect_items(b.card(d.state, card)["faces"][face]["effects"], seat, card), front=True)


# --- 4. Sell ----------------------------------------------------------------------------------

def check_sell(state: State, seat: Seat, action: Action) -> Plan:
    require_fields(action, ("card",))
    card = action.get("card")
    player = state["players"][seat]
    where: str | None = None
    if isinstance(card, str):
        if card in player["hand"]:
            where = "hand"
        elif any(e["card"] == card for e in player["enterprises"]):
            if b.placed_enterprise(state, card)[1]["unrest"]:
                raise RuleViolation("unrest", "an enterprise with unrest cannot be sold")
            where = "enterprise"
        elif any(p["card"] == card for p in player["partners"]):
            where = "partner"
        elif card in b.troops_of(state, seat):
            where = "troop"
    if where is None:
        raise RuleViolation("not_yours", "sell a card from your hand or one of yours in play")
    spent, bonus = _actions_for(state, seat, "sell", 1)
    return {"where": where, "price": b.economy(state), "spent": spent, "bonus": bonus}


def do_sell(d: Draft, seat: Seat, action: Action, plan: Plan) -> None:
    card = action["card"]
    _action_taken(d, seat, action, plan, price=plan["price"])
    where = plan["where"]
    if where == "hand":
        fx.move(d, card, fx.hand(seat), fx.zone("discard"), seat)
    elif where == "enterprise":
        fx.clear_enterprise(d, card, fx.zone("discard"))
    elif where == "partner":
        fx.discard_partner(d, seat, card)
    else:
        fx.discard_troop(d, card)
    fx.pay(d, None, seat, plan["price"], "sell")


# --- 5. Redeploy ------------------------------------------------------------------------------

def check_redeploy(state: State, seat: Seat, action: Action) -> Plan:
    require_fields(action, ("card", "to"))
    troop = action.get("card")
    found = b.troop_location(state, troop) if isinstance(troop, str) else None
    if found is None or not isinstance(troop, str) or found[0] != seat:
        raise RuleViolation("not_your_troop", "name one of your troops in play")
    if "to" not in action:
        raise RuleViolation("missing_field", "redeploy 'to' an enterprise id or 'hacendado'")
    plan = _check_destination(state, seat, troop, action["to"], found[1], found[1] is None)
    spent, bonus = _actions_for(state, seat, "redeploy", 1)
    _gold(state, seat, plan["cost"], "that move")
    return {**plan, "spent": spent, "bonus": bonus, "from": None if found[1] is None else found[1]["card"]}


def do_redeploy(d: Draft, seat: Seat, action: Action, plan: Plan) -> None:
    troop = action["card"]
    _action_taken(d, seat, action, plan, cost=plan["cost"])
    fx.pay(d, seat, None, plan["cost"], "redeploy")
    if plan["in_place"]:
        if plan["to"] != "hacendado":
            ent = b.placed_enterprise(d.state, plan["to"])[1]
            removed = min(ent["unrest"], plan["fp"])
            if removed:
                d.emit("UnrestChanged", {"enterprise": plan["to"], "delta": -removed})
        return
    if plan["from"] is None:
        frm = {"zone": "army", "seat": seat}
        fx.clear_bribes(d, seat, troop)
    else:
        ent = b.placed_enterprise(d.state, plan["from"])[1]
        if ent["extortion"] is not None:
            d.emit("ExtortionCubeSet", {"enterprise": plan["from"], "seat": None})
            fx.add_income_cubes(d, b.placed_enterprise(d.state, plan["from"])[0], plan["from"], 1)
        fx.clear_bribes(d, seat, troop)
        frm = fx.troop_at(plan["from"], seat)
    _arrive(d, seat, troop, plan, frm)


# --- 6. Buy land ------------------------------------------------------------------------------

def check_buy_land(state: State, seat: Seat, action: Action) -> Plan:
    require_fields(action, ("enterprise",))
    ent = _own_enterprise(state, seat, action.get("enterprise"))
    if b.card(state, ent["card"])["income"]["kind"] != "upgradable":
        raise RuleViolation("not_upgradable", "land is bought only for ranches and plantations")
    if state["players"][seat]["supply"] < 1:
        raise RuleViolation("no_cube", "you have no cube left for the new income")
    spent, bonus = _actions_for(state, seat, "buy_land", 2)
    cost = b.cubes_on(state, ent, seat)
    _gold(state, seat, cost, "that land")
    return {"cost": cost, "spent": spent, "bonus": bonus}


def do_buy_land(d: Draft, seat: Seat, action: Action, plan: Plan) -> None:
    _action_taken(d, seat, action, plan, cost=plan["cost"])
    fx.pay(d, seat, None, plan["cost"], "buy_land")
    fx.add_income_cubes(d, seat, action["enterprise"], 1, land=1)


# --- 7. Upgrade a connection ------------------------------------------------------------------

def trunk_holder(state: State, seat: Seat) -> bool:
    """``seat`` holds the cube of a working trunk line: later upgrades cost it 1 gold."""
    return any(b.working_trunk(state, ent) == seat for _, ent in b.enterprises(state))


def check_upgrade(state: State, seat: Seat, action: Action) -> Plan:
    require_fields(action, ("enterprise", "oval"))
    _, ent = _any_enterprise(state, action.get("enterprise"))
    ovals = b.card(state, ent["card"])["ovals"]
    oval = action.get("oval")
    if not isinstance(oval, int) or isinstance(oval, bool) or not 0 <= oval < len(ovals):
        raise RuleViolation("bad_oval", f"that enterprise has {len(ovals)} connection oval(s)")
    if ent["conn"][oval] is not None:
        raise RuleViolation("oval_taken", "that connection is already built")
    if state["players"][seat]["supply"] < 1:
        raise RuleViolation("no_cube", "you have no cube left to build with")
    spent, bonus = _actions_for(state, seat, "upgrade", 1)
    cost = min(ovals[oval]["cost"], 1) if trunk_holder(state, seat) else ovals[oval]["cost"]
    _gold(state, seat, cost, "that connection")
    return {"cost": cost, "spent": spent, "bonus": bonus}


def do_upgrade(d: Draft, seat: Seat, action: Action, plan: Plan) -> None:
    _action_taken(d, seat, action, plan, cost=plan["cost"])
    fx.pay(d, seat, None, plan["cost"], "upgrade")
    d.emit("ConnectionCubeSet", {"enterprise": action["enterprise"], "oval": action["oval"], "seat": seat})


# --- 8. Police --------------------------------------------------------------------------------

def check_police(state: State, seat: Seat, action: Action) -> Plan:
    require_fields(action, ("enterprise", "jail"))
    free = state["regime"] == "martial_law"
    if action.get("jail") is True:
        require_fields(action, ("jail",))
        if not state["players"][seat]["jail"]:
            raise RuleViolation("not_in_jail", "you are not in jail")
        cost = 0 if free else b.POLICE_COST
        spent, bonus = _actions_for(state, seat, "police", 1)
        _gold(state, seat, cost, "leaving jail")
        return {"cost": cost, "spent": spent, "bonus": bonus, "jail": True}
    require_fields(action, ("enterprise",))
    ent = _own_enterprise(state, seat, action.get("enterprise"))
    if ent["unrest"] == 0:
        raise RuleViolation("no_unrest", "that enterprise has no unrest")
    cost = 0 if free or ent["troop"] is not None else b.POLICE_COST
    spent, bonus = _actions_for(state, seat, "police", 1)
    _gold(state, seat, cost, "the police")
    return {"cost": cost, "spent": spent, "bonus": bonus, "jail": False}


def do_police(d: Draft, seat: Seat, action: Action, plan: Plan) -> None:
    _action_taken(d, seat, action, plan, cost=plan["cost"])
    fx.pay(d, seat, None, plan["cost"], "police")
    if plan["jail"]:
        d.emit("JailChanged", {"seat": seat, "jailed": False, "restores_action": True})
    else:
        d.emit("UnrestChanged", {"enterprise": action["enterprise"], "delta": -1})


# --- 9. Speculate (and manage cubes) ------------------------------------------------------------

def _source(state: State, seat: Seat, frm: Any) -> dict[str, Any]:
    if frm == "supply":
        if state["players"][seat]["supply"] < 1:
            raise RuleViolation("no_cube", "your supply is empty: move a cube from somewhere with 'from'")
        return {"kind": "supply"}
    if not isinstance(frm, dict) or len(frm) not in (1, 2) \
            or any(not isinstance(value, str) for key, value in frm.items() if key != "oval"):
        raise RuleViolation("bad_from", "from is 'supply' or one of {market}, {income}, {connection, oval}, {bribe}")
    if "market" in frm:
        if state["spec"].get(frm["market"]) != seat:
            raise RuleViolation("bad_from", "you have no speculation cube on that card")
        return {"kind": "market", "card": frm["market"]}
    if "income" in frm:
        ent = _own_enterprise(state, seat, frm["income"])
        if ent["income"] < 1:
            raise RuleViolation("bad_from", "that enterprise has no income cube of yours")
        return {"kind": "income", "card": ent["card"]}
    if "connection" in frm:
        _, ent = _any_enterprise(state, frm["connection"])
        oval = frm.get("oval")
        if not isinstance(oval, int) or isinstance(oval, bool) or not 0 <= oval < len(ent["conn"]) \
                or ent["conn"][oval] != seat:
            raise RuleViolation("bad_from", "you have no connection cube on that oval")
        return {"kind": "connection", "card": ent["card"], "oval": oval}
    if "bribe" in frm:
        if state["players"][seat]["bribes"].get(frm["bribe"], 0) < 1:
            raise RuleViolation("bad_from", "you have no prestige cube on that card")
        return {"kind": "bribe", "card": frm["bribe"]}
    raise RuleViolation("bad_from", "from is 'supply' or one of {market}, {income}, {connection, oval}, {bribe}")


def _target(state: State, seat: Seat, to: Any) -> dict[str, Any]:
    if to == "supply":
        return {"kind": "supply"}
    if not isinstance(to, dict) or len(to) != 1 or not all(isinstance(value, str) for value in to.values()):
        raise RuleViolation("bad_to", "to is 'supply' or one of {market}, {income}, {bribe}")
    if "market" in to:
        card = to["market"]
        if not isinstance(card, str) or b.market_position(state, card) is None:
            raise RuleViolation("not_in_market", "that card is not in the market")
        if card in state["spec"]:
            raise RuleViolation("already_speculated", "that card already holds a speculation cube")
        if b.card(state, card)["category"] == "topple" and last_topple(state):
            raise RuleViolation("last_topple", "nobody may speculate on the last topple")
        return {"kind": "market", "card": card}
    if "income" in to:
        ent = _own_enterprise(state, seat, to["income"])
        if b.card(state, ent["card"])["income"]["kind"] == "upgradable":
            raise RuleViolation("ranch", "ranches and plantations grow only by buying land")
        if b.profit(ent) >= b.allowed_income(state, ent):
            raise RuleViolation("income_full", "that enterprise already holds all the income it may")
        return {"kind": "income", "card": ent["card"]}
    if "bribe" in to:
        card = to["bribe"]
        if state["regime"] != "pax":
            raise RuleViolation("not_pax", "prestige cubes are placed only under Pax Porfiriana")
        want = b.loyalty_icons(state, seat).get(card, 0) if isinstance(card, str) else 0
        if want <= state["players"][seat]["bribes"].get(card, 0):
            raise RuleViolation("bribe_full", "that card has no Loyalty icon waiting for a cube")
        return {"kind": "bribe", "card": card}
    raise RuleViolation("bad_to", "to is 'supply' or one of {market}, {income}, {bribe}")


def check_speculate(state: State, seat: Seat, action: Action) -> Plan:
    require_fields(action, ("card", "to", "from"))
    to = {"market": action["card"]} if "card" in action else action.get("to")
    if "card" in action and "to" in action:
        raise RuleViolation("bad_to", "give either 'card' or 'to'")
    source = _source(state, seat, action.get("from", "supply"))
    target = _target(state, seat, to)
    if source["kind"] == target["kind"] == "supply":
        raise RuleViolation("no_move", "that moves nothing")
    if source == target:
        raise RuleViolation("no_move", "that moves nothing")
    manipulation = source["kind"] == target["kind"] == "market"
    if source["kind"] != "supply" and not manipulation and state["players"][seat]["supply"] > 0:
        raise RuleViolation("cubes_in_supply", "cubes are moved about only when your supply is empty "
                                               "(a speculation cube may always move to another market card)")
    if target["kind"] == "bribe":
        spent, bonus = 0, None  # topping up prestige cubes takes no action
    else:
        spent, bonus = _actions_for(state, seat, "speculate", 1)
    return {"source": source, "target": target, "spent": spent, "bonus": bonus}


def do_speculate(d: Draft, seat: Seat, action: Action, plan: Plan) -> None:
    _action_taken(d, seat, action, plan)
    source, target = plan["source"], plan["target"]
    kind = source["kind"]
    if kind == "market":
        d.emit("SpeculationCubeSet", {"card": source["card"], "seat": None})
    elif kind == "income":
        d.emit("IncomeCubesChanged", {"enterprise": source["card"], "delta": -1})
    elif kind == "connection":
        d.emit("ConnectionCubeSet", {"enterprise": source["card"], "oval": source["oval"], "seat": None})
    elif kind == "bribe":
        d.emit("BribeCubesChanged", {"seat": seat, "card": source["card"], "delta": -1})
    kind = target["kind"]
    if kind == "market":
        d.emit("SpeculationCubeSet", {"card": target["card"], "seat": seat})
    elif kind == "income":
        d.emit("IncomeCubesChanged", {"enterprise": target["card"], "delta": 1})
    elif kind == "bribe":
        d.emit("BribeCubesChanged", {"seat": seat, "card": target["card"], "delta": 1})
    if source["kind"] == "income":  # a ranch that lost a cube it cannot win back stays short
        fx.check_slave_revolt(d, source["card"], seat)
    if source["kind"] == "connection":
        fx.check_slave_revolt(d, source["card"], seat)


# --- End the turn -----------------------------------------------------------------------------

def check_end_turn(state: State, seat: Seat, action: Action) -> Plan:
    require_fields(action, ())
    return {}


def do_end_turn(d: Draft, seat: Seat, action: Action, plan: Plan) -> None:
    d.emit("StepChanged", {"step": "discard", "seat": seat, "ended": True}, seat)


TURN_ACTIONS: dict[str, tuple[Callable[[State, Seat, Action], Plan], Callable[[Draft, Seat, Action, Plan], None]]] = {
    "play": (check_play, do_play),
    "buy": (check_buy, do_buy),
    "buy_public": (check_buy_public, do_buy_public),
    "sell": (check_sell, do_sell),
    "redeploy": (check_redeploy, do_redeploy),
    "buy_land": (check_buy_land, do_buy_land),
    "upgrade": (check_upgrade, do_upgrade),
    "police": (check_police, do_police),
    "speculate": (check_speculate, do_speculate),
    "end_turn": (check_end_turn, do_end_turn),
}
