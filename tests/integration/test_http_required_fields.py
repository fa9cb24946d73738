"""An action without a field its type requires is refused over HTTP, naming the field.

For every game, every action type and every field the API reference marks required: the
awaited seat posts the action with that one field left out. The answer is a 422 problem
that names the field, and the game does not move (issue 27: Ideology took
``{"type": "exchange"}`` as "keep the hand" and ``{"type": "offer"}`` as neutrality).
"""

from __future__ import annotations

import pytest

from games import registry
from tests.support.client import Client

#: The fewest seats each game is played by (Revolution! needs three).
GAMES = registry.available()


@pytest.mark.parametrize("name", GAMES)
def test_each_required_field_left_out_is_refused_with_422_and_nothing_appended(server: str, name: str) -> None:
    rules = registry.load(name)
    required = rules.REQUIRED_FIELDS
    assert required, f"{name} declares no required field"
    players = [Client.register(server, f"{name}-req{i}") for i in range(rules.MIN_SEATS)]
    game_id = players[0].create_game(name, rules.MIN_SEATS)
    for player in players:
        player.join(game_id)
    game = players[0].game(game_id)
    seat = game["awaiting"][0]
    before = game["version"]
    refused = 0
    for kind, fields in required.items():
        for missing in fields:
            action = {"type": kind, **{field: 0 for field in fields if field != missing}}
            response = players[seat].request("POST", f"/v1/games/{game_id}/actions", action)
            assert response.status_code == 422, (action, response.text)
            assert response.headers["Content-Type"].startswith("application/problem+json")
            problem = response.json()
            assert problem["code"].startswith("missing_"), problem
            assert repr(missing) in problem["detail"], problem
            refused += 1
    assert refused == sum(len(fields) for fields in required.values())
    assert players[0].game(game_id)["version"] == before
    assert players[0].events(game_id, after=before)["events"] == []
