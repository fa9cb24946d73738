"""Hidden information in Coup: what a seat's view and its redacted feed may show.

A seat sees its own hidden cards, the two cards of its own exchange, and the card it
draws after winning a challenge. It never sees another seat's hidden cards, the court
deck's order, another seat's exchange or the card another seat draws. Revealed cards,
coins, claims and challenge results are public.

Beyond the hand-made cases, two checks run over many random games:

* masking: every card hidden from a viewer is replaced by a marker in the state and in
  the raw events; the viewer's view and redacted feed must not change;
* indistinguishability: two games dealt from decks that differ only in cards hidden from
  a viewer, played with the same decisions, give that viewer identical views and feeds
  until something the viewer may see tells them apart (a challenge's result, a revealed
  card, a card the viewer draws itself).
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import games.coup as coup
from games.base import GameEvent, RuleViolation
from games.coup import components, fold, rules
from games.coup.views import PUBLIC_EVENTS
from games.table import Table, TableEvent

# Seats of the hand-made games.
ANNA, BRUNO, CARLA = 0, 1, 2
#: Random games per property: 150 under the default profile, 1,000 under ``long``.
GAMES = max(150, settings.default.max_examples // 20)


# --- Builders -------------------------------------------------------------------------------

def deal(*hands: list[str], court: list[str]) -> list[str]:
    """A scenario deck dealing ``hands`` in seat order, ``court`` on top of the court deck."""
    dealt = [card for hand in hands for card in hand] + court
    left = Counter(components.FULL_DECK) - Counter(dealt)
    assert not Counter(dealt) - Counter(components.FULL_DECK)
    return dealt + list(left.elements())


def scenario(*hands: list[str], court: list[str]) -> Table:
    return Table(coup, len(hands), {"deck": deal(*hands, court=court)}, seed="views")  # type: ignore[arg-type]


def everyone(t: Table) -> list[int | None]:
    return [None, *range(t.seats)]


def pass_all(t: Table) -> list[TableEvent]:
    events: list[TableEvent] = []
    for seat in sorted(t.awaiting()):
        events += t.act(seat, {"type": "pass"})
    return events


def one(events: list[TableEvent], kind: str) -> TableEvent:
    (event,) = [e for e in events if e.type == kind]
    return event


def random_game(seats: int, seed: int, timeouts: float = 0.1) -> Table:
    """A random legal game to its end, as the platform would play it."""
    rng = random.Random(seed)
    t = Table(coup, seats, seed=f"views-{seed}")  # type: ignore[arg-type]
    while t.outcome is None:
        assert len(t.events) < 5_000
        seat = rng.choice(sorted(t.awaiting()))
        if rng.random() < timeouts:
            t.timeout(seat)
        else:
            t.act(seat, rng.choice(coup.legal_actions(t.current, seat)))
    return t


def states(t: Table) -> list[dict[str, Any]]:
    """The state after each event of ``t``."""
    result = []
    state = None
    for event in t.events:
        state = coup.evolve(state, event)
        result.append(state)
    return result


# --- Masking what a viewer may not see ------------------------------------------------------

class Markers:
    """Fresh stand-ins for hidden cards: a leak of any of them changes what is compared."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, cards: list[str]) -> list[str]:
        out = []
        for _ in cards:
            self.count += 1
            out.append(f"secret-{self.count}")
        return out


def mask_state(state: dict[str, Any], viewer: int | None) -> dict[str, Any]:
    """``state`` with every card hidden from ``viewer`` replaced by a marker."""
    masked = json.loads(json.dumps(state))
    marker = Markers()
    masked["deck"] = marker(masked["deck"])
    for seat, player in enumerate(masked["seats"]):
        if seat != viewer:
            player["hidden"] = marker(player["hidden"])
    exchange = masked["exchange"]
    if exchange is not None and exchange["seat"] != viewer:
        exchange["hand"] = list(masked["seats"][exchange["seat"]]["hidden"])
        exchange["drawn"] = marker(exchange["drawn"])
    return masked


