"""Issue 47 over HTTP: an action of the wrong shape is a 4xx that appends nothing, never a 500,
and no accepted action leaves a game that some reader cannot load.

For every game, a few moves of random play through the API; before each move, the awaited
seat posts its legal actions with a field given a value of another JSON type: each with a
float in each place, then a bounded sample of other shapes, so the test stays quick
(``tests/games/test_action_shapes.py`` varies every field of every step in process). Each
answer is 2xx or 4xx. A 4xx leaves the version and the log as they were; after a 2xx every
seat, a spectator and the view-carrying event feed read the game.
"""

from __future__ import annotations

import random

import pytest

from games import registry
from tests.support.action_variants import variants
from tests.support.client import Client

GAMES = registry.available()
#: Moves of each game played, and variants posted before each: bounded so the test stays quick.
MOVES = 4
VARIANTS_PER_MOVE = 40
MAX_FLOATS = 200


def readable_by_all(game_id: str, seated: dict[int, Client], spectator: Client) -> int:
    """Every seat's and a spectator's view load, and so does the feed with views; the version."""
    versions = set()
    for reader in [*seated.values(), spectator]:
        versions.add(reader.game(game_id)["version"])
        reader.events(game_id, view=True)
    assert len(versions) == 1
    return versions.pop()


@pytest.mark.parametrize("name", GAMES)
def test_actions_of_the_wrong_shape_are_4xx_and_append_nothing(server: str, name: str) -> None:
    rules = registry.load(name)
    rng = random.Random(47)
    players = [Client.register(server, f"{name}-shape{i}") for i in range(rules.MIN_SEATS)]
    spectator = Client.register(server, f"{name}-shape-watcher")
    game_id = players[0].create_game(name, rules.MIN_SEATS, getattr(rules, "PLAYOUT_OPTIONS", {}))
    seated = {player.join(game_id): player for player in players}
    refused = accepted = 0
    for _ in range(MOVES):
        version = readable_by_all(game_id, seated, spectator)
        game = players[0].game(game_id)
        if game["status"] != "active":
            break
        seat = game["awaiting"][0]
        legal = seated[seat].game(game_id)["legal_actions"]
        # Each legal action with a float in each place (the reported 500s and the poisoned log),
        # then a sample of every other wrong shape.
        floats = [variant for action in legal for variant in variants(action, (0.0,))]
        candidates = [variant for action in legal for variant in variants(action)]
        sample = rng.sample(candidates, min(VARIANTS_PER_MOVE, len(candidates)))
        for variant in [*floats[:MAX_FLOATS], *sample]:
            response = seated[seat].request("POST", f"/v1/games/{game_id}/actions", variant)
            assert response.status_code < 500, (variant, response.status_code, response.text)
            if response.status_code >= 400:
                assert response.headers["Content-Type"].startswith("application/problem+json")
                assert seated[seat].events(game_id, after=version)["events"] == [], variant
                refused += 1
            else:
                accepted += 1
                version = readable_by_all(game_id, seated, spectator)
                break
        else:
            seated[seat].act(game_id, rng.choice(legal))
    assert refused > 0


def test_a_creation_with_options_of_the_wrong_shape_is_refused_not_a_500(server: str) -> None:
    """Issue 47, item 3: the reported creation, and each game's options given a list of lists."""
    host = Client.register(server, "shape-host")
    bodies = [("pax", {"hacendados": [[1], [2], [3]]})]
    for name in GAMES:
        rules = registry.load(name)
        bodies += [(name, {option: [[1], [2], [3]]}) for option in rules.OPTIONS_SCHEMA["properties"]]
    for name, options in bodies:
        response = host.request("POST", "/v1/games", {"game": name, "seats": 3, "options": options})
        assert response.status_code == 422, (name, options, response.status_code, response.text)
        assert response.headers["Content-Type"].startswith("application/problem+json")
