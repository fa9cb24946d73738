"""Persuasion: how bids on one character compare (the rulebooks' token examples)."""

from __future__ import annotations

import pytest

from games.revolution.rules import bid_strength, strongest_bidder

from .helpers import BLUE, GREEN, RED, YELLOW, bid, play_bids, resolved, table, tokens


@pytest.mark.parametrize(("stronger", "weaker"), [
    (tokens(gold=3), tokens(gold=2)),
    (tokens(force=2), tokens(force=1)),
    (tokens(force=3), tokens(force=2)),
    (tokens(blackmail=1, gold=3), tokens(blackmail=1, gold=2)),
    (tokens(force=1, gold=1), tokens(force=1)),
    (tokens(force=1, blackmail=1), tokens(force=1, gold=3)),
    (tokens(force=1, blackmail=1), tokens(force=1)),
])
def test_rulebook_strength_examples(stronger: dict[str, int], weaker: dict[str, int]) -> None:
    assert bid_strength(stronger) > bid_strength(weaker)
    assert strongest_bidder([weaker, stronger]) == 1
    assert strongest_bidder([stronger, weaker]) == 0


def test_one_force_beats_any_amount_of_blackmail_and_gold() -> None:
    assert strongest_bidder([tokens(blackmail=12, gold=32), tokens(force=1)]) == 1


def test_one_blackmail_beats_any_amount_of_gold() -> None:
    assert strongest_bidder([tokens(gold=32), tokens(blackmail=1)]) == 1


def test_identical_strongest_bids_mean_nobody_wins() -> None:
    assert strongest_bidder([tokens(gold=2), tokens(gold=2), tokens(gold=5, blackmail=0)]) == 2
    assert strongest_bidder([tokens(gold=2), tokens(gold=2), tokens(gold=1)]) is None


def test_a_character_nobody_bid_on_has_no_winner() -> None:
    assert strongest_bidder([tokens(), tokens(), tokens()]) is None


def test_tie_among_the_strongest_leaves_the_character_unpersuaded_in_play() -> None:
    t = table()
    events = play_bids(t, {
        YELLOW: bid(priest=tokens(force=1, blackmail=1, gold=3)),
        GREEN: bid(priest=tokens(force=1, blackmail=1, gold=3)),
        BLUE: bid(priest=tokens(force=1, blackmail=1, gold=2), printer=tokens(gold=1)),
        RED: bid(printer=tokens(gold=1), priest=tokens(force=1, blackmail=1, gold=2)),
    })
    assert resolved(events, "priest")["winner"] is None
    assert resolved(events, "printer")["winner"] is None
    assert t.current["support"] == [0, 0, 0, 0]
    assert t.current["areas"]["cathedral"] == [0, 0, 0, 0]


def test_three_gold_beats_two_gold_in_play() -> None:
    t = table(3)
    events = play_bids(t, {
        0: bid(printer=tokens(gold=3), priest=tokens(force=1, blackmail=1)),
        1: bid(printer=tokens(gold=2), general=tokens(blackmail=1, gold=1), spy=tokens(force=1)),
        2: bid(captain=tokens(blackmail=1, gold=3), innkeeper=tokens(force=1)),
    })
    assert resolved(events, "printer")["winner"] == 0
    assert t.current["support"][0] == 10 + 6
