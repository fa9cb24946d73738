"""Every worked example of the rulebook (Ideology, Z-Man Games 2003; the Italian edition by
La Tana dei Goblin), as a scenario on a real table."""

from __future__ import annotations

from games.ideology import board as b
from games.ideology import rules

from .helpers import (
    cards_by_seat,
    check_invariants,
    control,
    edit,
    empty_hand,
    give,
    hand,
    put,
    reveal,
    seat_of,
    set_advancements,
    set_relation,
    start_phase,
    table,
)


def events_of(events, kind):
    return [e for e in events if e.type == kind]


# --- 1. Resources and 2. Exchange -------------------------------------------------------------

def test_the_capitalist_draws_three_cards_in_the_first_turn_or_two_with_one_held() -> None:
    t = table(3)
    capitalist = seat_of(t, "capitalism")
    assert b.global_influence(t.current, capitalist) == 3
    assert len(t.current["hands"][capitalist]) == 3
    # Next turn, holding one card from before: it draws only two.
    state = edit(t)
    state["discards"][capitalist] += state["hands"][capitalist][1:]
    state["hands"][capitalist] = state["hands"][capitalist][:1]
    state["phase"] = b.TURN_END
    t.state = state
    (started,) = events_of(t.settle(), "TurnStarted")
    assert len(started.data["draws"][capitalist]["cards"]) == 2
    assert len(t.current["hands"][capitalist]) == 3


def test_the_capitalist_starts_with_trade_power_one_and_exchanges_at_most_one_card() -> None:
    t = table(3)
    capitalist = seat_of(t, "capitalism")
    assert b.trade_power(t.current, capitalist) == 1
    start_phase(t, b.EXCHANGE, first=capitalist)
    empty_hand(t, capitalist)
    give(t, capitalist, military=2, economic=1)
    legal = rules.legal_actions(t.current, capitalist)
    assert max(sum(a["discard"].values()) for a in legal) == 1
    refused = _refusal(t, capitalist, {"type": "exchange", "discard": {"military": 2}})
    assert refused == "over_trade_power"
    before = list(t.current["hands"][capitalist])
    (done,) = t.act(capitalist, {"type": "exchange", "discard": {"military": 1}}, settle=False)
    assert len(done.data["discarded"]) == 1 and len(done.data["draw"]["cards"]) == 1
    assert len(t.current["hands"][capitalist]) == len(before)
    assert done.data["discarded"][0] in t.current["discards"][capitalist]


# --- 3. Development -----------------------------------------------------------------------------

def test_the_united_states_may_take_three_more_cards_per_area_up_to_twice_its_printed_level() -> None:
    t = table(3)
    capitalist = seat_of(t, "capitalism")
    assert b.max_influence(t.current, "united_states") == 6
    start_phase(t, b.DEVELOPMENT, first=capitalist)
    empty_hand(t, capitalist)
    give(t, capitalist, military=4)
    for _ in range(3):
        t.act(capitalist, {"type": "develop", "region": "united_states", "influence": "military"}, settle=False)
    assert cards_by_seat(t, "united_states", "military") == [capitalist] * 6
    assert {"type": "develop", "region": "united_states", "influence": "military"} not in \
        rules.legal_actions(t.current, capitalist)
    assert _refusal(t, capitalist, {"type": "develop", "region": "united_states", "influence": "military"}) \
        == "area_full"
    check_invariants(t.current)


def test_the_imperialist_buys_tactics_then_spends_it_with_patriotism_on_propaganda() -> None:
    t = table(3, ["imperialism", "capitalism", "fascism"])
    imperialist = seat_of(t, "imperialism")
    assert t.current["advancements"][imperialist] == {"patriotism": 1}  # its starting advancement
    start_phase(t, b.DEVELOPMENT, first=imperialist)
    empty_hand(t, imperialist)
    give(t, imperialist, military=2, cultural=1)
    supply = dict(t.current["supply"])
    (bought,) = t.act(imperialist, {"type": "buy", "advancement": "tactics"}, settle=False)
    assert [b.card_type(c) for c in bought.data["cards"]] == ["military", "military"]
    assert hand(t, imperialist) == {"military": 0, "economic": 0, "cultural": 1}
    assert t.current["advancements"][imperialist] == {"patriotism": 1, "tactics": 1}
    # Bought this very phase, Tactics pays for Propaganda together with Patriotism.
    (upgraded,) = t.act(imperialist, {"type": "buy", "advancement": "propaganda"}, settle=False)
    assert upgraded.data["advancements"] == ["tactics", "patriotism"] and upgraded.data["cards"] == []
    assert t.current["advancements"][imperialist] == {"propaganda": 1}
    assert t.current["supply"]["tactics"] == supply["tactics"]  # spent advancements go back
    assert t.current["supply"]["patriotism"] == supply["patriotism"] + 1
    assert t.current["supply"]["propaganda"] == supply["propaganda"] - 1
    assert b.tie_break_points(t.current, imperialist) == 2
    check_invariants(t.current)


