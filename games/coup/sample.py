"""Sample a complete Coup state from what one seat knows: its view and its own history.

The seat's history is replayed through :func:`games.coup.rules.evolve` with every card it
cannot see written as ``"?"``; a card is pinned only when the rules show it (a revealed
influence, a proven claim). The result is a skeleton whose public structure (coins, the
window, the queue of steps) is exact. A sample then deals the cards nobody has shown this
seat (the full court minus its hand, the revealed cards and any cards it drew) at random
into the unknown slots: other seats' hands and the court deck. Nothing reads the real
hidden state, so two games that differ only in what the seat cannot see give the same
samples for the same generator.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from games.base import EventLike, Seat, State
from games.coup.rules import FULL_DECK, evolve
from games.sampling import UNKNOWN, determinize_with, fill_unknown, replay_skeleton


def _pin(state: State, holder: Seat, card: str) -> None:
    """Make ``card`` one of ``holder``'s hidden cards (it was shown), in place of an unknown."""
    hidden = state["seats"][holder]["hidden"]
    if card not in hidden and UNKNOWN in hidden:
        hidden[hidden.index(UNKNOWN)] = card


def _filled(state: State | None, event: EventLike, seat: Seat) -> tuple[State | None, dict[str, Any]]:
    """The event's data with what ``seat`` cannot see written as unknowns (pinning shown cards)."""
    data = dict(event.data)
    kind = event.type
    if kind == "CardsDealt":
        hands = [[UNKNOWN] * size for size in data["hand_sizes"]]
        if "hand" in data:
            hands[seat] = list(data["hand"])
        return state, {**data, "hands": hands, "deck": [UNKNOWN] * data["deck_size"]}
    assert state is not None
    if kind == "ChallengeSettled" and data["proven"]:
        state = _editable(state)
        _pin(state, data["claimant"], data["card"])
        data.setdefault("drawn", UNKNOWN)
        data["deck"] = [UNKNOWN] * len(state["deck"])
    elif kind == "InfluenceLost":
        state = _editable(state)
        _pin(state, data["seat"], data["card"])
    elif kind == "ActionSucceeded" and data.get("type") == "exchange" and "drawn" not in data:
        data["drawn"] = [UNKNOWN] * data["drawn_count"]
    elif kind == "ExchangeCompleted":
        size = len(state["exchange"]["hand"])
        data.setdefault("kept", [UNKNOWN] * size)
        data["deck"] = [UNKNOWN] * (len(state["deck"]) + data["returned_count"])
    return state, data


def _editable(state: State) -> State:
    new = dict(state)
    new["seats"] = [{**s, "hidden": list(s["hidden"])} for s in state["seats"]]
    return new


class CoupSampler:
    """The skeleton of one seat's information set, prepared once, sampled many times."""

    def __init__(self, view: Mapping[str, Any], history: Sequence[EventLike], seat: Seat) -> None:
        state = replay_skeleton(history, lambda state, event: _filled(state, event, seat), evolve, "the deal")
        self.seat = seat
        self.skeleton = state
        known: list[str] = [card for player in state["seats"] for card in player["revealed"]]
        known += [card for player in state["seats"] for card in player["hidden"] if card != UNKNOWN]
        exchange = state["exchange"]
        if exchange is not None and exchange["seat"] == seat:
            known += exchange["drawn"]
        pool = Counter(FULL_DECK)
        pool.subtract(known)
        self.pool = sorted(pool.elements())
        slots = sum(p["hidden"].count(UNKNOWN) for p in state["seats"]) + state["deck"].count(UNKNOWN)
        if exchange is not None and exchange["seat"] != seat:
            slots += exchange["drawn"].count(UNKNOWN)
        if slots != len(self.pool) or min(pool.values(), default=0) < 0:
            raise ValueError("the history does not add up to a Coup game this seat could be in")

    def sample(self, rng: random.Random) -> State:
        cards = list(self.pool)
        rng.shuffle(cards)
        deal = iter(cards)
        state = dict(self.skeleton)
        state["seats"] = [{"coins": p["coins"], "hidden": fill_unknown(p["hidden"], deal),
                           "revealed": list(p["revealed"])} for p in self.skeleton["seats"]]
        state["deck"] = fill_unknown(self.skeleton["deck"], deal)
        exchange = self.skeleton["exchange"]
        if exchange is not None:
            holder = exchange["seat"]
            state["exchange"] = {"seat": holder, "hand": list(state["seats"][holder]["hidden"]),
                                 "drawn": fill_unknown(exchange["drawn"], deal)}
        state["steps"] = [dict(step) for step in self.skeleton["steps"]]
        return state



def prepare_sampler(view: Mapping[str, Any], history: Sequence[EventLike], seat: Seat) -> CoupSampler:
    """Replay the seat's history once; sample from the result as often as needed."""
    return CoupSampler(view, history, seat)


#: One sample of a sampler prepared for the call (``games.base``'s protocol).
determinize = determinize_with(prepare_sampler)
