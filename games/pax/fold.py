"""The fold of Pax Porfiriana: one small handler per event type, trusting the event.

Events are small facts (gold moved, a card moved, a cube placed, unrest added); the
rules in :mod:`.rules` decide which facts an action causes, and fold them as they go,
so a later step of the same action sees the earlier ones. A handler changes the copy
of the state it is given in place; :func:`evolve` makes that copy, so the state a
caller holds is never changed. The card definitions are shared, never copied: nothing
changes them after the game is set up.
"""

from __future__ import annotations

import hashlib
import json
import pickle
from collections.abc import Mapping
from typing import Any

from games.base import State, clone_json
from games.fold import Handler, IntegrityError, make_evolve

CUBES_PER_SEAT = 15


def new_player(hacendado: str, gold: int, hac_cubes: int) -> dict[str, Any]:
    return {"gold": gold, "hand": [], "partners": [], "enterprises": [], "army": [], "grievances": [],
            "jail": False, "hacendado": hacendado, "side": None, "loyal": False,
            "supply": CUBES_PER_SEAT - hac_cubes, "hac_cubes": hac_cubes, "bribes": {}}


def find_enterprise(state: State, card: str) -> tuple[int, dict[str, Any]] | None:
    """(owner, record) of an enterprise in play, else None."""
    for seat, player in enumerate(state["players"]):
        for ent in player["enterprises"]:
            if ent["card"] == card:
                return seat, ent
    return None


def find_troop(state: State, card: str) -> tuple[int, dict[str, Any] | None] | None:
    """(owner, enterprise record or None for a private army) of a troop in play, else None."""
    for seat, player in enumerate(state["players"]):
        if card in player["army"]:
            return seat, None
        for ent in player["enterprises"]:
            if ent["troop"] is not None and ent["troop"]["card"] == card:
                return ent["troop"]["owner"], ent
    return None


# --- Handlers -----------------------------------------------------------------------------

def _game_set_up(data: Mapping[str, Any]) -> State:
    seats = data["seats"]
    players = [new_player(h, g, data["hacendado_income"][s])
               for s, (h, g) in enumerate(zip(data["hacendados"], data["gold"], strict=True))]
    return {
        "seats": seats,
        "set": data["set"],
        "scenario": bool(data.get("scenario", False)),
        "cards": {card["id"]: card for card in data["cards"]},
        "set_hash": hashlib.sha256(json.dumps(data["cards"], sort_keys=True).encode()).hexdigest()[:16],
        "options": clone_json(data["options"]),
        "turn": 0, "active": data["first"], "actions_left": 0, "buys": 0, "bonus_used": [],
        "step": "setup", "regime": "pax", "depression": False, "topples_bought": 0, "topples_out": 0,
        "deck": list(data["deck"]), "market": clone_json(data["market"]), "spec": {},
        "discard": [], "bullbear": [], "public": list(data["public"]), "box": list(data["box"]),
        "players": players, "bank": 0, "start_gold": sum(data["gold"]),
        "queue": [], "topple": None, "result": None,
    }


def _turn_started(state: State, d: Mapping[str, Any]) -> None:
    state.update(turn=d["turn"], active=d["seat"], actions_left=d["actions"], buys=0, bonus_used=[], step="actions")


def _action_taken(state: State, d: Mapping[str, Any]) -> None:
    state["actions_left"] -= d["spent"]
    if d.get("bonus"):
        state["bonus_used"] = [*state["bonus_used"], d["bonus"]]
    if d["action"]["type"] == "buy":
        state["buys"] += 1


def _gold_moved(state: State, d: Mapping[str, Any]) -> None:
    amount = d["amount"]
    if d["from"] is None:
        state["bank"] -= amount
    else:
        state["players"][d["from"]]["gold"] -= amount
    if d["to"] is None:
        state["bank"] += amount
    else:
        state["players"][d["to"]]["gold"] += amount