def mask_event(event: TableEvent, viewer: int | None) -> TableEvent:
    """``event`` with every card hidden from ``viewer`` replaced by a marker."""
    data = json.loads(json.dumps(event.data))
    marker = Markers()
    if event.type == "CardsDealt":
        data["hands"] = [hand if seat == viewer else marker(hand) for seat, hand in enumerate(data["hands"])]
        data["deck"] = marker(data["deck"])
    elif event.type == "ChallengeSettled" and data["proven"]:
        data["deck"] = marker(data["deck"])
        if data["claimant"] != viewer:
            data["drawn"] = marker([data["drawn"]])[0]
    elif event.type == "ActionSucceeded" and data["type"] == "exchange" and data["seat"] != viewer:
        data["drawn"] = marker(data["drawn"])
    elif event.type == "ExchangeCompleted":
        data["deck"] = marker(data["deck"])
        if data["seat"] != viewer:
            data["kept"] = marker(data["kept"])
            data["returned"] = marker(data["returned"])
    return TableEvent(event.seq, event.type, data, event.actor)


@settings(max_examples=GAMES)
@given(seats=st.integers(rules.MIN_SEATS, rules.MAX_SEATS), seed=st.integers(0, 2**32 - 1))
def test_views_and_feeds_never_depend_on_cards_hidden_from_the_viewer(seats: int, seed: int) -> None:
    t = random_game(seats, seed)
    for event, state in zip(t.events, states(t), strict=True):
        for viewer in everyone(t):
            assert coup.view(state, viewer) == coup.view(mask_state(state, viewer), viewer)
            assert coup.redact(event, viewer) == coup.redact(mask_event(event, viewer), viewer)


def test_the_masks_do_hide_something() -> None:
    """The masking property is not empty: each mask changes the raw data it is given."""
    t = random_game(4, 7)
    masked_types = set()
    for event, state in zip(t.events, states(t), strict=True):
        assert mask_state(state, 0) != state
        if mask_event(event, 0).data != event.data:
            masked_types.add(event.type)
    assert masked_types >= {"CardsDealt", "ChallengeSettled"}


# --- Indistinguishable deals ----------------------------------------------------------------

def public_part(event: TableEvent, viewer: int | None) -> tuple[Any, ...]:
    """What ``viewer`` is entitled to know of a raw event: everything but the masked cards."""
    masked = mask_event(event, viewer).data
    return event.type, event.actor, re.sub(r'"secret-\d+"', '"?"', json.dumps(masked, sort_keys=True))


def redeal(t: Table, viewer: int | None, rng: random.Random, swap: bool) -> Table:
    """A game like ``t`` (same seed) whose deal differs only in cards hidden from ``viewer``.

    Either all those cards are shuffled again, or (``swap``) two different ones change places.
    """
    dealt = t.events[0].data
    slots = [(seat, i) for seat, hand in enumerate(dealt["hands"]) if seat != viewer for i in range(len(hand))]
    slots += [("deck", i) for i in range(len(dealt["deck"]))]
    hands = [list(hand) for hand in dealt["hands"]]
    deck = list(dealt["deck"])

    def place(slot: tuple[Any, int], card: str) -> None:
        where, i = slot
        (deck if where == "deck" else hands[where])[i] = card

    cards = [deck[i] if where == "deck" else hands[where][i] for where, i in slots]
    shuffled = list(cards)
    while shuffled == cards:
        if swap:
            i, j = rng.sample(range(len(cards)), 2)
            shuffled[i], shuffled[j] = shuffled[j], shuffled[i]
        else:
            rng.shuffle(shuffled)
    for slot, card in zip(slots, shuffled, strict=True):
        place(slot, card)
    other = Table(coup, t.seats, seed=t.seed)  # type: ignore[arg-type]
    first = TableEvent(1, "CardsDealt", {**dealt, "hands": hands, "deck": deck}, None)
    other.events[0] = first
    other.state = coup.evolve(None, first)
    return other


def legit_difference(a: TableEvent, b: TableEvent, viewer: int | None) -> bool:
    """Is this the way two games may first differ for ``viewer``: something it is allowed to see?"""
    if (a.type, a.actor) != (b.type, b.actor):
        return False
    if a.type == "ChallengeSettled":
        return a.data["proven"] != b.data["proven"] or (a.data["claimant"] == viewer == b.data["claimant"]
                                                        and a.data["drawn"] != b.data["drawn"])
    if a.type == "InfluenceLost":
        return a.data["card"] != b.data["card"] and {**a.data, "card": None} == {**b.data, "card": None}
    if a.type == "ActionSucceeded":
        return a.data["type"] == "exchange" and a.data["seat"] == viewer
    return False


