"""The fold of Coup: one small handler per event type, trusting the event."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson

from games.base import State
from games.coup.components import ACTION_WINDOW, BLOCK_OFFER, BLOCK_WINDOW, BLOCKABLE_BY_ANYONE, BLOCKERS, CLAIM
from games.fold import Handler, make_evolve


def _fold_cards_dealt(data: Mapping[str, Any]) -> State:
    return {
        "seats": [{"coins": data["coins"], "hidden": list(hand), "revealed": []} for hand in data["hands"]],
        "deck": list(data["deck"]),
        "treasury": data["treasury"],
        "scenario": data["scenario"],
        "turn": data["first"],
        "turns": 1,
        "action": None,
        "block": None,
        "window": None,
        "steps": [],
        "exchange": None,
        "winner": None,
    }


def copy_state(state: State) -> State:
    """A copy deep enough for every fold below (seats, lists and dicts are replaced, not shared)."""
    new = dict(state)
    new["seats"] = [{"coins": s["coins"], "hidden": list(s["hidden"]), "revealed": list(s["revealed"])}
                    for s in state["seats"]]
    new["deck"] = list(state["deck"])
    new["steps"] = [dict(step) for step in state["steps"]]
    for key in ("action", "block", "window", "exchange"):
        if state[key] is not None:
            new[key] = orjson.loads(orjson.dumps(state[key]))
    return new


def _fold_action_declared(state: State, data: Mapping[str, Any]) -> None:
    seat, kind = data["seat"], data["type"]
    state["seats"][seat]["coins"] -= data["paid"]
    state["treasury"] += data["paid"]
    state["action"] = {"seat": seat, "type": kind, "target": data.get("target"), "claim": CLAIM.get(kind),
                       "paid": data["paid"]}
    if kind == "income":
        state["steps"] = [{"step": "effect"}, {"step": "end"}]
    elif kind == "coup":
        state["steps"] = [{"step": "lose", "seat": data["target"]}, {"step": "end"}]
    else:
        state["steps"] = [{"step": "effect"}, {"step": "end"}]
        state["window"] = {"kind": ACTION_WINDOW, "waiting": list(data["responders"])}


def _fold_passed(state: State, data: Mapping[str, Any]) -> None:
    state["window"]["waiting"].remove(data["seat"])


def _fold_window_closed(state: State, data: Mapping[str, Any]) -> None:
    if state["window"]["kind"] == BLOCK_WINDOW:
        state["steps"] = [{"step": "end"}]  # the block stands: the action fails, coins stay spent
    state["window"] = None


def _fold_block_declared(state: State, data: Mapping[str, Any]) -> None:
    state["block"] = {"seat": data["seat"], "card": data["card"]}
    state["window"] = {"kind": BLOCK_WINDOW, "waiting": list(data["responders"])}


def _fold_block_offered(state: State, data: Mapping[str, Any]) -> None:
    state["steps"].pop(0)
    state["window"] = {"kind": BLOCK_OFFER, "waiting": [data["seat"]]}


def _fold_challenge(state: State, data: Mapping[str, Any]) -> None:
    """A challenge settled: the claim was proven (card replaced) or not (claimant loses)."""
    claimant, challenger, about = data["claimant"], data["challenger"], data["about"]
    state["window"] = None
    if data["proven"]:
        hidden = state["seats"][claimant]["hidden"]
        hidden.remove(data["card"])
        hidden.append(data["drawn"])
        state["deck"] = list(data["deck"])
        lose = [{"step": "lose", "seat": challenger}]
        if about == ACTION_WINDOW:
            action = state["action"]
            offer = []
            if action["type"] not in BLOCKABLE_BY_ANYONE and BLOCKERS[action["type"]]:
                offer = [{"step": "offer_block", "seat": action["target"]}]
            state["steps"] = lose + offer + [{"step": "effect"}, {"step": "end"}]
        else:
            state["steps"] = lose + [{"step": "end"}]  # the block stands
    else:
        lose = [{"step": "lose", "seat": claimant}]
        if about == ACTION_WINDOW:
            refund = data["refund"]
            state["seats"][claimant]["coins"] += refund
            state["treasury"] -= refund
            state["steps"] = lose + [{"step": "end"}]
        else:
            # The failed block lets the action through before the bluffer's loss: the rulebook's
            # example has Sacha steal Haig's 2 coins although that loss exiles Haig.
            state["block"] = None
            state["steps"] = [{"step": "effect"}] + lose + [{"step": "end"}]


def _fold_influence_lost(state: State, data: Mapping[str, Any]) -> None:
    seat = data["seat"]
    state["steps"].pop(0)
    player = state["seats"][seat]
    player["hidden"].remove(data["card"])
    player["revealed"].append(data["card"])
    if player["hidden"]:
        return
    # Exile: coins back to the treasury, nothing more is owed by or offered to this seat.
    state["treasury"] += player["coins"]
    player["coins"] = 0
    actor = state["action"]["seat"] if state["action"] else None
    state["steps"] = [step for step in state["steps"]
                      if step.get("seat") != seat and not (step["step"] == "effect" and seat == actor)]
    if state["window"] is not None and seat in state["window"]["waiting"]:
        state["window"]["waiting"].remove(seat)
    alive = [i for i, s in enumerate(state["seats"]) if s["hidden"]]
    if len(alive) == 1:
        state["winner"] = alive[0]
        state["steps"] = []
        state["window"] = None
        state["exchange"] = None


def _fold_action_succeeded(state: State, data: Mapping[str, Any]) -> None:
    state["steps"].pop(0)
    action = state["action"]
    seat, kind = action["seat"], action["type"]
    if kind in ("income", "foreign_aid", "tax"):
        state["seats"][seat]["coins"] += data["amount"]
        state["treasury"] -= data["amount"]
    elif kind == "steal":
        state["seats"][action["target"]]["coins"] -= data["amount"]
        state["seats"][seat]["coins"] += data["amount"]
    elif kind == "assassinate":
        if state["seats"][action["target"]]["hidden"]:
            state["steps"].insert(0, {"step": "lose", "seat": action["target"]})
    elif kind == "exchange":
        drawn = list(data["drawn"])
        state["deck"] = state["deck"][len(drawn):]
        state["exchange"] = {"seat": seat, "hand": list(state["seats"][seat]["hidden"]), "drawn": drawn}


def _fold_exchange_completed(state: State, data: Mapping[str, Any]) -> None:
    state["seats"][data["seat"]]["hidden"] = list(data["kept"])
    state["deck"] = list(data["deck"])
    state["exchange"] = None


def _fold_turn_ended(state: State, data: Mapping[str, Any]) -> None:
    state["steps"] = []
    state["turn"] = data["next"]
    state["turns"] += 1
    state["action"] = None
    state["block"] = None
    state["window"] = None


HANDLERS: dict[str, Handler] = {
    "ActionDeclared": _fold_action_declared,
    "Passed": _fold_passed,
    "WindowClosed": _fold_window_closed,
    "BlockDeclared": _fold_block_declared,
    "BlockOffered": _fold_block_offered,
    "ChallengeSettled": _fold_challenge,
    "InfluenceLost": _fold_influence_lost,
    "ActionSucceeded": _fold_action_succeeded,
    "ExchangeCompleted": _fold_exchange_completed,
    "TurnEnded": _fold_turn_ended,
}
EVENT_TYPES: tuple[str, ...] = ("CardsDealt", *HANDLERS)

evolve = make_evolve("Coup", "CardsDealt", _fold_cards_dealt, HANDLERS, copy_state)
