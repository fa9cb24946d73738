"""Every worked example of the Pax Porfiriana living rules (3 July 2016), rebuilt with
starter-set cards carrying the numbers the rulebook gives.

Minas Prietas: a Sonora slave mine, base connection a mule road, a rail oval.
Indian Fighters: white Sonora troops, firepower 2, rail 1, mule 3; when played, a
regime change to Martial Law and one unrest on every other Sonora enterprise.
Wobblies: orange, 3 unrest, steal 3, Outrage to the victim. Ley de Fuga: an
assassination. Mexican Postal Service: discard during a topple for +1 of any prestige
to Díaz. Presidente Díaz Is Shot: a topple whose event side lowers Díaz's Command by 1.
"""

from __future__ import annotations

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
    turn_hacendado,
)

ME, RIVAL, THIRD = 0, 1, 2
MINAS = "minas_prietas"
FIGHTERS = "indian_fighters"


def ent(t, card):  # noqa: ANN001, ANN201
    return find_enterprise(t.current, card)[1]


def test_indian_fighters_at_minas_prietas_pay_the_rail_fare_and_bring_martial_law() -> None:
    """G1: the mine has its railroad built, so the troop comes by rail for 1 gold; on arrival
    the regime changes to Martial Law and every other Sonora enterprise takes one unrest."""
    t = scenario()

    def position(s):  # noqa: ANN001, ANN202
        place_enterprise(s, ME, MINAS, connections=[ME])
        place_enterprise(s, ME, "hermosillo_brewery")
        place_enterprise(s, RIVAL, "banco_de_sonora")
        place_enterprise(s, RIVAL, "rancho_san_isidro")  # Chihuahua: untouched
        give(s, ME, FIGHTERS)
        set_gold(s, ME, 5)

    edit(t, position)
    assert b.connection(t.current, ent(t, MINAS)) == "rail"
    t.act(ME, {"type": "play", "card": FIGHTERS, "to": MINAS})
    state = t.current
    assert state["players"][ME]["gold"] == 4
    assert state["regime"] == "martial_law"
    assert ent(t, MINAS)["troop"] == {"card": FIGHTERS, "owner": ME}
    assert ent(t, MINAS)["unrest"] == 0 and ent(t, MINAS)["extortion"] is None
    assert ent(t, "hermosillo_brewery")["unrest"] == 1
    assert ent(t, "banco_de_sonora")["unrest"] == 1
    assert ent(t, "rancho_san_isidro")["unrest"] == 0
    # Martial Law: Economy 2, so the bank drops to two income cubes; mines stay at 2.
    assert ent(t, "banco_de_sonora")["income"] == 2 and ent(t, MINAS)["income"] == 2
    check_conservation(t.current)


def test_unrest_closes_the_railroad_so_the_troop_takes_the_mule_road_and_clears_both_discs() -> None:
    """G2: with 2 unrest discs the upgrade is shut; the mule road costs 3; firepower 2 removes both."""
    t = scenario()

    def position(s):  # noqa: ANN001, ANN202
        place_enterprise(s, ME, MINAS, connections=[ME], unrest=2)
        give(s, ME, FIGHTERS)
        set_gold(s, ME, 5)

    edit(t, position)
    assert b.connection(t.current, ent(t, MINAS)) == "mule"
    t.act(ME, {"type": "play", "card": FIGHTERS, "to": MINAS})
    assert t.current["players"][ME]["gold"] == 2
    assert ent(t, MINAS)["unrest"] == 0
    assert b.connection(t.current, ent(t, MINAS)) == "rail"


def test_a_general_lifts_indian_fighters_over_an_equal_defender_who_is_discarded() -> None:
    """G4 battle: the rival's mine holds a firepower-2 troop. Indian Fighters (2) may not go
    there; with a general (+1) they win, discard the defender and extort the mine."""
    t = scenario()

    def position(s):  # noqa: ANN001, ANN202
        place_enterprise(s, RIVAL, MINAS, connections=[RIVAL])
        place_troop(s, RIVAL, "federal_cavalry_squadron", MINAS)
        give(s, ME, FIGHTERS)
        set_gold(s, ME, 5)

    edit(t, position)
    refused = [a for a in _legal(t) if a.get("card") == FIGHTERS and a.get("to") == MINAS]
    assert refused == []
    edit(t, lambda s: place_partner(s, ME, "general_of_the_northern_division"))
    assert b.firepower(t.current, FIGHTERS, ME) == 3
    t.act(ME, {"type": "play", "card": FIGHTERS, "to": MINAS})
    mine = ent(t, MINAS)
    assert mine["troop"] == {"card": FIGHTERS, "owner": ME}
    assert "federal_cavalry_squadron" in t.current["discard"]
    assert mine["extortion"] == ME and mine["income"] == 1
    assert t.current["players"][ME]["gold"] == 4  # rail fare 1
    check_conservation(t.current)