# --- 4. Foreign affairs ---------------------------------------------------------------------------

def test_the_fascist_pays_a_military_card_for_distance_to_place_one_in_indonesia() -> None:
    t = table(2, ["fascism", "imperialism"])
    fascist = seat_of(t, "fascism")
    reveal(t, "indonesia")
    start_phase(t, b.FOREIGN, first=fascist)
    empty_hand(t, fascist)
    give(t, fascist, military=2)
    (placed,) = t.act(fascist, {"type": "place", "region": "indonesia", "influence": "military"}, settle=False)
    assert len(placed.data["penalty"]) == 1 and b.card_type(placed.data["penalty"][0]) == "military"
    assert placed.data["penalty"][0] in t.current["discards"][fascist]
    assert cards_by_seat(t, "indonesia", "military") == [fascist]
    assert hand(t, fascist) == {"military": 0, "economic": 0, "cultural": 0}


def test_a_neighbouring_region_waives_the_distance_penalty() -> None:
    t = table(2, ["fascism", "imperialism"])
    fascist = seat_of(t, "fascism")
    reveal(t, "indonesia")
    control(t, "australia", fascist)
    start_phase(t, b.FOREIGN, first=fascist)
    empty_hand(t, fascist)
    give(t, fascist, military=1)
    (placed,) = t.act(fascist, {"type": "place", "region": "indonesia", "influence": "military"}, settle=False)
    assert placed.data["penalty"] == []


def test_the_communist_may_only_add_a_cultural_card_to_a_level_one_indonesia() -> None:
    t = table(3, ["imperialism", "fascism", "communism"])
    fascist, imperialist, communist = seat_of(t, "fascism"), seat_of(t, "imperialism"), seat_of(t, "communism")
    put(t, "indonesia", fascist, military=1)
    put(t, "indonesia", imperialist, economic=1)
    start_phase(t, b.FOREIGN, first=communist)
    empty_hand(t, communist)
    give(t, communist, military=2, economic=2, cultural=2)
    places = [a for a in rules.legal_actions(t.current, communist) if a["type"] == "place"
              and a["region"] == "indonesia"]
    assert places == [{"type": "place", "region": "indonesia", "influence": "cultural"}]
    assert _refusal(t, communist, {"type": "place", "region": "indonesia", "influence": "military"}) == "area_full"


def test_global_colonization_waives_distance_on_level_one_regions_only() -> None:
    t = table(2, ["imperialism", "capitalism"])
    imperialist = seat_of(t, "imperialism")
    reveal(t, "indonesia")  # level 1
    reveal(t, "japan")  # level 2
    assert b.placement_penalty(t.current, imperialist, "indonesia", "economic") == 0
    assert b.placement_penalty(t.current, imperialist, "japan", "economic") == 1
    capitalist = seat_of(t, "capitalism")  # starts with Innovation: no economic distance penalty
    assert b.placement_penalty(t.current, capitalist, "indonesia", "cultural") == 1
    assert b.placement_penalty(t.current, capitalist, "indonesia", "economic") == 0


def test_removing_influence_discards_the_card_and_never_touches_your_own_region() -> None:
    t = table(2, ["fascism", "imperialism"])
    fascist = seat_of(t, "fascism")
    put(t, "indonesia", fascist, cultural=1)
    start_phase(t, b.FOREIGN, first=fascist)
    (removed,) = t.act(fascist, {"type": "remove", "region": "indonesia", "influence": "cultural"}, settle=False)
    assert removed.data["card"] in t.current["discards"][fascist]
    assert cards_by_seat(t, "indonesia", "cultural") == []
    start_phase(t, b.FOREIGN, first=fascist)
    assert _refusal(t, fascist, {"type": "remove", "region": "germany", "influence": "cultural"}) == "own_region"


