"""``GET /v1/players?name=<prefix>``: finding players by the start of their name, to invite them."""

from __future__ import annotations

import uuid

import pytest
import requests
from intrigue_client import BadQuery, Client


def test_a_prefix_finds_players_in_any_case_in_name_order(server: str) -> None:
    tag = uuid.uuid4().hex[:6]
    names = (f"Zed{tag}Anna", f"zed{tag}anton", f"Zed{tag}Anna", f"Zed{tag}Bo")
    made = [Client.register(server, name) for name in names]
    found = requests.get(f"{server}/v1/players", params={"name": f"ZED{tag}an"}, timeout=10).json()["players"]
    # Both Annas (a name is not unique) and Anton; Bo does not start with it.
    assert sorted(p["id"] for p in found) == sorted(c.player["id"] for c in made[:3])
    assert [p["name"].casefold() for p in found] == sorted(p["name"].casefold() for p in found)
    assert {p["name"] for p in found} == {f"Zed{tag}Anna", f"zed{tag}anton"}
    one = requests.get(f"{server}/v1/players", params={"name": f"zed{tag}", "limit": 1}, timeout=10).json()
    assert len(one["players"]) == 1
    # The SDK's call answers the same; the ids go straight into an invitation.
    sdk = made[3].find_players(f"zed{tag}b")
    assert sdk == [{"id": made[3].player["id"], "name": f"Zed{tag}Bo"}]
    game = made[3].create_game("coup", 2, invite=[found[0]["id"]])
    assert game["invite"] == [found[0]["id"]]


@pytest.mark.parametrize("params", [{}, {"name": ""}, {"name": "x" * 41}, {"name": "   "},
                                    {"name": "ab", "limit": "0"}, {"name": "ab", "limit": "21"}])
def test_a_bad_query_is_a_400_problem(server: str, params: dict[str, str]) -> None:
    answer = requests.get(f"{server}/v1/players", params=params, timeout=10)
    assert answer.status_code == 400
    assert answer.headers["Content-Type"].startswith("application/problem+json")
    assert answer.json()["code"] == "bad_query"


def test_nobody_found_is_an_empty_list_and_the_sdk_raises_on_a_bad_query(server: str) -> None:
    client = Client.register(server, "lookup-" + uuid.uuid4().hex[:6])
    assert client.find_players("nobody-" + uuid.uuid4().hex[:12]) == []
    with pytest.raises(BadQuery):
        client.find_players("")