def test_a_depression_loots_an_extorted_mine_and_its_troops_retreat_to_their_private_army() -> None:
    """G5/I1: the rival's Minas Prietas is extorted by my rebels. A second bear starts a
    depression: mine income falls to zero, the extortion cube goes, the mine is looted back
    to its owner's hand and my troop retreats into my private army."""
    bear, second_bear = "copper_price_collapses", "drought_in_the_north"
    t = scenario(deck=quiet_deck([second_bear]))

    def position(s):  # noqa: ANN001, ANN202
        s["bullbear"].append(bear)
        s["box"].remove(bear) if bear in s["box"] else s["deck"].remove(bear)
        place_enterprise(s, RIVAL, MINAS)
        turn_hacendado(s, ME, 0)  # Maderista: red
        place_troop(s, ME, "yaqui_raiders", MINAS, extort=True)
        set_gold(s, ME, 5)

    edit(t, position)
    assert b.hacendado_faction(t.current, ME) == "red"
    events = t.act(ME, {"type": "buy", "card": second_bear, "side": "status_quo"})
    state = t.current
    assert state["depression"] is True
    assert find_enterprise(state, MINAS) is None
    assert MINAS in state["players"][RIVAL]["hand"]
    assert state["players"][ME]["army"] == ["yaqui_raiders"]
    assert events_of(events, "DepressionChanged")
    check_conservation(state)


def test_moving_the_last_connection_cube_off_minas_prietas_sets_off_a_slave_revolt() -> None:
    """E9: Blue, out of cubes, moves a connection cube from unrest-struck Minas Prietas to a
    bank allowed more income under Pax. Fewer cubes than unrest discs: the slaves revolt,
    the mine goes to Blue's grievance pile (the Liberator) and Blue goes to jail."""
    blue = ME
    t = scenario()

    def position(s):  # noqa: ANN001, ANN202
        place_enterprise(s, blue, MINAS, connections=[blue], unrest=3)
        place_enterprise(s, blue, "banco_de_sonora", income=2)
        spare = s["players"][blue]["supply"]
        market_cards = [c for row in s["market"] for c in row if c]
        for card in market_cards[:spare]:  # spend every spare cube on speculation
            s["spec"][card] = blue
        s["players"][blue]["supply"] = 0

    edit(t, position)
    revolution_before = b.prestige(t.current, blue, "revolution")
    t.act(blue, {"type": "speculate", "from": {"connection": MINAS, "oval": 0}, "to": {"income": "banco_de_sonora"}})
    state = t.current
    assert ent(t, "banco_de_sonora")["income"] == 3
    assert find_enterprise(state, MINAS) is None
    assert MINAS in state["players"][blue]["grievances"]
    assert state["players"][blue]["jail"] is True
    assert b.prestige(state, blue, "revolution") == revolution_before + 1
    check_conservation(state)


def test_the_straw_man_wobblies_free_your_own_slaves_and_pay_your_arms_dealer() -> None:
    """J: Wobblies against your own slave plantation: the steal from yourself is void, 3
    unrest outnumber its cubes (a slave revolt), your gun shop pays 2, and you keep both
    the Wobblies' Outrage and the plantation's Revolution in your grievance pile."""
    t = scenario()
    plantation, gun_shop = "guaymas_sugar_plantation", "nogales_gun_shop"

    def position(s):  # noqa: ANN001, ANN202
        place_enterprise(s, ME, plantation)
        place_enterprise(s, ME, gun_shop)
        give(s, ME, "wobblies")
        set_gold(s, ME, 6)

    edit(t, position)
    before = {k: b.prestige(t.current, ME, k) for k in ("outrage", "revolution")}
    t.act(ME, {"type": "play", "card": "wobblies", "target": plantation})
    state = t.current
    assert state["players"][ME]["gold"] == 6 - 2 + 2
    assert find_enterprise(state, plantation) is None
    assert set(state["players"][ME]["grievances"]) == {"wobblies", plantation}
    assert b.prestige(state, ME, "outrage") == before["outrage"] + 1
    assert b.prestige(state, ME, "revolution") == before["revolution"] + 1
    assert find_enterprise(state, gun_shop) is not None
    check_conservation(state)


