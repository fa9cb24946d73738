"""Choosing the cards (options.card_set, options.cards, options.deck) and setting up (C)."""

from __future__ import annotations

import copy
import json
import random

import pytest

import games.pax as pax
from games.base import InvalidOptions
from games.pax import cards
from games.pax.rules import _stack_deck
from games.table import Table

from .helpers import STARTER, quiet_deck, scenario


def starter_cards() -> list[dict]:
    return copy.deepcopy(list(STARTER.values()))


def test_defaults_choose_the_starter_set() -> None:
    options = pax.validate_options({}, 3)
    assert options["card_set"] == "starter" and options["cards"] is None and options["deck"] is None
    assert options["max_turns"] == 300


def test_unknown_options_and_seat_counts_are_refused() -> None:
    with pytest.raises(InvalidOptions) as err:
        pax.validate_options({"speed": "fast"}, 3)
    assert err.value.code == "unknown_option"
    with pytest.raises(InvalidOptions):
        pax.validate_options({}, 7)


def test_a_bad_card_is_refused_naming_the_card_and_the_field() -> None:
    bad = starter_cards()
    fighters = next(c for c in bad if c["id"] == "indian_fighters")
    fighters["firepower"] = "lots"
    with pytest.raises(InvalidOptions) as err:
        pax.validate_options({"cards": {"name": "mine", "cards": bad}}, 3)
    assert err.value.code == "bad_card_set"
    assert "'indian_fighters'" in err.value.message and "'firepower'" in err.value.message


@pytest.mark.parametrize(("card_id", "change", "field"), [
    ("minas_prietas", {"income": {"kind": "mine", "value": 2}}, "income.value"),
    ("wobblies", {"unrest": 0}, "unrest"),
    ("indian_fighters", {"effects": [{"kind": "conflict", "factions": ["red", "blue"]}]}, "effects[0].kind"),
    ("panic_on_wall_street", {"event": [{"kind": "conflict", "factions": ["red", "red"]}]}, "event[0].factions"),
    ("mexican_postal_service", {"abilities": [{"kind": "topple_fraud", "amount": 1}]}, "abilities[0].prestige"),
    ("teddy_roosevelt", {"faces": []}, "faces"),
    ("pax", {"mines": -1}, "mines"),
    ("guaymas_harbour_wharf", {"ovals": [{"connection": "boat", "cost": 1}]}, "ovals[0].connection"),
    ("indian_fighters", {"transport": {"boot": 4, "mule": 3, "rail": 1, "ship": 0.5}}, "transport.ship"),
])
def test_each_category_checks_its_fields(card_id: str, change: dict, field: str) -> None:
    bad = starter_cards()
    next(c for c in bad if c["id"] == card_id).update(change)
    with pytest.raises(cards.CardSetError) as err:
        cards.validate_set({"cards": bad})
    assert f"'{card_id}'" in str(err.value) and f"'{field}'" in str(err.value)


@pytest.mark.parametrize("value", [1.5, "3", 3.0, True, None, [3]])
@pytest.mark.parametrize(("card_id", "field"), [
    ("minas_prietas", "cost"), ("wobblies", "unrest"), ("wobblies", "steal"), ("indian_fighters", "firepower"),
    ("indian_fighters", "transport.rail"), ("nogales_gun_shop", "income.value"), ("nogales_gun_shop", "ovals[0].cost"),
    ("catholic_church", "cost"), ("pax", "economy"), ("presidente_diaz_is_shot", "heel.amount"),
    ("dona_ines_of_sonora", "loyalist.income"), ("governor_of_sonora", "abilities[0].amount"),
    ("indian_fighters", "effects[1].amount"),
])
def test_every_count_and_price_is_a_whole_number(card_id: str, field: str, value: object) -> None:
    """A cost of 1.5 was taken (and charged as 1), and so was the text "3": both are refused now."""
    bad = starter_cards()
    holder = next(c for c in bad if c["id"] == card_id)
    *path, last = field.replace("[", ".").replace("]", "").split(".")
    for step in path:
        holder = holder[int(step)] if step.isdigit() else holder[step]
    holder[last] = value
    with pytest.raises(InvalidOptions) as err:
        pax.validate_options({"cards": {"name": "mine", "cards": bad}}, 3)
    assert err.value.code == "bad_card_set"
    assert f"'{card_id}'" in err.value.message and f"'{field}'" in err.value.message, err.value.message


