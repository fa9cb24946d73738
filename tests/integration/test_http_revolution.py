"""Revolution! over HTTP: sealed bids stay sealed until the round is complete; a silent seat defaults."""

from __future__ import annotations

import random
import time

from tests.support.client import Client

SILENT = 3


def test_four_seat_game_keeps_bids_sealed_and_a_silent_seat_forfeits_at_its_deadline(server: str) -> None:
    players = [Client.register(server, f"rev{i}") for i in range(4)]
    game_id = players[0].create_game("revolution", 4, {"max_rounds": 8}, seconds_per_move=2, autoplay_after=100)
    for player in players:
        player.join(game_id)
    rng = random.Random(3)
    rounds_checked = 0
    give_up = time.monotonic() + 240
    while time.monotonic() < give_up:
        view = players[0].game(game_id)
        if view["status"] == "finished":
            break
        round_start = view["version"]
        awaited = [s for s in view["awaiting"] if s != SILENT]
        if view["view"]["phase"] == "bidding" and awaited:
            posted = {}
            for seat in awaited:
                mine = players[seat].game(game_id)
                posted[seat] = rng.choice(mine["legal_actions"])
                players[seat].act(game_id, posted[seat])
            after_bids = players[0].game(game_id)
            if after_bids["awaiting"] == [SILENT]:
                assert_bids_sealed(players, game_id, round_start, posted)
                rounds_checked += 1
                revealed = wait_for_reveal(players[1], game_id, after_bids["version"])
                for seat, action in posted.items():
                    assert revealed["bids"][seat] == action["bids"]
        elif awaited:  # a Spy or Apothecary choice owed by an active seat
            seat = awaited[0]
            players[seat].act(game_id, players[seat].game(game_id)["legal_actions"][0])
        else:  # waiting on the silent seat's deadline or on a worker's resolution
            players[0].events(game_id, after=view["version"], wait=5)
    final = players[0].game(game_id)
    assert final["status"] == "finished", "the game did not finish in time"
    assert rounds_checked >= 1
    log = [line for line in players[0].request("GET", f"/v1/games/{game_id}/log").text.splitlines() if line]
    missed = [line for line in log if '"type":"DeadlineMissed"' in line and f'"seat":{SILENT}' in line]
    assert len(missed) >= rounds_checked


def assert_bids_sealed(players: list[Client], game_id: str, round_start: int, posted: dict[int, dict]) -> None:
    """While the silent seat is still awaited, nobody sees another seat's bid anywhere."""
    spectator = Client(players[0].base_url)
    for viewer, client in [*enumerate(players), (None, spectator)]:
        body = client.game(game_id)
        view = body["view"]
        assert view["phase"] == "bidding" and "revealed_bids" not in view
        my_bid = view.get("my_bid")
        assert (my_bid or {}).get("bids") == (posted[viewer]["bids"] if viewer in posted else None)
        for event in client.events(game_id, after=round_start)["events"]:
            if event["type"] == "BidPlaced" and event["actor"] != viewer:
                assert event["data"] == {"seat": event["actor"]}
        assert body["legal_actions"] == [] or viewer is not None
        # Seats can post identical example bids, so search only what is not the viewer's own.
        public = {k: v for k, v in body.items() if k != "legal_actions"}
        public["view"] = {k: v for k, v in view.items() if k not in ("my_bid", "bid_limits")}
        for seat, action in posted.items():
            if seat != viewer:
                assert str(action["bids"]) not in str(public)
    refused = players[0].request("POST", f"/v1/games/{game_id}/actions", {"type": "bid", "bids": {}})
    assert refused.status_code == 422
    problem = refused.json()
    assert set(problem) <= {"type", "title", "status", "detail", "code", "version", "legal_actions"}
    for other in (1, 2):
        assert str(posted[other]["bids"]) not in refused.text


def wait_for_reveal(client: Client, game_id: str, after: int) -> dict:
    give_up = time.monotonic() + 30
    while time.monotonic() < give_up:
        page = client.events(game_id, after=after, wait=5)
        for event in page["events"]:
            if event["type"] == "BidsRevealed":
                return event["data"]
        after = page["version"]
    raise AssertionError("bids were never revealed")


def test_the_last_bid_s_answer_holds_the_reveal_its_own_commit_took(server: str) -> None:
    """No worker's hop between a round's last bid and its reveal: the reveal is a system batch
    of the last bidder's commit, in its answer, and every seat's next view follows at once."""
    players = [Client.register(server, f"last{i}") for i in range(3)]
    game_id = players[0].create_game("revolution", 3, {"max_rounds": 8}, seconds_per_move=600)
    for player in players:
        player.join(game_id)
    view = players[0].game(game_id)
    assert view["view"]["phase"] == "bidding" and sorted(view["awaiting"]) == [0, 1, 2]
    answers = []
    for seat, player in enumerate(players):
        answers.append(player.act(game_id, player.game(game_id)["legal_actions"][0]))
        if seat < 2:  # still sealed: nothing but the bid itself
            assert [e["type"] for e in answers[-1]["events"]] == ["BidPlaced"]
    last = answers[-1]
    types = [e["type"] for e in last["events"]]
    assert types[0] == "BidPlaced" and "BidsRevealed" in types
    assert last["events"][0]["seq"] == answers[1]["version"] + 1
    assert last["game"]["version"] == last["version"]
    moved_on = last["game"]["view"]
    assert moved_on["phase"] != "bidding" or moved_on["round"] == view["view"]["round"] + 1
    # Another seat reads the same version: nothing was left to a worker.
    assert players[1].game(game_id)["version"] == last["version"]