def _topple_table(topple: str, regime: str = "pax") -> object:
    hacendados = ["don_aurelio_of_chihuahua", "don_rafael_the_banker", "dona_ines_of_sonora"]
    t = scenario(deck=quiet_deck([topple]), hacendados=hacendados)

    def position(s):  # noqa: ANN001, ANN202
        s["regime"] = regime
        turn_hacendado(s, RIVAL, 0)  # Don Rafael's "Reformist" side shows Loyalty
        for partner in ("governor_of_sonora", "customs_inspector", "supreme_court_clerk"):
            place_partner(s, RIVAL, partner)
        for player in s["players"]:  # no bribe cubes: keep the scene about prestige
            player["supply"] += sum(player["bribes"].values())
            player["bribes"] = {}
        place_partner(s, THIRD, "mexican_postal_service")
        give(s, THIRD, "ley_de_fuga")
        set_gold(s, THIRD, 10)
        set_gold(s, ME, 20)

    edit(t, position)
    return t


def test_the_topple_succeeds_when_nobody_resists() -> None:
    """K3: the rival's Loyalty 4 (three partners and a Reformist hacendado) beats the
    tripartite of Díaz 2 plus the two weakest others (0)."""
    t = _topple_table("diaz_resigns_in_disgrace")
    t.act(ME, {"type": "buy", "card": "diaz_resigns_in_disgrace", "side": "status_quo"})
    assert t.awaiting() == {RIVAL: "topple"}
    t.act(RIVAL, {"type": "done"})
    t.act(THIRD, {"type": "done"})
    t.act(ME, {"type": "done"})
    assert t.outcome is not None and t.outcome.winners == (RIVAL,) and t.outcome.reason == "succession"


def test_the_postal_service_and_ley_de_fuga_save_diaz() -> None:
    """K2 example: in the showdown a seat discards the Mexican Postal Service (+1 to Díaz's
    Loyalty) and pays 3 gold to play Ley de Fuga on a turned hacendado, whose heir is a
    loyalist for good and whose grievance pile takes the card."""
    t = _topple_table("diaz_resigns_in_disgrace")
    t.act(ME, {"type": "buy", "card": "diaz_resigns_in_disgrace", "side": "status_quo"})
    t.act(RIVAL, {"type": "done"})
    assert t.awaiting() == {THIRD: "topple"}
    t.act(THIRD, {"type": "fraud", "card": "mexican_postal_service", "prestige": "loyalty"})
    assert t.current["topple"]["diaz"] == 3
    t.act(THIRD, {"type": "assassinate", "card": "ley_de_fuga", "target": RIVAL})
    rival = t.current["players"][RIVAL]
    assert rival["side"] is None and rival["loyal"] is True and "ley_de_fuga" in rival["grievances"]
    assert t.current["players"][THIRD]["gold"] == 7
    assert "mexican_postal_service" in t.current["discard"]
    t.act(THIRD, {"type": "done"})
    events = t.act(ME, {"type": "done"})
    (resolved,) = events_of(events, "ToppleResolved")
    assert resolved.data["points"][RIVAL] == 3 and resolved.data["tripartite"][RIVAL] == 3 + 0 + 0
    assert resolved.data["topplers"] == [] and t.outcome is None
    # Not the fourth topple: the card goes to the bull-bear pile and the buyer's turn goes on.
    assert "diaz_resigns_in_disgrace" in t.current["bullbear"]
    assert t.awaiting() == {ME: "turn"} and t.current["actions_left"] == 2


def test_diaz_is_shot_lowers_command_only_under_martial_law() -> None:
    """K1: the event side of Presidente Díaz Is Shot takes 1 from Díaz's Command; under
    Anarchy the side chosen makes no difference."""
    t = _topple_table("presidente_diaz_is_shot", regime="martial_law")
    t.act(ME, {"type": "buy", "card": "presidente_diaz_is_shot", "side": "event"})
    assert t.current["topple"]["diaz"] == 1 and t.current["topple"]["prestige"] == "command"
    for side in ("event", "status_quo"):
        t = _topple_table("presidente_diaz_is_shot", regime="anarchy")
        t.act(ME, {"type": "buy", "card": "presidente_diaz_is_shot", "side": side})
        assert t.current["topple"]["diaz"] == 2 and t.current["topple"]["prestige"] == "revolution"


def _legal(t) -> list[dict]:  # noqa: ANN001
    from games import pax

    (seat,) = t.awaiting()
    return pax.legal_actions(t.current, seat)