def _take(state: State, card: str, loc: Mapping[str, Any]) -> dict[str, Any] | None:
    """Remove ``card`` from ``loc``; return its enterprise/partner record when it had one."""
    zone = loc["zone"]
    if zone == "market":
        state["market"][loc["row"]][loc["col"]] = None
    elif zone == "deck":
        state["deck"].remove(card)
    elif zone in ("hand", "army", "grievances"):
        state["players"][loc["seat"]][zone].remove(card)
    elif zone in ("discard", "bullbear", "public", "box"):
        state[zone].remove(card)
    elif zone == "tableau":
        player = state["players"][loc["seat"]]
        for key in ("enterprises", "partners"):
            for index, record in enumerate(player[key]):
                if record["card"] == card:
                    return player[key].pop(index)
    elif zone == "troop":
        found = find_enterprise(state, loc["enterprise"])
        if found is not None:
            found[1]["troop"] = None
    elif zone == "limbo":
        pass
    return None


def _put(state: State, card: str, loc: Mapping[str, Any]) -> None:
    zone = loc["zone"]
    if zone == "market":
        state["market"][loc["row"]][loc["col"]] = card
    elif zone in ("hand", "army", "grievances"):
        state["players"][loc["seat"]][zone].append(card)
    elif zone in ("discard", "bullbear", "public", "box"):
        state[zone].append(card)
    elif zone == "tableau":
        player = state["players"][loc["seat"]]
        definition = state["cards"][card]
        if definition["category"] == "enterprise":
            player["enterprises"].append({"card": card, "income": 0, "extortion": None,
                                          "conn": [None] * len(definition["ovals"]), "unrest": 0,
                                          "troop": None, "land": 0})
        else:
            player["partners"].append({"card": card, "face": loc.get("face")})
    elif zone == "troop":
        found = find_enterprise(state, loc["enterprise"])
        if found is not None:
            found[1]["troop"] = {"card": card, "owner": loc["owner"]}
    # "limbo": a headline or topple being played, between the market and its discard pile


def _card_moved(state: State, d: Mapping[str, Any]) -> None:
    card = d["card"]
    _take(state, card, d["from"])
    _put(state, card, d["to"])


def _income_cubes(state: State, d: Mapping[str, Any]) -> None:
    found = find_enterprise(state, d["enterprise"])
    if found is None:
        return
    owner, ent = found
    ent["income"] += d["delta"]
    ent["land"] += d.get("land", 0)
    state["players"][owner]["supply"] -= d["delta"]


def _extortion_set(state: State, d: Mapping[str, Any]) -> None:
    found = find_enterprise(state, d["enterprise"])
    if found is None:
        return
    ent = found[1]
    if ent["extortion"] is not None:
        state["players"][ent["extortion"]]["supply"] += 1
    ent["extortion"] = d["seat"]
    if d["seat"] is not None:
        state["players"][d["seat"]]["supply"] -= 1


def _connection_set(state: State, d: Mapping[str, Any]) -> None:
    found = find_enterprise(state, d["enterprise"])
    if found is None:
        return
    conn = found[1]["conn"]
    old = conn[d["oval"]]
    if old is not None:
        state["players"][old]["supply"] += 1
    conn[d["oval"]] = d["seat"]
    if d["seat"] is not None:
        state["players"][d["seat"]]["supply"] -= 1


def _speculation_set(state: State, d: Mapping[str, Any]) -> None:
    old = state["spec"].pop(d["card"], None)
    if old is not None:
        state["players"][old]["supply"] += 1
    if d["seat"] is not None:
        state["spec"][d["card"]] = d["seat"]
        state["players"][d["seat"]]["supply"] -= 1


def _bribe_cubes(state: State, d: Mapping[str, Any]) -> None:
    player = state["players"][d["seat"]]
    count = player["bribes"].get(d["card"], 0) + d["delta"]
    if count:
        player["bribes"][d["card"]] = count
    else:
        player["bribes"].pop(d["card"], None)
    player["supply"] -= d["delta"]


def _hacendado_cubes(state: State, d: Mapping[str, Any]) -> None:
    player = state["players"][d["seat"]]
    player["hac_cubes"] += d["delta"]
    player["supply"] -= d["delta"]


def _unrest_changed(state: State, d: Mapping[str, Any]) -> None:
    found = find_enterprise(state, d["enterprise"])
    if found is not None:
        found[1]["unrest"] += d["delta"]


def _regime_changed(state: State, d: Mapping[str, Any]) -> None:
    state["regime"] = d["regime"]


def _depression_changed(state: State, d: Mapping[str, Any]) -> None:
    state["depression"] = d["on"]


