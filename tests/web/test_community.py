"""The correspondence community in the browser (issue 50), clicked through as a person does:
a vacation and a time zone on the account page, a weekend pause and a minimum reliability in
the new-game form, reliability beside names, and a seat taken over from the substitutes' list.
The other players play over the API (tests/web/by_api.py)."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.web.by_api import ApiPlayer
from tests.web.conftest import Player, axe_violations


def unique(name: str) -> str:
    return f"{name}{uuid.uuid4().hex[:5]}"


def test_a_vacation_and_a_time_zone_from_the_account_page(players: Callable[..., Player]) -> None:
    natasha = players(unique("Natasha"))
    natasha.sign_up()
    natasha.open("/account")
    page = natasha.page
    status = page.locator("#vacation-status")
    expect(status).to_have_text(re.compile(r"^Not on vacation · 30 of 30 vacation days left this year\.$"))
    page.get_by_label("Days away").fill("5")
    page.get_by_role("button", name="Start a vacation").click()
    expect(status).to_have_text(re.compile(r"^On vacation until .+ · 25 of 30 days left this year\.$"))
    page.get_by_role("button", name="End my vacation now").click()
    # Back at once: the four whole days not used come back.
    expect(status).to_have_text(re.compile(r"^Not on vacation · 29 of 30 "))
    expect(page.get_by_role("button", name="End my vacation now")).to_be_hidden()
    # (Refusals, such as more days than are left or an unknown zone, are the API's tests': a
    # browser logs every 4xx it meets as a console error, which these tests forbid.)
    page.get_by_label("Your time zone").fill("Europe/Paris")
    page.get_by_role("button", name="Save the time zone").click()
    expect(page.get_by_role("alert")).to_be_hidden()
    natasha.open("/account")
    expect(page.get_by_label("Your time zone")).to_have_value("Europe/Paris")


def test_the_new_game_form_pauses_weekends_and_asks_for_reliability_shown_beside_names(
        players: Callable[..., Player], web_server: str) -> None:
    sacha = players(unique("Sacha"))
    sacha.sign_up()
    page = sacha.page

    def weekends_and_reliability(form: Page) -> None:
        form.get_by_label("Pause on weekends").check()
        form.get_by_label("Minimum reliability (%)").fill("80")

    game_id = sacha.create_game("coup", 3, fill_in=weekends_and_reliability)
    haig = ApiPlayer(web_server, unique("Haig"))
    created = haig.view(game_id)
    assert created["time_control"]["pause_weekends"] is True and created["min_reliability"] == 80
    # In the lobby, each seated player's reliability stands beside the name: a newcomer's is not known.
    sacha.open("/lobby?game=coup")
    row = page.locator(f"article[data-game='{game_id}']")
    while not row.count() and page.get_by_role("button", name="Next page").is_visible():
        page.get_by_role("button", name="Next page").click()
    expect(row).to_contain_text(f"1/3 seated: {sacha.name} (new)")
    expect(row).to_contain_text("weekends paused")


def test_a_seat_left_to_the_bot_is_taken_over_from_the_substitutes_list(
        players: Callable[..., Player], web_server: str) -> None:
    seated = [ApiPlayer(web_server, unique(name)) for name in ("Anna", "Boris", "Clara")]
    game_id = seated[0].call("POST", "/v1/games", {"game": "coup", "seats": 3})["id"]
    for who in seated:
        who.call("POST", f"/v1/games/{game_id}/join")
    seated[2].call("POST", f"/v1/games/{game_id}/resign")
    stand_in = players(unique("Dmitri"))
    stand_in.sign_up()
    stand_in.open("/lobby")
    stand_in.page.get_by_role("link", name="Seats seeking a substitute").click()
    page = stand_in.page
    row = page.locator(f"article[data-game='{game_id}']")
    while not row.count() and page.get_by_role("button", name="Next page").is_visible():
        page.get_by_role("button", name="Next page").click()
    expect(row).to_contain_text(f"{seated[0].name} (new)")
    row.get_by_role("button", name="Take seat 3 of Coup").click()
    expect(page).to_have_url(re.compile(rf"/games/{game_id}$"))
    expect(page.get_by_text(f"You are {stand_in.name}")).to_be_visible()
    assert seated[0].view(game_id)["players"][2]["name"] == stand_in.name


def test_axe_finds_nothing_serious_on_the_account_and_substitutes_pages(players: Callable[..., Player],
                                                                         axe_source: str) -> None:
    person = players(unique("Auditor"))
    person.sign_up()
    person.open("/account")
    expect(person.page.locator("#vacation-status")).to_contain_text("vacation days left")
    found = {"account": axe_violations(person.page, axe_source)}
    person.open("/substitutes")
    expect(person.page.get_by_role("heading", name="Seats seeking a substitute")).to_be_visible()
    found["substitutes"] = axe_violations(person.page, axe_source)
    assert found == {"account": [], "substitutes": []}
