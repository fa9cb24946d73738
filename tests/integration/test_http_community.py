"""The correspondence community over real HTTP (issue 50): a cap on games, reliability,
vacations, weekend pauses and substitutes.

The server is an ``intrigue serve`` of its own on the session's Redis, with a low ceiling
on the seats a player holds (``INTRIGUE_ACTIVE_GAMES_PER_PLAYER``), so the ceiling is met
within a test; every test registers players of its own.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from events.envelope import parse_time
from projections.audit import audit, read_log
from service.embedded import EmbeddedRedis
from tests.integration.conftest import RENDER_CHECK, SMALL_BOT_BUDGET, UNREACHABLE_LIMITS, serving
from tests.integration.test_api_reference import finish
from tests.support.client import Client
from tests.support.polling import wait_until

CEILING = 6


@pytest.fixture(scope="module")
def community(redis_server: EmbeddedRedis, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    env = {**os.environ, "REDIS_URL": redis_server.url, "INTRIGUE_LOG_LEVEL": "WARNING",
           "INTRIGUE_OPERATOR_TOKEN": "operator-secret", **UNREACHABLE_LIMITS, **SMALL_BOT_BUDGET,
           **RENDER_CHECK, "INTRIGUE_ACTIVE_GAMES_PER_PLAYER": str(CEILING)}
    with serving(env, tmp_path_factory.mktemp("community") / "serve.log") as base:
        yield base


def player(base: str, name: str) -> Client:
    return Client.register(base, f"{name}-{uuid.uuid4().hex[:6]}")


def problem(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["code"] == code and response.headers["Content-Type"].startswith("application/problem+json")
    return body


# ------------------------------------------------------------------ 4. a cap on games
def test_a_join_or_a_creation_past_the_ceiling_is_refused_and_bot_seats_do_not_count(community: str) -> None:
    natasha, sacha = player(community, "natasha"), player(community, "sacha")
    # Bots hold a seat in each of these games: only natasha's own seat counts.
    games = []
    for _ in range(CEILING):
        body = natasha.post("/v1/games", {"game": "coup", "seats": 2, "bots": {"1": "random"}}, expect=201)
        games.append(body["id"])
    open_ones = [natasha.create_game("coup", 2) for _ in range(2)]
    for game_id in games[:CEILING]:
        natasha.join(game_id)
    refused = natasha.request("POST", f"/v1/games/{open_ones[0]}/join")
    problem(refused, 409, "too_many_active_games")
    assert natasha.game(open_ones[0])["players"] == [None, None]  # nothing changed
    problem(natasha.request("POST", "/v1/games", {"game": "coup", "seats": 2}), 409, "too_many_active_games")
    # Joining a game again keeps the seat, whatever the count.
    assert natasha.join(games[0]) == 0
    # Another player is not held to natasha's count.
    assert sacha.join(open_ones[0]) == 0


def test_a_game_that_ends_or_a_seat_left_frees_a_place(community: str) -> None:
    natasha, sacha = player(community, "natasha"), player(community, "sacha")
    waiting = [sacha.create_game("coup", 2) for _ in range(CEILING + 1)]
    for game_id in waiting[:CEILING]:
        natasha.join(game_id)
    problem(natasha.request("POST", f"/v1/games/{waiting[CEILING]}/join"), 409, "too_many_active_games")
    natasha.post(f"/v1/games/{waiting[0]}/leave")  # an open game left
    assert natasha.join(waiting[CEILING]) == 0
    problem(natasha.request("POST", f"/v1/games/{waiting[0]}/join"), 409, "too_many_active_games")
    sacha.join(waiting[1])  # it starts; natasha resigns, and with one seat left it ends
    natasha.post(f"/v1/games/{waiting[1]}/resign")
    assert natasha.game(waiting[1])["status"] == "finished"
    assert natasha.join(waiting[0]) == 0


# ------------------------------------------------------------------ 3. reliability
def profile(base: str, who: Client) -> dict[str, Any]:
    return Client(base).get(f"/v1/players/{who.player_id}")


def test_reliability_counts_decisions_timeouts_and_abandoned_games_and_a_game_may_ask_for_it(community: str) -> None:
    flaky, steady = player(community, "flaky"), player(community, "steady")
    fresh = profile(community, flaky)
    assert (fresh["reliability"], fresh["decisions"], fresh["timeouts"], fresh["abandoned"]) == (None, 0, 0, 0)
    # Whole games played on time until flaky has made the 20 decisions a figure needs.
    while (before := profile(community, flaky)["decisions"]) < 20:
        game_id = steady.create_game("coup", 2)
        flaky.join(game_id)
        steady.join(game_id)
        finish(community, game_id, [flaky, steady])
        # Filed when a worker archives the game: every finished Coup asked each seat something.
        wait_until(lambda b=before: profile(community, flaky)["decisions"] > b, "the finished game counted")
    on_time = profile(community, flaky)
    assert on_time["reliability"] == 100.0 and on_time["timeouts"] == 0 and on_time["abandoned"] == 0
    # Now flaky lets a deadline pass: the bot takes the seat over (after one default), and
    # steady resigns, so the game ends with the bot still in flaky's seat: abandoned.
    game_id = steady.post("/v1/games", {"game": "coup", "seats": 2, "time_control": {
        "seconds_per_move": 1, "autoplay_after": 1, "autoplay_seconds": 30}}, expect=201)["id"]
    flaky.join(game_id)
    steady.join(game_id)
    wait_until(lambda: steady.game(game_id)["autoplay"] == [0], "the bot taking flaky's seat over")
    steady.post(f"/v1/games/{game_id}/resign")
    after = wait_until(lambda: (found := profile(community, flaky))["abandoned"] == 1 and found,
                       "the abandoned game counted")
    decided = after["decisions"]
    assert after["timeouts"] == 1 and decided == on_time["decisions"]
    assert after["reliability"] == round(100 * decided / (decided + 1), 1) < 100
    # A game asking for 100% refuses flaky (and changes nothing); a player with no figure yet may join.
    picky = steady.post("/v1/games", {"game": "coup", "seats": 3, "min_reliability": 100}, expect=201)
    assert picky["min_reliability"] == 100
    problem(flaky.request("POST", f"/v1/games/{picky['id']}/join"), 403, "too_unreliable")
    newcomer = player(community, "newcomer")
    assert newcomer.join(picky["id"]) == 0
    assert [p["id"] for p in steady.game(picky["id"])["players"] if p] == [newcomer.player_id]
    # The lobby and the players' own lists show each seated player's figure beside the name.
    lenient = steady.post("/v1/games", {"game": "coup", "seats": 3, "unlisted": False}, expect=201)["id"]
    flaky.join(lenient)
    lobby = Client(community).get("/v1/games", params={"game": "coup", "limit": 200})
    while not any(g["id"] == lenient for g in lobby["games"]) and lobby["next_cursor"]:
        lobby = Client(community).get("/v1/games", params={"game": "coup", "limit": 200,
                                                           "cursor": lobby["next_cursor"]})
    listed = next(g for g in lobby["games"] if g["id"] == lenient)
    assert listed["players"][0] == {"id": flaky.player_id, "name": listed["players"][0]["name"],
                                    "reliability": after["reliability"]}
    mine = next(g for g in flaky.get("/v1/me/games")["games"] if g["id"] == lenient)
    assert mine["players"][0]["reliability"] == after["reliability"]



# ------------------------------------------------------------------ 1. vacations
def two_player_coup(first: Client, second: Client, **time_control: Any) -> str:
    """A started Coup of two seats: ``first`` in seat 0, ``second`` in seat 1."""
    body = {"game": "coup", "seats": 2, "time_control": {"seconds_per_move": 86400, **time_control}}
    game_id = first.post("/v1/games", body, expect=201)["id"]
    first.join(game_id)
    second.join(game_id)
    return game_id


def close(a: str, b: datetime, within: float = 30.0) -> bool:
    return abs((parse_time(a) - b).total_seconds()) <= within


def test_a_vacation_stops_the_clocks_of_the_games_that_allow_it_and_ends_early_with_days_given_back(
        community: str) -> None:
    natasha, sacha = player(community, "natasha"), player(community, "sacha")
    me = natasha.get("/v1/me")
    assert me == {"id": natasha.player_id, "name": me["name"], "timezone": "UTC", "vacation_until": None,
                  "vacation_days_left": 30, "vacation_days_per_year": 30}
    waiting_on_her = two_player_coup(natasha, sacha)  # seat 0 moves first: her turn
    waiting_on_him = two_player_coup(sacha, natasha)
    fast = two_player_coup(natasha, sacha, seconds_per_move=3600)
    refusing = two_player_coup(natasha, sacha, vacation=False)
    short = two_player_coup(natasha, sacha, max_vacation_days=2)
    before = {game_id: natasha.game(game_id) for game_id in (waiting_on_her, fast, refusing, short)}
    assert before[waiting_on_her]["awaiting"] == [0]

    problem(natasha.request("POST", "/v1/me/vacation", {"days": 31}), 409, "not_enough_vacation")
    problem(natasha.request("POST", "/v1/me/vacation", {"days": 0}), 400, "invalid_body")
    assert natasha.get("/v1/me") == me  # nothing changed
    started = natasha.post("/v1/me/vacation", {"days": 5})
    now = datetime.now(UTC)
    assert started["vacation_days_left"] == 25 and close(started["vacation_until"], now + timedelta(days=5))
    until = started["vacation_until"]
    problem(natasha.request("POST", "/v1/me/vacation", {"days": 1}), 409, "on_vacation")

    # Her running clock stopped: the deadline moved on by the pause, and every seat sees why.
    paused = sacha.game(waiting_on_her)
    assert paused["vacation_until"] == {"0": until}
    moved = parse_time(paused["deadlines"]["0"]) - parse_time(before[waiting_on_her]["deadlines"]["0"])
    assert abs(moved - timedelta(days=5)).total_seconds() < 30
    feed = sacha.events(waiting_on_her, after=before[waiting_on_her]["version"])["events"]
    assert [(e["type"], e["data"]) for e in feed] == [("VacationStarted", {"seat": 0, "until": until})]
    # A decision that comes to her while she is away starts its clock when she is back.
    view = sacha.game(waiting_on_him)
    sacha.act(waiting_on_him, {"type": "income"}, if_match=view["version"])
    assert close(natasha.game(waiting_on_him)["deadlines"]["1"], parse_time(until) + timedelta(days=1), 1)
    # Less than a day per move, or a time control that refuses vacations: nothing moves.
    for game_id in (fast, refusing):
        assert natasha.game(game_id)["vacation_until"] == {}
        assert natasha.game(game_id)["deadlines"] == before[game_id]["deadlines"]
    # A game accepts at most its max_vacation_days from all its seats together.
    capped = natasha.game(short)["vacation_until"]["0"]
    assert close(capped, now + timedelta(days=2))
    # The replay of that version shows the pause too: it is in the log.
    replayed = sacha.get(f"/v1/games/{waiting_on_her}/replay", params={"version": paused["version"]})
    assert replayed["game"]["vacation_until"] == {"0": until}

    # Back early: the whole days not used come back, and the clocks run again from now.
    back = natasha.request("DELETE", "/v1/me/vacation")
    assert back.status_code == 200, back.text
    assert back.json()["vacation_until"] is None and back.json()["vacation_days_left"] == 29
    resumed = natasha.game(waiting_on_her)
    assert resumed["vacation_until"] == {}
    assert close(resumed["deadlines"]["0"], parse_time(before[waiting_on_her]["deadlines"]["0"]))
    assert close(natasha.game(waiting_on_him)["deadlines"]["1"], datetime.now(UTC) + timedelta(days=1))
    problem(natasha.request("DELETE", "/v1/me/vacation"), 409, "not_on_vacation")


# ------------------------------------------------------------------ 5. substitutes
def seeking(base: str) -> dict[str, list[int]]:
    """Every game offering seats, with the seats, from the listing's pages."""
    found: dict[str, list[int]] = {}
    params: dict[str, Any] = {"seeking_substitute": "true", "limit": 200}
    while True:
        page = Client(base).get("/v1/games", params=params)
        found.update({game["id"]: game["seats_offered"] for game in page["games"]})
        if page["next_cursor"] is None:
            return found
        params["cursor"] = page["next_cursor"]


