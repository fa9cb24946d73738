"""A turn of Pax Porfiriana (D, E, F, H, I): actions, market, income, regimes, depression."""

from __future__ import annotations

import pytest

import games.pax as pax
from games.base import InvalidOptions, RuleViolation
from games.pax import board as b
from games.pax.fold import find_enterprise

from .helpers import (
    check_conservation,
    edit,
    events_of,
    give,
    place_enterprise,
    place_partner,
    place_troop,
    quiet_deck,
    scenario,
    set_gold,
    take,
)

A, B, C = 0, 1, 2
BULL, BULL2 = "railroad_reaches_the_border", "good_harvest"
BEAR, BEAR2 = "copper_price_collapses", "drought_in_the_north"


def refused(t, seat: int, action: dict, code: str) -> None:  # noqa: ANN001
    with pytest.raises(RuleViolation) as err:
        t.act(seat, action)
    assert err.value.code == code, err.value.message


def market(t) -> list[str]:  # noqa: ANN001
    """Market cards in slot order: (row 0, col 0), (row 1, col 0), (row 0, col 1)..."""
    return [t.current["market"][i % 2][i // 2] for i in range(12)]


def test_three_actions_then_income_and_the_next_seat() -> None:
    t = scenario()
    cards = market(t)
    for card in cards[:2]:
        t.act(A, {"type": "speculate", "card": card})
    assert t.awaiting() == {A: "turn"} and t.current["actions_left"] == 1
    events = t.act(A, {"type": "speculate", "card": cards[2]})
    (income,) = [e for e in events_of(events, "GoldMoved") if e.data["why"] == "income"]
    assert income.data == {"from": None, "to": A, "amount": 2, "why": "income"}  # the loyalist's two cubes
    assert t.awaiting() == {B: "turn"} and t.current["turn"] == 2


def test_end_turn_early_and_a_jailed_seat_has_two_actions_until_the_police_frees_it() -> None:
    t = scenario()
    edit(t, lambda s: s["players"][B].update(jail=True))
    t.act(A, {"type": "end_turn"})
    assert t.awaiting() == {B: "turn"} and t.current["actions_left"] == 2
    t.act(B, {"type": "police", "jail": True})
    state = t.current
    assert state["players"][B]["jail"] is False and state["actions_left"] == 2
    assert state["players"][B]["gold"] == 5 - 3


def test_a_second_market_buy_costs_two_actions_and_a_third_is_refused() -> None:
    t = scenario()
    edit(t, lambda s: set_gold(s, A, 30))
    cards = market(t)
    t.act(A, {"type": "buy", "card": cards[0]})  # column 0: free
    assert t.current["actions_left"] == 2
    t.act(A, {"type": "buy", "card": cards[3]})  # column 1: 1 gold, two actions
    assert t.awaiting() == {B: "turn"}
    assert t.current["players"][A]["hand"] == [cards[0], cards[3]]
    assert t.current["players"][A]["gold"] == 30 - 1 + 2
    t2 = scenario()
    edit(t2, lambda s: set_gold(s, A, 30))
    t2.act(A, {"type": "buy", "card": market(t2)[0]})
    t2.act(A, {"type": "speculate", "card": market(t2)[1]})
    refused(t2, A, {"type": "buy", "card": market(t2)[2]}, "no_actions_left")


def test_the_hand_limit_blocks_buys_but_not_headlines() -> None:
    t = scenario(deck=quiet_deck([BULL]))
    edit(t, lambda s: give(s, A, *[c for c in s["deck"][:5]]))
    refused(t, A, {"type": "buy", "card": market(t)[1]}, "hand_limit")
    t.act(A, {"type": "buy", "card": BULL, "side": "status_quo"})
    assert BULL in t.current["bullbear"]


def test_speculation_pays_the_speculator_not_the_bank_and_the_cube_comes_home() -> None:
    t = scenario()
    target = market(t)[11]  # column 5: 16 gold
    t.act(A, {"type": "speculate", "card": target})
    refused(t, A, {"type": "speculate", "card": target}, "already_speculated")
    t.act(A, {"type": "end_turn"})
    edit(t, lambda s: set_gold(s, B, 20))
    supply = t.current["players"][A]["supply"]
    t.act(B, {"type": "buy", "card": target})
    assert t.current["players"][B]["gold"] == 4
    assert t.current["players"][A]["gold"] == 4 + 2 + 16  # start, income, the price
    assert t.current["players"][A]["supply"] == supply + 1 and target not in t.current["spec"]


def test_selling_pays_the_economy_and_an_enterprise_with_unrest_cannot_be_sold() -> None:
    t = scenario()
    edit(t, lambda s: (place_enterprise(s, A, "hermosillo_brewery", unrest=1),
                       place_enterprise(s, A, "magdalena_tannery"), give(s, A, "wobblies")))
    refused(t, A, {"type": "sell", "card": "hermosillo_brewery"}, "unrest")
    t.act(A, {"type": "sell", "card": "wobblies"})
    assert t.current["players"][A]["gold"] == 4 + 3
    t.act(A, {"type": "sell", "card": "magdalena_tannery"})
    assert find_enterprise(t.current, "magdalena_tannery") is None
    assert t.current["players"][A]["supply"] == 13 - 1  # the tannery's cube came home; the brewery keeps one
    check_conservation(t.current)


def test_headlines_in_the_free_column_are_discarded_and_two_bears_start_a_depression() -> None:
    t = scenario(deck=quiet_deck([BEAR, BEAR2]))
    edit(t, lambda s: place_enterprise(s, B, "banco_de_sonora"))
    assert market(t)[:2] == [BEAR, BEAR2]
    t.act(A, {"type": "end_turn"})
    state = t.current
    assert state["bullbear"] == [BEAR, BEAR2] and state["depression"] is True
    assert b.economy(state) == 0 and find_enterprise(state, "banco_de_sonora")[1]["income"] == 0
    assert [c for c in market(t) if c in (BEAR, BEAR2)] == []
    assert None not in market(t)
    t.act(B, {"type": "end_turn"})  # a depression: B pays upkeep for its bank
    assert t.awaiting() == {B: "upkeep"}
    assert pax.on_timeout(t.current, B) == {"type": "upkeep", "discard": []}
    t.timeout(B)
    assert t.current["players"][B]["gold"] == 5 + 2 - 1 and t.awaiting() == {C: "turn"}


def test_two_bulls_end_the_depression_and_mixed_icons_let_the_active_seat_choose_the_order() -> None:
    t = scenario(deck=quiet_deck([BULL, BULL2]))
    edit(t, lambda s: s.update(depression=True))
    t.act(A, {"type": "end_turn"})
    assert t.current["depression"] is False
    t = scenario(deck=quiet_deck([BULL, BEAR]))
    edit(t, lambda s: (take(s, BEAR2), s["bullbear"].append(BEAR2)))
    t.act(A, {"type": "end_turn"})
    assert t.awaiting() == {A: "discard_order"}
    assert pax.legal_actions(t.current, A) == [{"type": "discard_order", "first": BULL},
                                               {"type": "discard_order", "first": BEAR}]
    t.act(A, {"type": "discard_order", "first": BULL})  # bear, bull, bear: no depression
    assert t.current["bullbear"][-2:] == [BULL, BEAR] and t.current["depression"] is False


def test_the_market_slides_toward_the_free_end_and_refills_cheapest_first() -> None:
    t = scenario()
    before = market(t)
    deck_top = t.current["deck"][:2]
    edit(t, lambda s: set_gold(s, A, 30))
    t.act(A, {"type": "buy", "card": before[2]})   # row 0, column 1
    t.act(A, {"type": "buy", "card": before[5]})   # row 1, column 2
    rows = t.current["market"]
    assert rows[0] == [before[0], before[4], before[6], before[8], before[10], deck_top[0]]
    assert rows[1] == [before[1], before[3], before[7], before[9], before[11], deck_top[1]]


def test_income_counts_own_connection_and_extortion_cubes_and_bribes_but_not_closed_enterprises() -> None:
    t = scenario()

    def position(s):  # noqa: ANN001, ANN202
        place_enterprise(s, A, "juarez_customs_house")          # 2 income, a Loyalty bribe under Pax
        s["players"][A]["bribes"]["juarez_customs_house"] = 1
        s["players"][A]["supply"] -= 1
        place_enterprise(s, B, "babicora_cattle_range", connections=[A])  # A's connection cube
        place_enterprise(s, B, "santa_eulalia_silver_lode")
        place_troop(s, A, "terrazas_vaqueros", "santa_eulalia_silver_lode", extort=True)
        place_enterprise(s, A, "hermosillo_brewery", unrest=1)  # closed: pays nothing

    edit(t, position)
    check_conservation(t.current)
    assert b.income_of(t.current, A) == 2 + 2 + 1 + 1 + 1
    t.act(A, {"type": "end_turn"})
    assert t.current["players"][A]["gold"] == 4 + 7


def test_buying_land_costs_two_actions_and_a_gold_per_cube_on_the_card() -> None:
    t = scenario()
    edit(t, lambda s: (place_enterprise(s, A, "babicora_cattle_range", connections=[B]), set_gold(s, A, 10)))
    t.act(A, {"type": "buy_land", "enterprise": "babicora_cattle_range"})
    ent = find_enterprise(t.current, "babicora_cattle_range")[1]
    assert ent["income"] == 2 and ent["land"] == 1 and t.current["players"][A]["gold"] == 8
    assert t.current["actions_left"] == 1
    refused(t, A, {"type": "buy_land", "enterprise": "babicora_cattle_range"}, "no_actions_left")


def test_upgrading_a_rivals_connection_and_the_trunk_line_discount() -> None:
    t = scenario()
    edit(t, lambda s: (place_enterprise(s, B, "cananea_copper_pit"), place_enterprise(s, B, "batopilas_silver_works"),
                       set_gold(s, A, 10)))
    t.act(A, {"type": "upgrade", "enterprise": "cananea_copper_pit", "oval": 0})  # a trunk line: 3 gold
    assert t.current["players"][A]["gold"] == 7
    t.act(A, {"type": "upgrade", "enterprise": "batopilas_silver_works", "oval": 1})  # 4 listed, 1 with a trunk
    assert t.current["players"][A]["gold"] == 6
    refused(t, A, {"type": "upgrade", "enterprise": "cananea_copper_pit", "oval": 0}, "oval_taken")


def test_police_costs_three_free_with_a_troop_present_or_under_martial_law() -> None:
    t = scenario()

    def position(s):  # noqa: ANN001, ANN202
        place_enterprise(s, A, "hermosillo_brewery", unrest=2)
        place_enterprise(s, A, "magdalena_tannery", unrest=1)
        place_troop(s, B, "sonora_state_militia", "magdalena_tannery", extort=True)
        set_gold(s, A, 3)

    edit(t, position)
    t.act(A, {"type": "police", "enterprise": "magdalena_tannery"})
    assert t.current["players"][A]["gold"] == 3
    t.act(A, {"type": "police", "enterprise": "hermosillo_brewery"})
    assert t.current["players"][A]["gold"] == 0
    edit(t, lambda s: s.update(regime="martial_law"))
    t.act(A, {"type": "police", "enterprise": "hermosillo_brewery"})
    assert find_enterprise(t.current, "hermosillo_brewery")[1]["unrest"] == 0


def test_a_black_card_outside_its_regime_takes_two_actions_and_steals_what_there_is() -> None:
    t = scenario()
    edit(t, lambda s: (give(s, A, "antitrust_prosecution"), set_gold(s, B, 3), set_gold(s, A, 5)))
    refused(t, A, {"type": "play", "card": "antitrust_prosecution", "target": A}, "opponent_only")
    t.act(A, {"type": "play", "card": "antitrust_prosecution", "target": B})
    state = t.current
    assert state["actions_left"] == 1
    assert state["players"][A]["gold"] == 5 - 2 + 3 and state["players"][B]["gold"] == 0
    assert "antitrust_prosecution" in state["players"][B]["grievances"]


def test_orange_cards_keep_to_their_district_and_the_straw_man_needs_a_quiet_enterprise() -> None:
    t = scenario()
    edit(t, lambda s: (give(s, A, "cananea_strike", "apache_raid"), place_enterprise(s, B, "rancho_san_isidro"),
                       place_enterprise(s, A, "hermosillo_brewery", unrest=1)))
    refused(t, A, {"type": "play", "card": "cananea_strike", "target": "rancho_san_isidro"}, "wrong_district")
    refused(t, A, {"type": "play", "card": "apache_raid", "target": "hermosillo_brewery"}, "straw_man_unrest")
    t.act(A, {"type": "play", "card": "apache_raid", "target": "rancho_san_isidro"})
    assert find_enterprise(t.current, "rancho_san_isidro")[1]["unrest"] == 1
    assert t.current["players"][A]["gold"] == 4 - 1 + 2  # steal 2 from B


def test_a_scapegoat_costs_nothing_places_no_unrest_and_still_lands_in_the_grievance_pile() -> None:
    t = scenario()
    edit(t, lambda s: (give(s, A, "cananea_strike"), place_enterprise(s, A, "hermosillo_brewery")))
    t.act(A, {"type": "play", "card": "cananea_strike", "target": "hermosillo_brewery", "scapegoat": True})
    state = t.current
    assert state["players"][A]["gold"] == 4
    assert find_enterprise(state, "hermosillo_brewery")[1]["unrest"] == 0
    assert "cananea_strike" in state["players"][A]["grievances"]


def test_leaving_pax_removes_bribes_and_regime_values_reset_mines_and_banks() -> None:
    t = scenario(deck=quiet_deck(["marines_land_at_veracruz"]))
    edit(t, lambda s: (place_partner(s, B, "customs_inspector"), place_enterprise(s, B, "banco_de_sonora"),
                       place_enterprise(s, B, "cananea_copper_pit")))
    assert t.current["players"][B]["bribes"] == {"customs_inspector": 1}
    t.act(A, {"type": "buy", "card": "marines_land_at_veracruz", "side": "event"})
    state = t.current
    assert state["regime"] == "us_intervention" and state["players"][B]["bribes"] == {}
    assert find_enterprise(state, "banco_de_sonora")[1]["income"] == 2
    assert find_enterprise(state, "cananea_copper_pit")[1]["income"] == 3
    check_conservation(state)


def test_a_conflict_makes_each_seat_holding_both_factions_discard_one() -> None:
    t = scenario(deck=quiet_deck(["panic_on_wall_street"]))
    edit(t, lambda s: (place_partner(s, B, "filibuster_captain"), place_partner(s, B, "customs_inspector"),
                       place_partner(s, B, "rurales_commandant"), place_partner(s, C, "pinkerton_spy")))
    t.act(A, {"type": "buy", "card": "panic_on_wall_street", "side": "event"})
    assert t.awaiting() == {B: "conflict"}  # C holds only blue: no conflict for it
    assert pax.on_timeout(t.current, B) == {"type": "conflict", "faction": "blue"}  # the smaller side
    t.act(B, {"type": "conflict", "faction": "green"})
    partners = [r["card"] for r in t.current["players"][B]["partners"]]
    assert partners == ["filibuster_captain"]
    assert t.awaiting() == {A: "turn"} and "panic_on_wall_street" in t.current["bullbear"]


def test_the_fourth_topple_leaving_the_market_unbought_ends_the_game_on_gold() -> None:
    t = scenario(deck=quiet_deck(["free_elections_called"]))
    edit(t, lambda s: (s.update(topples_out=3), set_gold(s, C, 9)))
    t.act(A, {"type": "end_turn"})
    assert t.outcome is not None and t.outcome.reason == "diaz_survives" and t.outcome.winners == (C,)


def test_the_turn_cap_ends_the_game_on_gold() -> None:
    t = scenario(max_turns=10)
    for _ in range(10):
        (seat,) = t.awaiting()
        t.timeout(seat)
    assert t.outcome is not None and t.outcome.reason == "turn_limit"


def test_with_the_turn_cap_off_the_game_plays_on_past_any_turn_by_the_printed_rules() -> None:
    """max_turns 0 turns the cap off: turn 300 (the default cap) and beyond simply go on."""
    t = scenario(max_turns=0)
    assert t.current["options"]["max_turns"] == 0
    edit(t, lambda s: s.update(turn=3000))
    for _ in range(4):
        (seat,) = t.awaiting()
        t.timeout(seat)
    assert t.outcome is None and t.current["turn"] == 3004


def test_the_default_cap_stays_300_and_null_asks_for_the_default() -> None:
    assert pax.validate_options({}, 3)["max_turns"] == 300
    assert pax.validate_options({"max_turns": None}, 3)["max_turns"] == 300
    t = scenario()
    edit(t, lambda s: s.update(turn=299))
    for _ in range(2):
        (seat,) = t.awaiting()
        t.timeout(seat)
    assert t.outcome is not None and t.outcome.reason == "turn_limit"


@pytest.mark.parametrize("turns", [-1, 5, 3001, 12.5, "300", True, False])
def test_a_bad_turn_cap_is_refused(turns: object) -> None:
    with pytest.raises(InvalidOptions) as err:
        pax.validate_options({"max_turns": turns}, 3)
    assert err.value.code == "bad_option" and "max_turns" in err.value.message


def test_bonus_actions_come_on_top_of_the_three() -> None:
    t = scenario()
    edit(t, lambda s: place_partner(s, A, "el_paso_herald_editor"))  # a bonus speculation
    cards = market(t)
    for card in cards[:4]:
        t.act(A, {"type": "speculate", "card": card})
    assert t.awaiting() == {B: "turn"}
    assert sum(1 for holder in t.current["spec"].values() if holder == A) == 4


def test_cubes_move_about_only_from_an_empty_supply_but_speculation_may_always_move() -> None:
    t = scenario()
    cards = market(t)
    edit(t, lambda s: place_enterprise(s, A, "hermosillo_brewery"))
    refused(t, A, {"type": "speculate", "card": cards[0], "from": {"income": "hermosillo_brewery"}},
            "cubes_in_supply")
    t.act(A, {"type": "speculate", "card": cards[0]})
    t.act(A, {"type": "speculate", "card": cards[1], "from": {"market": cards[0]}})
    assert t.current["spec"] == {cards[1]: A}
    edit(t, lambda s: s["players"][A].update(supply=0) or s["players"][A].update(hac_cubes=s["players"][A]
                                                                                 ["hac_cubes"] + 11))
    check_conservation(t.current)
    t.act(A, {"type": "speculate", "card": cards[2], "from": {"income": "hermosillo_brewery"}})
    assert find_enterprise(t.current, "hermosillo_brewery")[1]["income"] == 0 and t.current["spec"][cards[2]] == A


def test_with_two_seats_the_tripartite_is_diaz_and_the_one_opponent() -> None:
    t = scenario(2, deck=quiet_deck(["diaz_resigns_in_disgrace"]))

    def position(s):  # noqa: ANN001, ANN202
        place_partner(s, B, "customs_inspector")
        place_partner(s, B, "supreme_court_clerk")
        place_partner(s, B, "governor_of_sonora")

    edit(t, position)
    t.act(A, {"type": "buy", "card": "diaz_resigns_in_disgrace", "side": "status_quo"})
    t.act(B, {"type": "done"})
    events = t.act(A, {"type": "done"})
    (resolved,) = events_of(events, "ToppleResolved")
    assert resolved.data["points"] == [0, 3] and resolved.data["tripartite"] == [2 + 3, 2 + 0]
    assert t.outcome is not None and t.outcome.winners == (B,)


def test_every_decision_has_a_documented_default() -> None:
    t = scenario(deck=quiet_deck(["diaz_resigns_in_disgrace"]))
    t.act(A, {"type": "buy", "card": "diaz_resigns_in_disgrace", "side": "event"})
    assert t.awaiting() == {B: "topple"} and pax.on_timeout(t.current, B) == {"type": "done"}
    for seat in (B, C, A):
        t.timeout(seat)
    assert t.awaiting() == {A: "turn"} and pax.on_timeout(t.current, A) == {"type": "end_turn"}
    t = scenario(deck=quiet_deck([BULL, BEAR]))
    t.act(A, {"type": "end_turn"})
    assert pax.on_timeout(t.current, A) == {"type": "discard_order", "first": BULL}