# --- 5. Conflict -------------------------------------------------------------------------------------

def _indonesia_conflict():
    """The rulebook's position: the Imperialist's economic card in Indonesia, two Industry
    against the Fascist's one, the two ideologies neutral."""
    t = table(2, ["fascism", "imperialism"])
    fascist, imperialist = seat_of(t, "fascism"), seat_of(t, "imperialism")
    put(t, "indonesia", imperialist, economic=1)
    set_advancements(t, imperialist, industry=2)
    set_advancements(t, fascist, industry=1)
    start_phase(t, b.CONFLICT, first=fascist)
    for seat in (fascist, imperialist):
        empty_hand(t, seat)
    give(t, fascist, economic=4)
    give(t, imperialist, economic=1)
    return t, fascist, imperialist


def test_the_fascist_economic_conflict_against_the_imperialist_in_indonesia() -> None:
    t, fascist, imperialist = _indonesia_conflict()
    assert b.relation(t.current, fascist, imperialist) == "neutral"
    assert b.conflict_penalty(t.current, fascist, imperialist, "indonesia", "economic") == \
        {"distance": 1, "advancement": 1}
    (declared,) = t.act(fascist, {"type": "attack", "region": "indonesia", "influence": "economic",
                                  "target": imperialist}, settle=False)
    assert len(declared.data["penalty"]) == 2  # one for distance, one for the Industry gap
    assert t.awaiting() == {imperialist: "defend"}
    # The Imperialist cancels with an economic card: both cards are discarded.
    (cancelled,) = t.act(imperialist, {"type": "cancel"}, settle=False)
    assert cancelled.data["card"] in t.current["discards"][imperialist]
    assert declared.data["card"] in t.current["discards"][fascist]
    assert t.awaiting() == {fascist: "press"}
    # The Fascist carries on without paying the penalties again.
    t.act(fascist, {"type": "continue"}, settle=False)
    assert hand(t, fascist)["economic"] == 0
    # Out of economic cards, the Imperialist can only concede.
    assert rules.legal_actions(t.current, imperialist) == [{"type": "concede"}]
    loser = t.current["regions"]["indonesia"]["cards"]["economic"][0]
    (won,) = t.act(imperialist, {"type": "concede"}, settle=False)
    assert cards_by_seat(t, "indonesia", "economic") == [fascist]
    assert won.data["replaced"] == loser and loser in t.current["discards"][imperialist]
    assert t.current["conflict"] is None
    assert t.awaiting() == {imperialist: "conflict"}  # the round goes on to the next seat
    check_invariants(t.current)


def test_a_new_conflict_pays_the_penalties_again() -> None:
    t, fascist, imperialist = _indonesia_conflict()
    t.act(fascist, {"type": "attack", "region": "indonesia", "influence": "economic", "target": imperialist},
          settle=False)
    t.act(imperialist, {"type": "concede"}, settle=False)
    put(t, "indonesia", imperialist, cultural=1)
    give(t, fascist, cultural=1)
    t.act(imperialist, {"type": "pass"}, settle=False)
    # Cultural: one card for distance (no Patriotism gap), so a single cultural card is not enough.
    assert _refusal(t, fascist, {"type": "attack", "region": "indonesia", "influence": "cultural",
                                 "target": imperialist}) == "not_enough_cards"


def test_equal_or_more_industry_pays_no_advancement_penalty_and_gains_nothing() -> None:
    t, fascist, imperialist = _indonesia_conflict()
    set_advancements(t, fascist, industry=2)
    assert b.conflict_penalty(t.current, fascist, imperialist, "indonesia", "economic")["advancement"] == 0
    set_advancements(t, fascist, industry=3)
    assert b.conflict_penalty(t.current, fascist, imperialist, "indonesia", "economic")["advancement"] == 0
    assert b.conflict_penalty(t.current, imperialist, fascist, "indonesia", "economic")["advancement"] == 1