def test_a_substitute_takes_over_a_seat_left_and_plays_it_unrated(community: str) -> None:
    natasha, sacha, boris, stand_in = (player(community, name) for name in ("natasha", "sacha", "boris", "stand-in"))
    game_id = natasha.create_game("coup", 3)
    for who in (natasha, sacha, boris):
        who.join(game_id)
    assert game_id not in seeking(community)
    boris.post(f"/v1/games/{game_id}/resign")
    assert seeking(community)[game_id] == [2]
    problem(natasha.request("POST", f"/v1/games/{game_id}/join", {"seat": 2}), 409, "already_seated")
    problem(stand_in.request("POST", f"/v1/games/{game_id}/join", {"seat": 1}), 409, "seat_not_offered")
    problem(stand_in.request("POST", f"/v1/games/{game_id}/join", {"seat": "two"}), 400, "invalid_body")
    version = natasha.game(game_id)["version"]
    taken = stand_in.post(f"/v1/games/{game_id}/join", {"seat": 2})
    assert taken["seat"] == 2 and taken["game"]["seat"] == 2
    assert taken["game"]["players"][2]["id"] == stand_in.player_id and taken["game"]["resigned"] == []
    feed = sacha.events(game_id, after=version)["events"]
    assert [(e["type"], e["data"]["seat"], e["data"]["player"]["id"]) for e in feed] == [
        ("SeatSubstituted", 2, stand_in.player_id)]
    assert game_id not in seeking(community)
    # The player who left cannot act in the game any more; the substitute sees the seat's cards.
    problem(boris.request("POST", f"/v1/games/{game_id}/resign"), 403, "not_seated")
    assert boris.game(game_id)["seat"] is None and "hand" not in boris.game(game_id)["view"]["seats"][2]
    assert "hand" in stand_in.game(game_id)["view"]["seats"][2]
    assert any(g["id"] == game_id for g in stand_in.get("/v1/me/games")["games"])
    natasha.post("/v1/me/vacation", {"days": 2})  # a pause in the log, too, for the audit below
    assert natasha.request("DELETE", "/v1/me/vacation").status_code == 200
    finish(community, game_id, [natasha, sacha, stand_in])
    # The published log replays through the rules and the platform's fold: the audit holds.
    lines = Client(community).http.get(f"{community}/v1/games/{game_id}/log", timeout=40).text.splitlines()
    events = read_log(lines)
    assert {"SeatSubstituted", "VacationStarted", "VacationEnded"} <= {event.type for event in events}
    assert audit(events).finished
    told = Client(community).http.get(f"{community}/v1/games/{game_id}/transcript", timeout=40).text
    assert f"seat 2 ({stand_in_name(stand_in, game_id, community)}) takes the seat over as a substitute" in told
    assert "goes on vacation until" in told and "is back from vacation" in told
    # Rated as if boris had stayed to lose: he has the game, the substitute has no rating.
    # (The archive step rates the game, then files its reliability counts: wait for both.)
    rated = wait_until(lambda: (found := Client(community).get(f"/v1/players/{boris.player_id}"))["ratings"]
                       and found["abandoned"] and found, "the game rated and its counts filed")
    assert rated["ratings"]["coup"]["games"] == 1 and rated["abandoned"] == 1
    assert Client(community).get(f"/v1/players/{stand_in.player_id}")["ratings"] == {}


