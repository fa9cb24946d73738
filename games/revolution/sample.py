"""Sample a complete Revolution! state from what one seat knows.

Everything in Revolution! is public except the bids other seats have sealed this round,
and the view shows every other field of the state. So a sample is the view read back into
a state, with a random legal bid in place of each rival's sealed one (hands are public, so
the bid is drawn from what that seat really holds). The seat's own sealed bid, if any, is
the one its view shows.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.base import EventLike, Seat, State, clone_json
from games.revolution.rules import ALLOWED_KINDS, CHARACTER_IDS, KINDS, MAX_CHARACTERS, check_bid
from games.sampling import determinize_with


def random_bid(hand: Mapping[str, int], rng: random.Random) -> dict[str, dict[str, int]]:
    """A legal bid placing all of ``hand``: tokens spread at random over up to six characters."""
    chosen = rng.sample(CHARACTER_IDS, rng.randint(1, MAX_CHARACTERS))
    bids: dict[str, dict[str, int]] = {}
    for kind in KINDS:
        homes = [cid for cid in chosen if kind in ALLOWED_KINDS[cid]]
        if not homes:  # every kind may go on at least one of the untargeted characters
            homes = [cid for cid in CHARACTER_IDS if kind in ALLOWED_KINDS[cid]]
        for _ in range(hand.get(kind, 0)):
            cid = rng.choice(homes)
            if cid not in bids and len(bids) >= MAX_CHARACTERS:
                cid = rng.choice([c for c in bids if kind in ALLOWED_KINDS[c]] or homes)
            bids.setdefault(cid, {})
            bids[cid][kind] = bids[cid].get(kind, 0) + 1
    try:
        return check_bid(bids, hand)
    except Exception:  # a rare overflow past the character limit: everything on one character
        return check_bid({"priest": {k: v for k, v in hand.items() if v}}, hand)


def state_from_view(view: Mapping[str, Any]) -> State:
    """The state the view describes, with every rival's sealed bid left unknown (None)."""
    seats = view["seats"]
    phase = view["phase"]
    sealed: list[Any] = [None] * seats
    if phase == "bidding":
        seat = view["seat"]
        sealed = [{"bids": None, "forfeit": False} if placed else None for placed in view["bids_placed"]]
        if seat is not None and view.get("my_bid") is not None:
            sealed[seat] = clone_json(view["my_bid"])
    decision = view.get("decision")
    result = view.get("result")
    next_character = view.get("next_character")
    return {
        "seats": seats,
        "options": clone_json(view["options"]),
        "round": view["round"],
        "phase": phase,
        "support": list(view["support"]),
        "hands": [dict(hand) for hand in view["hands"]],
        "bank": dict(view["bank"]),
        "supply": list(view["supply"]),
        "areas": {area["id"]: list(area["cubes"]) for area in view["areas"]},
        "sealed": sealed,
        "revealed": clone_json(view["revealed_bids"]) if "revealed_bids" in view else None,
        "next": len(CHARACTER_IDS) if "revealed_bids" in view and next_character is None
        else CHARACTER_IDS.index(next_character) if next_character else 0,
        "decision": {"seat": decision["seat"], "kind": decision["kind"]} if decision else None,
        "result": clone_json(result) if result else None,
    }


class RevolutionSampler:
    """The view read once; each sample only draws the rivals' sealed bids."""

    def __init__(self, view: Mapping[str, Any], history: Sequence[EventLike], seat: Seat) -> None:
        self.seat = seat
        self.skeleton = state_from_view(view)

    def sample(self, rng: random.Random) -> State:
        state = dict(self.skeleton)
        state["sealed"] = [
            {"bids": random_bid(self.skeleton["hands"][index], rng), "forfeit": False}
            if sealed is not None and sealed["bids"] is None else clone_json(sealed)
            for index, sealed in enumerate(self.skeleton["sealed"])
        ]
        state["hands"] = [dict(hand) for hand in self.skeleton["hands"]]
        state["bank"] = dict(self.skeleton["bank"])
        state["supply"] = list(self.skeleton["supply"])
        state["support"] = list(self.skeleton["support"])
        state["areas"] = {area: list(counts) for area, counts in self.skeleton["areas"].items()}
        return state


def prepare_sampler(view: Mapping[str, Any], history: Sequence[EventLike], seat: Seat) -> RevolutionSampler:
    return RevolutionSampler(view, history, seat)


#: One sample of a sampler prepared for the call (``games.base``'s protocol).
determinize = determinize_with(prepare_sampler)
