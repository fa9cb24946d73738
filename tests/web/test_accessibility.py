"""Accessibility: axe-core (from the npm registry, injected by the test) finds no serious or
critical violation on the main pages and a table of each game; and a whole game of Coup is
played with the keyboard alone."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.web.by_api import ApiPlayer
from tests.web.conftest import Player, axe_violations


def test_axe_finds_nothing_serious_on_the_main_pages_and_a_table_of_each_game(
        players: Callable[..., Player], web_server: str, axe_source: str) -> None:
    person = players("Auditor")
    person.open("/")
    expect(person.page.get_by_role("region", name="Games hosted here")).to_contain_text("Coup")
    found = {"home": axe_violations(person.page, axe_source)}
    person.sign_up(already_there=True)
    found["signed up"] = axe_violations(person.page, axe_source)
    person.page.get_by_role("link", name="Lobby", exact=True).click()
    expect(person.page.get_by_role("heading", name="Lobby: open games")).to_be_visible()
    found["lobby"] = axe_violations(person.page, axe_source)
    person.page.get_by_role("link", name="New game").click()
    expect(person.page.get_by_label("Seat 2 is a bot")).to_be_visible()
    found["new game"] = axe_violations(person.page, axe_source)
    person.page.get_by_role("link", name="My games").click()
    expect(person.page.get_by_role("heading", name="Finished")).to_be_visible()
    found["my games"] = axe_violations(person.page, axe_source)

    me = ApiPlayer(web_server, "Auditor2")
    rivals = [ApiPlayer(web_server, f"Rival{i}") for i in range(2)]
    person = players("Auditor2")  # another device: signs in with the token
    person.sign_in(me.token)
    for game, seats in (("coup", 3), ("revolution", 3), ("ideology", 2), ("pax", 2)):
        game_id = me.call("POST", "/v1/games", {"game": game, "seats": seats})["id"]
        me.call("POST", f"/v1/games/{game_id}/join")
        for rival in rivals[:seats - 1]:
            rival.call("POST", f"/v1/games/{game_id}/join")
        person.open(f"/games/{game_id}")
        expect(person.page.locator(".board")).not_to_be_empty()
        expect(person.page.locator("#feed li").first).to_be_visible()
        found[game] = axe_violations(person.page, axe_source)
    serious = {page: problems for page, problems in found.items() if problems}
    assert not serious, serious


def tab_to(page: Page, name: str | re.Pattern[str], limit: int = 120) -> None:
    """Press Tab until the focused element is the one named ``name`` (as a keyboard user does)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        focused = page.evaluate(
            "() => (document.activeElement?.innerText || document.activeElement?.value || '').trim()")
        if (name.search(focused) if isinstance(name, re.Pattern) else focused == name):
            return
    raise AssertionError(f"no focusable {name!r} within {limit} presses of Tab")


def test_a_whole_coup_game_with_the_keyboard_alone(players: Callable[..., Player], web_server: str) -> None:
    other = ApiPlayer(web_server, "Keyless")
    game_id = other.call("POST", "/v1/games", {"game": "coup", "seats": 2})["id"]
    other.call("POST", f"/v1/games/{game_id}/join")
    person = players("Keys")
    page = person.page
    person.open("/account")
    tab_to(page, re.compile(r"^$"))  # the name field: empty, focused
    page.keyboard.type("Keys")
    page.keyboard.press("Enter")
    expect(page.get_by_text("Welcome, Keys.")).to_be_visible()
    person.open(f"/games/{game_id}")  # the shared address, typed
    tab_to(page, "Take a seat")
    page.keyboard.press("Enter")
    expect(page.get_by_text("You are Keys (seat 1)")).to_be_visible()

    for _ in range(80):
        seen = other.view(game_id)
        if seen["status"] == "finished":
            break
        if 0 in seen["awaiting"] and seen["legal_actions"]:
            legal = seen["legal_actions"]
            pick = next((a for a in legal if a["type"] in ("income", "pass")), legal[0])
            other.act(game_id, pick)
            continue
        expect(page.locator("#decision button").first).to_be_visible()
        labels = page.locator("#decision button").all_inner_texts()
        wanted = next((label for label in labels if label.startswith("Coup against")), None) or next(
            (label for label in labels if label.startswith(("Income", "Pass", "Lose", "Keep"))), labels[0])
        version = seen["version"]
        tab_to(page, wanted)
        page.keyboard.press("Enter")
        expect(page.locator(".status .version")).not_to_have_text(f" · version {version}")
    expect(page.locator(".status")).to_contain_text("Game over. Winner: Keys (seat 1)")
