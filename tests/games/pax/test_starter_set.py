"""The starter set against the card anatomy of the living rules (sections B, F and H).

The starter cards are ours, but each category has features the rules fix for every card
of it (an arms shop's single income cube and cheap connection, a ranch's first cube, a
troop's firepower icon, a hacendado's two cubes, a regime's values...). Each test below
checks one category's fixed features on every card of that category in the set.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from games.pax import board as b
from games.pax.cards import FACTIONS, PRESTIGE, load_named_set

SET = load_named_set("starter")["cards"]


def of(category: str) -> list[dict[str, Any]]:
    return [card for card in SET if card["category"] == category]


@pytest.mark.parametrize("card", of("enterprise"), ids=lambda c: c["id"])
def test_every_enterprise_has_a_flag_a_base_connection_and_at_most_two_priced_ovals(card: dict) -> None:
    assert card["district"] in ("sonora", "chihuahua", "america")
    assert card["connection"] in ("boot", "mule", "rail", "ship")
    assert len(card["ovals"]) <= 2
    for oval in card["ovals"]:
        # an oval is an upgrade: never a worse way in than the base connection
        assert b.CONNECTION_RANK[oval["connection"]] >= b.CONNECTION_RANK[card["connection"]]
        assert oval["cost"] >= 1
        if oval["trunk"]:
            assert oval["connection"] == "rail", "a trunk line is a railway"
    assert len(card["prestige"]) <= 1, "an enterprise shows at most one prestige point (top right)"


@pytest.mark.parametrize("card", [c for c in of("enterprise") if c["arms"]], ids=lambda c: c["id"])
def test_every_arms_shop_has_one_income_cube_and_a_cheap_connection(card: dict) -> None:
    assert card["income"] == {"kind": "fixed", "value": 1}
    assert card["ovals"] and min(oval["cost"] for oval in card["ovals"]) == 1


def test_the_set_has_arms_shops_mines_banks_ranches_and_slave_plantations() -> None:
    kinds = Counter(card["income"]["kind"] for card in of("enterprise"))
    assert kinds["mine"] and kinds["economy"] and kinds["upgradable"] and kinds["fixed"]
    assert sum(card["arms"] for card in of("enterprise")) >= 3
    assert any(card["slaves"] and card["income"]["kind"] == "upgradable" for card in of("enterprise"))


@pytest.mark.parametrize("card", [c for c in of("enterprise") if c["income"]["kind"] == "upgradable"],
                         ids=lambda c: c["id"])
def test_ranches_and_plantations_start_with_one_income_cube(card: dict) -> None:
    assert card["income"]["value"] == 1


@pytest.mark.parametrize("card", [c for c in of("enterprise") if c["slaves"]], ids=lambda c: c["id"])
def test_slave_enterprises_are_plantations_or_mines_and_name_the_liberators_prestige(card: dict) -> None:
    assert card["income"]["kind"] in ("upgradable", "mine")
    assert card["liberator_prestige"]


@pytest.mark.parametrize("card", of("partner"), ids=lambda c: c["id"])
def test_every_partner_has_a_faction_colour_and_gives_an_ability_or_prestige(card: dict) -> None:
    assert card["faction"] in FACTIONS
    assert card["abilities"] or card["prestige"] or card["effects"]


@pytest.mark.parametrize("card", of("troop"), ids=lambda c: c["id"])
def test_every_troop_has_a_faction_a_flag_three_fares_and_a_bow_rifle_or_machine_gun(card: dict) -> None:
    assert card["faction"] in FACTIONS
    assert card["jurisdiction"] in ("sonora", "chihuahua", "america")
    assert set(card["transport"]) >= {"boot", "mule", "rail"}
    assert 1 <= card["firepower"] <= 3


@pytest.mark.parametrize("card", of("black"), ids=lambda c: c["id"])
def test_every_black_card_aims_at_a_seat_partner_or_troop_and_gives_at_most_one_point(card: dict) -> None:
    assert card["target"] in ("seat", "partner", "troop")
    assert len(card["prestige"]) <= 1
    if card["assassination"]:
        assert card["target"] == "partner" and len(card["prestige"]) == 1, "the assassin's point goes to the victim"


@pytest.mark.parametrize("card", of("orange"), ids=lambda c: c["id"])
def test_every_orange_card_places_unrest_and_a_scapegoat_still_gives_its_point(card: dict) -> None:
    assert card["unrest"] >= 1
    assert len(card["prestige"]) <= 1
    if card["scapegoat"]:
        assert card["prestige"], "a scapegoat card still lands in the grievance pile for its point"


@pytest.mark.parametrize("card", of("headline") + of("topple"), ids=lambda c: c["id"])
def test_every_headline_and_topple_carries_a_bull_or_a_bear(card: dict) -> None:
    assert card["icon"] in ("bull", "bear")
    if card["category"] == "headline":
        assert card["event"]


def test_the_four_topples_each_show_a_different_achilles_heel() -> None:
    heels = {card["heel"]["prestige"] for card in of("topple")}
    assert heels == set(PRESTIGE)
    shot = next(card for card in of("topple") if card["id"] == "presidente_diaz_is_shot")
    assert shot["heel"] == {"prestige": "command", "amount": -1}


def test_the_two_public_cards_are_the_church_and_roosevelt_with_two_faces_each() -> None:
    assert {card["id"] for card in of("public")} == {"catholic_church", "teddy_roosevelt"}
    for card in of("public"):
        assert len(card["faces"]) == 2 and all(face["faction"] in FACTIONS for face in card["faces"])


@pytest.mark.parametrize("card", of("hacendado"), ids=lambda c: c["id"])
def test_every_hacendado_holds_two_cubes_and_turns_to_one_of_two_orientations(card: dict) -> None:
    assert card["loyalist"]["income"] == 2
    assert len(card["orientations"]) == 2
    for orientation in card["orientations"]:
        assert orientation["faction"] in FACTIONS and orientation["prestige"] in PRESTIGE
        assert orientation["connection"] in ("boot", "rail")


def test_six_hacendados_and_the_four_regimes_with_their_printed_values() -> None:
    assert len(of("hacendado")) == 6
    regimes = {card["id"]: (card["mines"], card["economy"], card["topple"]) for card in of("regime")}
    assert regimes == {"pax": (2, 3, "loyalty"), "us_intervention": (3, 2, "outrage"),
                       "martial_law": (2, 2, "command"), "anarchy": (1, 1, "revolution")}
