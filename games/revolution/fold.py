"""The fold of Revolution!: one small handler per event type, trusting the event."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.base import State, clone_json
from games.fold import Handler, make_evolve
from games.revolution.components import BIDDING, OVER, PATRONAGE, RESOLUTION, token_counts


def _fold_board_prepared(data: Mapping[str, Any]) -> State:
    seats = data["seats"]
    return {
        "seats": seats,
        "options": clone_json(data["options"]),
        "round": 0,
        "phase": PATRONAGE,  # as if round 0 had just ended: RoundStarted always follows
        "support": [0] * seats,
        "hands": [token_counts(hand) for hand in data["hands"]],
        "bank": token_counts(data["bank"]),
        "supply": list(data["supply"]),
        "areas": clone_json(data["areas"]),
        "sealed": [None] * seats,
        "revealed": None,
        "last_bids": None,
        "next": 0,
        "decision": None,
        "result": None,
    }


def _fold_round_started(state: State, data: Mapping[str, Any]) -> None:
    state["round"] = data["round"]
    state["phase"] = BIDDING
    state["sealed"] = [None] * state["seats"]
    state["revealed"] = None
    state["next"] = 0
    state["decision"] = None


def _fold_bid_placed(state: State, data: Mapping[str, Any]) -> None:
    state["sealed"][data["seat"]] = {"bids": clone_json(data["bids"]), "forfeit": bool(data.get("forfeit", False))}


def _fold_bids_revealed(state: State, data: Mapping[str, Any]) -> None:
    """Every hand goes onto the bid board; a forfeited hand goes straight to the bank."""
    for seat, (bids, lost) in enumerate(zip(data["bids"], data["forfeited"], strict=True)):
        hand = state["hands"][seat]
        for tokens in bids.values():
            for kind, count in tokens.items():
                hand[kind] -= count
        for kind, count in lost.items():
            hand[kind] -= count
            state["bank"][kind] += count
    state["revealed"] = clone_json(data["bids"])
    state["last_bids"] = clone_json(data["bids"])  # kept past the next round's start (a standing order reads it)
    state["sealed"] = [None] * state["seats"]
    state["phase"] = RESOLUTION
    state["next"] = 0


def _fold_character_resolved(state: State, data: Mapping[str, Any]) -> None:
    winner = data["winner"]
    if winner is not None:
        state["support"][winner] += data["support"]
        for kind, count in data["tokens"].items():
            state["hands"][winner][kind] += count
            state["bank"][kind] -= count
        if data["cube"] is not None:
            state["areas"][data["cube"]][winner] += 1
            state["supply"][winner] -= 1
    for kind, count in data["to_bank"].items():
        state["bank"][kind] += count
    for seat, refund in enumerate(data["refunds"]):
        for kind, count in refund.items():
            state["hands"][seat][kind] += count
    state["next"] += 1
    state["decision"] = {"seat": winner, "kind": data["decision"]} if data["decision"] else None


def _fold_spy_replaced_cube(state: State, data: Mapping[str, Any]) -> None:
    area, owner, seat = state["areas"][data["area"]], data["owner"], data["seat"]
    area[owner] -= 1
    state["supply"][owner] += 1
    area[seat] += 1
    state["supply"][seat] -= 1
    state["decision"] = None


def _fold_apothecary_swapped_cubes(state: State, data: Mapping[str, Any]) -> None:
    first, second = data["first"], data["second"]
    state["areas"][first["area"]][first["owner"]] -= 1
    state["areas"][first["area"]][second["owner"]] += 1
    state["areas"][second["area"]][second["owner"]] -= 1
    state["areas"][second["area"]][first["owner"]] += 1
    state["decision"] = None


def _fold_reward_skipped(state: State, data: Mapping[str, Any]) -> None:
    state["decision"] = None


def _fold_patronage_paid(state: State, data: Mapping[str, Any]) -> None:
    for seat, gold in enumerate(data["gold"]):
        state["hands"][seat]["gold"] += gold
        state["bank"]["gold"] -= gold
    state["phase"] = PATRONAGE


def _fold_game_scored(state: State, data: Mapping[str, Any]) -> None:
    state["support"] = list(data["support"])
    state["phase"] = OVER
    state["decision"] = None
    state["result"] = {"reason": data["reason"], "winners": list(data["winners"]), "support": list(data["support"])}


HANDLERS: dict[str, Handler] = {
    "RoundStarted": _fold_round_started,
    "BidPlaced": _fold_bid_placed,
    "BidsRevealed": _fold_bids_revealed,
    "CharacterResolved": _fold_character_resolved,
    "SpyReplacedCube": _fold_spy_replaced_cube,
    "ApothecarySwappedCubes": _fold_apothecary_swapped_cubes,
    "RewardSkipped": _fold_reward_skipped,
    "PatronagePaid": _fold_patronage_paid,
    "GameScored": _fold_game_scored,
}
EVENT_TYPES: tuple[str, ...] = ("BoardPrepared", *HANDLERS)


def copy_state(state: State) -> State:
    """A copy of ``state`` whose mutable parts a fold handler may change in place.

    Handlers change counters (support, hands, bank, supply, cubes) in place and replace
    everything else (sealed bids, revealed bids, decision, result) with new objects, so
    those parts are shared with the old state. Copying the whole tree on every event
    would cost most of the time of a game.
    """
    new = dict(state)
    new["support"] = list(state["support"])
    new["hands"] = [dict(hand) for hand in state["hands"]]
    new["bank"] = dict(state["bank"])
    new["supply"] = list(state["supply"])
    new["areas"] = {area: list(counts) for area, counts in state["areas"].items()}
    new["sealed"] = list(state["sealed"])
    return new


evolve = make_evolve("Revolution!", "BoardPrepared", _fold_board_prepared, HANDLERS, copy_state)