@pytest.mark.parametrize(("card_id", "field", "value"), [
    ("minas_prietas", "cost", 100), ("minas_prietas", "cost", -1), ("wobblies", "unrest", 10),
    ("indian_fighters", "firepower", 0), ("pax", "mines", 10),
])
def test_counts_out_of_bounds_are_refused(card_id: str, field: str, value: int) -> None:
    bad = starter_cards()
    next(c for c in bad if c["id"] == card_id)[field] = value
    with pytest.raises(InvalidOptions) as err:
        pax.validate_options({"cards": bad}, 3)
    assert err.value.code == "bad_card_set" and f"'{card_id}'" in err.value.message
    assert f"'{field}'" in err.value.message


@pytest.mark.parametrize("value", ["true", 1, 0, "yes"])
def test_yes_no_fields_take_only_true_or_false(value: object) -> None:
    bad = starter_cards()
    next(c for c in bad if c["id"] == "wobblies")["jail"] = value
    with pytest.raises(cards.CardSetError, match="'wobblies'.*'jail'"):
        cards.validate_set({"cards": bad})


def test_set_rules_duplicate_ids_counts_and_size_for_the_seats() -> None:
    twice = starter_cards() + [copy.deepcopy(STARTER["wobblies"])]
    with pytest.raises(cards.CardSetError, match="used twice"):
        cards.validate_set({"cards": twice})
    no_topple = [c for c in starter_cards() if c["id"] != "presidente_diaz_is_shot"]
    with pytest.raises(cards.CardSetError, match="exactly 4 topple"):
        cards.validate_set({"cards": no_topple})
    small = [c for c in starter_cards() if c["category"] != "enterprise"]
    with pytest.raises(InvalidOptions, match="need 122 deck cards"):
        pax.validate_options({"cards": small}, 6)


def test_a_set_is_named_never_a_path(tmp_path, monkeypatch) -> None:  # noqa: ANN001
    for name in ("../starter", "/etc/passwd", "Starter"):
        with pytest.raises(InvalidOptions) as err:
            pax.validate_options({"card_set": name}, 3)
        assert err.value.code == "bad_card_set"
    with pytest.raises(InvalidOptions, match="no card set 'house'"):
        pax.validate_options({"card_set": "house"}, 3)


