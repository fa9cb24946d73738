"""Sample a complete Ideology state from what one seat knows: its view and its own history.

The seat's history is replayed through :func:`games.ideology.rules.evolve` with every card
it cannot see written as ``"?"`` (rivals' hands and draws, every deck's order, rivals'
private discards, the region pile's order) and every rival's sealed offer left unknown. A
card is pinned to a rival's hand the moment the rules show it leaving that hand (placed,
paid, used in a conflict). The replay gives a skeleton whose public structure is exact;
each sample deals, seat by seat, that ideology's cards nobody has shown this seat into its
unknown slots, orders the region pile at random and draws a random offer for each sealed
one. Nothing reads the real hidden state.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from games.base import EventLike, Seat, State, clone_json
from games.ideology.board import LETTER, STATUSES, card_type
from games.ideology.components import INFLUENCE_TYPES
from games.ideology.fold import evolve
from games.ideology.rules import SECRET_OPTIONS
from games.sampling import UNKNOWN, determinize_with, fill_unknown, replay_skeleton

#: A rival's sealed offer, whose contents this seat cannot see.
SEALED = {"?": "sealed"}



def _options(shown: Mapping[str, Any]) -> dict[str, Any]:
    options = {key: clone_json(value) for key, value in shown.items()
               if not (key.endswith("_fixed") and key[:-len("_fixed")] in SECRET_OPTIONS)}
    for key in SECRET_OPTIONS:
        options[key] = None
    return options


def _editable(state: State) -> State:
    new = dict(state)
    new["hands"] = [list(hand) for hand in state["hands"]]
    return new


def _is_face(card: str) -> bool:
    """True for a card as the table shows it (``"fascism:military"``), not by its id."""
    return card[card.index(":") + 1:] in INFLUENCE_TYPES


def _ids_in_play(state: State) -> set[str]:
    """Every card id the replay has placed anywhere so far."""
    seen = {card for pile in (state["hands"], state["decks"], state["discards"]) for cards in pile
            for card in cards if card != UNKNOWN}
    seen.update(card for region in state["regions"].values() for cards in region["cards"].values()
                for card in cards)
    if state.get("conflict") and state["conflict"].get("card"):
        seen.add(state["conflict"]["card"])
    return seen


def _fresh_id(state: State | None, board: Mapping[str, Any], face: str, taken: set[str]) -> str:
    """An id of ``face``'s ideology and type that the replay has not placed yet.

    Public events name a card by its face (issue 27): cards of one type are interchangeable,
    so any unplaced id of that type stands for it in a sample.
    """
    iid, kind = face.split(":", 1)
    used = taken | (_ids_in_play(state) if state is not None else set())
    for n in range(1, board["ideologies"][iid]["deck"][kind] + 1):
        card = f"{iid}:{LETTER[kind]}{n}"
        if card not in used:
            taken.add(card)
            return card
    raise ValueError("the history does not add up to an Ideology game this seat could be in")


def _from_hand(state: State, holder: Seat, faces: Iterable[str]) -> list[str]:
    """Ids for cards leaving ``holder``'s hand: the first of each type it holds, else fresh ones."""
    hand = [card for card in state["hands"][holder] if card != UNKNOWN]
    taken: set[str] = set()
    ids = []
    for face in faces:
        if not _is_face(face):
            ids.append(face)
            taken.add(face)
            continue
        iid, kind = face.split(":", 1)
        held = next((card for card in hand if card not in taken and card.startswith(iid + ":")
                     and card_type(card) == kind), None)
        card = held if held is not None else _fresh_id(state, state["board"], face, taken)
        taken.add(card)
        ids.append(card)
    return ids


def _on_map(region: Mapping[str, Any], faces: Iterable[str]) -> list[str]:
    """Ids for cards already on a region's map, named by their faces.

    The rules take a seat's last card of a type from a region (a removal, a conceded
    conflict) or all of them (a weapon), so the last unpicked card of the face stands for it.
    """
    picked: list[str] = []
    for face in faces:
        if not _is_face(face):
            picked.append(face)
            continue
        iid, kind = face.split(":", 1)
        picked.append(next(card for card in reversed(region["cards"][kind])
                           if card.startswith(iid + ":") and card not in picked))
    return picked


def _pin(state: State, holder: Seat, cards: Iterable[str]) -> None:
    """The rules showed ``cards`` leaving ``holder``'s hand: make them part of it."""
    hand = state["hands"][holder]
    for card in cards:
        if card not in hand and UNKNOWN in hand:
            hand[hand.index(UNKNOWN)] = card


def _draw(state: State, seat: Seat, shown: Mapping[str, Any] | None, extra: int) -> dict[str, Any] | None:
    """A draw's data with unseen cards unknown; ``extra`` cards join the discards before a reshuffle."""
    if shown is None:
        return None
    count = shown["count"]
    cards = list(shown.get("cards", [UNKNOWN] * count))
    if not shown["reshuffled"]:
        return {"cards": cards, "reshuffled": None, "after": []}
    before = min(count, len(state["decks"][seat]))
    after = cards[before:]
    pile = len(state["discards"][seat]) + extra
    return {"cards": cards, "reshuffled": after + [UNKNOWN] * (pile - len(after)), "after": after}