def lockstep(seats: int, seed: int, viewer: int | None, swap: bool = False) -> tuple[int, bool]:
    """Play a random game and its redealt twin with the same decisions; compare what ``viewer`` sees.

    Returns how many decisions were compared and whether the twins were told apart.
    """
    rng = random.Random(seed)
    a = Table(coup, seats, seed=f"twins-{seed}")  # type: ignore[arg-type]
    b = redeal(a, viewer, rng, swap)
    assert coup.view(a.current, viewer) == coup.view(b.current, viewer)
    assert coup.redact(a.events[0], viewer) == coup.redact(b.events[0], viewer)
    steps = 0
    while a.outcome is None:
        assert b.outcome is None and a.awaiting() == b.awaiting()
        if viewer is not None:
            assert coup.legal_actions(a.current, viewer) == coup.legal_actions(b.current, viewer)
        seat = rng.choice(sorted(a.awaiting()))
        if rng.random() < 0.1:
            action = coup.on_timeout(a.current, seat)
        else:
            action = rng.choice(coup.legal_actions(a.current, seat))
        start = len(a.events)
        new_a = a.act(seat, action)
        try:
            new_b = b.act(seat, action)
        except RuleViolation as error:
            # Only the deciding seat's own cards can make its choice illegal in the twin.
            assert seat != viewer and error.code == "card_not_in_hand", error
            return steps, True
        steps += 1
        seen_a = [public_part(e, viewer) for e in new_a]
        seen_b = [public_part(e, viewer) for e in new_b]
        if seen_a != seen_b:
            first = next((i for i, (x, y) in enumerate(zip(seen_a, seen_b, strict=False)) if x != y), None)
            assert first is not None, "the twins' events differ in number only"
            assert legit_difference(new_a[first], new_b[first], viewer), (new_a[first], new_b[first])
            for x, y in zip(new_a[:first], new_b[:first], strict=True):
                assert coup.redact(x, viewer) == coup.redact(y, viewer)
            return steps, True
        assert [coup.redact(e, viewer) for e in new_a] == [coup.redact(e, viewer) for e in new_b]
        assert [e.seq for e in new_a] == [e.seq for e in new_b] == list(range(start + 1, len(a.events) + 1))
        assert coup.view(a.current, viewer) == coup.view(b.current, viewer)
    assert b.outcome == a.outcome
    return steps, False


@settings(max_examples=GAMES)
@given(seats=st.integers(rules.MIN_SEATS, rules.MAX_SEATS), seed=st.integers(0, 2**32 - 1),
       viewer=st.integers(-1, rules.MAX_SEATS - 1), swap=st.booleans())
def test_deals_differing_only_in_hidden_cards_look_the_same(seats: int, seed: int, viewer: int, swap: bool) -> None:
    lockstep(seats, seed, viewer % seats if viewer >= 0 else None, swap)


def test_twin_games_are_often_compared_to_the_very_end() -> None:
    """The indistinguishability property compares real play, not just the deal."""
    runs = [lockstep(2 + seed % 5, seed, [None, 0, 1][seed % 3], swap=seed % 4 != 0) for seed in range(300)]
    assert sum(steps for steps, _ in runs) >= 4_000
    assert sum(1 for _, apart in runs if not apart) >= 50  # never told apart, to the last decision


# --- Hand-made cases ------------------------------------------------------------------------

def test_a_seat_sees_its_own_hand_and_only_how_many_cards_the_others_hold() -> None:
    t = scenario(["duke", "contessa"], ["captain", "assassin"], ["ambassador", "duke"], court=["captain"])
    for viewer in everyone(t):
        seen = coup.view(t.current, viewer)
        for entry in seen["seats"]:
            assert entry["influence"] == 2 and entry["revealed"] == [] and entry["alive"] is True
            assert ("hand" in entry) == (entry["seat"] == viewer)
        assert seen["deck_size"] == 9
        assert "deck" not in seen and "exchange" not in seen
    assert coup.view(t.current, BRUNO)["seats"][BRUNO]["hand"] == ["captain", "assassin"]


def test_the_deal_shows_each_seat_its_own_hand_only() -> None:
    t = scenario(["duke", "contessa"], ["captain", "assassin"], court=["captain"])
    dealt = t.events[0]
    public = {"coins": 2, "treasury": 46, "first": 0, "scenario": True, "deck_size": 11, "hand_sizes": [2, 2]}
    assert coup.redact(dealt, None) == public
    assert coup.redact(dealt, ANNA) == {**public, "hand": ["duke", "contessa"]}
    assert coup.redact(dealt, BRUNO) == {**public, "hand": ["captain", "assassin"]}


