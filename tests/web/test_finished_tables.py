"""Finished is finished at the Ideology and Pax Porfiriana tables too (issue 51, item 4): the
result and the winners, and no live prompt or clock at any version of the replay. The games
end by a resignation a few moves in, so the replay is short but crosses live versions."""

from __future__ import annotations

import uuid
from collections.abc import Callable

import pytest
from playwright.sync_api import expect

from tests.web.by_api import ApiPlayer, play_until
from tests.web.conftest import Player

LIVE_WORDS = ("to play", "waiting for", "closes in", "Your move", "Your turn", "deadline")


@pytest.mark.parametrize("title", ["ideology", "pax"])
def test_a_finished_table_asks_nothing_at_any_version(players: Callable[..., Player], web_server: str,
                                                      title: str) -> None:
    tag = uuid.uuid4().hex[:4]
    first, second = ApiPlayer(web_server, f"Ilya{tag}"), ApiPlayer(web_server, f"Zoya{tag}")
    game_id = first.call("POST", "/v1/games", {"game": title, "seats": 2})["id"]
    for person in (first, second):
        person.call("POST", f"/v1/games/{game_id}/join")
    started = first.view(game_id)["version"]
    play_until({0: first, 1: second}, game_id, lambda seen: seen["version"] >= started + 4,
               choose=lambda view, legal: legal[0])
    second.call("POST", f"/v1/games/{game_id}/resign")
    final = first.view(game_id)
    assert final["status"] == "finished" and final["winners"] == [0]

    person = players(f"Ilya{tag}")
    person.sign_in(first.token)
    person.open(f"/games/{game_id}")
    label = person.page.locator("#replay-label")
    expect(label).to_have_text(f"Version {final['version']} of {final['version']}")
    expect(person.page.locator("main")).to_contain_text(f"Ilya{tag}")
    expect(person.page.locator(".result").first).to_contain_text("Game over")
    person.page.get_by_label("Version", exact=True).focus()
    person.page.keyboard.press("Home")
    for version in range(1, final["version"] + 1):
        expect(label).to_have_text(f"Version {version} of {final['version']}")
        expect(person.page.locator("#replay-board")).to_contain_text("Result: ")
        for words in LIVE_WORDS:
            expect(person.page.locator("main")).not_to_contain_text(words)
        person.page.keyboard.press("ArrowRight")
    expect(person.page.locator("#decision")).to_be_empty()
