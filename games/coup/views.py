"""What each seat may see of a Coup game, built by inclusion.

Public: coins, the treasury, revealed cards, how many hidden cards each seat holds,
the size of the court deck, the action, block and window in play. Private to one
seat: its own hidden cards and, during its exchange, the two cards it drew. Never
shown to anyone: the court deck's order and another seat's hidden cards. A view
names each field it shows, so a new state field stays private until someone decides
to show it.
"""

from __future__ import annotations

from typing import Any

from games.base import EventLike, Seat, State, viewer_seat
from games.coup.components import CARD_NAMES
from games.coup.rules import awaiting


def view(state: State, seat: Seat | None) -> dict[str, Any]:
    """The table as ``seat`` (or a spectator, None) sees it now."""
    seat = viewer_seat(seat, len(state["seats"]))
    seats = []
    for index, player in enumerate(state["seats"]):
        entry: dict[str, Any] = {
            "seat": index,
            "coins": player["coins"],
            "influence": len(player["hidden"]),
            "revealed": list(player["revealed"]),
            "alive": bool(player["hidden"]),
        }
        if index == seat:
            entry["hand"] = list(player["hidden"])
        seats.append(entry)
    result: dict[str, Any] = {
        "seats": seats,
        "treasury": state["treasury"],
        "deck_size": len(state["deck"]),
        "turn": state["turn"],
        "turn_number": state["turns"],
        "phase": _phase(state),
        "action": _public_action(state["action"]),
        "block": dict(state["block"]) if state["block"] else None,
        "window": ({"kind": state["window"]["kind"], "waiting": list(state["window"]["waiting"])}
                   if state["window"] else None),
        "scenario": state["scenario"],
        "winner": state["winner"],
        "card_names": dict(CARD_NAMES),
    }
    exchange = state["exchange"]
    if exchange is not None:
        result["exchange"] = {"seat": exchange["seat"], "keep": len(exchange["hand"])}
        if exchange["seat"] == seat:
            result["exchange"]["drawn"] = list(exchange["drawn"])
    return result


def _public_action(action: dict[str, Any] | None) -> dict[str, Any] | None:
    if action is None:
        return None
    return {"seat": action["seat"], "type": action["type"], "target": action["target"], "claim": action["claim"],
            "paid": action["paid"]}


def _phase(state: State) -> str:
    """One word for clients: turn, window, reveal, exchange, over (or resolving between steps)."""
    if state["winner"] is not None:
        return "over"
    kinds = set(awaiting(state).values())
    if "keep" in kinds:
        return "exchange"
    if "reveal" in kinds:
        return "reveal"
    if state["window"] is not None:
        return "window"
    return "turn" if "turn" in kinds else "resolving"


def redact(event: EventLike, seat: Seat | None) -> dict[str, Any] | None:
    """The event's data as ``seat`` may see it: deck orders never, cards only to their holder."""
    data = event.data
    kind = event.type
    if isinstance(seat, bool) or not isinstance(seat, int):
        seat = None  # anything but a seat number sees as a spectator, as in ``view``
    if kind == "CardsDealt":
        shown: dict[str, Any] = {"coins": data["coins"], "treasury": data["treasury"], "first": data["first"],
                                 "scenario": data["scenario"], "deck_size": len(data["deck"]),
                                 "hand_sizes": [len(hand) for hand in data["hands"]]}
        if isinstance(seat, int) and 0 <= seat < len(data["hands"]):
            shown["hand"] = list(data["hands"][seat])
        return shown
    if kind == "ChallengeSettled":
        shown = {key: data[key] for key in ("challenger", "claimant", "card", "about", "proven")}
        if "refund" in data:
            shown["refund"] = data["refund"]
        if data["proven"] and seat == data["claimant"]:
            shown["drawn"] = data["drawn"]
        return shown
    if kind == "ActionSucceeded" and data["type"] == "exchange":
        shown = {"seat": data["seat"], "type": "exchange", "drawn_count": len(data["drawn"])}
        if seat == data["seat"]:
            shown["drawn"] = list(data["drawn"])
        return shown
    if kind == "ExchangeCompleted":
        shown = {"seat": data["seat"], "returned_count": len(data["returned"])}
        if seat == data["seat"]:
            shown["kept"] = list(data["kept"])
            shown["returned"] = list(data["returned"])
        return shown
    if kind in PUBLIC_EVENTS:
        return dict(data)
    return None


# Events whose data is public as it stands.
PUBLIC_EVENTS = frozenset({
    "ActionDeclared",
    "Passed",
    "WindowClosed",
    "BlockDeclared",
    "BlockOffered",
    "InfluenceLost",
    "ActionSucceeded",
    "TurnEnded",
})
