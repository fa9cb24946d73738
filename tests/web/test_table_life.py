"""The table's life in the browser: bots at the table, resigning (confirmed), leaving,
cancelling (confirmed), inviting by name and accepting on /me, a rematch, and the
player page, the leaderboard and the rules summary a table links to."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.web.by_api import ApiPlayer, coup_game, play_until
from tests.web.conftest import Player


def test_a_game_against_a_bot_resigned_with_confirmation_then_a_rematch(players: Callable[..., Player]) -> None:
    person = players("Solo")
    person.sign_up()
    page = person.page
    first_id = person.create_game("coup", 2, fill_in=lambda form: form.get_by_label("Seat 2 is a bot").check())
    expect(page.get_by_text("Treasury:")).to_be_visible()  # the bot's seat was taken at creation
    expect(page.locator(".seated")).to_contain_text("(seat 1, a bot)")

    page.get_by_role("button", name="Resign…").click()
    expect(page.get_by_role("alert").filter(has_text="Resign?")).to_be_visible()
    page.get_by_role("button", name="No, go back").click()
    expect(page.get_by_role("button", name="Yes, resign")).to_have_count(0)
    expect(page.locator('[data-seat="0"]')).not_to_contain_text("Exiled")
    page.get_by_role("button", name="Resign…").click()
    page.get_by_role("button", name="Yes, resign").click()
    expect(page.locator(".status")).to_contain_text("Game over. Winner: ")
    expect(page.get_by_role("button", name="Resign…")).to_have_count(0)
    # The board says so too: the bot's seat won, though no card decided it.
    expect(page.locator(".board .coup-final .result")).to_have_text(re.compile(r"^Game over: .+ \(seat 1\) wins\.$"))

    page.get_by_role("button", name="Rematch").click()
    expect(page).not_to_have_url(re.compile(first_id))
    expect(page.get_by_text("You are Solo (seat 0)")).to_be_visible()


def test_invite_by_name_accept_on_my_games_leave_and_cancel(players: Callable[..., Player], web_server: str) -> None:
    tag = uuid.uuid4().hex[:5]
    guest_api = ApiPlayer(web_server, f"Guest{tag}")
    host, guest = players(f"Host{tag}"), players(f"Guest{tag}")
    host.sign_up()
    page = host.page

    def invite_the_guest(form: Page) -> None:
        invite = form.get_by_label("Invite (names, comma-separated)")
        invite.press_sequentially(f"guest{tag}"[:7])
        expect(form.locator("#invite-names option")).to_have_count(1)
        invite.fill(f"Guest{tag}")

    game_id = host.create_game("coup", 3, fill_in=invite_the_guest)
    assert guest_api.call("GET", f"/v1/games/{game_id}")["invite"] == [guest_api.id]

    guest.sign_in(guest_api.token)
    row = guest.page.get_by_role("region", name="Invitations").locator(f'[data-game="{game_id}"]')
    row.get_by_role("button", name="Accept the invitation to Coup").click()
    expect(guest.page).to_have_url(re.compile(f"/games/{game_id}$"))
    expect(guest.page.get_by_text(re.compile(r"You are Guest\w+ \(seat 1\)"))).to_be_visible()
    guest.page.get_by_role("button", name="Leave this game").click()
    expect(guest.page.get_by_role("button", name="Take a seat")).to_be_visible()

    page.get_by_role("button", name="Cancel the game").click()
    page.get_by_role("button", name="Yes, cancel the game").click()
    expect(page.locator(".status")).to_contain_text("Cancelled")
    expect(guest.page.locator(".status")).to_contain_text("Cancelled")


def test_the_leaderboard_the_player_page_and_the_rules(players: Callable[..., Player], web_server: str) -> None:
    tag = uuid.uuid4().hex[:5]
    first, second = ApiPlayer(web_server, f"Ranked{tag}"), ApiPlayer(web_server, f"Rival{tag}")
    game_id = coup_game(first, [second])
    final = play_until({0: first, 1: second}, game_id, lambda seen: seen["status"] == "finished")
    winner = final["players"][final["winners"][0]]["name"]
    person = players("Fan")
    person.open("/")
    person.page.get_by_role("link", name="Leaderboards").click()
    board = person.page.locator("#leaderboard")
    expect(board).to_contain_text(winner)
    board.get_by_role("link", name=winner).click()
    expect(person.page.get_by_role("heading", name=winner)).to_be_visible()
    expect(person.page.locator(".ratings")).to_contain_text(re.compile(r"Coup: rating -?\d+\.\d \(skill"))

    person.open(f"/games/{game_id}")
    person.page.get_by_role("link", name="Rules of Coup").click()
    expect(person.page.get_by_role("heading", name="Rules of Coup")).to_be_visible()
    expect(person.page.get_by_role("heading", name="Part 1: the rules in brief")).to_be_visible()
    expect(person.page.locator(".rules table").first).to_contain_text("Foreign aid")


def test_a_card_explains_itself_on_hover_focus_and_tap(players: Callable[..., Player], web_server: str) -> None:
    me, other = ApiPlayer(web_server, "Tipper"), ApiPlayer(web_server, "Other")
    game_id = coup_game(me, [other], ["duke", "captain", "assassin", "ambassador", "contessa"] * 3)
    person = players("Tipper", width=390)
    person.sign_in(me.token)
    person.open(f"/games/{game_id}")
    duke = person.page.locator('.board [data-seat="0"] .tip').filter(has_text="Duke").first
    tip = duke.get_by_role("tooltip")
    expect(tip).to_be_hidden()
    duke.hover()  # the words come from games/coup/data/cards.json
    expect(tip).to_have_text("Duke. Tax: take 3 coins from the treasury. Blocks foreign aid.")
    person.page.mouse.move(0, 0)
    expect(tip).to_be_hidden()
    duke.focus()
    expect(tip).to_be_visible()
    expect(duke).to_have_attribute("aria-describedby", tip.get_attribute("id") or "")
    person.page.locator("h1").click()  # focus and hover elsewhere
    expect(tip).to_be_hidden()
    duke.click()  # a tap on a phone arrives as a click
    expect(tip).to_be_visible()
