"""The Spy and the Apothecary: the winner's choice on cubes already on the board."""

from __future__ import annotations

from typing import Any

import pytest

import games.revolution as revolution
from games.base import RuleViolation, clone_json
from games.revolution import rules

from .helpers import BLUE, GREEN, RED, RNG, YELLOW, bid, events_of, fill_board, resolved, set_areas, set_hands, table
from .helpers import tokens as tk


def win(t: Any, winners: dict[str, int]) -> list[Any]:
    """Seats win the given characters with 1 Gold each; a spare Gold each ties on the Printer."""
    plans: dict[int, dict[str, dict[str, int]]] = {seat: {"printer": {"gold": 1}} for seat in range(t.seats)}
    for character, seat in winners.items():
        plans[seat][character] = {"gold": 1}
    set_hands(t, [tk(gold=len(plans[seat])) for seat in range(t.seats)])
    events: list[Any] = []
    for seat in range(t.seats):
        events += t.act(seat, bid(**plans[seat]))
    return events


def spy(area: str, owner: int) -> dict[str, Any]:
    return {"type": "spy", "area": area, "owner": owner}


def swap(first: tuple[str, int], second: tuple[str, int]) -> dict[str, Any]:
    return {"type": "apothecary", "first": {"area": first[0], "owner": first[1]},
            "second": {"area": second[0], "owner": second[1]}}


def test_rulebook_spy_example_replaces_a_blue_cube_in_the_full_cathedral() -> None:
    t = table()
    set_areas(t, {"cathedral": [2, 2, 3, 0]})
    events = win(t, {"spy": YELLOW})
    assert resolved(events, "spy")["decision"] == "spy"
    assert t.awaiting() == {YELLOW: "spy"}
    assert [e.type for e in events][-1] == "CharacterResolved"  # resolution waits for Yellow
    supply = list(t.current["supply"])
    after = t.act(YELLOW, spy("cathedral", BLUE))
    assert after[0].type == "SpyReplacedCube"
    assert t.current["areas"]["cathedral"] == [3, 2, 2, 0]
    assert t.current["supply"][YELLOW] == supply[YELLOW] - 1
    assert t.current["supply"][BLUE] == supply[BLUE] + 1
    assert resolved(after, "mercenary")  # resolution went on in board order
    scores = rules.final_scores(t.current)
    assert scores["areas"]["cathedral"] == {"winner": YELLOW, "support": 35, "bonus": 0}


def test_spy_targets_are_every_rival_cube_by_area_and_owner_plus_skip() -> None:
    t = table()
    set_areas(t, {"tavern": [1, 1, 0, 0], "fortress": [2, 0, 0, 1]})
    win(t, {"spy": YELLOW})
    assert revolution.legal_actions(t.current, YELLOW) == [spy("tavern", GREEN), spy("fortress", RED),
                                                           {"type": "skip"}]
    assert revolution.legal_actions(t.current, GREEN) == []


@pytest.mark.parametrize(("action", "code"), [
    (spy("tavern", YELLOW), "own_cube"),
    (spy("market", GREEN), "no_such_cube"),
    (spy("palace", GREEN), "unknown_area"),
    (spy("tavern", 7), "bad_owner"),
    ({"type": "spy", "area": "tavern"}, "missing_field"),
    (swap(("tavern", GREEN), ("fortress", YELLOW)), "wrong_decision"),
    (bid(), "not_bidding"),
])
def test_spy_choices_are_checked(action: dict[str, Any], code: str) -> None:
    t = table()
    set_areas(t, {"tavern": [1, 1, 0, 0]})
    win(t, {"spy": YELLOW})
    with pytest.raises(RuleViolation) as caught:
        revolution.decide(t.current, YELLOW, action, RNG)
    assert caught.value.code == code


def test_spy_without_a_rival_cube_on_the_board_is_skipped_automatically() -> None:
    t = table()
    set_areas(t, {"tavern": [2, 0, 0, 0]})
    events = win(t, {"spy": YELLOW})
    found = resolved(events, "spy")
    assert found["winner"] == YELLOW and found["decision"] is None and found["no_target"] is True
    assert t.current["round"] == 2


def test_spy_without_a_cube_in_supply_is_skipped_automatically() -> None:
    t = table()
    set_areas(t, {"tavern": [0, 2, 0, 0]})
    state = clone_json(t.current)
    state["supply"][YELLOW] = 0
    t.state = state
    events = win(t, {"spy": YELLOW})
    assert resolved(events, "spy")["no_target"] is True


def test_spy_reward_may_be_skipped() -> None:
    t = table()
    set_areas(t, {"tavern": [0, 2, 0, 0]})
    win(t, {"spy": YELLOW})
    events = t.act(YELLOW, {"type": "skip"})
    assert events[0].type == "RewardSkipped" and events[0].data == {"seat": YELLOW, "character": "spy"}
    assert t.current["areas"]["tavern"] == [0, 2, 0, 0]
    assert t.current["round"] == 2


