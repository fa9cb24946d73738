"""Event streams: a ceiling per player and per client address (429 too_many_streams with Retry-After),
and one rendering of a view per version for all the watchers of one seat."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

import service.view_cache as view_cache
from engine.core import Engine
from engine.settings import Limits, Settings
from service.app import create_app
from tests.platform.test_front import toy_game


def app_with(engine: Engine, **ceilings: int) -> FlaskClient:
    client = create_app(engine, limits=Limits(**{**Limits.off().__dict__, **ceilings})).test_client()
    client.environ_base["REMOTE_ADDR"] = "10.2.2.2"
    return client


def open_stream(client: FlaskClient, game_id: str, headers: dict[str, str] | None = None):
    return client.get(f"/v1/games/{game_id}/events/stream?view=true", headers=headers or {}, buffered=False)


def assert_too_many(response) -> None:
    assert response.status_code == 429, response.status_code
    assert response.mimetype == "application/problem+json" and response.get_json()["code"] == "too_many_streams"
    assert int(response.headers["Retry-After"]) >= 1


def test_a_player_holds_at_most_so_many_streams_and_a_closed_one_frees_its_place(engine: Engine) -> None:
    client = app_with(engine, streams_per_player=2, streams_per_address=100)
    game_id, auth = toy_game(client)
    held = [open_stream(client, game_id, auth[0]) for _ in range(2)]
    assert [r.status_code for r in held] == [200, 200]
    assert_too_many(open_stream(client, game_id, auth[0]))
    assert open_stream(client, game_id, auth[1]).status_code == 200  # another player has its own
    held[0].close()  # a stream never read from gives its place back too
    again = open_stream(client, game_id, auth[0])
    assert again.status_code == 200
    for response in (held[1], again):
        response.close()
    assert engine.streams.held(f"player:{engine.player_for_token(auth[0]['Authorization'].split()[1]).id}") == 0


def test_an_address_holds_at_most_so_many_streams_anonymous_or_not(engine: Engine) -> None:
    client = app_with(engine, streams_per_player=100, streams_per_address=3)
    game_id, auth = toy_game(client)
    held = [open_stream(client, game_id) for _ in range(2)] + [open_stream(client, game_id, auth[0])]
    assert [r.status_code for r in held] == [200, 200, 200]
    assert_too_many(open_stream(client, game_id))
    assert_too_many(open_stream(client, game_id, auth[1]))
    client.environ_base["REMOTE_ADDR"] = "10.2.2.3"
    assert open_stream(client, game_id).status_code == 200
    for response in held:
        response.close()


def test_the_ceilings_are_settings_with_safe_defaults() -> None:
    assert (Limits().streams_per_player, Limits().streams_per_address) == (50, 500)
    read = Settings.from_env({"INTRIGUE_STREAMS_PER_PLAYER": "5", "INTRIGUE_STREAMS_PER_ADDRESS": "7"}).limits
    assert (read.streams_per_player, read.streams_per_address) == (5, 7)


@pytest.mark.parametrize("seat", [0, None], ids=["one seat", "spectators"])
def test_many_watchers_of_one_seat_cost_one_rendering_per_version(engine: Engine, monkeypatch: pytest.MonkeyPatch,
                                                                  seat: int | None) -> None:
    client = app_with(engine)
    game_id, auth = toy_game(client)
    rendered: list[tuple[int, object]] = []
    tables: list[int] = []

    def counting_view(record, seat, **kwargs):
        rendered.append((record["version"], seat))
        return real_view(record, seat, **kwargs)

    def counting_table(record, *args):
        tables.append(record["version"])
        return real_table(record, *args)

    real_view, real_table = view_cache.game_view, view_cache.table_view
    monkeypatch.setattr(view_cache, "game_view", counting_view)
    monkeypatch.setattr(view_cache, "table_view", counting_table)
    monkeypatch.setattr(view_cache, "VIEWS", view_cache.ViewCache(fresh_seconds=60))
    import service.event_stream
    monkeypatch.setattr(service.event_stream, "VIEWS", view_cache.VIEWS)
    headers = auth[0] if seat == 0 else None
    watchers = [open_stream(client, game_id, headers) for _ in range(25)]
    frames = [iter(response.response) for response in watchers]
    for stream in frames:
        assert b"event: game" in next(stream)  # the opening view
        assert b"event: game" in next(stream)  # the events so far, then the view again
    first = engine.load(game_id)["version"]
    assert client.post(f"/v1/games/{game_id}/actions", json={"type": "pick", "number": 1},
                       headers=auth[0]).status_code == 200
    for stream in frames:
        assert b"event: game" in next(stream)
    # One rendering per version for all the watchers; the mover's answer (seat 0) shares the
    # rendering of its seat's watchers, so only spectators' watchers add one of their own.
    expected = {(first, seat), (first + 1, seat), (first + 1, 0)}
    assert sorted(rendered, key=repr) == sorted(expected, key=repr), rendered
    assert sorted(tables) == [first, first + 1]  # the seats of a version share its table part
    for response in watchers:
        response.close()
