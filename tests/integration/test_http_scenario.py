"""A game whose creator fixed hidden information says so to everyone, from its creation on.

Coup's and Pax's ``options.deck`` and Ideology's ``options.decks`` / ``options.regions``
fix what a shuffle would have hidden, so the creator may know every hand. Such a game is
``scenario: true`` in the lobby, in every view (a spectator's before anyone joins, each
seat's), in the feed's ``GameCreated`` and in the transcript; the document says that its
``seed_hash`` then proves nothing. Over real HTTP against ``intrigue serve``.
"""

from __future__ import annotations

from typing import Any

import pytest
import requests

from tests.games.pax.helpers import quiet_deck
from tests.integration.test_http_coup_secrets import DECK_A
from tests.integration.test_http_ideology_secrets import FASCISM_DECK, IMPERIAL_A, PILE_A
from tests.support.client import Client

IDEOLOGIES = ["fascism", "imperialism"]
SCENARIOS = [
    ("coup", 3, {"deck": DECK_A}),
    ("pax", 3, {"deck": quiet_deck()}),
    ("ideology", 2, {"ideologies": IDEOLOGIES, "decks": {"fascism": FASCISM_DECK, "imperialism": IMPERIAL_A}}),
    ("ideology", 2, {"ideologies": IDEOLOGIES, "regions": PILE_A}),
]
FAIR = [("coup", 3, {}), ("pax", 3, {}), ("ideology", 2, {"ideologies": IDEOLOGIES}), ("revolution", 3, {})]


def lobby_card(server: str, game: str, game_id: str) -> dict[str, Any]:
    """The game's card in the lobby, paging through at most 50 pages of open games."""
    params: dict[str, Any] = {"game": game, "limit": 200}
    for _ in range(50):
        page = requests.get(server + "/v1/games", params=params, timeout=10).json()
        for card in page["games"]:
            if card["id"] == game_id:
                return card
        if page["next_cursor"] is None:
            break
        params["cursor"] = page["next_cursor"]
    raise AssertionError(f"{game_id} is not in the lobby")


def marks(server: str, game: str, seats: int, options: dict[str, Any]) -> list[bool]:
    """``scenario`` as the creator, the lobby, a spectator, the feed and then each seat see it."""
    players = [Client.register(server, f"scenario{i}") for i in range(seats)]
    created = players[0].post("/v1/games", {"game": game, "seats": seats, "options": options}, expect=201)
    game_id = created["id"]
    spectator = Client(server)
    seen = [created["scenario"], lobby_card(server, game, game_id)["scenario"],
            spectator.game(game_id)["scenario"]]
    first = spectator.events(game_id)["events"][0]
    assert first["type"] == "GameCreated"
    seen.append(first["data"]["scenario"])
    for player in players:
        player.join(game_id)
    seen += [player.game(game_id)["scenario"] for player in players]
    seen.append(spectator.game(game_id)["scenario"])
    for secret in ("deck", "decks", "regions"):  # marked, never shown
        assert secret not in spectator.game(game_id)["options"]
    return seen


@pytest.mark.parametrize(("game", "seats", "options"), SCENARIOS, ids=["coup-deck", "pax-deck", "ideology-decks",
                                                                       "ideology-regions"])
def test_a_game_with_fixed_hidden_information_is_a_scenario_to_everyone_from_its_creation(
        server: str, game: str, seats: int, options: dict[str, Any]) -> None:
    assert marks(server, game, seats, options) == [True] * (5 + seats)


@pytest.mark.parametrize(("game", "seats", "options"), FAIR, ids=["coup", "pax", "ideology", "revolution"])
def test_a_shuffled_game_is_not_a_scenario(server: str, game: str, seats: int, options: dict[str, Any]) -> None:
    assert marks(server, game, seats, options) == [False] * (5 + seats)


def test_the_document_says_a_scenarios_seed_hash_proves_nothing(server: str) -> None:
    summary = requests.get(server + "/v1/openapi.json", timeout=30).json()["components"]["schemas"]["GameSummary"]
    assert summary["properties"]["scenario"]["type"] == "boolean"
    assert "scenario" in summary["properties"]["seed_hash"]["description"]
