"""Troops (G): jurisdiction, fares, battles, extortion, looting, private armies, retreats."""

from __future__ import annotations

import pytest

import games.pax as pax
from games.base import RuleViolation
from games.pax import board as b
from games.pax.fold import find_enterprise

from .helpers import (
    check_conservation,
    edit,
    give,
    place_enterprise,
    place_partner,
    place_troop,
    scenario,
    set_gold,
    turn_hacendado,
)

A, B, C = 0, 1, 2


def ent(t, card: str) -> dict:  # noqa: ANN001
    return find_enterprise(t.current, card)[1]


def refused(t, action: dict, code: str) -> None:  # noqa: ANN001
    with pytest.raises(RuleViolation) as err:
        t.act(A, action)
    assert err.value.code == code, err.value.message


def test_troops_keep_to_their_district_except_us_troops_under_intervention_and_all_under_anarchy() -> None:
    t = scenario()
    edit(t, lambda s: (place_enterprise(s, B, "rancho_san_isidro"), give(s, A, "arizona_rangers", "yaqui_raiders"),
                       set_gold(s, A, 20)))
    refused(t, {"type": "play", "card": "arizona_rangers", "to": "rancho_san_isidro"}, "out_of_jurisdiction")
    edit(t, lambda s: s.update(regime="us_intervention"))
    refused(t, {"type": "play", "card": "yaqui_raiders", "to": "rancho_san_isidro"}, "out_of_jurisdiction")
    t.act(A, {"type": "play", "card": "arizona_rangers", "to": "rancho_san_isidro"})
    assert ent(t, "rancho_san_isidro")["troop"] == {"card": "arizona_rangers", "owner": A}
    edit(t, lambda s: s.update(regime="anarchy"))
    assert b.can_reach(t.current, "yaqui_raiders", "rancho_san_isidro")


def test_extorting_replaces_an_income_cube_or_the_previous_extortioners_cube() -> None:
    t = scenario()
    edit(t, lambda s: (place_enterprise(s, B, "juarez_customs_house"),
                       place_troop(s, C, "chihuahua_home_guard", "juarez_customs_house", extort=True),
                       give(s, A, "terrazas_vaqueros"), set_gold(s, A, 10)))
    supply_c = t.current["players"][C]["supply"]
    t.act(A, {"type": "play", "card": "terrazas_vaqueros", "to": "juarez_customs_house"})
    house = ent(t, "juarez_customs_house")
    assert house["income"] == 1 and house["extortion"] == A
    assert "chihuahua_home_guard" in t.current["discard"]
    assert t.current["players"][C]["supply"] == supply_c + 1
    assert t.current["players"][A]["gold"] == 10 - 1  # rail fare
    check_conservation(t.current)


def test_a_troop_on_a_rivals_enterprise_without_cubes_loots_it_and_comes_back_to_hand() -> None:
    t = scenario()
    edit(t, lambda s: (place_enterprise(s, B, "banco_de_sonora", income=0), give(s, A, "sonora_state_militia"),
                       set_gold(s, A, 5)))
    t.act(A, {"type": "play", "card": "sonora_state_militia", "to": "banco_de_sonora"})
    assert find_enterprise(t.current, "banco_de_sonora") is None
    assert "banco_de_sonora" in t.current["players"][B]["hand"]
    assert "sonora_state_militia" in t.current["players"][A]["hand"]
    check_conservation(t.current)


def test_own_troops_never_loot_and_need_no_cube() -> None:
    t = scenario()
    edit(t, lambda s: (place_enterprise(s, A, "banco_de_sonora", income=0), give(s, A, "sonora_state_militia"),
                       s["players"][A].update(supply=0, hac_cubes=s["players"][A]["hac_cubes"]
                                              + s["players"][A]["supply"])))
    t.act(A, {"type": "play", "card": "sonora_state_militia", "to": "banco_de_sonora"})
    assert ent(t, "banco_de_sonora")["troop"] == {"card": "sonora_state_militia", "owner": A}
    check_conservation(t.current)


def test_an_extortion_needs_a_cube_in_supply() -> None:
    t = scenario()
    edit(t, lambda s: (place_enterprise(s, B, "hermosillo_brewery"), give(s, A, "sonora_state_militia"),
                       s["players"][A].update(supply=0, hac_cubes=s["players"][A]["hac_cubes"]
                                              + s["players"][A]["supply"])))
    refused(t, {"type": "play", "card": "sonora_state_militia", "to": "hermosillo_brewery"}, "no_cube")