def test_diplomacy_limits_the_conflict_types() -> None:
    t, fascist, imperialist = _indonesia_conflict()
    put(t, "indonesia", imperialist, military=1, cultural=1)
    give(t, fascist, military=3, cultural=3)
    attack = {"type": "attack", "region": "indonesia", "target": imperialist}
    assert _refusal(t, fascist, {**attack, "influence": "military"}) == "not_allowed_by_diplomacy"
    set_relation(t, fascist, imperialist, "peace")
    assert _refusal(t, fascist, {**attack, "influence": "economic"}) == "not_allowed_by_diplomacy"
    kinds = {a["influence"] for a in rules.legal_actions(t.current, fascist) if a["type"] == "attack"}
    assert kinds == {"cultural"}
    set_relation(t, fascist, imperialist, "war")
    kinds = {a["influence"] for a in rules.legal_actions(t.current, fascist) if a["type"] == "attack"}
    assert kinds == {"military", "economic", "cultural"}


def test_no_distance_penalty_for_a_conflict_in_your_own_region() -> None:
    t = table(2, ["fascism", "imperialism"])
    fascist, imperialist = seat_of(t, "fascism"), seat_of(t, "imperialism")
    put(t, "germany", imperialist, cultural=1)
    assert b.conflict_penalty(t.current, fascist, imperialist, "germany", "cultural")["distance"] == 0


# --- 6. Diplomacy -------------------------------------------------------------------------------------

def test_the_capitalist_offers_peace_but_the_fascist_declares_war() -> None:
    t = table(3, ["capitalism", "fascism", "imperialism"])
    capitalist, fascist, imperialist = (seat_of(t, i) for i in ("capitalism", "fascism", "imperialism"))
    start_phase(t, b.DIPLOMACY)
    t.act(capitalist, {"type": "offer", "offers": {"fascism": "peace", "imperialism": "peace"}})
    t.act(fascist, {"type": "offer", "offers": {"capitalism": "war"}})
    events = t.act(imperialist, {"type": "offer", "offers": {"capitalism": "peace"}})
    (revealed,) = events_of(events, "OffersRevealed")
    assert revealed.data["offers"][fascist] == {"capitalism": "war", "imperialism": "neutral"}
    assert b.relation(t.current, capitalist, fascist) == "war"
    assert b.relation(t.current, capitalist, imperialist) == "peace"
    assert b.relation(t.current, fascist, imperialist) == "neutral"  # an empty offer is neutrality


# --- 7. Consolidation ------------------------------------------------------------------------------

def _consolidate(t):
    state = edit(t)
    state["phase"] = b.CONSOLIDATION
    t.state = state
    events = t.settle()
    return events_of(events, "RegionsConsolidated")[0].data, events


def test_russia_with_five_five_and_four_cards_gets_development_level_four() -> None:
    t = table(4)
    communist = seat_of(t, "communism")
    put(t, "russia", communist, military=2, economic=2, cultural=1)
    consolidated, _ = _consolidate(t)
    assert consolidated["levels"]["russia"] == 4
    assert t.current["regions"]["russia"]["level"] == 4
    assert b.global_influence(t.current, communist) == 4


def test_the_development_level_never_drops_below_one() -> None:
    t = table(2, ["fascism", "imperialism"])
    fascist = seat_of(t, "fascism")
    state = edit(t)
    state["discards"][fascist] += state["regions"]["germany"]["cards"]["cultural"]
    state["regions"]["germany"]["cards"]["cultural"] = []
    t.state = state
    consolidated, _ = _consolidate(t)
    assert consolidated["levels"]["germany"] == 1


def test_the_imperialist_takes_australia_with_three_cards_against_two_and_one() -> None:
    t = table(3, ["imperialism", "fascism", "communism"])
    imperialist, fascist, communist = (seat_of(t, i) for i in ("imperialism", "fascism", "communism"))
    put(t, "australia", imperialist, military=2, economic=1)
    put(t, "australia", fascist, economic=1, cultural=1)
    put(t, "australia", communist, cultural=1)
    assert b.max_influence(t.current, "australia") == 2
    consolidated, _ = _consolidate(t)
    assert consolidated["gained"] == {"australia": imperialist}
    assert t.current["regions"]["australia"]["controller"] == imperialist
    assert b.max_influence(t.current, "australia") == 4