def _filled(state: State | None, event: EventLike, seat: Seat) -> tuple[State | None, dict[str, Any]]:
    data = dict(event.data)
    kind = event.type
    if kind == "TableSet":
        board = data["board"]
        taken: set[str] = set()
        shown = {rid: {**region, "cards": {k: [_fresh_id(None, board, card, taken) if _is_face(card) else card
                                               for card in cards] for k, cards in region["cards"].items()}}
                 for rid, region in data["regions"].items()}
        regions = {rid: clone_json(shown[rid]) if rid in shown else
                   {"status": "deck", "controller": None, "level": info["level"],
                    "cards": {kind: [] for kind in INFLUENCE_TYPES}}
                   for rid, info in board["regions"].items()}
        return state, {**data, "options": _options(data["options"]), "regions": regions,
                       "region_pile": [UNKNOWN] * data["region_pile_size"],
                       "decks": [[UNKNOWN] * size for size in data["deck_sizes"]]}
    assert state is not None
    if kind == "TurnStarted":
        data["draws"] = [_draw(state, index, shown, 0) for index, shown in enumerate(data["draws"])]
    elif kind == "CardsDiscarded":
        data.setdefault("cards", [UNKNOWN] * data["count"])
    elif kind == "CardsExchanged":
        discarded = data.get("discarded", [UNKNOWN] * data["count"])
        data["discarded"] = discarded
        data["draw"] = _draw(state, data["seat"], data["draw"], len(discarded))
    elif kind in ("InfluencePlaced", "RegionDeveloped", "AdvancementBought", "ConflictDeclared",
                  "AttackCancelled", "AttackRenewed"):
        holder = {"ConflictDeclared": data.get("attacker"),
                  "AttackCancelled": (state["conflict"] or {}).get("defender"),
                  "AttackRenewed": (state["conflict"] or {}).get("attacker")}.get(kind, data.get("seat"))
        leaving = [*data.get("penalty", []), *data.get("cards", []), *([data["card"]] if data.get("card") else [])]
        cards = _from_hand(state, holder, leaving) if holder is not None else leaving
        penalty, rest = len(data.get("penalty", [])), len(data.get("cards", []))
        if "penalty" in data:
            data["penalty"] = cards[:penalty]
        if "cards" in data:
            data["cards"] = cards[penalty:penalty + rest]
        if data.get("card"):
            data["card"] = cards[-1]
        state = _editable(state)
        if holder is not None:
            _pin(state, holder, cards)
    elif kind == "InfluenceRemoved":
        data["card"] = _on_map(state["regions"][data["region"]], [data["card"]])[0]
    elif kind == "ConflictWon":
        conflict = state["conflict"]
        data["replaced"] = _on_map(state["regions"][conflict["region"]], [data["replaced"]])[0]
        if _is_face(data["card"]) and conflict.get("card"):
            data["card"] = conflict["card"]
    elif kind == "WmdUsed":
        data["destroyed"] = _on_map(state["regions"][data["region"]], data["destroyed"])
    elif kind == "OfferMade" and "offers" not in data:
        data["offers"] = dict(SEALED)
    return state, data


def _full_set(state: State, seat: Seat) -> list[str]:
    iid = state["ideology"][seat]
    deck = state["board"]["ideologies"][iid]["deck"]
    return [f"{iid}:{LETTER[kind]}{n}" for kind in INFLUENCE_TYPES for n in range(1, deck[kind] + 1)]


class IdeologySampler:
    """The skeleton of one seat's information set, prepared once, sampled many times."""

    def __init__(self, view: Mapping[str, Any], history: Sequence[EventLike], seat: Seat) -> None:
        state = replay_skeleton(history, lambda state, event: _filled(state, event, seat), evolve, "TableSet")
        self.seat = seat
        self.skeleton = state
        placed = [card for region in state["regions"].values() for cards in region["cards"].values()
                  for card in cards]
        conflict = state["conflict"]
        if conflict is not None and conflict.get("card"):
            placed.append(conflict["card"])
        self.pools: list[list[str]] = []
        for index in range(state["seats"]):
            known = set(placed)
            for pile in (state["hands"], state["decks"], state["discards"]):
                known.update(card for card in pile[index] if card != UNKNOWN)
            pool = [card for card in _full_set(state, index) if card not in known]
            slots = sum(pile[index].count(UNKNOWN) for pile in (state["hands"], state["decks"], state["discards"]))
            if slots != len(pool):
                raise ValueError("the history does not add up to an Ideology game this seat could be in")
            self.pools.append(pool)
        self.pile_regions = sorted(rid for rid, region in state["regions"].items() if region["status"] == "deck")

    def sample(self, rng: random.Random) -> State:
        base = self.skeleton
        state = dict(base)
        hands, decks, discards = [], [], []
        for index, pool in enumerate(self.pools):
            cards = list(pool)
            rng.shuffle(cards)
            deal = iter(cards)
            hands.append(fill_unknown(base["hands"][index], deal))
            decks.append(fill_unknown(base["decks"][index], deal))
            discards.append(fill_unknown(base["discards"][index], deal))
        state["hands"], state["decks"], state["discards"] = hands, decks, discards
        pile = list(self.pile_regions)
        rng.shuffle(pile)
        state["region_pile"] = pile[:len(base["region_pile"])]
        state["offers"] = [self._offer(index, offer, rng) for index, offer in enumerate(base["offers"])]
        return state

    def _offer(self, index: Seat, offer: Any, rng: random.Random) -> Any:
        if offer != SEALED:
            return offer
        others = [iid for other, iid in enumerate(self.skeleton["ideology"]) if other != index]
        return {iid: rng.choice(STATUSES) for iid in others}



def prepare_sampler(view: Mapping[str, Any], history: Sequence[EventLike], seat: Seat) -> IdeologySampler:
    """Replay the seat's history once; sample from the result as often as needed."""
    return IdeologySampler(view, history, seat)


#: One sample of a sampler prepared for the call (``games.base``'s protocol).
determinize = determinize_with(prepare_sampler)