def test_a_private_army_takes_its_hacendados_faction_at_the_hacendados_fare() -> None:
    t = scenario()
    edit(t, lambda s: (turn_hacendado(s, A, 0), give(s, A, "maderista_volunteers", "sonora_state_militia"),
                       set_gold(s, A, 5)))
    assert b.hacendado_faction(t.current, A) == "red"  # Don Aurelio's Maderista side: boot
    refused(t, {"type": "play", "card": "sonora_state_militia", "to": "hacendado"}, "wrong_faction")
    t.act(A, {"type": "play", "card": "maderista_volunteers", "to": "hacendado"})
    assert t.current["players"][A]["army"] == ["maderista_volunteers"]
    assert t.current["players"][A]["gold"] == 5 - 1


def test_leaving_an_extorted_enterprise_gives_the_owner_its_cube_back() -> None:
    t = scenario()
    edit(t, lambda s: (place_enterprise(s, B, "juarez_customs_house"), place_enterprise(s, A, "rancho_san_isidro"),
                       place_troop(s, A, "chihuahua_home_guard", "juarez_customs_house", extort=True),
                       set_gold(s, A, 5)))
    t.act(A, {"type": "redeploy", "card": "chihuahua_home_guard", "to": "rancho_san_isidro"})
    house = ent(t, "juarez_customs_house")
    assert house["income"] == 2 and house["extortion"] is None and house["troop"] is None
    assert ent(t, "rancho_san_isidro")["troop"] == {"card": "chihuahua_home_guard", "owner": A}
    assert t.current["players"][A]["gold"] == 5 - 2  # the ranch's boot road
    check_conservation(t.current)


def test_redeploying_in_place_is_free_and_clears_unrest_up_to_firepower() -> None:
    t = scenario()
    edit(t, lambda s: (place_enterprise(s, A, "hermosillo_brewery", unrest=3),
                       place_troop(s, A, "federal_cavalry_squadron", "hermosillo_brewery")))
    t.act(A, {"type": "redeploy", "card": "federal_cavalry_squadron", "to": "hermosillo_brewery"})
    assert ent(t, "hermosillo_brewery")["unrest"] == 1 and t.current["players"][A]["gold"] == 4


def test_selling_an_enterprise_sends_its_troop_home() -> None:
    t = scenario()
    edit(t, lambda s: (place_enterprise(s, A, "juarez_customs_house"),
                       place_troop(s, B, "chihuahua_home_guard", "juarez_customs_house", extort=True)))
    t.act(A, {"type": "sell", "card": "juarez_customs_house"})
    assert t.awaiting() == {B: "retreat"}  # B's hacendado is not turned: B may turn it first
    check_conservation(t.current)
    t.act(B, {"type": "done"})
    assert "chihuahua_home_guard" in t.current["players"][B]["hand"]
    assert t.awaiting() == {A: "turn"} and t.current["actions_left"] == 2
    check_conservation(t.current)


def test_a_hacendado_may_be_turned_during_a_retreat_and_the_troop_joins_its_army() -> None:
    """The rules let a hacendado turn during a topple or a retreat: B's white home guard
    retreats from a sold enterprise; B turns to the white Cattle Caudillo and keeps it."""
    t = scenario()
    edit(t, lambda s: (place_enterprise(s, A, "juarez_customs_house"),
                       place_troop(s, C, "chihuahua_home_guard", "juarez_customs_house", extort=True)))
    t.act(A, {"type": "sell", "card": "juarez_customs_house"})
    assert t.awaiting() == {C: "retreat"}
    view = pax.view(t.current, C)
    assert view["phase"] == "retreat" and view["decision"]["card"] == "chihuahua_home_guard"
    assert {"type": "manifesto", "side": 1} in pax.legal_actions(t.current, C)
    assert pax.legal_actions(t.current, A) == []
    with pytest.raises(RuleViolation) as err:
        t.act(C, {"type": "end_turn"})
    assert err.value.code == "decision_owed"
    cubes = t.current["players"][C]["supply"]
    t.act(C, {"type": "manifesto", "side": 1})  # mr_hollister_of_tucson: Cattle Caudillo, white
    player = t.current["players"][C]
    assert player["side"] == 1 and player["hac_cubes"] == 0 and player["supply"] == cubes + 2
    assert player["army"] == ["chihuahua_home_guard"]
    assert t.awaiting() == {A: "turn"}
    check_conservation(t.current)
    with pytest.raises(RuleViolation):  # turned for good: no second manifesto
        pax.decide(t.current, C, {"type": "manifesto", "side": 0}, None)  # type: ignore[arg-type]