def test_an_exchange_shows_the_drawn_cards_to_the_exchanger_alone() -> None:
    t = scenario(["ambassador", "duke"], ["captain", "contessa"], ["duke", "captain"], court=["assassin", "contessa"])
    t.act(ANNA, {"type": "exchange"})
    drawn = one(pass_all(t), "ActionSucceeded")
    assert coup.redact(drawn, ANNA) == {"seat": ANNA, "type": "exchange", "drawn_count": 2,
                                        "drawn": ["assassin", "contessa"]}
    for viewer in (None, BRUNO, CARLA):
        assert coup.redact(drawn, viewer) == {"seat": ANNA, "type": "exchange", "drawn_count": 2}
        assert coup.view(t.current, viewer)["exchange"] == {"seat": ANNA, "keep": 2}
    assert coup.view(t.current, ANNA)["exchange"] == {"seat": ANNA, "keep": 2, "drawn": ["assassin", "contessa"]}
    assert coup.view(t.current, BRUNO)["phase"] == "exchange"

    (done,) = t.act(ANNA, {"type": "keep", "cards": ["assassin", "duke"]})[:1]
    assert done.type == "ExchangeCompleted"
    assert coup.redact(done, ANNA) == {"seat": ANNA, "returned_count": 2, "kept": ["assassin", "duke"],
                                       "returned": ["ambassador", "contessa"]}
    for viewer in (None, BRUNO, CARLA):
        assert coup.redact(done, viewer) == {"seat": ANNA, "returned_count": 2}
        assert "exchange" not in coup.view(t.current, viewer)
        assert "hand" not in coup.view(t.current, viewer)["seats"][ANNA]
    assert coup.view(t.current, ANNA)["seats"][ANNA]["hand"] == ["assassin", "duke"]
    assert "deck" not in coup.redact(done, ANNA)


def test_the_card_drawn_after_a_proven_challenge_is_the_claimants_secret() -> None:
    t = scenario(["duke", "contessa"], ["captain", "assassin"], ["ambassador", "captain"], court=["assassin"])
    t.act(ANNA, {"type": "tax"})
    settled = one(t.act(BRUNO, {"type": "challenge"}), "ChallengeSettled")
    assert settled.data["proven"] is True and settled.data["drawn"] == "assassin"
    public = {"challenger": BRUNO, "claimant": ANNA, "card": "duke", "about": "action", "proven": True}
    assert coup.redact(settled, ANNA) == {**public, "drawn": "assassin"}
    for viewer in (None, BRUNO, CARLA):
        assert coup.redact(settled, viewer) == public
        seen = coup.view(t.current, viewer)
        assert "hand" not in seen["seats"][ANNA] and seen["seats"][ANNA]["influence"] == 2
    assert sorted(coup.view(t.current, ANNA)["seats"][ANNA]["hand"]) == ["assassin", "contessa"]
    assert coup.view(t.current, CARLA)["phase"] == "reveal"  # Bruno chooses which card he loses


def test_a_bluff_called_shows_the_claim_and_the_refund_but_no_card_of_the_hand() -> None:
    t = scenario(["captain", "contessa"], ["duke", "duke"], court=["assassin"])
    t.state = {**t.current, "seats": [{**t.current["seats"][ANNA], "coins": 3}, t.current["seats"][BRUNO]],
               "treasury": t.current["treasury"] - 1}
    t.act(ANNA, {"type": "assassinate", "target": BRUNO})
    settled = one(t.act(BRUNO, {"type": "challenge"}), "ChallengeSettled")
    expected = {"challenger": BRUNO, "claimant": ANNA, "card": "assassin", "about": "action", "proven": False,
                "refund": 3}
    for viewer in everyone(t):
        assert coup.redact(settled, viewer) == expected
    assert coup.view(t.current, BRUNO)["seats"][ANNA]["coins"] == 3


def test_revealed_cards_are_public() -> None:
    t = scenario(["duke", "contessa"], ["captain", "assassin"], ["ambassador", "captain"], court=["assassin"])
    t.act(ANNA, {"type": "tax"})
    t.act(BRUNO, {"type": "challenge"})
    (lost, *_) = t.act(BRUNO, {"type": "reveal", "card": "assassin"})
    assert lost.type == "InfluenceLost"
    for viewer in everyone(t):
        assert coup.redact(lost, viewer) == {"seat": BRUNO, "card": "assassin", "chosen": True, "exiled": False}
        entry = coup.view(t.current, viewer)["seats"][BRUNO]
        assert entry["revealed"] == ["assassin"] and entry["influence"] == 1 and entry["alive"] is True
    assert coup.view(t.current, BRUNO)["seats"][BRUNO]["hand"] == ["captain"]


