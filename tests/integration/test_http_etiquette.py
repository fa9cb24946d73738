"""The table's etiquette over HTTP: leaving, cancelling and resigning, each an event in the log.

Against a real ``intrigue serve`` (API and worker) and a real redis-server: a seat left is
free again, a cancelled game keeps its log but leaves the lobby and its creator's count of
open games, a resigned seat is played by the takeover bot while its player watches as a
spectator, and racing commands on one game are decided one at a time by the store.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import redis

from events.envelope import Envelope
from events.store import Keys
from projections.audit import audit, game_events, read_log
from projections.record import fold
from service.embedded import EmbeddedRedis
from tests.integration.conftest import ROOT
from tests.support.client import Client
from tests.support.polling import wait_until

OPERATOR = "operator-secret"


def problem(response: Any, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    assert response.headers["Content-Type"].startswith("application/problem+json")
    assert response.json()["code"] == code, response.text


def full_log(server: str, game_id: str) -> list[Envelope]:
    operator = Client(server, token=OPERATOR)
    response = operator.request("GET", f"/v1/games/{game_id}/log")
    assert response.status_code == 200, response.text
    return game_events(read_log(response.text.splitlines()))  # without the signed final record


def lobby_ids(client: Client) -> set[str]:
    return {game["id"] for game in client.get("/v1/games", params={"limit": 200})["games"]}


# ------------------------------------------------------------------ leave and cancel
def test_leave_frees_the_seat_until_the_game_starts(server: str) -> None:
    natasha, sacha, haig = (Client.register(server, name) for name in ("natasha", "sacha", "haig"))
    game_id = natasha.create_game("coup", 3)
    natasha.join(game_id)
    assert sacha.join(game_id) == 1
    left = sacha.post(f"/v1/games/{game_id}/leave")
    assert left["players"][1] is None and left["status"] == "open"
    assert game_id not in {g["id"] for g in sacha.get("/v1/me/games")["games"]}
    problem(sacha.request("POST", f"/v1/games/{game_id}/leave"), 403, "not_seated")
    assert haig.join(game_id) == 1  # the seat left is the first free one again
    assert sacha.join(game_id) == 2  # the last seat starts the game
    before = natasha.game(game_id)["version"]
    problem(sacha.request("POST", f"/v1/games/{game_id}/leave"), 409, "game_started")
    problem(natasha.request("DELETE", f"/v1/games/{game_id}"), 409, "game_started")
    assert natasha.game(game_id)["version"] == before  # refusals change nothing
    types = [event.type for event in full_log(server, game_id)]
    assert types[:6] == ["GameCreated", "PlayerJoined", "PlayerJoined", "PlayerLeft", "PlayerJoined", "PlayerJoined"]


def test_the_creator_cancels_an_open_game(server: str, redis_client: redis.Redis) -> None:
    natasha, sacha = Client.register(server, "natasha"), Client.register(server, "sacha")
    game_id = natasha.create_game("revolution", 3)
    sacha.join(game_id)
    hosting = Keys().hosting(natasha.player_id or "")
    assert redis_client.zscore(hosting, game_id) is not None and game_id in lobby_ids(natasha)
    problem(sacha.request("DELETE", f"/v1/games/{game_id}"), 403, "not_creator")
    response = natasha.request("DELETE", f"/v1/games/{game_id}")
    assert response.status_code == 204 and response.content == b""
    view = sacha.game(game_id)
    assert view["status"] == "cancelled" and view["players"][0]["id"] == sacha.player_id
    assert game_id not in lobby_ids(natasha)
    assert redis_client.zscore(hosting, game_id) is None  # no longer counts among the creator's open games
    version = view["version"]
    assert natasha.request("DELETE", f"/v1/games/{game_id}").status_code == 204  # again: nothing changes
    problem(Client.register(server, "haig").request("POST", f"/v1/games/{game_id}/join"), 409, "game_not_open")
    problem(sacha.request("POST", f"/v1/games/{game_id}/leave"), 409, "game_cancelled")
    problem(sacha.request("POST", f"/v1/games/{game_id}/resign"), 409, "game_cancelled")
    problem(sacha.request("POST", f"/v1/games/{game_id}/actions", {"type": "pass"}), 409, "game_cancelled")
    assert sacha.game(game_id)["version"] == version
    events = full_log(server, game_id)
    assert [e.type for e in events] == ["GameCreated", "PlayerJoined", "GameCancelled"]
    assert events[-1].data == {"by": natasha.player_id}


def test_racing_joins_leaves_and_a_cancel_are_decided_one_at_a_time(server: str) -> None:
    for round_ in range(4):
        creator, stayer, leaver = (Client.register(server, f"r{round_}-{n}") for n in ("a", "b", "c"))
        joiners = [Client.register(server, f"r{round_}-j{n}") for n in range(3)]
        game_id = creator.create_game("coup", 4)
        creator.join(game_id)
        stayer.join(game_id)
        leaver.join(game_id)
        calls = [(leaver, "POST", "/leave"), (creator, "DELETE", ""),
                 *((joiner, "POST", "/join") for joiner in joiners)]
        paths = [(client, method, f"/v1/games/{game_id}{tail}") for client, method, tail in calls]
        with ThreadPoolExecutor(len(calls)) as pool:
            answers = list(pool.map(lambda c: c[0].request(c[1], c[2]), paths))
        assert all(a.status_code in (200, 204, 409) for a in answers), [a.text for a in answers]
        events = full_log(server, game_id)
        record = None
        for event in events:
            record = fold(record, event)
        assert record is not None
        final = creator.game(game_id)
        assert (final["status"], final["version"], final["players"]) == (
            record["status"], record["version"], record["players"])
        types = [e.type for e in events]
        # Every success is exactly one event, and nothing follows a cancel or a start.
        assert types.count("PlayerLeft") == (answers[0].status_code == 200)
        assert types.count("GameCancelled") == (answers[1].status_code == 204)
        assert types.count("PlayerJoined") == 3 + sum(a.status_code == 200 for a in answers[2:])
        end = types.index("GameCancelled") if "GameCancelled" in types else None
        assert end is None or end == len(types) - 1
        if "GameStarted" in types:
            assert "GameCancelled" not in types and record["status"] == "active"
        seated = [p["id"] for p in record["players"] if p is not None]
        assert len(seated) == len(set(seated))


# ------------------------------------------------------------------ resign
def test_a_resigned_seat_is_played_by_the_bot_and_sees_a_spectators_game(server: str) -> None:
    natasha, sacha, haig = (Client.register(server, name) for name in ("natasha", "sacha", "haig"))
    anon = Client(server)
    game_id = natasha.create_game("coup", 3)
    for player in (natasha, sacha, haig):
        player.join(game_id)
    before = natasha.game(game_id)
    assert before["view"] != anon.game(game_id)["view"]  # a seat sees its own cards
    problem(anon.request("POST", f"/v1/games/{game_id}/resign"), 401, "auth_required")
    problem(Client.register(server, "kibitzer").request("POST", f"/v1/games/{game_id}/resign"), 403, "not_seated")
    answer = natasha.post(f"/v1/games/{game_id}/resign")
    assert answer["game"]["resigned"] == [0] and answer["game"]["legal_actions"] == []
    resigned_at = answer["version"]
    problem(natasha.request("POST", f"/v1/games/{game_id}/resign"), 409, "already_resigned")
    problem(natasha.request("POST", f"/v1/games/{game_id}/actions", {"type": "income"}), 409, "seat_resigned")
    # Seat 0 had the first turn: the takeover bot plays it at once, and the others' game goes on.
    wait_until(lambda: 0 not in natasha.game(game_id)["awaiting"], "the bot's move for the resigned seat")
    # From the resignation on the seat sees exactly what a spectator sees: views, replays and feed.
    mine = natasha.game(game_id)
    assert mine["seat"] == 0 and mine["legal_actions"] == []
    assert game_id not in {g["id"] for g in natasha.get("/v1/me/games", params={"awaiting": "me"})["games"]}
    for version in (resigned_at, resigned_at + 1):
        replay = f"/v1/games/{game_id}/replay"
        assert (natasha.get(replay, params={"version": version})["game"]["view"]
                == anon.get(replay, params={"version": version})["game"]["view"])
    feed_of = natasha.events(game_id, after=resigned_at - 1)["events"]
    assert feed_of and feed_of == anon.events(game_id, after=resigned_at - 1)["events"]
    assert feed_of[0]["type"] == "SeatResigned" and feed_of[0]["data"] == {"seat": 0}
    # Once only one seat is still in, the game ends: the seat left wins, the resigned rank last.
    sacha.post(f"/v1/games/{game_id}/resign")
    final = haig.game(game_id)
    assert (final["status"], final["winners"], final["reason"], final["resigned"]) == (
        "finished", [2], "resigned", [0, 1])
    events = full_log(server, game_id)
    bot_batches = [e for e in events if e.cause.get("kind") == "bot" and e.actor == 0]
    assert bot_batches and all(e.type != "DeadlineMissed" for e in bot_batches)
    report = audit(events)  # every bot move and the end replay from the revealed seed
    assert report.finished and report.winners == [2]
    text = haig.request("GET", f"/v1/games/{game_id}/transcript").text
    assert "seat 0 (natasha) resigns" in text and "seat 1 (sacha) resigns" in text


def test_resigning_a_two_seat_game_ends_it_for_the_other(server: str) -> None:
    natasha, sacha = Client.register(server, "natasha"), Client.register(server, "sacha")
    hook = natasha.post("/v1/me/webhooks", {"url": "https://1.1.1.1/natasha-hook", "events": ["game_over"]},
                        expect=201)
    game_id = natasha.create_game("ideology", 2)
    problem(natasha.request("POST", f"/v1/games/{game_id}/resign"), 403, "not_seated")
    natasha.join(game_id)
    problem(natasha.request("POST", f"/v1/games/{game_id}/resign"), 409, "game_not_started")
    sacha.join(game_id)
    answer = sacha.post(f"/v1/games/{game_id}/resign")
    assert (answer["game"]["status"], answer["game"]["winners"], answer["game"]["reason"]) == (
        "finished", [0], "resigned")
    problem(natasha.request("POST", f"/v1/games/{game_id}/resign"), 409, "game_over")
    assert audit(full_log(server, game_id)).winners == [0]
    deliveries = wait_until(lambda: natasha.get(f"/v1/me/webhooks/{hook['id']}/deliveries")["deliveries"],
                            "the game_over delivery")
    assert [(d["type"], d["game"]) for d in deliveries] == [("game_over", game_id)]


def test_racing_resignations_end_the_game_once(server: str) -> None:
    players = [Client.register(server, f"racer{n}") for n in range(3)]
    game_id = players[0].create_game("coup", 3)
    for player in players:
        player.join(game_id)
    with ThreadPoolExecutor(3) as pool:
        answers = list(pool.map(lambda p: p.request("POST", f"/v1/games/{game_id}/resign"), players))
    statuses = sorted(a.status_code for a in answers)
    assert statuses == [200, 200, 409], [a.text for a in answers]
    loser = next(a for a in answers if a.status_code == 409)
    assert json.loads(loser.text)["code"] == "game_over"
    events = full_log(server, game_id)
    assert [e.type for e in events].count("SeatResigned") == 2
    assert [e.type for e in events].count("GameEnded") == 1
    last_in = next(seat for seat, a in enumerate(answers) if a.status_code == 409)
    assert events[-1].data["winners"] == [last_in]


# ------------------------------------------------------------------ invitations
def test_only_the_invited_join_an_unlisted_game_and_they_are_told(server: str) -> None:
    natasha, sacha, haig, stranger = (Client.register(server, n) for n in ("natasha", "sacha", "haig", "stranger"))
    hook = sacha.post("/v1/me/webhooks", {"url": "https://1.1.1.1/sacha-hook", "events": ["invited"]}, expect=201)
    for body, code in (({"invite": ["nobody-has-this-id"]}, "unknown_player"),
                       ({"invite": [sacha.player_id, haig.player_id, stranger.player_id]}, "too_many_invitations")):
        refused = natasha.request("POST", "/v1/games", {"game": "coup", "seats": 2, **body})
        problem(refused, 422, code)
    game_id = natasha.post("/v1/games", {"game": "coup", "seats": 3, "unlisted": True,
                                          "invite": [sacha.player_id, haig.player_id]}, expect=201)["id"]
    assert game_id not in lobby_ids(natasha)
    invited = [g for g in sacha.get("/v1/me/games")["games"] if g["id"] == game_id]
    assert len(invited) == 1 and invited[0]["invited"] is True and invited[0]["status"] == "open"
    assert invited[0]["seat"] is None and invited[0]["unlisted"] is True
    assert game_id not in {g["id"] for g in stranger.get("/v1/me/games")["games"]}
    assert game_id not in {g["id"] for g in sacha.get("/v1/me/games", params={"awaiting": "me"})["games"]}
    version = natasha.game(game_id)["version"]
    problem(stranger.request("POST", f"/v1/games/{game_id}/join"), 403, "not_invited")
    assert natasha.game(game_id)["version"] == version  # the refusal changed nothing
    natasha.join(game_id)  # the creator may always sit down
    sacha.join(game_id)
    mine = [g for g in sacha.get("/v1/me/games")["games"] if g["id"] == game_id]
    assert mine[0]["invited"] is False and mine[0]["seat"] == 1
    haig.join(game_id)
    assert natasha.game(game_id)["status"] == "active"
    deliveries = wait_until(lambda: sacha.get(f"/v1/me/webhooks/{hook['id']}/deliveries")["deliveries"],
                            "the invited delivery")
    assert [d["type"] for d in deliveries] == ["invited"] and deliveries[0]["game"] == game_id


def test_an_invitation_lapses_when_the_game_fills_without_the_invited(server: str) -> None:
    natasha, sacha, haig = (Client.register(server, n) for n in ("natasha", "sacha", "haig"))
    game_id = natasha.post("/v1/games", {"game": "coup", "seats": 2, "invite": [sacha.player_id, haig.player_id]},
                           expect=201)["id"]
    assert game_id in lobby_ids(natasha)  # listed, but only the invited may join
    assert game_id in {g["id"] for g in haig.get("/v1/me/games")["games"]}
    natasha.join(game_id)
    sacha.join(game_id)  # the game starts: haig's invitation is gone from his games
    assert game_id not in {g["id"] for g in haig.get("/v1/me/games")["games"]}
    problem(haig.request("POST", f"/v1/games/{game_id}/join"), 409, "game_not_open")


# ------------------------------------------------------------------ rematch
def test_a_rematch_is_the_same_game_again_offered_to_the_same_players(server: str) -> None:
    natasha, sacha, haig = (Client.register(server, n) for n in ("natasha", "sacha", "haig"))
    options = {"game": "coup", "seats": 3, "options": {}, "time_control": {"seconds_per_move": 600,
                                                                           "reserve_seconds": 60}}
    game_id = natasha.post("/v1/games", options, expect=201)["id"]
    for player in (natasha, sacha, haig):
        player.join(game_id)
    problem(sacha.request("POST", f"/v1/games/{game_id}/rematch"), 409, "game_not_over")
    natasha.post(f"/v1/games/{game_id}/resign")
    sacha.post(f"/v1/games/{game_id}/resign")
    old = haig.game(game_id)
    assert old["status"] == "finished" and old["rematch"] is None
    problem(Client.register(server, "kibitzer").request("POST", f"/v1/games/{game_id}/rematch"), 403, "not_seated")
    # Two players ask at once, and one again: one new game, each of them seated in it.
    with ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(lambda p: p.post(f"/v1/games/{game_id}/rematch"), (sacha, haig)))
    again = sacha.post(f"/v1/games/{game_id}/rematch")
    new_ids = {answers[0]["game"]["id"], answers[1]["game"]["id"], again["game"]["id"]}
    assert len(new_ids) == 1 and game_id not in new_ids
    new_id = new_ids.pop()
    assert again["seat"] == answers[0]["seat"]  # asking twice keeps your seat
    new = natasha.game(new_id)
    assert (new["game"], new["seats"], new["options"], new["time_control"]) == (
        old["game"], old["seats"], old["options"], old["time_control"])
    assert new["status"] == "open" and new["unlisted"] is True and new["rematch_of"] == game_id
    assert sorted(new["invite"]) == sorted(p.player_id for p in (natasha, sacha, haig))
    assert haig.game(game_id)["rematch"] == new_id
    assert [g["invited"] for g in natasha.get("/v1/me/games")["games"] if g["id"] == new_id] == [True]
    problem(Client.register(server, "stranger").request("POST", f"/v1/games/{new_id}/join"), 403, "not_invited")
    natasha.join(new_id)  # the last of the three seats starts it
    assert natasha.game(new_id)["status"] == "active"
    created = full_log(server, new_id)[0]
    assert created.data["rematch_of"] == game_id and created.data["invite"] == new["invite"]


# ------------------------------------------------------------------ ratings
def test_rated_games_move_ratings_and_fill_the_leaderboard(server: str) -> None:
    winner, loser = Client.register(server, "rated-winner"), Client.register(server, "rated-loser")
    anon = Client(server)
    problem(anon.request("GET", "/v1/players/nobody-has-this-id"), 404, "player_not_found")
    problem(anon.request("GET", "/v1/leaderboards/chess"), 404, "leaderboard_not_found")
    problem(anon.request("GET", "/v1/leaderboards/coup", params={"cursor": "x"}), 400, "bad_cursor")
    assert anon.get(f"/v1/players/{winner.player_id}") == {"id": winner.player_id, "name": "rated-winner",
                                                           "ratings": {}, "reliability": None, "decisions": 0,
                                                           "timeouts": 0, "abandoned": 0}
    unrated = winner.post("/v1/games", {"game": "revolution", "seats": 3, "rated": False}, expect=201)
    assert unrated["rated"] is False
    min_games = anon.get("/v1/leaderboards/coup")["min_games"]
    for _ in range(min_games):
        game_id = winner.create_game("coup", 2)
        winner.join(game_id)
        loser.join(game_id)
        assert loser.post(f"/v1/games/{game_id}/resign")["game"]["rated"] is True
    # The worker folds each finished game into the ratings, in the order the games ended.
    mine = wait_until(lambda: (found := anon.get(f"/v1/players/{winner.player_id}")["ratings"].get("coup"))
                      and found["games"] == min_games and found, "the ratings of the finished games")
    theirs = anon.get(f"/v1/players/{loser.player_id}")["ratings"]["coup"]
    assert mine["rating"] > theirs["rating"] and mine["mu"] > 25 > theirs["mu"] and theirs["games"] == min_games
    board, cursor, seen = [], None, 0
    while True:  # every page, best first
        page = anon.get("/v1/leaderboards/coup", params={"limit": 2, **({"cursor": cursor} if cursor else {})})
        board += page["players"]
        cursor, seen = page["next_cursor"], seen + 1
        if cursor is None or seen > 500:
            break
    ranked = [entry["player"] for entry in board]
    assert ranked.index(winner.player_id) < ranked.index(loser.player_id)
    assert [entry["rank"] for entry in board] == list(range(1, len(board) + 1))
    assert all(entry["games"] >= min_games for entry in board)
    ratings = [entry["rating"] for entry in board]
    assert ratings == sorted(ratings, reverse=True)


def test_intrigue_reindex_rebuilds_the_same_ratings(server: str, redis_server: EmbeddedRedis,
                                                    redis_client: redis.Redis) -> None:
    players = [Client.register(server, f"reindexed{n}") for n in range(3)]
    for order in ([2, 1], [0, 2], [1, 0]):  # three rated games, three different winners
        game_id = players[0].create_game("revolution", 3)
        for player in players:
            player.join(game_id)
        for seat in order:
            players[seat].post(f"/v1/games/{game_id}/resign")

    def ratings() -> list[dict]:
        return [Client(server).get(f"/v1/players/{p.player_id}")["ratings"] for p in players]

    live = wait_until(lambda: (found := ratings()) and all(r.get("revolution", {}).get("games") == 3 for r in found)
                      and found, "the three games' ratings")
    for key in redis_client.scan_iter(match="*ratings:revolution*"):  # lose them: they are a projection
        redis_client.delete(key)
    assert all(r == {} for r in ratings())
    done = subprocess.run([sys.executable, "-m", "service.cli", "reindex"], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, "REDIS_URL": redis_server.url}, timeout=300)
    assert done.returncode == 0, done.stderr
    assert ratings() == live
