"""A finished game in the browser: the replay slider, and the log's audit done in the page."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from pathlib import Path

import requests
from playwright.sync_api import expect

from tests.support.client import Client
from tests.web.conftest import Player

# Seat 0: Duke, Captain. Seat 1: Assassin, Contessa. Every claim seat 1 makes is a bluff.
DECK = ["duke", "captain", "assassin", "contessa", "duke", "duke", "captain", "captain",
        "assassin", "assassin", "ambassador", "ambassador", "ambassador", "contessa", "contessa"]
PREFERENCE = ("coup", "challenge", "reveal", "tax")


def play_to_the_end(base: str, names: tuple[str, str]) -> tuple[str, Client]:
    """A 2-seat Coup game played over the API: claims, challenges, coups, until one seat is left."""
    clients = [Client.register(base, name) for name in names]
    game_id = clients[0].create_game("coup", 2, {"deck": DECK})
    for client in clients:
        client.join(game_id)
    give_up = time.monotonic() + 60
    while time.monotonic() < give_up:
        views = [client.game(game_id) for client in clients]
        if views[0]["status"] == "finished":
            return game_id, clients[0]
        moved = False
        for client, view in zip(clients, views, strict=True):
            if not view["legal_actions"]:
                continue
            ranked = sorted(view["legal_actions"], key=lambda a: PREFERENCE.index(a["type"])
                            if a["type"] in PREFERENCE else len(PREFERENCE))
            client.act(game_id, ranked[0], if_match=view["version"])
            moved = True
            break
        if not moved:  # a worker closes the window: wait for the next event
            clients[0].events(game_id, after=views[0]["version"], wait=5)
    raise AssertionError("the game did not end within a minute")


def test_the_replay_slider_shows_an_earlier_version(players: Callable[..., Player], web_server: str,
                                                    shots: Path) -> None:
    game_id, _ = play_to_the_end(web_server, ("Rhea", "Remus"))
    final = requests.get(f"{web_server}/v1/games/{game_id}", timeout=10).json()
    watcher = players("Watcher")
    watcher.open(f"/games/{game_id}")
    page = watcher.page
    expect(page.get_by_text(re.compile(r"^Game over\. Winner: "))).to_be_visible()
    slider = page.get_by_label("Version", exact=True)
    expect(page.locator("#replay-label")).to_have_text(f"Version {final['version']} of {final['version']}")
    slider.focus()
    page.keyboard.press("Home")  # the slider moves with the keyboard
    expect(page.locator("#replay-label")).to_have_text(f"Version 1 of {final['version']}")
    expect(page.locator("#replay-board")).to_contain_text("The cards are dealt when every seat is taken")
    for _ in range(4):
        page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-label")).to_have_text(f"Version 5 of {final['version']}")
    # Version 5: the cards are dealt and nobody has lost one yet; at the end, someone has.
    replay = page.locator("#replay-board")
    expect(replay.locator(".coup-seat")).to_have_count(2)
    expect(replay.locator(".coup-card.lost")).to_have_count(0)
    # The game is over, so the replay shows every hand as it was dealt.
    expect(replay.locator('[data-seat="0"] .coup-card')).to_have_text(["Duke", "Captain"])
    expect(replay.locator('[data-seat="1"] .coup-card')).to_have_text(["Assassin", "Contessa"])
    expect(page.locator(".board .coup-card.lost")).not_to_have_count(0)
    expect(page.locator("#transcript")).to_contain_text("Deal")
    watcher.shot(shots, "replay")


def test_the_audit_verifies_a_real_log_and_names_the_event_of_a_changed_byte(
        players: Callable[..., Player], web_server: str, tmp_path: Path) -> None:
    game_id, _ = play_to_the_end(web_server, ("Adèle", "Ålan 🎲"))  # the chain covers UTF-8 text
    log = requests.get(f"{web_server}/v1/games/{game_id}/log", timeout=10).text
    auditor = players("Auditor")
    auditor.open(f"/games/{game_id}")
    page = auditor.page
    page.get_by_role("button", name="Audit this game's log").click()
    lines = log.splitlines()
    expect(page.locator("#audit-result")).to_have_text(
        f"Verified: {len(lines) - 1} events, the hash chain holds and the seed matches its commitment.")

    # One byte changed in one event: the coins of the deal (2 becomes 3).
    seq = next(json.loads(line)["seq"] for line in lines if json.loads(line)["type"] == "CardsDealt")
    line = lines[seq - 1]
    assert line.count('"coins":2') == 1
    lines[seq - 1] = line.replace('"coins":2', '"coins":3')
    forged = tmp_path / "forged.ndjson"
    forged.write_text("\n".join(lines) + "\n")
    assert len(forged.read_bytes()) == len(log.encode()) + (0 if log.endswith("\n") else 1)
    page.get_by_label("Audit a log file").set_input_files(str(forged))
    expect(page.locator("#audit-result")).to_have_text(
        f"Not verified: event {seq}: hash does not match the event's content.")

    genuine = tmp_path / "genuine.ndjson"
    genuine.write_text(log)
    page.get_by_label("Audit a log file").set_input_files(str(genuine))
    expect(page.locator("#audit-result")).to_contain_text("Verified:")
