"""Hidden information: a sealed bid is seen by its bidder alone until the reveal."""

from __future__ import annotations

import json

import games.revolution as revolution
from games.base import GameEvent, clone_json
from games.revolution import components, fold
from games.revolution.views import PUBLIC_EVENTS

from .helpers import BLUE, GREEN, RED, START, YELLOW, bid, events_of, set_areas, set_hands, table, tokens


def test_a_seat_sees_its_own_sealed_bid() -> None:
    t = table()
    t.act(YELLOW, bid(priest=START))
    mine = revolution.view(t.current, YELLOW)
    assert mine["my_bid"] == {"bids": {"priest": START}, "forfeit": False}
    assert revolution.view(t.current, GREEN)["my_bid"] is None


def test_others_and_spectators_see_only_that_a_seat_has_bid() -> None:
    first, second = table(), table()
    first.act(YELLOW, bid(priest=START))
    second.act(YELLOW, bid(general=tokens(blackmail=1, gold=1), innkeeper=tokens(force=1), rogue=tokens(gold=2)))
    for seat in (GREEN, BLUE, RED, None):
        seen = revolution.view(first.current, seat)
        assert seen == revolution.view(second.current, seat)
        assert seen["bids_placed"] == [True, False, False, False]


def test_redacted_bid_event_shows_only_the_seat_to_others() -> None:
    t = table()
    (event,) = t.act(YELLOW, bid(priest=START))
    assert revolution.redact(event, YELLOW) == {"seat": YELLOW, "bids": {"priest": START}, "forfeit": False}
    for seat in (GREEN, BLUE, RED, None):
        assert revolution.redact(event, seat) == {"seat": YELLOW}


def test_a_forfeit_looks_like_any_other_bid_to_the_others() -> None:
    t = table()
    (event,) = t.act(YELLOW, {"type": "forfeit"})
    assert revolution.redact(event, GREEN) == {"seat": YELLOW}
    assert revolution.redact(event, YELLOW)["forfeit"] is True


def test_every_bid_is_public_once_revealed() -> None:
    t = table()
    events = []
    for seat in range(4):
        events += t.act(seat, bid(printer=START) if seat else bid(priest=START))
    (revealed,) = events_of(events, "BidsRevealed")
    for seat in (GREEN, None):
        assert revolution.redact(revealed, seat)["bids"][YELLOW] == {"priest": START}


def test_revealed_bids_stay_in_the_view_while_the_resolution_waits_for_a_choice() -> None:
    t = table()
    set_areas(t, {"tavern": [1, 1, 0, 0]})
    set_hands(t, [tokens(gold=1), tokens(gold=1), tokens(gold=1), tokens(gold=1)])
    t.act(YELLOW, bid(spy=tokens(gold=1)))
    for seat in (GREEN, BLUE, RED):
        t.act(seat, bid(printer=tokens(gold=1)))
    seen = revolution.view(t.current, None)
    assert seen["revealed_bids"][YELLOW] == {"spy": {"gold": 1}}
    assert seen["next_character"] == "apothecary"
    assert seen["decision"] == {"seat": YELLOW, "kind": "spy"}
    assert seen["awaiting"] == [{"seat": YELLOW, "kind": "spy"}]


def test_bid_limits_describe_every_legal_bid() -> None:
    t = table()
    limits = revolution.view(t.current, YELLOW)["bid_limits"]
    assert limits["tokens"] == START
    assert limits["max_characters"] == 6
    assert limits["must_place_all"] is True
    allowed = {c["id"]: c["allowed"] for c in limits["characters"]}
    assert [c["id"] for c in limits["characters"]] == list(components.CHARACTER_IDS)
    assert allowed["general"] == ["blackmail", "gold"]
    assert allowed["spy"] == ["force", "gold"]
    assert allowed["rogue"] == allowed["mercenary"] == ["gold"]
    assert allowed["printer"] == ["force", "blackmail", "gold"]
    assert "bid_limits" not in revolution.view(t.current, None)


def test_hands_cubes_and_support_are_public() -> None:
    t = table()
    seen = revolution.view(t.current, None)
    assert seen["hands"] == [START] * 4
    assert seen["support"] == [0] * 4
    assert seen["supply"] == [25] * 4
    assert [a["id"] for a in seen["areas"]] == list(components.AREA_IDS)
    assert sum(a["spaces"] for a in seen["areas"]) == 43


def test_every_event_type_has_a_redaction_rule() -> None:
    assert set(fold.EVENT_TYPES) == PUBLIC_EVENTS | {"BidPlaced"}


def test_an_unknown_event_type_is_hidden() -> None:
    assert revolution.redact(GameEvent("SomethingNew", {"secret": 1}), None) is None


def test_an_out_of_range_seat_sees_as_a_spectator() -> None:
    t = table()
    t.act(YELLOW, bid(priest=START))
    assert revolution.view(t.current, 9) == revolution.view(t.current, None) | {"seat": None}


def test_views_and_state_are_plain_json() -> None:
    t = table()
    t.act(YELLOW, bid(priest=START))
    for seat in (YELLOW, None):
        view = revolution.view(t.current, seat)
        assert json.loads(json.dumps(view)) == view
    assert json.loads(json.dumps(t.current)) == t.current


def test_a_view_cannot_be_used_to_change_the_state() -> None:
    t = table()
    t.act(YELLOW, bid(priest=START))
    before = clone_json(t.current)
    view = revolution.view(t.current, YELLOW)
    view["my_bid"]["bids"]["priest"]["gold"] = 99
    view["hands"][0]["gold"] = 99
    view["bid_limits"]["tokens"]["gold"] = 99
    assert t.current == before
