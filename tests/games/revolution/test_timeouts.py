"""Deadlines: a silent bidder forfeits its hand; a silent Spy or Apothecary skips."""

from __future__ import annotations

import games.revolution as revolution
from games.base import clone_json
from games.revolution import rules

from .helpers import BLUE, GREEN, RED, START, YELLOW, bid, events_of, set_areas, set_hands, table, tokens, totals


def test_timeout_default_while_bidding_is_a_forfeit() -> None:
    t = table()
    assert revolution.on_timeout(t.current, YELLOW) == {"type": "forfeit"}


def test_a_forfeited_hand_goes_to_the_bank_and_patronage_refills_it_with_gold() -> None:
    t = table()
    bank = dict(t.current["bank"])
    for seat in (GREEN, BLUE, RED):
        t.act(seat, bid(printer=START) if seat != GREEN else bid(merchant=START))
    events = t.timeout(YELLOW)
    (revealed,) = events_of(events, "BidsRevealed")
    assert revealed.data["bids"][YELLOW] == {}
    assert revealed.data["forfeited"][YELLOW] == START
    assert all(e.data["winner"] != YELLOW for e in events_of(events, "CharacterResolved"))
    assert t.current["hands"][YELLOW] == tokens(gold=5)
    assert t.current["bank"]["force"] == bank["force"] + 4
    assert totals(t.current) == {"force": 12, "blackmail": 12, "gold": 32}


def test_missing_a_deadline_never_pays_even_with_refunds() -> None:
    """With refunds a losing bid comes back; a forfeited hand does not."""
    def after(yellow_action: dict | None) -> dict[str, int]:
        t = table(refund_losing_bids=True)
        for seat in (GREEN, BLUE, RED):
            t.act(seat, bid(printer=START))
        if yellow_action is None:
            t.timeout(YELLOW)
        else:
            t.act(YELLOW, yellow_action)
        return t.current["hands"][YELLOW]

    lost = after(bid(printer=tokens(blackmail=1, gold=3), innkeeper=tokens(force=1)))
    forfeited = after(None)
    assert forfeited == tokens(gold=5)
    assert lost["force"] + lost["blackmail"] >= forfeited["force"] + forfeited["blackmail"]
    assert rules.final_scores({**clone_json(table().current), "hands": [lost] * 4})["token_support"][0] > \
        rules.final_scores({**clone_json(table().current), "hands": [forfeited] * 4})["token_support"][0]


def test_forfeit_may_be_posted_and_replaced_like_any_bid() -> None:
    t = table()
    t.act(YELLOW, {"type": "forfeit"})
    assert t.current["sealed"][YELLOW] == {"bids": {}, "forfeit": True}
    t.act(YELLOW, bid(priest=START))
    assert t.current["sealed"][YELLOW] == {"bids": {"priest": START}, "forfeit": False}


def test_timeout_of_the_spy_or_apothecary_winner_skips_the_reward() -> None:
    t = table()
    set_areas(t, {"tavern": [1, 1, 0, 0], "market": [0, 0, 1, 1]})
    set_hands(t, [tokens(gold=1), tokens(gold=2), tokens(gold=2), tokens(gold=1)])
    t.act(YELLOW, bid(printer=tokens(gold=1)))
    t.act(GREEN, bid(printer=tokens(gold=1), spy=tokens(gold=1)))
    t.act(BLUE, bid(printer=tokens(gold=1), apothecary=tokens(gold=1)))
    t.act(RED, bid(printer=tokens(gold=1)))
    assert t.awaiting() == {GREEN: "spy"}
    assert revolution.on_timeout(t.current, GREEN) == {"type": "skip"}
    t.timeout(GREEN)
    assert t.awaiting() == {BLUE: "apothecary"}
    assert revolution.on_timeout(t.current, BLUE) == {"type": "skip"}
    events = t.timeout(BLUE)
    assert [e.type for e in events][0] == "RewardSkipped"
    assert t.current["areas"]["tavern"] == [1, 1, 0, 0]
    assert t.current["round"] == 2