def test_a_retreat_asks_nothing_of_a_turned_hacendado_or_an_heir() -> None:
    t = scenario()
    edit(t, lambda s: (place_enterprise(s, A, "juarez_customs_house"),
                       place_enterprise(s, A, "banco_minero_de_chihuahua"),
                       place_troop(s, B, "chihuahua_home_guard", "juarez_customs_house", extort=True),
                       place_troop(s, C, "rurales_patrol", "banco_minero_de_chihuahua", extort=True),
                       turn_hacendado(s, B, 0), s["players"][C].update(loyal=True)))
    t.act(A, {"type": "sell", "card": "juarez_customs_house"})
    t.act(A, {"type": "sell", "card": "banco_minero_de_chihuahua"})
    assert "chihuahua_home_guard" in t.current["players"][B]["hand"]  # red Yaqui Champion: not white
    assert "rurales_patrol" in t.current["players"][C]["hand"]
    assert t.awaiting() == {A: "turn"}
    check_conservation(t.current)


def test_every_arms_dealers_owner_earns_two_once_per_orange_card() -> None:
    t = scenario()
    edit(t, lambda s: (place_enterprise(s, B, "nogales_gun_shop"), place_enterprise(s, B, "el_paso_armory"),
                       place_enterprise(s, C, "chihuahua_gunsmiths"), place_enterprise(s, C, "hermosillo_brewery"),
                       give(s, A, "flood")))
    gold = [p["gold"] for p in t.current["players"]]
    t.act(A, {"type": "play", "card": "flood", "target": "hermosillo_brewery"})
    after = [p["gold"] for p in t.current["players"]]
    assert after == [gold[A], gold[B] + 2, gold[C] + 2]


def test_a_general_defends_too_and_an_assassinated_public_card_goes_back_to_its_space() -> None:
    t = scenario()
    edit(t, lambda s: (place_enterprise(s, B, "minas_prietas"), place_troop(s, B, "yaqui_raiders", "minas_prietas"),
                       place_partner(s, B, "teddy_roosevelt", face=1), give(s, A, "indian_fighters",
                                                                            "assassination_by_hired_gun"),
                       set_gold(s, A, 10)))
    assert b.firepower(t.current, "yaqui_raiders", B) == 3  # the Trust Buster face: +1
    assert {"type": "play", "card": "indian_fighters", "to": "minas_prietas"} not in pax.legal_actions(t.current, A)
    t.act(A, {"type": "play", "card": "assassination_by_hired_gun", "target": "teddy_roosevelt"})
    assert "teddy_roosevelt" in t.current["public"]
    assert "assassination_by_hired_gun" in t.current["players"][B]["grievances"]
    check_conservation(t.current)


def test_a_troop_retreating_into_a_private_army_keeps_its_bribe_cube_under_pax() -> None:
    t = scenario()
    edit(t, lambda s: (turn_hacendado(s, A, 1), place_enterprise(s, B, "juarez_customs_house"),
                       place_troop(s, A, "federal_infantry_battalion", "juarez_customs_house", extort=True),
                       s["players"][A]["bribes"].update(federal_infantry_battalion=1),
                       s["players"][A].update(supply=s["players"][A]["supply"] - 1)))
    edit(t, lambda s: s.update(active=B))
    t.act(B, {"type": "sell", "card": "juarez_customs_house"})
    assert t.current["players"][A]["army"] == ["federal_infantry_battalion"]
    assert t.current["players"][A]["bribes"] == {"federal_infantry_battalion": 1}
    check_conservation(t.current)


def test_a_working_trunk_line_lets_any_troop_reach_its_enterprise() -> None:
    """Jurisdiction's third exception: a Chihuahua troop goes to a Sonora mine whose trunk line
    is built, by rail; not before the trunk is built, nor while the mine has unrest."""
    t = scenario()
    edit(t, lambda s: (place_enterprise(s, B, "cananea_copper_pit"), give(s, A, "chihuahua_home_guard"),
                       set_gold(s, A, 10)))
    go = {"type": "play", "card": "chihuahua_home_guard", "to": "cananea_copper_pit"}
    refused(t, go, "out_of_jurisdiction")
    edit(t, lambda s: (ent_in(s, "cananea_copper_pit")["conn"].__setitem__(0, C),
                       s["players"][C].update(supply=s["players"][C]["supply"] - 1),
                       ent_in(s, "cananea_copper_pit").update(unrest=1)))
    refused(t, go, "out_of_jurisdiction")  # unrest stops the trunk line
    edit(t, lambda s: ent_in(s, "cananea_copper_pit").update(unrest=0))
    t.act(A, go)
    assert ent(t, "cananea_copper_pit")["troop"] == {"card": "chihuahua_home_guard", "owner": A}
    assert t.current["players"][A]["gold"] == 10 - 1  # the home guard's rail fare
    check_conservation(t.current)


