"""What each seat may see of a Revolution! game, built by inclusion.

Everything is public except a sealed bid, which only its own seat sees until the
BidsRevealed event. Hands of tokens are public (the Spying phase shows them), and so
are cubes, support, the bank and, after the reveal, every bid of the round. A view
names each field it shows; nothing is copied wholesale from the state and then
trimmed, so a new state field stays private until someone decides to show it.
"""

from __future__ import annotations

from typing import Any

from games.base import EventLike, Seat, State, clone_json, viewer_seat
from games.revolution.rules import (
    AREAS,
    BIDDING,
    CHARACTER_IDS,
    NAME,
    awaiting,
    bid_limits,
    controller,
)

# Events every seat sees in full. BidPlaced is the only secret one; an event type not
# listed here (and not BidPlaced) is hidden from everyone until it is listed.
PUBLIC_EVENTS = frozenset({
    "BoardPrepared",
    "RoundStarted",
    "BidsRevealed",
    "CharacterResolved",
    "SpyReplacedCube",
    "ApothecarySwappedCubes",
    "RewardSkipped",
    "PatronagePaid",
    "GameScored",
})


def view(state: State, seat: Seat | None) -> dict[str, Any]:
    """The game as ``seat`` (or a spectator, None) sees it now."""
    seat = viewer_seat(seat, state["seats"])
    options = state["options"]
    control = bool(options["area_control_bonus"])
    out: dict[str, Any] = {
        "game": NAME,
        "seat": seat,
        "seats": state["seats"],
        "round": state["round"],
        "max_rounds": options["max_rounds"],
        "phase": state["phase"],
        "options": {key: options[key] for key in sorted(options)},
        "support": list(state["support"]),
        "hands": [dict(hand) for hand in state["hands"]],
        "bank": dict(state["bank"]),
        "supply": list(state["supply"]),
        "areas": [
            {
                "id": area["id"],
                "spaces": area["spaces"],
                "support": area["support"],
                "cubes": list(state["areas"][area["id"]]),
                "controlled_by": controller(state, area["id"]) if control else None,
            }
            for area in AREAS
        ],
        "awaiting": [{"seat": s, "kind": kind} for s, kind in sorted(awaiting(state).items())],
    }
    if state["phase"] == BIDDING:
        out["bids_placed"] = [sealed is not None for sealed in state["sealed"]]
        if seat is not None:
            mine = state["sealed"][seat]
            out["my_bid"] = None if mine is None else {"bids": clone_json(mine["bids"]), "forfeit": mine["forfeit"]}
            out["bid_limits"] = bid_limits(state, seat)
    if state["revealed"] is not None:
        out["revealed_bids"] = clone_json(state["revealed"])
        index = state["next"]
        out["next_character"] = CHARACTER_IDS[index] if index < len(CHARACTER_IDS) else None
    decision = state["decision"]
    if decision is not None:
        out["decision"] = {"seat": decision["seat"], "kind": decision["kind"]}
    result = state["result"]
    if result is not None:
        out["result"] = {"reason": result["reason"], "winners": list(result["winners"]),
                         "support": list(result["support"])}
    return out


def redact(event: EventLike, seat: Seat | None) -> dict[str, Any] | None:
    """The event's data as ``seat`` may see it: a sealed bid only for its bidder."""
    data = event.data
    if event.type == "BidPlaced":
        if seat is not None and not isinstance(seat, bool) and seat == data["seat"]:
            return {"seat": data["seat"], "bids": clone_json(data["bids"]), "forfeit": bool(data.get("forfeit", False))}
        return {"seat": data["seat"]}
    if event.type in PUBLIC_EVENTS:
        return clone_json(dict(data))
    return None
