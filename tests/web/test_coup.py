"""Coup in the browser: three people, three browser contexts, a whole game to its end.

The game is a scenario (a fixed court deck, typed into the create form's advanced
options), so every card is known in advance and the game plays the same way each time:
a challenge that fails, a block that stands, a bluff caught, an assassination, and the
last influence lost to a challenge.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import requests
from playwright.sync_api import Route, expect

from tests.web.conftest import Player

# Natasha (seat 0): Duke, Captain. Sacha (seat 1): Assassin, Ambassador. Haig (seat 2):
# Contessa, Assassin. Court deck, top first: a Duke first (Natasha's replacement after
# she proves her Duke).
DECK = ["duke", "captain", "assassin", "ambassador", "contessa", "assassin",
        "duke", "duke", "captain", "captain", "ambassador", "ambassador", "assassin", "contessa", "contessa"]


def page_holds(player: Player) -> str:
    """Everything the seat's page holds: its DOM and its storage, lower-cased."""
    storage = player.context.storage_state()
    return (player.page.content() + json.dumps(storage)).lower()


def click(player: Player, name: str) -> None:
    player.page.get_by_role("button", name=name, exact=True).click()


def test_a_whole_three_seat_game_with_a_challenge_and_a_block(players: Callable[..., Player], shots: Path) -> None:
    natasha, sacha = players("Natasha"), players("Sacha")
    haig = players("Haig", width=390)  # a phone
    natasha.sign_up()
    sacha.sign_up()
    game_id = natasha.create_game("coup", 3, json.dumps({"deck": DECK}))
    expect(natasha.page.get_by_text("Waiting for players: 1/3 seated")).to_be_visible()
    # Sacha finds it in the lobby; Haig follows the shared address and signs up from there.
    sacha.open("/lobby")
    sacha.page.get_by_label("Game").select_option("coup")
    sacha.page.locator(f'[data-game="{game_id}"]').get_by_role("button", name="Join Coup").click()
    expect(sacha.page).to_have_url(re.compile(f"/games/{game_id}$"))
    haig.open(f"/games/{game_id}")
    haig.page.get_by_role("link", name="Sign up or sign in to take a seat").click()
    haig.sign_up(already_there=True)
    haig.page.get_by_role("link", name="Back to the game").click()
    haig.page.get_by_role("button", name="Take a seat").click()

    for person in (natasha, sacha, haig):
        expect(person.page.get_by_text("Treasury:")).to_be_visible()
    expect(natasha.page).to_have_title(re.compile("^● Your turn"))
    expect(sacha.page).not_to_have_title(re.compile("Your turn"))
    mine = natasha.page.get_by_label("your cards")
    expect(mine).to_contain_text("Duke")
    expect(mine).to_contain_text("Captain")

    # Secrets: Sacha's page holds its own cards and nothing of the others' hands.
    expect(sacha.page.get_by_label("your cards")).to_contain_text("Assassin")
    held = page_holds(sacha)
    assert "ambassador" in held and "assassin" in held
    assert "duke" not in held and "captain" not in held and "contessa" not in held
    held = page_holds(haig)
    assert "contessa" in held
    assert "duke" not in held and "captain" not in held and "ambassador" not in held
    natasha.shot(shots, "coup-start")

    # Turn 1: Natasha takes tax; Sacha challenges and loses (she has the Duke).
    click(natasha, "Tax: claim the Duke (+3)")
    click(sacha, "Challenge the Duke")
    click(sacha, "Lose the Ambassador")
    expect(natasha.page.locator('[data-seat="0"] .coin-count')).to_have_text("5")
    expect(haig.page.locator('[data-seat="1"]')).to_contain_text("Ambassador")  # a lost card is public

    # Turn 2: Sacha steals from Natasha, who blocks with her Captain; nobody challenges the block.
    click(sacha, "Steal from Natasha (seat 0) (claim the Captain)")
    click(natasha, "Block with the Captain")
    expect(haig.page.locator(".coup-block")).to_contain_text("Natasha (seat 0) blocks claiming the Captain")
    click(sacha, "Pass")
    expect(haig.page.locator(".coup-window")).to_have_text("The block: waiting for Haig (seat 2)")
    haig.shot(shots, "coup-phone")
    click(haig, "Pass")
    expect(sacha.page.locator('[data-seat="1"] .coin-count')).to_have_text("2")
    expect(haig.page).to_have_title(re.compile("^● Your turn"))

    # Turn 3: Haig bluffs a Duke; Natasha calls it.
    click(haig, "Tax: claim the Duke (+3)")
    click(natasha, "Challenge the Duke")
    click(haig, "Lose the Assassin")
    expect(natasha.page.locator('[data-seat="2"]')).to_contain_text("Assassin")

    # Turn 4: Natasha assassinates Sacha; both let it pass and Sacha is exiled.
    click(natasha, "Assassinate Sacha (seat 1) (claim the Assassin, pay 3)")
    expect(sacha.page.get_by_role("button", name="Block with the Contessa")).to_be_visible()
    expect(sacha.page.locator(".coup-clock")).to_contain_text(re.compile(r"The window closes in 23 h \d\d min"))
    sacha.shot(shots, "coup-window")
    click(sacha, "Pass")
    expect(haig.page.locator(".coup-window")).to_have_text("Reactions: waiting for Haig (seat 2)")
    click(haig, "Pass")
    expect(sacha.page.locator('[data-seat="1"]')).to_contain_text("Exiled")

    # Turn 5: Haig bluffs again, Natasha challenges, and the game is over.
    click(haig, "Tax: claim the Duke (+3)")
    click(natasha, "Challenge the Duke")
    for person in (natasha, sacha, haig):
        expect(person.page.get_by_text("Game over. Winner: Natasha (seat 0)")).to_be_visible()
    natasha.shot(shots, "coup-over")


