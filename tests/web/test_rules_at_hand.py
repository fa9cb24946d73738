"""Rules at hand (issue 51, item 3): in every game each kind of component explains its effect,
in words made from the game's data files, when a person focuses it with the keyboard or taps
it. (Coup's characters, on hover, focus and tap: test_table_life.py.)"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Locator, expect

from tests.web.by_api import ApiPlayer
from tests.web.conftest import Player

GAMES = Path(__file__).resolve().parents[2] / "games"


def focused_tip(holder: Locator) -> str:
    """Focus a component as a keyboard user does and read the tooltip it opens."""
    tip = holder.locator(".tip-text")
    expect(tip).to_be_hidden()
    holder.focus()
    expect(tip).to_be_visible()
    return tip.inner_text()


def tapped_tip(player: Player, holder: Locator) -> str:
    """Tap a component (a tap arrives as a click) and read the tooltip it opens."""
    tip = holder.locator(".tip-text")
    player.page.locator("h1").click()
    expect(tip).to_be_hidden()
    holder.click()
    expect(tip).to_be_visible()
    return tip.inner_text()


def seated(web_server: str, game: str, seats: int, names: list[str]) -> tuple[list[ApiPlayer], str]:
    people = [ApiPlayer(web_server, name) for name in names[:seats]]
    game_id = people[0].call("POST", "/v1/games", {"game": game, "seats": seats})["id"]
    for person in people:
        person.call("POST", f"/v1/games/{game_id}/join")
    return people, game_id


def test_revolution_characters_explain_their_rewards(players: Callable[..., Player], web_server: str) -> None:
    (me, *_), game_id = seated(web_server, "revolution", 3, ["Roza", "Rafa", "Rene"])
    person = players("Roza", width=390)  # a phone: the tap
    person.sign_in(me.token)
    person.open(f"/games/{game_id}")
    captain = person.page.locator(".bid-table th .tip").filter(has_text="Captain")
    # games/revolution/data/board.json: 1 support, 1 force, a cube in the Harbor; no force bids.
    said = "Captain. The winning bid gets 1 support, 1 force, a cube in the Harbor. Cannot be bid on with force."
    assert tapped_tip(person, captain) == said
    spy = person.page.locator(".bid-table th .tip").filter(has_text="Spy")
    assert "replace another faction's cube with its own" in focused_tip(spy)


def test_ideology_cards_regions_ideologies_and_advancements_explain_themselves(
        players: Callable[..., Player], web_server: str) -> None:
    (me, _), game_id = seated(web_server, "ideology", 2, ["Ida", "Ivo"])
    mine = me.view(game_id)["view"]
    ideology = mine["players"][0]
    person = players("Ida")
    person.sign_in(me.token)
    person.open(f"/games/{game_id}")
    board = person.page.locator(".board")

    # An influence card: its type's conflict rule and the advancement that defends against it.
    card = board.locator(".hand .tip").filter(has_text="military")
    said = focused_tip(card)
    assert said.startswith("A military influence card: "), said
    assert "only against an ideology you are at war with" in said, said
    assert "Tactics defends against it" in said and "Each ideology's deck holds 15." in said, said

    # The seat's ideology (its role): start region and advancement from ideologies.json.
    roles = {i["id"]: i for i in json.loads((GAMES / "ideology/data/ideologies.json").read_text())["ideologies"]}
    row = board.get_by_role("table", name="Ideologies").get_by_role("row").nth(1)
    role = row.get_by_role("cell").first.locator(".tip")
    said = tapped_tip(person, role)
    assert said.startswith(f"{ideology['name']}: starts controlling "), said
    assert f"with the advancement {list(ideology['advancements'])[0].title()}" in said, said
    assert roles[ideology["ideology"]]["start_region"].replace("_", " ") in said.lower(), said

    # An advancement: what it does, what it costs, what it is worth.
    advancement = row.get_by_role("cell").last.locator(".tip").first
    said = focused_tip(advancement)
    # Which one the seat starts with follows the deal (a mixed seed): its words follow its data.
    kinds = {a["id"]: a for a in json.loads((GAMES / "ideology/data/advancements.json").read_text())["advancements"]}
    first = kinds[list(ideology["advancements"])[0]]
    assert said.startswith(f"{first['name']}, a level-{first['level']} advancement: "), said
    effect = "defends you: an attacker in a" if "defends" in first["effect"] else "no distance penalty for your"
    assert effect in said and "Costs " in said, said

    # A region, on the map and in the table: its level, its limits and its neighbours.
    home = next(r for r in mine["regions"] if r["controller"] == 0)
    tile = person.page.locator(f'svg.ideology-map [data-region="{home["id"]}"]')
    person.page.mouse.move(0, 0)  # the pointer rests off the map: the keyboard decides
    tile.focus()
    map_tip = board.locator(".map-tip")
    expect(map_tip).to_be_visible()
    expect(map_tip).to_contain_text(f"{home['name']}, printed level 3. ")
    expect(map_tip).to_contain_text("controlled, up to 6")
    expect(map_tip).to_contain_text("controlled by Ida (seat 0), development 3, 9 influence cards")
    # The map is one tab stop (her own region); the arrow keys walk from tile to tile.
    expect(person.page.locator('svg.ideology-map [tabindex="0"]')).to_have_attribute("data-region", home["id"])
    person.page.keyboard.press("ArrowDown")
    expect(map_tip).to_be_visible()
    expect(map_tip).not_to_contain_text(f"{home['name']}, printed level 3. ")
    expect(person.page.locator('svg.ideology-map [tabindex="0"]')).not_to_have_attribute("data-region", home["id"])
    person.page.locator("h1").click()
    expect(map_tip).to_be_hidden()
    elsewhere = person.page.locator("svg.ideology-map g.region.dormant").first
    elsewhere.click()  # a tap on a tile not in play
    expect(map_tip).to_be_visible()
    expect(map_tip).to_contain_text("Not in play yet")
    in_play = board.get_by_role("table", name="Regions in play")
    listed = in_play.get_by_role("rowheader", name=home["name"]).locator(".tip")
    assert "Neighbours: " in focused_tip(listed)


def test_pax_cards_hacendados_and_the_regime_explain_their_effects(players: Callable[..., Player],
                                                                   web_server: str) -> None:
    (me, _), game_id = seated(web_server, "pax", 2, ["Paz", "Pia"])
    view = me.view(game_id)["view"]
    cards = {c["id"]: c for c in json.loads((GAMES / "pax/data/starter.json").read_text())["cards"]}
    person = players("Paz", width=390)
    person.sign_in(me.token)
    person.open(f"/games/{game_id}")
    board = person.page.locator(".board")

    # Her hacendado, in the players' table: its loyal side and the two it may turn into.
    hacendado = cards[view["players"][0]["hacendado"]["card"]]
    said = tapped_tip(person, board.locator("td.hacendado .tip").first)
    assert said.startswith(f"{hacendado['name']}: a hacendado, the character a seat plays. Loyal, "), said
    assert "2 income cubes that pay each turn" in said, said
    for side in hacendado["orientations"]:
        assert f"the {side['name']} (" in said, said
    person.page.locator("h1").click()  # a tap elsewhere puts the tapped tooltip away
    expect(board.locator("td.hacendado .tip-text").first).to_be_hidden()

    # The regime: what mines and the economy pay, what a topple counts.
    said = focused_tip(board.locator(".regime .tip"))
    assert said == "Pax Porfiriana: a regime. Mines pay 2, the economy 3; a topple counts Loyalty prestige.", said

    # A public card: both faces in words, never "face 0".
    said = focused_tip(board.get_by_label("Headline cards").locator(".tip").filter(has_text="Teddy Roosevelt"))
    assert "Rough Rider (US faction, Outrage prestige); when played, the regime becomes U.S. Intervention" in said, said
    assert "Trust Buster (US faction, Command prestige): your troops fight with 1 more firepower" in said, said

    # Every card in the market tells its effect as a sentence, not a list of fields.
    market = board.get_by_label("Market", exact=True).locator(".tip")
    expect(market.first).to_be_visible()
    for index in range(market.count()):
        said = market.nth(index).locator(".tip-text").text_content() or ""
        name = market.nth(index).locator("strong").inner_text()
        category = next(c["category"] for c in cards.values() if c["name"] == name)
        assert said.startswith(f"{name}: a") and said.endswith("."), said
        assert category in said or category == "black" and "black card" in said, said
        assert not any(raw in said for raw in ("_", "effects:", "income:", "faces:", "{")), said
