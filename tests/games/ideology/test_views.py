"""Hidden information in Ideology: what a seat's view, legal actions, feed and errors may show.

A seat sees its own hand and draws, its own discards from hand, and its own sealed offer.
It never sees another seat's hand, draws or exchanged cards, any deck order (its own
included), the region pile's order, or another seat's sealed offer before the reveal.

Beyond the hand-made cases, a masking check runs over random games: everything hidden
from a viewer is scrambled (other hands swapped with their decks, every deck and the
region pile reshuffled, other sealed offers replaced), in the state and in the raw
events; the viewer's view, legal actions and redacted feed must not change.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import games.ideology as ideology
from games.base import RuleViolation, clone_json
from games.ideology import board as b
from games.ideology import fold, rules
from games.ideology.views import PUBLIC_EVENTS
from games.table import Table, TableEvent

from .helpers import give, seat_of, start_phase, table

#: Random games for the masking check: 30 under the default profile, more under ``long``.
GAMES = max(30, settings.default.max_examples // 40)
CARD_ID = re.compile(r"[a-z_]+:[mec]\d+")


def scramble_state(state: dict[str, Any], viewer: int | None, rng: random.Random) -> dict[str, Any]:
    new = clone_json(state)
    for seat in range(state["seats"]):
        if seat != viewer:
            pool = new["hands"][seat] + new["decks"][seat]
            rng.shuffle(pool)
            size = len(new["hands"][seat])
            new["hands"][seat], new["decks"][seat] = pool[:size], pool[size:]
            rng.shuffle(new["discards"][seat])
            if new["offers"][seat] is not None:
                new["offers"][seat] = {iid: rng.choice(b.STATUSES) for iid in new["offers"][seat]}
        else:
            rng.shuffle(new["decks"][seat])
    rng.shuffle(new["region_pile"])
    return new


def _other_cards(cards: list[str], rng: random.Random) -> list[str]:
    return [f"decoy:{'mec'[rng.randrange(3)]}{rng.randrange(99)}" for _ in cards]


def _scramble_draw(draw: dict[str, Any] | None, rng: random.Random, own: bool) -> dict[str, Any] | None:
    if draw is None:
        return None
    new = clone_json(draw)
    if not own:
        new["cards"] = _other_cards(new["cards"], rng)
        new["after"] = new["cards"][len(new["cards"]) - len(new["after"]):]
    if new["reshuffled"] is not None:
        new["reshuffled"] = _other_cards(new["reshuffled"], rng)
    return new


def scramble_event(event: TableEvent, viewer: int | None, rng: random.Random) -> TableEvent:
    data = clone_json(dict(event.data))
    if event.type == "TableSet":
        data["decks"] = [_other_cards(deck, rng) for deck in data["decks"]]
        rng.shuffle(data["region_pile"])
    elif event.type == "TurnStarted":
        data["draws"] = [_scramble_draw(d, rng, s == viewer) for s, d in enumerate(data["draws"])]
    elif event.type == "CardsDiscarded" and data["seat"] != viewer:
        data["cards"] = _other_cards(data["cards"], rng)
    elif event.type == "CardsExchanged":
        own = data["seat"] == viewer
        if not own:
            data["discarded"] = _other_cards(data["discarded"], rng)
        data["draw"] = _scramble_draw(data["draw"], rng, own)
    elif event.type == "OfferMade" and data["seat"] != viewer:
        data["offers"] = {iid: rng.choice(b.STATUSES) for iid in data["offers"]}
    return TableEvent(event.seq, event.type, data, event.actor)


def check_masking(t: Table, new_events: list[TableEvent], rng: random.Random) -> None:
    state = t.current
    for viewer in [None, *range(t.seats)]:
        decoy = scramble_state(state, viewer, rng)
        assert ideology.view(state, viewer) == ideology.view(decoy, viewer)
        if viewer is not None:
            assert ideology.legal_actions(state, viewer) == ideology.legal_actions(decoy, viewer)
        for event in new_events:
            assert ideology.redact(event, viewer) == ideology.redact(scramble_event(event, viewer, rng), viewer), \
                event.type


@settings(max_examples=GAMES)
@given(seats=st.sampled_from([2, 3, 5]), seed=st.integers(0, 2**32 - 1))
def test_nothing_hidden_from_a_viewer_changes_what_it_sees(seats: int, seed: int) -> None:
    rng = random.Random(seed)
    t = Table(ideology, seats, {"max_turns": 3}, seed=f"mask-{seed}")  # type: ignore[arg-type]
    check_masking(t, list(t.events), rng)
    while t.outcome is None:
        before = len(t.events)
        seat = rng.choice(sorted(t.awaiting()))
        t.act(seat, rng.choice(ideology.legal_actions(t.current, seat)))
        check_masking(t, t.events[before:], rng)


def test_a_seat_sees_its_own_hand_and_only_the_size_of_the_others() -> None:
    t = table(3)
    for seat in range(3):
        mine = ideology.view(t.current, seat)
        assert mine["hand"]["cards"] == t.current["hands"][seat]
        assert [p["hand_size"] for p in mine["players"]] == [3, 3, 3]
        text = json.dumps(mine)
        for other in range(3):
            if other != seat:
                assert not any(card in text for card in t.current["hands"][other])
    spectator = ideology.view(t.current, None)
    assert "hand" not in spectator and not CARD_ID.search(json.dumps(spectator["players"]))


def test_no_deck_or_pile_order_reaches_anyone_not_even_the_owner() -> None:
    t = table(3)
    for viewer in [None, 0, 1, 2]:
        shown = json.dumps([ideology.view(t.current, viewer), *(ideology.redact(e, viewer) for e in t.events)])
        for deck in t.current["decks"]:
            assert not any(f'"{card}"' in shown for card in deck)
        pile = json.dumps(t.current["region_pile"][:3])[1:-1]  # the top three tiles, in order
        assert pile not in shown and '"region_pile":' not in shown and '"decks":' not in shown


def test_a_sealed_offer_is_seen_only_by_its_seat_until_the_reveal() -> None:
    t = table(3, ["capitalism", "fascism", "imperialism"])
    capitalist, fascist = seat_of(t, "capitalism"), seat_of(t, "fascism")
    start_phase(t, b.DIPLOMACY)
    (made,) = t.act(capitalist, {"type": "offer", "offers": {"fascism": "war"}})
    assert ideology.redact(made, fascist) == {"seat": capitalist}
    assert ideology.redact(made, None) == {"seat": capitalist}
    assert ideology.redact(made, capitalist)["offers"] == {"fascism": "war", "imperialism": "neutral"}
    theirs = ideology.view(t.current, fascist)
    assert theirs["offers_sealed"][capitalist] is True and theirs["my_offer"] is None
    assert "war" not in json.dumps(theirs["relations"]) and "last_offers" not in theirs
    assert ideology.view(t.current, capitalist)["my_offer"] == {"fascism": "war", "imperialism": "neutral"}
    # The capitalist may still change its mind; the last sealed offer counts.
    t.act(capitalist, {"type": "offer", "offers": {"fascism": "peace"}})
    t.act(fascist, {"type": "offer", "offers": {}})
    t.act(seat_of(t, "imperialism"), {"type": "offer", "offers": {}})
    assert b.relation(t.current, capitalist, fascist) == "neutral"  # peace against neutrality
    assert ideology.view(t.current, fascist)["last_offers"][capitalist]["fascism"] == "peace"


def test_exchanged_and_drawn_cards_are_told_only_to_their_seat() -> None:
    t = table(2, ["fascism", "imperialism"])
    fascist, imperialist = seat_of(t, "fascism"), seat_of(t, "imperialism")
    start_phase(t, b.EXCHANGE, first=fascist)
    (exchanged,) = t.act(fascist, {"type": "exchange", "discard": {b.card_type(t.current["hands"][fascist][0]): 1}},
                         settle=False)
    theirs = ideology.redact(exchanged, imperialist)
    assert theirs == {"seat": fascist, "count": 1, "draw": {"count": 1, "reshuffled": False}}
    mine = ideology.redact(exchanged, fascist)
    assert mine["discarded"] == exchanged.data["discarded"] and mine["draw"]["cards"] == exchanged.data["draw"]["cards"]


def test_errors_never_name_a_card() -> None:
    """Refusals speak of types and counts, never of card ids (which would name hidden cards)."""
    rng = random.Random(5)
    t = Table(ideology, 3, {"max_turns": 4}, seed="errors")  # type: ignore[arg-type]
    broken = [{"type": "exchange", "discard": {"military": 9}}, {"type": "discard", "discard": {}},
              {"type": "place", "region": "cuba", "influence": "military"}, {"type": "cancel"},
              {"type": "attack", "region": "germany", "influence": "military", "target": 1},
              {"type": "buy", "advancement": "wmd"}, {"type": "develop", "region": "iran", "influence": "economic"},
              {"type": "offer", "offers": {"martians": "war"}}, {"type": "remove", "region": "iran",
                                                                   "influence": "cultural"}]
    seen = 0
    while t.outcome is None:
        for seat in range(3):
            for action in broken:
                try:
                    rules.decide(t.current, seat, action, t.rng())
                except RuleViolation as err:
                    assert not CARD_ID.search(err.message), err.message
                    seen += 1
        seat = rng.choice(sorted(t.awaiting()))
        t.act(seat, rng.choice(ideology.legal_actions(t.current, seat)))
    assert seen > 100


def test_every_event_type_is_redacted_on_purpose() -> None:
    secret = {"TableSet", "TurnStarted", "CardsDiscarded", "CardsExchanged", "OfferMade"}
    assert set(fold.EVENT_TYPES) == PUBLIC_EVENTS | secret
    assert not PUBLIC_EVENTS & secret
    assert ideology.redact(TableEvent(1, "SomethingNew", {"x": 1}, None), 0) is None


def test_a_discard_owed_in_resources_shows_the_count_to_all_and_cards_to_the_seat() -> None:
    t = table(2, ["fascism", "imperialism"])
    fascist, imperialist = seat_of(t, "fascism"), seat_of(t, "imperialism")
    give(t, fascist, military=2)
    state = clone_json(t.current)
    state["phase"] = b.TURN_END
    t.state = state
    t.settle()
    assert t.awaiting() == {fascist: "discard"}
    assert ideology.view(t.current, fascist)["discard_owed"] == 2
    assert "discard_owed" not in ideology.view(t.current, imperialist)
    (discarded,) = t.act(fascist, ideology.on_timeout(t.current, fascist), settle=False)
    assert ideology.redact(discarded, imperialist) == {"seat": fascist, "count": 2}
    assert ideology.redact(discarded, fascist)["cards"] == discarded.data["cards"]
