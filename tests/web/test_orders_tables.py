"""Standing orders at the other tables (issue 49, item 5): each offers its own as plain choices."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import requests
from playwright.sync_api import expect

from tests.web.conftest import Player, seated_table


@pytest.mark.parametrize(("title", "seats", "label", "order"), [
    ("revolution", 3, "Bid as last round whenever my hand allows it",
     {"decision": "bid", "when": {}, "answer": {"type": "bid_as_last_round"}, "once": False}),
    ("ideology", 2, "Cancel every attack on me while I can pay for it",
     {"decision": "defend", "when": {}, "answer": {"type": "cancel"}, "once": False}),
    ("pax", 2, "Stay out of topples I did not buy",
     {"decision": "topple", "when": {"mine": False}, "answer": {"type": "done"}, "once": False}),
])
def test_each_table_offers_its_orders_shows_them_on_and_turns_them_off(
        players: Callable[..., Player], title: str, seats: int, label: str, order: dict[str, Any]) -> None:
    people, game_id = seated_table(players, ("Vera", "Lev", "Nina")[:seats], title)
    host, *guests = people
    me = guests[0]
    api = {"Authorization": f"Bearer {me.token}"}

    me.page.get_by_text("Standing orders").click()
    choice = me.page.get_by_label(label)
    expect(choice).not_to_be_checked()
    choice.check()
    expect(me.page.get_by_text("Standing orders (1 on)")).to_be_visible()
    held = requests.get(f"{me.base}/v1/games/{game_id}/orders", headers=api, timeout=10).json()
    assert held == {"orders": [order]}
    expect(host.page.locator("#orders summary")).to_have_text("Standing orders")  # nothing shows at other seats

    choice.uncheck()
    expect(me.page.get_by_text("Standing orders (1 on)")).to_have_count(0)
    assert requests.get(f"{me.base}/v1/games/{game_id}/orders", headers=api, timeout=10).json() == {"orders": []}
