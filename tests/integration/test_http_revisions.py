"""A looping client cannot grow a game's log: revising a sealed choice, and leaving an open
game to join it again, are bounded by ``INTRIGUE_REVISIONS_PER_DECISION`` (20 on the shared
server, its default).

Past the bound a post gets ``409 too_many_revisions`` as problem+json and nothing is appended;
the count is folded from the events, so it starts afresh when the seat is awaited again.
"""

from __future__ import annotations

from typing import Any

from engine.settings import Settings
from tests.support.client import Client

LIMIT = Settings().revisions_per_decision
#: Posts of the looping client: far more than the bound, as fast as one connection goes.
LOOP = 300


def problem(response: Any, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    assert response.headers["Content-Type"].startswith("application/problem+json")
    assert response.json()["code"] == code, response.text


def loop_on_sealed_bid(client: Client, game_id: str) -> tuple[int, list[Any]]:
    """Post the seat's legal bids, alternating, ``LOOP`` times as fast as it can; (accepted, refusals)."""
    bids = client.game(game_id)["legal_actions"]
    accepted, refused = 0, []
    for index in range(LOOP):
        response = client.request("POST", f"/v1/games/{game_id}/actions", bids[index % 2])
        if response.status_code == 200:
            accepted += 1
        else:
            refused.append(response)
    return accepted, refused


def test_a_client_looping_on_its_sealed_bid_adds_a_bounded_number_of_events(server: str) -> None:
    looper, second, third = (Client.register(server, f"looper-{i}") for i in range(3))
    game_id = looper.create_game("revolution", 3)
    for client in (looper, second, third):
        client.join(game_id)
    first = looper.game(game_id)
    looper.act(game_id, first["legal_actions"][0])  # seals seat 0's bid: no longer awaited
    sealed = looper.game(game_id)
    assert sealed["awaiting"] == [1, 2] and sealed["legal_actions"], "a sealed bid may still be replaced"

    accepted, refused = loop_on_sealed_bid(looper, game_id)
    assert accepted == LIMIT
    assert len(refused) == LOOP - LIMIT
    for response in refused[:3] + refused[-3:]:
        problem(response, 409, "too_many_revisions")
    after = looper.game(game_id)
    assert after["version"] == sealed["version"] + LIMIT, "a refused revision appends nothing"
    assert after["version"] - first["version"] <= LIMIT + 1  # a few dozen events for the whole loop

    # The others bid: the round moves on and every seat is awaited again, its count afresh.
    second.act(game_id, second.game(game_id)["legal_actions"][0])
    third.act(game_id, third.game(game_id)["legal_actions"][0])
    view = looper.game(game_id)
    while view["status"] == "active" and 0 not in view["awaiting"]:
        awaited = view["awaiting"][0] if view["awaiting"] else None
        if awaited is None:  # a worker's step
            view = looper.events(game_id, after=view["version"], wait=5, view=True)["game"]
            continue
        seat_client = (looper, second, third)[awaited]
        seat_client.act(game_id, seat_client.game(game_id)["legal_actions"][0])
        view = looper.game(game_id)
    assert view["view"]["phase"] == "bidding" and 0 in view["awaiting"]
    looper.act(game_id, view["legal_actions"][0])
    again = looper.request("POST", f"/v1/games/{game_id}/actions", looper.game(game_id)["legal_actions"][-1])
    assert again.status_code == 200, again.text  # a new round's bid may be revised again


def test_leaving_and_joining_an_open_game_again_is_bounded(server: str) -> None:
    host, wanderer = Client.register(server, "host"), Client.register(server, "wanderer")
    game_id = host.create_game("coup", 3)
    host.join(game_id)
    for _ in range(LIMIT):
        wanderer.join(game_id)
        assert wanderer.request("POST", f"/v1/games/{game_id}/leave").status_code == 200
    before = host.game(game_id)["version"]
    problem(wanderer.request("POST", f"/v1/games/{game_id}/join"), 409, "too_many_revisions")
    assert host.game(game_id)["version"] == before, "the refused join appended nothing"
    other = Client.register(server, "newcomer")
    assert other.join(game_id) == 1, "the seat is still open to everyone else"