def test_the_operator_folder_adds_sets_and_bad_files_are_refused(tmp_path, monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.setattr(cards, "_operator_folder", str(tmp_path))  # INTRIGUE_PAX_CARD_SETS, handed in at start
    house = starter_cards()
    next(c for c in house if c["id"] == "wobblies")["steal"] = 5
    (tmp_path / "house.json").write_text(json.dumps({"name": "house", "cards": house}), encoding="utf-8")
    (tmp_path / "broken.json").write_text("{", encoding="utf-8")
    assert pax.validate_options({"card_set": "house"}, 4)["card_set"] == "house"
    t = Table(pax, 4, {"card_set": "house"})  # type: ignore[arg-type]
    assert t.current["cards"]["wobblies"]["steal"] == 5 and t.current["set"] == "house"
    with pytest.raises(InvalidOptions, match="not valid JSON"):
        pax.validate_options({"card_set": "broken"}, 3)


def test_options_deck_fixes_the_draw_pile_and_stays_secret() -> None:
    deck = quiet_deck(size=30)
    t = scenario(3, deck=deck)
    state = t.current
    laid = [state["market"][i % 2][i // 2] for i in range(12)]
    assert laid == deck[:12] and state["deck"] == deck[12:]
    assert "deck" in pax.SECRET_OPTIONS
    assert pax.view(state, 0)["scenario"] is True
    assert pax.view(Table(pax, 3, {}).current, 0)["scenario"] is False  # type: ignore[arg-type]
    with pytest.raises(InvalidOptions, match="not a deck card"):
        pax.validate_options({"deck": ["pax", *deck[1:]]}, 3)
    with pytest.raises(InvalidOptions, match="twice"):
        pax.validate_options({"deck": [deck[0], *deck]}, 3)


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_setup_draws_50_plus_10_a_seat_and_the_four_topples(seats: int) -> None:
    t = Table(pax, seats, {}, seed=f"setup-{seats}")  # type: ignore[arg-type]
    state = t.current
    market = [c for row in state["market"] for c in row]
    assert len(market) == 12 and None not in market
    in_play = len(state["deck"]) + 12
    assert in_play == 50 + 10 * seats + 4 + (12 if seats >= 5 else 0)
    topples = [c for c in [*market, *state["deck"]] if state["cards"][c]["category"] == "topple"]
    assert len(topples) == 4
    first = state["active"]
    for seat, player in enumerate(state["players"]):
        assert player["gold"] == 4 + (seat - first) % seats
        assert player["hac_cubes"] == 2 and player["supply"] == 13 and player["hand"] == []
    assert state["regime"] == "pax" and not state["depression"]
    assert t.awaiting() == {first: "turn"} and state["actions_left"] == 3


def test_topples_go_into_the_lower_four_stacks_only() -> None:
    rng = random.Random(5)
    cards_ = [f"c{i}" for i in range(80)]
    for _ in range(200):
        pile = _stack_deck(list(cards_), ["t1", "t2", "t3", "t4"], rng)
        first_two = 2 * (80 // 6) + min(2, 80 % 6)
        positions = [pile.index(t) for t in ("t1", "t2", "t3", "t4")]
        assert min(positions) >= first_two
        assert positions == sorted(positions)  # one topple per stack, stacks in order


@pytest.mark.parametrize("seats", [3, 5])
def test_the_quick_set_up_variant(seats: int) -> None:
    """Twelve random cards make the market, half of the rest stays in the box, and the four
    topples are shuffled into the other half anywhere (no stacks), at any number of seats."""
    t = Table(pax, seats, {"quick_setup": True}, seed="quick")  # type: ignore[arg-type]
    state = t.current
    deckable = [c for c, d in STARTER.items() if d["category"] in cards.DECK_CATEGORIES and d["category"] != "topple"]
    rest = len(deckable) - 12
    assert sum(card is not None for row in state["market"] for card in row) == 12
    assert len(state["deck"]) == rest - rest // 2 + 4 and len(state["box"]) == rest // 2
    assert {c for c in state["deck"] if STARTER[c]["category"] == "topple"} == {
        c for c, d in STARTER.items() if d["category"] == "topple"}
    assert state["options"]["quick_setup"] is True and t.replay() == state
    other = Table(pax, seats, {"quick_setup": True}, seed="quick-2")  # type: ignore[arg-type]
    assert other.current["deck"] != state["deck"]


@pytest.mark.parametrize(("options", "code"), [
    ({"quick_setup": "yes"}, "bad_option"), ({"battle_retreat": 1}, "bad_option"),
    ({"quick_setup": True, "deck": quiet_deck()}, "bad_option"),
])
def test_bad_optional_rule_values_are_refused(options: dict, code: str) -> None:
    with pytest.raises(InvalidOptions) as err:
        pax.validate_options(options, 3)
    assert err.value.code == code


def test_optional_rules_default_off() -> None:
    options = pax.validate_options({}, 3)
    assert options["battle_retreat"] is False and options["quick_setup"] is False
    assert pax.validate_options({"battle_retreat": None}, 3)["battle_retreat"] is False
