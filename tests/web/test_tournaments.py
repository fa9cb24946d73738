"""Tournaments in the browser: the list by status, a tournament's page with its standings and
rounds (each table a link to its game), and the join, leave and withdraw buttons; axe-core
finds nothing serious on either page."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from playwright.sync_api import expect

from tests.web.by_api import ApiPlayer
from tests.web.conftest import Player, axe_violations


def test_a_player_joins_leaves_joins_again_follows_a_table_and_withdraws(
        players: Callable[..., Player], web_server: str, axe_source: str) -> None:
    host, guest = ApiPlayer(web_server, "Hana"), ApiPlayer(web_server, "Guest")
    starts = (datetime.now(UTC) + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
    tid = host.call("POST", "/v1/tournaments", {"name": "Browser Swiss", "game": "coup", "seats_per_table": 2,
                                                "rounds": 1, "starts_at": starts, "min_players": 2})["id"]
    host.call("POST", f"/v1/tournaments/{tid}/join")
    guest.call("POST", f"/v1/tournaments/{tid}/join")
    tess = players("Tess")
    tess.sign_up()

    tess.page.get_by_role("link", name="Tournaments", exact=True).click()
    open_list = tess.page.locator("#tournaments-open")
    expect(open_list).to_contain_text("Browser Swiss")
    assert axe_violations(tess.page, axe_source) == []
    open_list.get_by_role("link", name="Browser Swiss").click()
    expect(tess.page.get_by_role("heading", name="Browser Swiss")).to_be_visible()
    expect(tess.page.locator("#tournament-status")).to_contain_text("Open")

    tess.page.get_by_role("button", name="Join the tournament").click()
    standings = tess.page.get_by_role("table", name="Standings")
    expect(standings).to_contain_text("Tess")
    tess.page.get_by_role("button", name="Leave the tournament").click()
    expect(standings).not_to_contain_text("Tess")
    tess.page.get_by_role("button", name="Join the tournament").click()
    expect(standings).to_contain_text("Tess")

    host.call("POST", f"/v1/tournaments/{tid}/start")  # three at two seats: one table and a bye
    tess.page.reload()
    expect(tess.page.locator("#tournament-status")).to_contain_text("Running · round 1 of 1")
    round_one = tess.page.get_by_role("region", name=re.compile("^Round 1"))
    expect(round_one.get_by_role("link", name="Table 1")).to_be_visible()
    expect(round_one).to_contain_text("Bye:")
    assert axe_violations(tess.page, axe_source) == []
    shown = host.call("GET", f"/v1/tournaments/{tid}")
    table = shown["rounds_played"][0]["tables"][0]
    round_one.get_by_role("link", name="Table 1").click()
    expect(tess.page).to_have_url(re.compile(f"/games/{table['game']}$"))
    tess.page.go_back()

    tess.page.get_by_role("button", name="Withdraw").click()
    expect(standings.locator("tr", has_text="Tess")).to_contain_text("(withdrawn)")
    expect(tess.page.get_by_role("button", name="Withdraw")).to_have_count(0)
    after = host.call("GET", f"/v1/tournaments/{tid}")
    assert [p["withdrawn"] for p in after["entrants"] if p["name"] == "Tess"] == [True]


def test_a_player_creates_a_tournament_with_the_form_and_is_refused_what_does_not_hold(
        players: Callable[..., Player], axe_source: str) -> None:
    ulla = players("Ulla")
    ulla.sign_up()
    ulla.open("/tournaments")
    ulla.page.get_by_text("Create a tournament").click()
    assert axe_violations(ulla.page, axe_source) == []
    ulla.page.get_by_label("Name").fill("Form Swiss")
    ulla.page.get_by_label("Game").select_option("revolution")
    ulla.page.get_by_label("Seats per table").fill("4")
    ulla.page.get_by_label("Players needed to start").fill("3")  # fewer than a table: refused, nothing sent
    ulla.page.get_by_role("button", name="Create the tournament").click()
    expect(ulla.page.locator("#notice")).to_contain_text("at least 4 players are needed to fill a table of 4")
    ulla.page.get_by_label("Players needed to start").fill("8")
    ulla.page.get_by_role("button", name="Create the tournament").click()
    expect(ulla.page.get_by_role("heading", name="Form Swiss")).to_be_visible()
    expect(ulla.page).to_have_url(re.compile(r"/tournaments/[0-9a-f]+$"))
    expect(ulla.page.get_by_text("Revolution! · 4 seats a table · 3 rounds · 0 players (at least 8)")).to_be_visible()
    expect(ulla.page.get_by_role("button", name="Start now")).to_be_visible()