def test_australia_stays_independent_when_tied_or_not_full() -> None:
    t = table(3, ["imperialism", "fascism", "communism"])
    imperialist, fascist, communist = (seat_of(t, i) for i in ("imperialism", "fascism", "communism"))
    put(t, "australia", imperialist, military=2)
    put(t, "australia", fascist, economic=2)
    put(t, "australia", communist, cultural=2)
    consolidated, _ = _consolidate(t)
    assert "australia" not in consolidated["gained"]
    t2 = table(3, ["imperialism", "fascism", "communism"])
    put(t2, "australia", seat_of(t2, "imperialism"), military=2, economic=2, cultural=1)
    consolidated, _ = _consolidate(t2)
    assert "australia" not in consolidated["gained"]


def test_control_is_kept_by_a_strict_majority_over_each_single_rival() -> None:
    t = table(3, ["imperialism", "fascism", "communism"])
    fascist, communist, imperialist = (seat_of(t, i) for i in ("fascism", "communism", "imperialism"))
    # Germany: the Fascist's 9 cards against 5 and 5: kept although the rivals hold 10 together.
    put(t, "germany", communist, military=3, economic=2)
    put(t, "germany", imperialist, cultural=3, economic=1, military=1)
    consolidated, _ = _consolidate(t)
    assert "germany" not in consolidated["lost"]
    put(t, "germany", communist, economic=1, cultural=3)  # now 9 against 9: lost
    consolidated, _ = _consolidate(t)
    assert "germany" in consolidated["lost"]
    region = t.current["regions"]["germany"]
    assert region["status"] == "independent" and region["controller"] is None


# --- 8. New turn order and the end ---------------------------------------------------------------

def test_the_new_turn_order_sorts_by_global_influence_and_keeps_ties_in_place() -> None:
    t = table(3, ["imperialism", "capitalism", "fascism"])
    imperialist, capitalist, fascist = (seat_of(t, i) for i in ("imperialism", "capitalism", "fascism"))
    assert t.current["order"] == [imperialist, capitalist, fascist]
    control(t, "cuba", fascist)
    put(t, "cuba", fascist, military=1, economic=1, cultural=1)
    _, events = _consolidate(t)
    (order,) = events_of(events, "TurnOrderSet")
    assert order.data["order"] == [fascist, imperialist, capitalist]


def test_the_game_ends_with_twelve_and_ties_go_to_advancements_without_wmd() -> None:
    t = table(3, ["imperialism", "capitalism", "fascism"])
    imperialist, capitalist, fascist = (seat_of(t, i) for i in ("imperialism", "capitalism", "fascism"))
    # Each: a home region developed to 6 and three level-2 regions, 12 Global Influence.
    for seat, home, regions in ((imperialist, "great_britain", ("canada", "sweden", "france")),
                                (capitalist, "united_states", ("brazil", "argentina", "japan"))):
        put(t, home, seat, military=3, economic=3, cultural=3)
        for region in regions:
            control(t, region, seat)
            put(t, region, seat, military=2, economic=2, cultural=2)
    set_advancements(t, imperialist, tactics=1, propaganda=1)  # 3 points
    set_advancements(t, capitalist, innovation=1, wmd=0)  # 2 points
    consolidated, events = _consolidate(t)
    (scored,) = events_of(events, "GameScored")
    assert scored.data["reason"] == "global_influence"
    assert scored.data["influence"][imperialist] == scored.data["influence"][capitalist] >= 12
    assert scored.data["winners"] == [imperialist]
    assert t.outcome is not None and t.outcome.winners == (imperialist,)
    assert rules.legal_actions(t.current, imperialist) == []


def test_a_wmd_adds_global_influence_but_no_tie_break_points() -> None:
    t = table(2, ["fascism", "imperialism"])
    fascist = seat_of(t, "fascism")
    set_advancements(t, fascist, wmd=1)
    assert b.global_influence(t.current, fascist) == 4
    assert b.tie_break_points(t.current, fascist) == 0


def _refusal(t, seat, action) -> str:
    from games.base import RuleViolation

    try:
        rules.decide(t.current, seat, action, t.rng())
    except RuleViolation as err:
        return err.code
    raise AssertionError(f"{action} was accepted")