def ent_in(state: dict, card: str) -> dict:
    return find_enterprise(state, card)[1]  # type: ignore[index]


def test_a_ship_connection_carries_troops_for_their_ship_fare_or_else_their_rail_fare() -> None:
    """Guaymas has a mule road, a rail trunk oval and a ship oval: once the ship oval is
    built, troops must come by ship (the machine guns print a ship fare of 1; the
    cavalry print none and sail for their rail fare of 2); unrest closes the port."""
    t = scenario()
    edit(t, lambda s: (place_enterprise(s, B, "guaymas_harbour_wharf"), set_gold(s, A, 20),
                       give(s, A, "machine_gun_company", "federal_cavalry_squadron"), s.update(actions_left=4)))
    assert b.connection(t.current, ent(t, "guaymas_harbour_wharf")) == "mule"
    t.act(A, {"type": "upgrade", "enterprise": "guaymas_harbour_wharf", "oval": 1})
    assert t.current["players"][A]["gold"] == 20 - 2
    assert b.connection(t.current, ent(t, "guaymas_harbour_wharf")) == "ship"
    t.act(A, {"type": "play", "card": "federal_cavalry_squadron", "to": "guaymas_harbour_wharf"})
    assert t.current["players"][A]["gold"] == 18 - 2  # no ship fare printed: the rail fare
    t.act(A, {"type": "play", "card": "machine_gun_company", "to": "guaymas_harbour_wharf"})
    assert t.current["players"][A]["gold"] == 16 - 1  # its ship fare; the cavalry lose the battle
    assert ent(t, "guaymas_harbour_wharf")["troop"]["card"] == "machine_gun_company"
    edit(t, lambda s: ent_in(s, "guaymas_harbour_wharf").update(unrest=1))
    assert b.connection(t.current, ent(t, "guaymas_harbour_wharf")) == "mule"
    check_conservation(t.current)


def battle(option: bool, attacker: str = "yaqui_raiders"):  # noqa: ANN201
    """B (turned red, Yaqui Champion) guards C's Sonora ranch with red volunteers; A attacks."""
    t = scenario(battle_retreat=option)
    edit(t, lambda s: (turn_hacendado(s, B, 0), place_enterprise(s, C, "rancho_los_ojitos"),
                       place_troop(s, B, "maderista_volunteers", "rancho_los_ojitos", extort=True),
                       give(s, A, attacker), set_gold(s, A, 10)))
    t.act(A, {"type": "play", "card": attacker, "to": "rancho_los_ojitos"})
    return t


def test_without_the_optional_rule_a_beaten_troop_is_discarded() -> None:
    t = battle(False)
    assert "maderista_volunteers" in t.current["discard"] and t.awaiting() == {A: "turn"}


def test_optional_battle_retreat_lets_a_troop_beaten_by_its_own_faction_join_the_army() -> None:
    t = battle(True)
    assert t.awaiting() == {B: "battle_retreat"}
    assert ent(t, "rancho_los_ojitos")["troop"] == {"card": "yaqui_raiders", "owner": A}
    assert ent(t, "rancho_los_ojitos")["extortion"] == A
    assert sorted(map(str, pax.legal_actions(t.current, B))) == sorted(
        map(str, [{"type": "retreat", "to": "army"}, {"type": "retreat", "to": "discard"}]))
    check_conservation(t.current)
    with pytest.raises(RuleViolation) as err:
        t.act(B, {"type": "retreat", "to": "hand"})
    assert err.value.code == "bad_retreat"
    assert pax.on_timeout(t.current, B) == {"type": "retreat", "to": "army"}
    t.act(B, {"type": "retreat", "to": "army"})
    assert t.current["players"][B]["army"] == ["maderista_volunteers"]
    assert t.awaiting() == {A: "turn"}
    check_conservation(t.current)


def test_optional_battle_retreat_may_be_declined_and_needs_one_faction_on_both_sides() -> None:
    t = battle(True)
    t.act(B, {"type": "retreat", "to": "discard"})
    assert "maderista_volunteers" in t.current["discard"] and not t.current["players"][B]["army"]
    check_conservation(t.current)
    t = battle(True, attacker="federal_cavalry_squadron")  # green beats red: a real battle
    assert "maderista_volunteers" in t.current["discard"] and t.awaiting() == {A: "turn"}