def test_a_game_created_without_substitutes_offers_no_seat(community: str) -> None:
    natasha, sacha, boris, stand_in = (player(community, name) for name in ("natasha", "sacha", "boris", "stand-in"))
    created = natasha.post("/v1/games", {"game": "coup", "seats": 3, "substitutes": False}, expect=201)
    assert created["substitutes"] is False
    for who in (natasha, sacha, boris):
        who.join(created["id"])
    boris.post(f"/v1/games/{created['id']}/resign")
    assert created["id"] not in seeking(community)
    problem(stand_in.request("POST", f"/v1/games/{created['id']}/join", {"seat": 2}), 409, "seat_not_offered")


# ------------------------------------------------------------------ 2. weekends
def weekday_minutes_later(start: datetime, minutes: int, zone: ZoneInfo) -> datetime:
    """The reference: step a minute at a time, counting only minutes of Monday to Friday in ``zone``."""
    moment = start
    while minutes > 0:
        if moment.astimezone(zone).weekday() < 5:
            minutes -= 1
        moment += timedelta(minutes=1)
    return moment


def test_a_game_that_pauses_weekends_runs_each_seats_clock_on_its_own_weekdays(community: str) -> None:
    kiwi, londoner = player(community, "kiwi"), player(community, "londoner")
    problem(kiwi.request("PATCH", "/v1/me", {"timezone": "Mars/Olympus_Mons"}), 422, "bad_timezone")
    problem(kiwi.request("PATCH", "/v1/me", {"timezone": "UTC", "name": "x"}), 400, "invalid_body")
    assert kiwi.get("/v1/me")["timezone"] == "UTC"
    changed = kiwi.request("PATCH", "/v1/me", {"timezone": "Pacific/Auckland"})
    assert changed.status_code == 200 and changed.json()["timezone"] == "Pacific/Auckland"
    for seat_zero, seat_one in ((kiwi, londoner), (londoner, kiwi)):
        # The game starts with the second join, between these two moments (a view's times are rounded).
        before = datetime.now(UTC) - timedelta(seconds=1)
        game_id = two_player_coup(seat_zero, seat_one, seconds_per_move=6 * 3600, pause_weekends=True)
        after = datetime.now(UTC) + timedelta(seconds=1)
        view = seat_zero.game(game_id)
        assert view["time_control"]["pause_weekends"] is True and view["awaiting"] == [0]
        zone = ZoneInfo("Pacific/Auckland" if seat_zero is kiwi else "UTC")
        deadline = parse_time(view["deadlines"]["0"])
        earliest, latest = (weekday_minutes_later(moment, 6 * 60, zone) for moment in (before, after))
        assert earliest - timedelta(minutes=1) <= deadline <= latest + timedelta(minutes=1), (zone, deadline)


def stand_in_name(who: Client, game_id: str, base: str) -> str:
    return Client(base).get(f"/v1/games/{game_id}")["players"][2]["name"]
