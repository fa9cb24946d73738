"""Sample a complete Pax Porfiriana state from what one seat knows.

Every event after the setup is public (cards reach hands from the open market), so the
only secrets are the draw pile's order and which cards of the set were left in the box.
The seat's history is replayed through :func:`games.pax.fold.evolve` with the draw pile
written as unknowns; a card is pinned when the market deals it. Each sample then splits
the cards nobody has seen between the pile and the box, keeping the rule that every
Topple card is in the pile, and only below its top third (the shuffled setup stacks them there).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from games.base import EventLike, Seat, State
from games.pax.cards import DECK_CATEGORIES
from games.pax.fold import evolve
from games.sampling import UNKNOWN, determinize_with, fill_unknown, replay_skeleton

#: State keys that hold no card a seat has seen (the definitions, the secret piles).
_UNSEEN_KEYS = frozenset({"cards", "deck", "box", "set", "set_hash", "options"})



def _pin_deck(state: State, cards: Iterable[str]) -> State:
    state = dict(state)
    deck = list(state["deck"])
    for card in cards:
        if card not in deck and UNKNOWN in deck:
            deck[deck.index(UNKNOWN)] = card
    state["deck"] = deck
    return state


def _filled(state: State | None, event: EventLike) -> tuple[State | None, dict[str, Any]]:
    data = dict(event.data)
    if event.type == "GameSetUp":
        return state, {**data, "deck": [UNKNOWN] * data["deck_count"], "box": []}
    assert state is not None
    if event.type == "MarketRestored":
        state = _pin_deck(state, data["drawn"])
    elif event.type == "CardMoved" and data["from"].get("zone") == "deck":
        state = _pin_deck(state, [data["card"]])
    return state, data


def _seen(value: Any, ids: Mapping[str, Any], found: set[str]) -> None:
    if isinstance(value, str):
        if value in ids:
            found.add(value)
    elif isinstance(value, dict):
        for item in value.values():
            _seen(item, ids, found)
    elif isinstance(value, list):
        for item in value:
            _seen(item, ids, found)


class PaxSampler:
    """The public replay, prepared once; each sample deals the unseen cards."""

    def __init__(self, view: Mapping[str, Any], history: Sequence[EventLike], seat: Seat) -> None:
        state = replay_skeleton(history, _filled, evolve, "GameSetUp")
        self.skeleton = state
        ids = state["cards"]
        seen: set[str] = set()
        for key, value in state.items():
            if key not in _UNSEEN_KEYS:
                _seen(value, ids, seen)
        seen.update(card for card in state["deck"] if card != UNKNOWN)
        seen.update(state["box"])
        unseen = sorted(cid for cid, card in ids.items() if card["category"] in DECK_CATEGORIES and cid not in seen)
        self.slots = state["deck"].count(UNKNOWN)
        # A scenario's fixed pile may leave Topples in the box; the shuffled setup never does.
        stacked = not state["scenario"]
        self.topples = [cid for cid in unseen if stacked and ids[cid]["category"] == "topple"]
        self.others = [cid for cid in unseen if cid not in self.topples]
        if len(self.topples) > self.slots or len(unseen) < self.slots:
            raise ValueError("the history does not add up to a Pax Porfiriana game this seat could be in")

    def sample(self, rng: random.Random) -> State:
        others = list(self.others)
        rng.shuffle(others)
        fill = others[:self.slots - len(self.topples)]
        box = others[len(fill):]
        top = len(fill) // 3
        lower = fill[top:]
        for topple in self.topples:
            lower.insert(rng.randint(0, len(lower)), topple)
        deal = iter(fill[:top] + lower)
        state = dict(self.skeleton)
        state["deck"] = fill_unknown(self.skeleton["deck"], deal)
        state["box"] = list(self.skeleton["box"]) + box
        return state


def prepare_sampler(view: Mapping[str, Any], history: Sequence[EventLike], seat: Seat) -> PaxSampler:
    """Replay the seat's history once; sample from the result as often as needed."""
    return PaxSampler(view, history, seat)


#: One sample of a sampler prepared for the call (``games.base``'s protocol).
determinize = determinize_with(prepare_sampler)
