"""The web client's part of issue 52: it commits and reveals by itself, and a finished table
shows its final hash, whether the server's signature of it holds, and the proof link."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

import requests
from playwright.sync_api import expect

from tests.support.polling import wait_until
from tests.web.conftest import Player
from tests.web.test_replay_audit import play_to_the_end


def test_two_browsers_commit_and_reveal_and_the_game_starts(players: Callable[..., Player], web_server: str) -> None:
    ana, boris = players("Ana"), players("Boris")
    ana.sign_up()
    boris.sign_up()
    game_id = ana.create_game("coup", 2)
    boris.take_seat(game_id)

    def started() -> bool:
        return requests.get(f"{web_server}/v1/games/{game_id}", timeout=10).json()["status"] == "active"

    wait_until(started, "both pages revealing their secrets")
    view = requests.get(f"{web_server}/v1/games/{game_id}", timeout=10).json()
    assert view["entropy"] == {"0": "revealed", "1": "revealed"}
    expect(ana.page.locator(".status")).not_to_contain_text("waiting for")
    # Each secret is forgotten once the game has started.
    for player in (ana, boris):
        wait_until(lambda p=player: p.page.evaluate(f"localStorage.getItem('intrigue.secret.{game_id}')") is None,
                   f"{player.name}'s page dropping its secret")


def test_a_finished_table_shows_its_signed_final_hash_and_the_inclusion_proof(
        players: Callable[..., Player], web_server: str) -> None:
    game_id, _ = play_to_the_end(web_server, ("Vera", "Vlad"))
    lines = requests.get(f"{web_server}/v1/games/{game_id}/log", timeout=10).text.splitlines()
    final_hash = json.loads(lines[-2])["hash"]
    watcher = players("Watcher")
    watcher.open(f"/games/{game_id}")
    page = watcher.page
    expect(page.locator("#final-hash")).to_have_text(final_hash)
    expect(page.locator("#signature-status")).to_contain_text("verified with the server's published key")
    link = page.locator("#inclusion-proof")
    expect(link).to_have_attribute("href", re.compile(rf"^/v1/transparency/inclusion\?game={game_id}&size=[0-9]+$"))
    # The proof is the server's (a tree that does not hold the game yet is 422 beyond_log).
    answer = requests.get(web_server + (link.get_attribute("href") or ""), timeout=10)
    assert answer.status_code == 200 and answer.json()["leaf"]["final_hash"] == final_hash \
        or answer.json()["code"] == "beyond_log"
