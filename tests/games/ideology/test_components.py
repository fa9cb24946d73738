"""The component data and the options: defaults, replacement maps and every refusal.

A broken data file is refused at game creation with ``bad_map`` and a message naming the
region, ideology or card and the field at fault (the service turns it into a 422).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import games.ideology as ideology
from games.base import InvalidOptions, clone_json
from games.ideology import board as b
from games.ideology import components
from games.table import Table


def refusal(options: dict[str, Any], seats: int = 3) -> InvalidOptions:
    with pytest.raises(InvalidOptions) as err:
        ideology.validate_options(options, seats)
    return err.value


def regions_with(change) -> list[dict[str, Any]]:
    regions = components.shipped()["regions"]
    change({r["id"]: r for r in regions})
    return regions


def test_the_shipped_data_has_43_regions_five_ideologies_of_45_cards_and_85_advancements() -> None:
    data = components.default_components()
    assert len(data["regions"]) == 43
    assert sorted(r["level"] for r in data["regions"]).count(3) == 5
    assert [i["id"] for i in data["ideologies"]] == ["imperialism", "capitalism", "fascism", "communism",
                                                     "fundamentalism"]
    assert all(sum(i["deck"].values()) == 45 for i in data["ideologies"])
    assert sum(a["copies"] for a in data["advancements"]) == 85
    assert data["reconstructed"] is True and "Reconstructed" in data["notes"]


def test_the_default_map_is_named_reconstructed_in_the_options_and_the_view() -> None:
    options = ideology.validate_options({}, 3)
    assert options["map"] == "reconstructed"
    t = Table(ideology, 3)  # type: ignore[arg-type]
    assert ideology.view(t.current, 0)["map"]["reconstructed"] is True


@pytest.mark.parametrize(("change", "names"), [
    (lambda r: r["cuba"]["neighbours"].remove("mexico"), ("region 'mexico'", "'neighbours'", "'cuba'")),
    (lambda r: r["cuba"]["neighbours"].append("atlantis"), ("region 'cuba'", "'neighbours'", "atlantis")),
    (lambda r: r["cuba"].update(level=4), ("region 'cuba'", "'level'", "4")),
    (lambda r: r["cuba"].update(level=0), ("region 'cuba'", "'level'",)),
    (lambda r: r["cuba"].update(level="1"), ("region 'cuba'", "'level'",)),
    (lambda r: r["cuba"]["neighbours"].append("cuba"), ("region 'cuba'", "'neighbours'", "itself")),
    (lambda r: r["cuba"].update(capital="havana"), ("region 'cuba'", "'capital'")),
])
def test_a_broken_region_table_is_refused_naming_the_region_and_the_field(change, names) -> None:
    err = refusal({"map": {"regions": regions_with(change)}})
    assert err.code == "bad_map"
    for name in names:
        assert name in err.message, err.message


def test_a_deck_that_is_not_45_cards_is_refused_naming_the_ideology_and_deck() -> None:
    ideologies = components.shipped()["ideologies"]
    ideologies[2]["deck"]["military"] = 16
    err = refusal({"map": {"ideologies": ideologies}})
    assert err.code == "bad_map"
    assert "ideology 'fascism'" in err.message and "'deck'" in err.message and "46" in err.message


def test_an_ideology_starting_in_an_unknown_region_is_refused() -> None:
    ideologies = components.shipped()["ideologies"]
    ideologies[0]["start_region"] = "atlantis"
    err = refusal({"map": {"ideologies": ideologies}})
    assert "ideology 'imperialism'" in err.message and "'start_region'" in err.message


def test_a_broken_advancement_card_is_refused_naming_the_card_and_field() -> None:
    cards = components.shipped()["advancements"]
    cards[3]["cost"] = {"advancements": ["tactics", "flight"]}
    err = refusal({"map": {"advancements": cards}})
    assert "advancement 'technological_supremacy'" in err.message and "'cost'" in err.message
    cards = components.shipped()["advancements"]
    cards[0]["effect"] = {"defends": "naval"}
    err = refusal({"map": {"advancements": cards}})
    assert "advancement 'tactics'" in err.message and "'effect'" in err.message


def test_a_replacement_map_loads_without_code_changes_and_plays() -> None:
    data = components.shipped()
    # A smaller world: drop New Zealand, and let Australia neighbour Southeast Asia.
    regions = [r for r in data["regions"] if r["id"] != "new_zealand"]
    by_id = {r["id"]: r for r in regions}
    by_id["australia"]["neighbours"] = ["indonesia", "southeast_asia"]
    by_id["southeast_asia"]["neighbours"].append("australia")
    custom = {"name": "smaller", "regions": regions}
    options = ideology.validate_options({"map": custom, "max_turns": 3}, 3)
    t = Table(ideology, 3, options)  # type: ignore[arg-type]
    assert "new_zealand" not in t.current["regions"]
    assert t.current["board"]["name"] == "smaller" and t.current["board"]["reconstructed"] is False
    assert ideology.view(t.current, None)["options"]["map"] == {"name": "smaller", "custom": True}
    t.play_randomly(random.Random(1))
    assert t.outcome is not None and t.replay() == t.state


@pytest.mark.parametrize(("options", "seats", "code"), [
    ({"colour": "red"}, 3, "unknown_option"),
    ({}, 6, "bad_seats"),
    ({}, 1, "bad_seats"),
    ({"map": "real"}, 3, "bad_map"),
    ({"map": 3}, 3, "bad_map"),
    ({"ideologies": ["fascism", "fascism", "communism"]}, 3, "bad_ideologies"),
    ({"ideologies": ["fascism", "communism"]}, 3, "bad_ideologies"),
    ({"ideologies": ["fascism", "liberalism", "communism"]}, 3, "bad_ideologies"),
    ({"ideologies": ["fascism", "capitalism"]}, 2, "bad_ideologies"),
    ({"level2_defends": 1}, 3, "bad_option"),
    ({"max_turns": 0}, 3, "bad_option"),
    ({"stall_turns": "2"}, 3, "bad_option"),
    ({"decks": {"fascism": ["military"] * 36}}, 3, "bad_decks"),
    ({"decks": {"fundamentalism": ["military"] * 12 + ["economic"] * 12 + ["cultural"] * 12}}, 3, "bad_decks"),
    ({"regions": ["cuba"]}, 3, "bad_regions"),
    ({"regions": ["germany"] + ["cuba"] * 37}, 3, "bad_regions"),
    ({"regions": []}, 2, "bad_regions"),
])
def test_bad_options_are_refused_with_a_code(options, seats, code) -> None:
    assert refusal(options, seats).code == code


def test_two_seats_follow_the_opponent_table_in_either_seat_order() -> None:
    for first, second in components.default_components()["two_seat_opponents"].items():
        ideology.validate_options({"ideologies": [first, second]}, 2)
        ideology.validate_options({"ideologies": [second, first]}, 2)
    for seed in range(20):
        t = Table(ideology, 2, seed=f"pair-{seed}")  # type: ignore[arg-type]
        a, b = t.current["ideology"]
        assert components.default_components()["two_seat_opponents"][a] == b


def test_three_and_four_seats_play_the_first_ideologies_of_the_turn_order() -> None:
    for seats in (3, 4):
        for seed in range(5):
            t = Table(ideology, seats, seed=f"first-{seed}")  # type: ignore[arg-type]
            expected = ["imperialism", "capitalism", "fascism", "communism"][:seats]
            assert sorted(t.current["ideology"]) == sorted(expected)
            assert [t.current["ideology"][s] for s in t.current["order"]] == expected


def test_unused_start_regions_join_the_region_pile_as_independents() -> None:
    t = Table(ideology, 3, {"ideologies": ["capitalism", "fascism", "fundamentalism"]})  # type: ignore[arg-type]
    pile = t.current["region_pile"]
    assert "russia" in pile and "great_britain" in pile
    assert "united_states" not in pile and "iran" not in pile
    assert len(pile) == 40
    assert t.current["regions"]["russia"]["cards"] == {"military": [], "economic": [], "cultural": []}
    for rid, seat in (("united_states", 0), ("germany", 1), ("iran", 2)):
        region = t.current["regions"][rid]
        assert region["controller"] == seat and region["level"] == 3
        assert all(len(region["cards"][k]) == 3 for k in region["cards"])


def test_start_advancements_come_from_the_supply() -> None:
    t = Table(ideology, 5)  # type: ignore[arg-type]
    held = {t.current["ideology"][s]: dict(t.current["advancements"][s]) for s in range(5)}
    assert held["fascism"] == {"tactics": 1} and held["capitalism"] == {"innovation": 1}
    assert t.current["supply"]["patriotism"] == 15 - 2


def test_fixed_decks_and_region_pile_make_a_scenario_that_deals_them_in_order() -> None:
    deck = ["cultural"] * 12 + ["military"] * 12 + ["economic"] * 12
    pile = [r["id"] for r in components.default_components()["regions"]
            if r["id"] not in ("great_britain", "united_states", "germany")]
    pile.reverse()
    options = {"decks": {"fascism": deck}, "regions": pile}
    t = Table(ideology, 3, options)  # type: ignore[arg-type]
    fascist = t.current["seat_of"]["fascism"]
    assert t.current["scenario"] is True
    assert [b.card_type(c) for c in t.current["hands"][fascist]] == ["cultural"] * 3
    assert t.current["region_pile"] == pile
    assert "decks" not in ideology.view(t.current, fascist)["options"]
    assert ideology.view(t.current, fascist)["options"]["decks_fixed"] is True
    assert ideology.SECRET_OPTIONS == ("decks", "regions")
    again = Table(ideology, 3, options, seed="another")  # type: ignore[arg-type]
    assert again.current["hands"][again.current["seat_of"]["fascism"]] == t.current["hands"][fascist]
    assert clone_json(again.current["region_pile"]) == pile