def test_a_private_message_reaches_its_seat_only(players: Callable[..., Player]) -> None:
    natasha, sacha, haig = players("Natasha"), players("Sacha"), players("Haig")
    for person in (natasha, sacha, haig):
        person.sign_up()
    game_id = natasha.create_game("coup", 3)
    sacha.take_seat(game_id)
    haig.take_seat(game_id)
    expect(natasha.page.get_by_text("Treasury:")).to_be_visible()

    natasha.page.get_by_label("To").select_option(label="Haig (seat 2)")
    natasha.page.get_by_label("Message").fill("Spare me and I will spare you")
    natasha.page.get_by_label("Message").press("Enter")  # the keyboard sends it
    expect(haig.page.locator("#chat-messages")).to_contain_text("Natasha (seat 0) to Haig (seat 2): Spare me")
    natasha.page.get_by_label("To").select_option(label="Everyone")
    natasha.page.get_by_label("Message").fill("Good luck, all")
    natasha.page.get_by_role("button", name="Send").click()
    # Messages arrive in order: once Sacha has the public one, the private one would be there.
    expect(sacha.page.locator("#chat-messages")).to_contain_text("Natasha (seat 0) to everyone: Good luck, all")
    expect(sacha.page.locator("#chat-messages li")).to_have_count(1)
    assert "spare me" not in sacha.page.content().lower()
    expect(haig.page.locator("#chat-messages li")).to_have_count(2)

    # A spectator watches the public table: the public message, never the private one.
    spectator = players("Spectator")
    spectator.open(f"/games/{game_id}")
    expect(spectator.page.get_by_text("You are watching.")).to_be_visible()
    expect(spectator.page.locator("#chat-messages li")).to_have_count(1)
    expect(spectator.page.locator(".coup-seat")).to_have_count(3)
    expect(spectator.page.get_by_label("your cards")).to_have_count(0)

    # My games: the game awaits Natasha (her turn), with its countdown, and is in progress.
    natasha.page.get_by_role("link", name="My games").click()
    inbox = natasha.page.get_by_role("region", name="Awaiting me")
    expect(inbox.locator(f'[data-game="{game_id}"]')).to_contain_text("Your move:")
    expect(natasha.page.get_by_role("region", name="In progress").locator(f'[data-game="{game_id}"]')).to_be_visible()
    expect(sacha.page.get_by_text("Your turn")).to_have_count(0)


def test_sign_out_and_back_in_by_pasting_the_token(players: Callable[..., Player]) -> None:
    person = players("Olga")
    person.sign_up()
    token = person.token
    game_id = person.create_game("coup", 2)
    assert token not in person.page.url
    person.page.get_by_role("link", name="Account (Olga)").click()
    person.page.get_by_role("button", name="Sign out").click()
    expect(person.page.get_by_role("link", name="Sign in")).to_be_visible()
    assert token not in json.dumps(person.context.storage_state())

    person.page.get_by_label("Token").fill(token)
    person.page.get_by_label("Token").press("Enter")
    expect(person.page).to_have_url(re.compile(r"/me$"))
    expect(person.page.get_by_role("link", name="Account (Olga)")).to_be_visible()
    waiting = person.page.get_by_role("region", name="Waiting for players")
    expect(waiting.locator(f'[data-game="{game_id}"]')).to_be_visible()
    assert token not in person.page.url


def test_the_table_reconnects_with_last_event_id_after_a_drop(players: Callable[..., Player], web_server: str) -> None:
    """The first stream is cut after the view (the network drops it); the page asks again from there."""
    natasha, sacha = players("Natasha"), players("Sacha")
    natasha.sign_up()
    sacha.sign_up()
    game_id = natasha.create_game("coup", 2)
    sacha.take_seat(game_id)
    expect(natasha.page.get_by_text("Treasury:")).to_be_visible()
    view = requests.get(f"{web_server}/v1/games/{game_id}", headers={"Authorization": f"Bearer {sacha.token}"},
                        timeout=10).json()
    asked: list[str | None] = []

    def stream(route: Route) -> None:
        asked.append(route.request.headers.get("last-event-id"))
        if len(asked) == 1:  # the drop: the view, an id, then the connection ends
            route.fulfill(status=200, headers={"Content-Type": "text/event-stream"},
                          body=f"id: {view['version']}\nevent: game\ndata: {json.dumps(view)}\n\n")
        else:
            route.continue_()

    sacha.page.route(re.compile(r"/events/stream"), stream)
    sacha.open(f"/games/{game_id}")
    expect(sacha.page.locator(".coup-seat")).to_have_count(2)
    natasha.page.get_by_role("button", name="Income (+1 coin)").click()
    expect(sacha.page.locator('[data-seat="0"] .coin-count')).to_have_text("3")
    expect(sacha.page.locator(".conn")).to_have_text("● live")
    assert asked[:2] == [None, str(view["version"])]