def test_claims_and_blocks_are_public() -> None:
    t = scenario(["captain", "contessa"], ["duke", "duke"], court=["assassin"])
    t.act(ANNA, {"type": "steal", "target": BRUNO})
    t.act(BRUNO, {"type": "block", "card": "ambassador"})
    for viewer in everyone(t):
        seen = coup.view(t.current, viewer)
        assert seen["action"] == {"seat": ANNA, "type": "steal", "target": BRUNO, "claim": "captain", "paid": 0}
        assert seen["block"] == {"seat": BRUNO, "card": "ambassador"}
        assert seen["window"] == {"kind": "block", "waiting": [ANNA]}


def test_when_the_game_is_over_every_exiled_hand_is_on_the_table() -> None:
    for seed in range(30):
        t = random_game(2 + seed % 5, seed)
        (winner,) = t.outcome.winners  # type: ignore[union-attr]
        for viewer in everyone(t):
            seen = coup.view(t.current, viewer)
            assert seen["phase"] == "over" and seen["winner"] == winner
            for entry in seen["seats"]:
                if entry["seat"] != winner:
                    assert entry["alive"] is False and entry["influence"] == 0 and entry["coins"] == 0
                    assert sorted(entry["revealed"]) == sorted(t.current["seats"][entry["seat"]]["revealed"])
                    assert len(entry["revealed"]) == 2
            # The game's view keeps the winner's last cards to the winner; the platform opens
            # every event to everyone once the game has finished (see the next test).
            assert ("hand" in seen["seats"][winner]) == (viewer == winner)


def test_once_finished_the_platform_shows_every_event_whole() -> None:
    from events.envelope import Envelope
    from projections.views import feed_item

    t = random_game(3, 5)
    for event in t.events:
        envelope = Envelope(event.seq, event.type, "2024-01-01T00:00:00.000Z", event.actor, event.data)
        for viewer in everyone(t):
            shown = feed_item({"game": "coup", "status": "finished"}, envelope, viewer)  # type: ignore[arg-type]
            assert shown is not None and shown["data"] == event.data
            live = feed_item({"game": "coup", "status": "active"}, envelope, viewer)  # type: ignore[arg-type]
            assert live is not None and live["data"] == coup.redact(event, viewer)


def test_every_event_type_has_a_redaction_rule() -> None:
    assert set(fold.HANDLERS) | {"CardsDealt"} == PUBLIC_EVENTS | {"CardsDealt", "ChallengeSettled",
                                                                   "ExchangeCompleted"}


def test_an_unknown_event_type_is_hidden() -> None:
    assert coup.redact(GameEvent("SomethingNew", {"secret": 1}), None) is None


def test_an_out_of_range_seat_sees_as_a_spectator() -> None:
    t = scenario(["duke", "contessa"], ["captain", "assassin"], court=["assassin"])
    for stranger in (9, -1, "0", 1.0):
        assert coup.view(t.current, stranger) == coup.view(t.current, None)  # type: ignore[arg-type]
    assert coup.redact(t.events[0], 9) == coup.redact(t.events[0], None)
    for stranger in (True, False, "1", 1.0):  # a bool is an int to Python, but no seat
        for event in t.events:
            assert coup.redact(event, stranger) == coup.redact(event, None)  # type: ignore[arg-type]


def test_views_and_redacted_events_are_plain_json() -> None:
    t = random_game(4, 3)
    for event, state in zip(t.events, states(t), strict=True):
        for viewer in everyone(t):
            seen = coup.view(state, viewer)
            assert json.loads(json.dumps(seen)) == seen
            shown = coup.redact(event, viewer)
            assert json.loads(json.dumps(shown)) == shown


def test_a_view_cannot_be_used_to_change_the_state() -> None:
    t = scenario(["ambassador", "duke"], ["captain", "contessa"], court=["assassin", "contessa"])
    t.act(ANNA, {"type": "exchange"})
    pass_all(t)
    before = json.loads(json.dumps(t.current))
    seen = coup.view(t.current, ANNA)
    seen["seats"][ANNA]["hand"].append("duke")
    seen["seats"][BRUNO]["revealed"].append("duke")
    seen["exchange"]["drawn"].clear()
    seen["action"]["type"] = "coup"
    assert t.current == before
