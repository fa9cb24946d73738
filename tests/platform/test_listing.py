"""The lobby and a player's games page by cursor: filters first, newest first, flat in cost."""

from __future__ import annotations

import json

import redis
from flask.testing import FlaskClient

from engine.core import Engine
from engine.settings import Limits
from games.coup.components import FULL_DECK
from projections.listing import index_page
from service.app import create_app

TIME_CONTROL = {"seconds_per_move": 60}


def api(engine: Engine) -> FlaskClient:
    return create_app(engine, limits=Limits.off()).test_client()


def auth(engine: Engine, name: str):
    player, token = engine.create_player(name)
    return player, {"Authorization": f"Bearer {token}"}


def all_pages(client: FlaskClient, path: str, headers=None, **params) -> list[list[str]]:
    pages, cursor = [], None
    while True:
        query = {**params, **({"cursor": cursor} if cursor else {})}
        body = client.get(path, query_string=query, headers=headers or {}).get_json()
        pages.append([g["id"] for g in body["games"]])
        cursor = body["next_cursor"]
        if cursor is None:
            return pages


def test_the_lobby_filter_applies_before_the_page(engine: Engine) -> None:
    """Many open Coup games first must not hide the one open toy game behind the page size."""
    host, _ = auth(engine, "host")
    coups = [engine.create_game(host, "coup", 3, {}, TIME_CONTROL)["id"] for _ in range(5)]
    toys = [engine.create_game(host, "toy", 2, {}, TIME_CONTROL)["id"] for _ in range(3)]
    toys.sort(key=lambda g: (engine.load(g)["created_at"], g))  # oldest first; a tie goes by id
    client = api(engine)
    assert all_pages(client, "/v1/games", game="toy", limit=2) == [toys[:2], toys[2:]]
    everything = all_pages(client, "/v1/games", limit=3)
    assert [len(page) for page in everything] == [3, 3, 2]
    assert sorted(g for page in everything for g in page) == sorted(coups + toys)  # each game once
    unknown = client.get("/v1/games", query_string={"game": "chess"})
    assert unknown.status_code == 400 and unknown.get_json()["code"] == "bad_query"


def test_paging_skips_and_repeats_nothing_when_many_games_share_a_score(engine: Engine) -> None:
    key = "intrigue:test-index"
    engine.redis.zadd(key, {f"g{i:02d}": 5.0 for i in range(7)} | {"a": 1.0, "z": 9.0})
    for newest_first in (False, True):
        seen, cursor = [], None
        while True:
            page, cursor = index_page(engine.redis, key, 2, cursor, newest_first)
            seen += [member for member, _ in page]
            if cursor is None:
                break
        expected = ["a", *(f"g{i:02d}" for i in range(7)), "z"]
        assert seen == (expected[::-1] if newest_first else expected)


def test_my_games_are_newest_first_in_pages_and_each_page_is_one_pipeline(engine: Engine) -> None:
    player, headers = auth(engine, "busy")
    created = [engine.create_game(player, "toy", 2, {}, TIME_CONTROL)["id"] for _ in range(7)]
    for game_id in created:
        engine.join(player, game_id)
    client = api(engine)
    pages = all_pages(client, "/v1/me/games", headers, limit=3)
    # Newest first; games created in the same millisecond come in a fixed (id) order.
    newest = sorted(created, key=lambda g: (engine.load(g)["created_at"], g), reverse=True)
    assert pages == [newest[:3], newest[3:6], newest[6:]]
    # The cost of a page does not grow with the games: one range read, one pipeline of cards,
    # no stream or snapshot read.
    before = engine.redis.info("commandstats")
    body = client.get("/v1/me/games", query_string={"limit": 3}, headers=headers).get_json()
    after = engine.redis.info("commandstats")
    calls = {name: after[name]["calls"] - before.get(name, {"calls": 0})["calls"] for name in after}
    assert calls.get("cmdstat_xrange", 0) == 0 and calls.get("cmdstat_hget", 0) == 3
    assert calls["cmdstat_zrevrangebyscore"] == 1
    assert body["games"][0]["seat"] == 0 and body["games"][0]["status"] == "open"


def test_the_inbox_pages_soonest_deadline_first(engine: Engine) -> None:
    me, headers = auth(engine, "me")
    other, _ = auth(engine, "other")
    games = []
    for seconds in (300, 100, 200):
        game_id = engine.create_game(me, "toy", 2, {}, {"seconds_per_move": seconds})["id"]
        engine.join(me, game_id)
        engine.join(other, game_id)
        games.append(game_id)
    engine.act(me, games[2], {"type": "pick", "number": 1})  # no longer awaits me
    client = api(engine)
    pages = all_pages(client, "/v1/me/games", headers, awaiting="me", limit=1)
    assert pages == [[games[1]], [games[0]]]
    body = client.get("/v1/me/games", query_string={"awaiting": "me"}, headers=headers).get_json()
    assert [g["awaiting_me"] for g in body["games"]] == [True, True] and body["games"][0]["deadline"]


def test_a_cursor_the_server_did_not_write_is_400(engine: Engine) -> None:
    _, headers = auth(engine, "me")
    response = api(engine).get("/v1/me/games", query_string={"cursor": "%%%"}, headers=headers)
    assert response.status_code == 400 and response.get_json()["code"] == "bad_cursor"


def test_games_indexed_before_cards_existed_still_list(engine: Engine) -> None:
    player, headers = auth(engine, "old")
    game_id = engine.create_game(player, "toy", 2, {}, TIME_CONTROL)["id"]
    engine.join(player, game_id)
    engine.redis.hdel(engine.keys.meta(game_id), "card")
    engine.projector.forget(game_id)
    client = create_app(Engine(redis.Redis(connection_pool=engine.redis.connection_pool)),
                        limits=Limits.off()).test_client()
    assert [g["id"] for g in client.get("/v1/me/games", headers=headers).get_json()["games"]] == [game_id]


def test_a_card_written_before_cards_said_scenario_is_rebuilt_from_the_game(engine: Engine) -> None:
    """A scenario created before the field existed is still marked in the lobby, not silently unmarked."""
    player, _ = auth(engine, "scripted")
    game_id = engine.create_game(player, "coup", 3, {"deck": list(FULL_DECK)}, TIME_CONTROL)["id"]
    meta = engine.keys.meta(game_id)
    old = json.loads(engine.redis.hget(meta, "card"))
    del old["scenario"]
    engine.redis.hset(meta, "card", json.dumps(old))
    lobby = api(engine).get("/v1/games", query_string={"game": "coup"}).get_json()["games"]
    assert [g["scenario"] for g in lobby if g["id"] == game_id] == [True]
