"""End of the game: a full city after a Resolution, then tokens and majorities score."""

from __future__ import annotations

import pytest

import games.revolution as revolution
from games.base import Outcome, RuleViolation, clone_json
from games.revolution import components, rules

from .helpers import (
    BLUE,
    GREEN,
    RED,
    RNG,
    START,
    YELLOW,
    bid,
    events_of,
    fill_board,
    play_bids,
    set_areas,
    table,
    tokens,
)


def test_rulebook_cathedral_example_a_three_cubes_beat_two_and_two() -> None:
    t = table()
    set_areas(t, {"cathedral": [0, 2, 3, 2]})  # red 2, green 2, blue 3
    areas = rules.final_scores(t.current)["areas"]
    assert areas["cathedral"] == {"winner": BLUE, "support": 35, "bonus": 0}


def test_rulebook_cathedral_example_b_a_tie_for_most_scores_nothing() -> None:
    t = table()
    set_areas(t, {"cathedral": [0, 1, 3, 3]})  # red 3, blue 3, green 1
    scores = rules.final_scores(t.current)
    assert scores["areas"]["cathedral"] == {"winner": None, "support": 0, "bonus": 0}
    assert scores["area_support"] == [0, 0, 0, 0]


def test_majority_needs_only_the_most_cubes_not_half_the_spaces() -> None:
    t = table()
    set_areas(t, {"fortress": [1, 0, 0, 0]})
    assert rules.final_scores(t.current)["areas"]["fortress"]["winner"] == YELLOW


def test_each_area_scores_its_printed_value() -> None:
    t = table()
    set_areas(t, {area["id"]: [1, 0, 0, 0] for area in components.AREAS})
    assert rules.final_scores(t.current)["area_support"] == [20 + 25 + 30 + 35 + 40 + 45 + 50, 0, 0, 0]


def test_tokens_in_hand_score_five_three_and_one() -> None:
    t = table(3)
    state = clone_json(t.current)
    state["hands"] = [tokens(force=2, blackmail=1, gold=4), tokens(gold=5), tokens()]
    assert rules.final_scores(state)["token_support"] == [10 + 3 + 4, 5, 0]


def test_game_ends_when_the_city_is_full_after_a_resolution_and_skips_patronage() -> None:
    t = table()
    set_areas(t, fill_board(4, leave_empty={"fortress": 1}))
    events = play_bids(t, {YELLOW: bid(general=tokens(blackmail=1, gold=3), innkeeper=tokens(force=1)),
                           GREEN: bid(printer=START), BLUE: bid(merchant=START), RED: bid(aristocrat=START)})
    assert events_of(events, "PatronagePaid") == []
    (scored,) = events_of(events, "GameScored")
    assert scored.data["reason"] == "board_full"
    assert rules.board_is_full(t.current)
    # Yellow won the General (1 Force) and the Innkeeper (1 Blackmail); Blue and Red won Gold.
    assert t.current["hands"][YELLOW] == tokens(force=1, blackmail=1)
    assert scored.data["token_support"] == [5 + 3, 0, 5, 3]
    assert t.outcome == Outcome(tuple(scored.data["winners"]), "board_full")
    assert t.current["phase"] == "over"


def test_final_support_adds_track_tokens_and_areas_and_the_top_seat_wins() -> None:
    t = table()
    set_areas(t, fill_board(4, leave_empty={"fortress": 1}))
    events = play_bids(t, {YELLOW: bid(general=tokens(blackmail=1, gold=3), innkeeper=tokens(force=1)),
                           GREEN: bid(printer=START), BLUE: bid(merchant=START), RED: bid(aristocrat=START)})
    (scored,) = events_of(events, "GameScored")
    data = scored.data
    track = [1 + 3, 10, 3, 5]
    assert data["support"] == [track[s] + data["token_support"][s] + data["area_support"][s] for s in range(4)]
    best = max(data["support"])
    assert data["winners"] == [s for s in range(4) if data["support"][s] == best]
    assert t.current["support"] == data["support"]


def test_shared_win_is_every_seat_with_the_top_support() -> None:
    t = table(3)
    state = clone_json(t.current)
    state["support"] = [40, 40, 10]
    state["hands"] = [tokens(), tokens(), tokens(gold=30)]
    assert rules.final_scores(state)["winners"] == [0, 1, 2]
    state["hands"] = [tokens(), tokens(), tokens(gold=29)]
    assert rules.final_scores(state)["winners"] == [0, 1]


def test_round_cap_ends_a_stalled_game_with_the_same_scoring() -> None:
    t = table(3, max_rounds=8)
    for _ in range(8):
        assert t.outcome is None
        for seat in range(3):
            t.act(seat, bid(printer=dict(t.current["hands"][seat])))  # a three-way tie every round
    assert t.outcome == Outcome((0, 1, 2), "round_limit")
    assert t.current["round"] == 8
    assert t.current["result"]["support"] == [0, 0, 0]  # every token went back to the bank


def test_nothing_is_awaited_or_legal_once_the_game_is_over() -> None:
    t = table(3, max_rounds=8)
    for _ in range(8):
        for seat in range(3):
            t.act(seat, bid(printer=dict(t.current["hands"][seat])))
    state = t.current
    assert revolution.awaiting(state) == {}
    for seat in range(3):
        assert not revolution.may_act(state, seat)
        assert revolution.legal_actions(state, seat) == []
    with pytest.raises(RuleViolation) as caught:
        revolution.decide(state, 0, bid(printer=tokens(gold=5)), RNG)
    assert caught.value.code == "game_over"
    with pytest.raises(RuleViolation):
        revolution.resolve(state, RNG)
