"""Standing orders at the Coup table: the common ones as plain choices, shown when on, turned off."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import requests
from playwright.sync_api import expect

from tests.web.conftest import Player, seated_table

ALLOW = "Allow every claim and block unless I am targeted"
CAPTAIN = "Always block a steal from me with the Captain if I hold it"
NEVER_CHALLENGE_STEAL = "Never challenge a steal from me (a block above, if on, comes first)"


def test_a_coup_player_sets_and_removes_standing_orders_as_choices(players: Callable[..., Player],
                                                                    shots: Path) -> None:
    people, game_id = seated_table(players, ("Olga", "Pavel", "Raisa"), "coup")
    olga, pavel, raisa = people

    pavel.page.get_by_text("Standing orders").click()
    choice = pavel.page.get_by_label(ALLOW)
    expect(choice).not_to_be_checked()
    choice.check()
    expect(pavel.page.get_by_text("Standing orders (1 on)")).to_be_visible()
    pavel.shot(shots, "coup-orders")

    # Pavel lets Olga's tax through at once: only Raisa is asked.
    olga.page.get_by_role("button", name="Tax: claim the Duke (+3)", exact=True).click()
    expect(raisa.page.get_by_role("button", name="Pass", exact=True)).to_be_visible()
    api = {"Authorization": f"Bearer {olga.token}"}
    game = requests.get(f"{olga.base}/v1/games/{game_id}", headers=api, timeout=10).json()
    assert game["awaiting"] == [2]
    # Olga's page shows no trace of Pavel's orders.
    expect(olga.page.locator("#orders summary")).to_have_text("Standing orders")

    # "Never challenge" a steal, turned on before the block: saved after it, in the listed order.
    pavel.page.get_by_label(NEVER_CHALLENGE_STEAL).check()
    expect(pavel.page.get_by_text("Standing orders (2 on)")).to_be_visible()
    pavel.page.get_by_label(CAPTAIN).check()
    expect(pavel.page.get_by_text("Standing orders (3 on)")).to_be_visible()
    held = requests.get(f"{pavel.base}/v1/games/{game_id}/orders",
                        headers={"Authorization": f"Bearer {pavel.token}"}, timeout=10).json()["orders"]
    assert [order["answer"]["type"] for order in held] == ["pass", "block", "pass"]
    pavel.page.get_by_label(NEVER_CHALLENGE_STEAL).uncheck()
    pavel.page.get_by_label(CAPTAIN).uncheck()
    expect(pavel.page.get_by_text("Standing orders (1 on)")).to_be_visible()

    pavel.page.reload()
    pavel.page.get_by_text("Standing orders").click()
    expect(pavel.page.get_by_label(ALLOW)).to_be_checked()  # shown as on after a reload
    pavel.page.get_by_label(ALLOW).uncheck()
    expect(pavel.page.get_by_text("Standing orders (1 on)")).to_have_count(0)
    mine = requests.get(f"{pavel.base}/v1/games/{game_id}/orders",
                        headers={"Authorization": f"Bearer {pavel.token}"}, timeout=10).json()
    assert mine == {"orders": []}

    # Once the game is over its log holds Pavel's order changes (a chain of their own), and the
    # browser's audit still verifies it.
    for person in (olga, raisa):
        requests.post(f"{person.base}/v1/games/{game_id}/resign",
                      headers={"Authorization": f"Bearer {person.token}"}, timeout=10).raise_for_status()
    log = requests.get(f"{pavel.base}/v1/games/{game_id}/log", timeout=10).text
    assert log.count('"type":"StandingOrdersSet"') == 6  # on, on, on, off, off, off
    pavel.page.get_by_role("button", name="Audit this game's log").click()
    expect(pavel.page.locator("#audit-result")).to_contain_text("Verified")
