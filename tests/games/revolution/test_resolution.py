"""Resolution and Patronage: rewards in board order, tokens back to the bank, Gold top-ups."""

from __future__ import annotations

import pytest

import games.revolution as revolution
from games.base import clone_json
from games.revolution import components

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
    resolved,
    set_areas,
    set_hands,
    table,
    tokens,
    totals,
)


def test_characters_resolve_in_board_order_from_general_to_mercenary() -> None:
    t = table()
    events = play_bids(t, {seat: bid(printer=START) for seat in range(4)})
    order = [e.data["character"] for e in events_of(events, "CharacterResolved")]
    assert order == list(components.CHARACTER_IDS)
    assert order[0] == "general" and order[-1] == "mercenary"


@pytest.mark.parametrize("character", components.CHARACTER_IDS)
def test_each_character_gives_its_printed_reward(character: str) -> None:
    data = components.CHARACTER_BY_ID[character]
    t = table(3)
    kind = components.ALLOWED_KINDS[character][0]
    set_hands(t, [tokens(**{kind: 1}), tokens(gold=1), tokens(gold=1)])
    set_areas(t, {"tavern": [0, 1, 0], "market": [0, 0, 1]})  # targets for the Spy and the Apothecary
    others = [cid for cid in ("printer", "priest", "merchant") if cid != character]
    events = play_bids(t, {0: bid(**{character: {kind: 1}}), 1: bid(**{others[0]: {"gold": 1}}),
                           2: bid(**{others[1]: {"gold": 1}})})
    found = resolved(events, character)
    assert found["winner"] == 0
    assert found["support"] == data["support"]
    assert found["tokens"] == data["tokens"]
    assert found["cube"] == data["area"]
    assert found["decision"] == data["special"]


def test_winner_takes_support_tokens_and_a_cube() -> None:
    t = table()
    play_bids(t, {
        YELLOW: bid(general=tokens(blackmail=1, gold=3), innkeeper=tokens(force=1)),
        GREEN: bid(priest=START),
        BLUE: bid(merchant=START),
        RED: bid(aristocrat=START),
    })
    state = t.current
    assert state["support"] == [1 + 3, 6, 3, 5]
    assert state["areas"]["fortress"][YELLOW] == 1
    assert state["areas"]["tavern"][YELLOW] == 1
    assert state["areas"]["cathedral"][GREEN] == 1
    assert state["supply"] == [23, 24, 24, 24]


def test_tokens_won_are_kept_for_the_next_round_and_patronage_tops_up_with_gold() -> None:
    t = table()
    events = play_bids(t, {
        YELLOW: bid(general=tokens(blackmail=1, gold=3), innkeeper=tokens(force=1)),
        GREEN: bid(priest=START),
        BLUE: bid(merchant=START),
        RED: bid(aristocrat=START),
    })
    (patronage,) = events_of(events, "PatronagePaid")
    # Yellow won 1 Force and 1 Blackmail, Blue 5 Gold, Red 3 Gold, Green nothing.
    assert patronage.data["gold"] == [3, 5, 0, 2]
    assert t.current["hands"] == [tokens(force=1, blackmail=1, gold=3), tokens(gold=5), tokens(gold=5),
                                  tokens(gold=5)]
    assert t.current["round"] == 2
    assert t.awaiting() == {0: "bid", 1: "bid", 2: "bid", 3: "bid"}


def test_patronage_never_gives_force_or_blackmail_and_never_takes_tokens_away() -> None:
    t = table(3)
    set_hands(t, [tokens(gold=8), tokens(gold=1), tokens(gold=1)])
    play_bids(t, {0: bid(merchant=tokens(gold=8)), 1: bid(printer=tokens(gold=1)), 2: bid(priest=tokens(gold=1))})
    assert t.current["hands"] == [tokens(gold=5), tokens(gold=5), tokens(gold=5)]
    t.act(0, bid(merchant=tokens(gold=5)))
    t.act(1, bid(rogue=tokens(gold=5)))
    t.act(2, bid(mercenary=tokens(gold=5)))
    assert t.current["hands"] == [tokens(gold=5), tokens(blackmail=2, gold=3), tokens(force=1, gold=4)]
    t.state = clone_json(t.current)
    assert sum(t.current["hands"][0].values()) == 5


def test_a_hand_of_more_than_five_tokens_receives_no_patronage() -> None:
    t = table(3)
    events = play_bids(t, {0: bid(merchant=START), 1: bid(aristocrat=START), 2: bid(rogue=tokens(gold=3),
                                                                                      priest=tokens(force=1,
                                                                                                    blackmail=1))})
    (patronage,) = events_of(events, "PatronagePaid")
    assert patronage.data["gold"] == [0, 2, 3]
    assert t.current["hands"][0] == tokens(gold=5)
    assert t.current["hands"][2] == tokens(blackmail=2, gold=3)