def test_rulebook_apothecary_example_gives_blue_two_majorities() -> None:
    """Cathedral and Plantation are both tied; Blue swaps a yellow cube of the Cathedral
    with a red cube of the Plantation and then leads both: 35 + 30 = 65."""
    t = table()
    set_areas(t, {"cathedral": [2, 0, 2, 0], "plantation": [0, 0, 2, 2]})
    assert rules.final_scores(t.current)["area_support"] == [0, 0, 0, 0]
    win(t, {"apothecary": BLUE})
    assert t.awaiting() == {BLUE: "apothecary"}
    events = t.act(BLUE, swap(("cathedral", YELLOW), ("plantation", RED)))
    assert events[0].type == "ApothecarySwappedCubes"
    assert t.current["areas"]["cathedral"] == [1, 0, 2, 1]
    assert t.current["areas"]["plantation"] == [1, 0, 2, 1]
    assert rules.final_scores(t.current)["area_support"] == [0, 0, 65, 0]


def test_rulebook_apothecary_example_moving_only_rival_cubes() -> None:
    """Red swaps a blue cube of the Cathedral with a yellow cube of the Tavern and then
    leads in both; the winner need not move cubes of its own."""
    t = table()
    set_areas(t, {"cathedral": [0, 0, 2, 2], "tavern": [2, 0, 0, 2]})
    win(t, {"apothecary": RED})
    t.act(RED, swap(("tavern", YELLOW), ("cathedral", BLUE)))
    assert t.current["areas"]["cathedral"] == [1, 0, 1, 2]
    assert t.current["areas"]["tavern"] == [1, 0, 1, 2]
    areas = rules.final_scores(t.current)["areas"]
    assert areas["cathedral"]["winner"] == RED and areas["tavern"]["winner"] == RED


def test_apothecary_swap_is_recorded_in_board_order_whatever_order_it_is_posted() -> None:
    t = table()
    set_areas(t, {"cathedral": [0, 0, 2, 2], "tavern": [2, 0, 0, 2]})
    win(t, {"apothecary": RED})
    (event,) = revolution.decide(t.current, RED, swap(("cathedral", BLUE), ("tavern", YELLOW)), RNG)
    assert event.data["first"] == {"area": "tavern", "owner": YELLOW}
    assert swap(("tavern", YELLOW), ("cathedral", BLUE)) in revolution.legal_actions(t.current, RED)


@pytest.mark.parametrize(("action", "code"), [
    (swap(("cathedral", BLUE), ("cathedral", RED)), "same_area"),
    (swap(("cathedral", RED), ("tavern", RED)), "same_owner"),
    (swap(("cathedral", YELLOW), ("tavern", RED)), "no_such_cube"),
    ({"type": "apothecary", "first": {"area": "tavern", "owner": 0, "x": 1}, "second": {}}, "unknown_field"),
    ({"type": "apothecary", "first": "tavern", "second": "cathedral"}, "unknown_area"),
    (spy("tavern", YELLOW), "wrong_decision"),
])
def test_apothecary_choices_are_checked(action: dict[str, Any], code: str) -> None:
    t = table()
    set_areas(t, {"cathedral": [0, 0, 2, 2], "tavern": [2, 0, 0, 2]})
    win(t, {"apothecary": RED})
    with pytest.raises(RuleViolation) as caught:
        revolution.decide(t.current, RED, action, RNG)
    assert caught.value.code == code


def test_apothecary_lists_every_useful_swap_once() -> None:
    t = table(3)
    set_areas(t, {"tavern": [1, 1, 0], "market": [0, 1, 1]})
    win(t, {"apothecary": 0})
    actions = revolution.legal_actions(t.current, 0)
    assert actions == [
        swap(("tavern", 0), ("market", 1)),
        swap(("tavern", 0), ("market", 2)),
        swap(("tavern", 1), ("market", 2)),
        {"type": "skip"},
    ]


def test_apothecary_without_two_swappable_cubes_is_skipped_automatically() -> None:
    t = table()
    set_areas(t, {"tavern": [1, 1, 0, 0]})  # one area only: every swap would change nothing
    events = win(t, {"apothecary": GREEN})
    assert resolved(events, "apothecary")["no_target"] is True
    assert t.current["round"] == 2


def test_spy_then_apothecary_in_one_round_are_decided_in_board_order() -> None:
    t = table()
    set_areas(t, {"tavern": [1, 1, 0, 0], "market": [0, 0, 1, 1]})
    win(t, {"spy": GREEN, "apothecary": BLUE})
    assert t.awaiting() == {GREEN: "spy"}
    events = t.act(GREEN, spy("market", RED))
    assert t.awaiting() == {BLUE: "apothecary"}
    assert resolved(events, "apothecary")["decision"] == "apothecary"
    events = t.act(BLUE, swap(("tavern", YELLOW), ("market", BLUE)))
    assert events_of(events, "RoundStarted")
    assert t.current["areas"]["tavern"] == [0, 1, 1, 0]
    assert t.current["areas"]["market"] == [1, 1, 0, 0]


def test_spy_and_apothecary_can_change_a_full_board() -> None:
    t = table()
    board = fill_board(4)
    set_areas(t, board)
    win(t, {"spy": RED})
    assert revolution.legal_actions(t.current, RED)[0] == spy("tavern", YELLOW)
    events = t.act(RED, spy("tavern", YELLOW))
    assert events_of(events, "GameScored")
    assert t.current["areas"]["tavern"] == [0, 1, 1, 2]