def _jail_changed(state: State, d: Mapping[str, Any]) -> None:
    state["players"][d["seat"]]["jail"] = d["jailed"]
    if not d["jailed"] and d.get("restores_action"):
        state["actions_left"] += 1


def _hacendado_turned(state: State, d: Mapping[str, Any]) -> None:
    player = state["players"][d["seat"]]
    player["side"] = d["side"]
    if d.get("loyal_forever"):
        player["loyal"] = True


def _market_restored(state: State, d: Mapping[str, Any]) -> None:
    state["market"] = clone_json(d["market"])
    for card in d["drawn"]:
        state["deck"].remove(card)


def _queued(state: State, d: Mapping[str, Any]) -> None:
    items = clone_json(d["items"])
    state["queue"] = items + state["queue"] if d.get("front") else state["queue"] + items


def _dequeued(state: State, _: Mapping[str, Any]) -> None:
    state["queue"] = state["queue"][1:]


def _step_changed(state: State, d: Mapping[str, Any]) -> None:
    state["step"] = d["step"]


def _topple_started(state: State, d: Mapping[str, Any]) -> None:
    state["topples_bought"] += 1
    state["topple"] = {"card": d["card"], "buyer": d["buyer"], "side": d["side"], "prestige": d["prestige"],
                       "regime": d["regime"], "diaz": d["diaz"]}


def _diaz_changed(state: State, d: Mapping[str, Any]) -> None:
    state["topple"]["diaz"] += d["amount"]


def _topple_resolved(state: State, d: Mapping[str, Any]) -> None:
    state["topple"] = None


def _topple_left_market(state: State, d: Mapping[str, Any]) -> None:
    state["topples_out"] += 1


def _game_decided(state: State, d: Mapping[str, Any]) -> None:
    state["step"] = "over"
    state["queue"] = []
    state["result"] = {"reason": d["reason"], "winners": list(d["winners"])}


HANDLERS: dict[str, Handler] = {
    "TurnStarted": _turn_started,
    "ActionTaken": _action_taken,
    "GoldMoved": _gold_moved,
    "CardMoved": _card_moved,
    "IncomeCubesChanged": _income_cubes,
    "ExtortionCubeSet": _extortion_set,
    "ConnectionCubeSet": _connection_set,
    "SpeculationCubeSet": _speculation_set,
    "BribeCubesChanged": _bribe_cubes,
    "HacendadoCubesChanged": _hacendado_cubes,
    "UnrestChanged": _unrest_changed,
    "RegimeChanged": _regime_changed,
    "DepressionChanged": _depression_changed,
    "JailChanged": _jail_changed,
    "HacendadoTurned": _hacendado_turned,
    "MarketRestored": _market_restored,
    "DecisionsQueued": _queued,
    "DecisionDone": _dequeued,
    "StepChanged": _step_changed,
    "ToppleStarted": _topple_started,
    "DiazDefenceChanged": _diaz_changed,
    "ToppleResolved": _topple_resolved,
    "ToppleLeftMarket": _topple_left_market,
    "GameDecided": _game_decided,
}
EVENT_TYPES: tuple[str, ...] = ("GameSetUp", *HANDLERS)


#: Parts of the state set once at setup and never changed: shared between states, not copied.
SHARED = ("cards",)


def copy_state(state: State) -> State:
    """A deep copy of everything but the shared card definitions.

    A pickle round trip of the plain data: about three times quicker than copying it
    item by item, and the fold copies the state once per event. The state holds no
    object twice, so the copy shares nothing with the original.
    """
    new = pickle.loads(pickle.dumps({k: v for k, v in state.items() if k not in SHARED}, pickle.HIGHEST_PROTOCOL))
    for key in SHARED:
        new[key] = state[key]
    return new


def apply_in_place(state: State, type_: str, data: Mapping[str, Any]) -> None:
    """Fold one event into ``state`` itself: the rules fold each fact on their own draft as
    they decide, so a later step of an action sees the earlier ones."""
    handler = HANDLERS.get(type_)
    if handler is None:
        raise IntegrityError(f"integrity error: unknown Pax event type {type_!r}")
    handler(state, data)


evolve = make_evolve("Pax", "GameSetUp", _game_set_up, HANDLERS, copy_state)