def test_all_bid_tokens_go_back_to_the_bank() -> None:
    t = table()
    bank_before = dict(t.current["bank"])
    play_bids(t, {seat: bid(printer=START) for seat in range(4)})  # a four-way tie: nobody wins
    assert t.current["bank"]["force"] == bank_before["force"] + 4
    assert t.current["bank"]["blackmail"] == bank_before["blackmail"] + 4
    assert t.current["hands"] == [tokens(gold=5)] * 4
    assert totals(t.current) == {"force": 12, "blackmail": 12, "gold": 32}


def test_rewards_are_paid_only_while_the_bank_has_the_tokens() -> None:
    t = table(3)
    state = clone_json(t.current)
    # Eleven Force in hands (one per seat placed as a bid, the rest held by seat 2 for later).
    state["hands"] = [tokens(force=1), tokens(gold=1), tokens(force=10, gold=1)]
    state["bank"] = {"force": 1, "blackmail": 12 - 0, "gold": 32 - 2}
    assert totals(state) == {"force": 12, "blackmail": 12, "gold": 32}
    t.state = state
    events = play_bids(t, {0: bid(printer=tokens(force=1)), 1: bid(mercenary=tokens(gold=1)),
                           2: bid(priest=tokens(force=10), general=tokens(gold=1))})
    # The General pays its Force from the bank's last one; the bank still holds the Force bid
    # on characters not yet resolved, so the Mercenary's Force comes from the Priest's.
    assert resolved(events, "general")["tokens"] == {"force": 1}
    assert resolved(events, "mercenary")["tokens"] == {"force": 1}
    assert totals(t.current) == {"force": 12, "blackmail": 12, "gold": 32}


def test_an_empty_bank_pays_no_tokens_but_support_and_cube_still_come() -> None:
    t = table(3)
    state = clone_json(t.current)
    state["hands"] = [tokens(gold=1), tokens(force=6, gold=1), tokens(force=6, gold=1)]
    state["bank"] = {"force": 0, "blackmail": 12, "gold": 29}
    t.state = state
    events = play_bids(t, {0: bid(general=tokens(gold=1)), 1: bid(priest=tokens(force=6), rogue=tokens(gold=1)),
                           2: bid(printer=tokens(force=6), mercenary=tokens(gold=1))})
    general = resolved(events, "general")
    assert general["winner"] == 0 and general["tokens"] == {"force": 0}
    assert general["support"] == 1 and general["cube"] == "fortress"
    assert resolved(events, "mercenary")["tokens"] == {"force": 1}  # the Force bid earlier is back


def test_no_cube_is_placed_in_a_full_area() -> None:
    t = table()
    set_areas(t, {"cathedral": [2, 2, 2, 1]})
    events = play_bids(t, {YELLOW: bid(priest=START), GREEN: bid(printer=START), BLUE: bid(merchant=START),
                           RED: bid(aristocrat=START)})
    priest = resolved(events, "priest")
    assert priest["winner"] == YELLOW and priest["cube"] is None and priest["support"] == 6
    assert t.current["areas"]["cathedral"] == [2, 2, 2, 1]


def test_no_cube_is_placed_by_a_seat_without_cubes_left() -> None:
    t = table(3)
    state = clone_json(t.current)
    state["supply"][0] = 0
    t.state = state
    events = play_bids(t, {0: bid(priest=START), 1: bid(printer=START), 2: bid(merchant=START)})
    assert resolved(events, "priest")["cube"] is None
    assert t.current["areas"]["cathedral"] == [0, 0, 0]
    assert t.current["support"][0] == 6


def test_round_ends_with_no_tokens_on_the_bid_board() -> None:
    t = table()
    play_bids(t, {seat: bid(printer=START) for seat in range(4)})
    assert t.current["revealed"] is None
    assert t.current["sealed"] == [None] * 4


def test_the_game_does_not_end_while_a_space_is_empty() -> None:
    t = table()
    set_areas(t, fill_board(4, leave_empty={"fortress": 1}))
    play_bids(t, {seat: bid(printer=START) for seat in range(4)})
    assert t.outcome is None
    assert t.current["round"] == 2


def test_resolve_always_returns_events_when_nobody_is_awaited() -> None:
    t = table()
    for seat in range(4):
        t.act(seat, bid(printer=START), settle=False)
    events = revolution.resolve(t.current, RNG)
    assert [e.type for e in events][:2] == ["BidsRevealed", "CharacterResolved"]
    assert events[-1].type == "RoundStarted"
