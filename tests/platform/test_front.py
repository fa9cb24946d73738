"""The front's fast handlers answer the hot requests they take, refusals included, as the routes
would, and hand every other request to Flask unchanged, nothing spent.

Each test counts the requests that reached the Flask app behind the front, so it shows
which of the two answered; the answers are compared with the app's own.
"""

from __future__ import annotations

import io
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from gunicorn.http.body import Body, LengthReader
from gunicorn.http.unreader import Unreader
from werkzeug.test import EnvironBuilder

from engine.core import Engine
from engine.settings import Limits
from service.app import create_app
from service.deadline_body import DeadlineBody
from service.front import FAST_HANDLERS, Front, in_memory
from service.inputs import prefers_minimal

RATE = 5  # a player's requests per second; bursts of twice that


class Counting:
    """Stands between the front and the Flask app: counts what the app was given."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.calls: list[str] = []

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        self.calls.append(f"{environ['REQUEST_METHOD']} {environ['PATH_INFO']}")
        return self.inner(environ, start_response)


@pytest.fixture()
def app(engine: Engine) -> Flask:
    app = create_app(engine, limits=Limits(**{**Limits.off().__dict__, "player_rate": RATE}))
    app.wsgi_app.inner = Counting(app.wsgi_app.inner)  # type: ignore[attr-defined]  # the Front's
    return app


def reached_flask(app: Flask) -> list[str]:
    return app.wsgi_app.inner.calls  # type: ignore[attr-defined]


def toy_game(client: FlaskClient) -> tuple[str, list[dict[str, str]]]:
    """A started two-seat toy game and its seats' headers."""
    tokens = [client.post("/v1/players", json={"name": f"p{i}"}).get_json()["token"] for i in range(2)]
    auth = [{"Authorization": f"Bearer {token}"} for token in tokens]
    game = client.post("/v1/games", json={"game": "toy", "seats": 2}, headers=auth[0]).get_json()
    for headers in auth:
        assert client.post(f"/v1/games/{game['id']}/join", headers=headers).status_code == 200
    return game["id"], auth


def test_a_plain_action_is_answered_by_the_fast_handler_as_the_route_would(app: Flask) -> None:
    client = app.test_client()
    game_id, auth = toy_game(client)
    version = client.get(f"/v1/games/{game_id}", headers=auth[0]).get_json()["version"]
    reached_flask(app).clear()

    fast = client.post(f"/v1/games/{game_id}/actions", json={"type": "pick", "number": 2},
                       headers={**auth[0], "If-Match": str(version), "Idempotency-Key": "k1"})

    assert reached_flask(app) == []
    assert fast.status_code == 200 and fast.headers["Content-Type"] == "application/json"
    body = fast.get_json()
    assert body["version"] == version + 1 and [e["type"] for e in body["events"]] == ["Picked"]
    assert body["game"] == client.get(f"/v1/games/{game_id}", headers=auth[0]).get_json()
    # The retry of the same key is answered as the first was, by the fast handler again.
    retry = client.post(f"/v1/games/{game_id}/actions", json={"type": "pick", "number": 2},
                        headers={**auth[0], "If-Match": str(version), "Idempotency-Key": "k1"})
    assert retry.status_code == 200 and retry.get_json()["version"] == body["version"]
    assert reached_flask(app) == [f"GET /v1/games/{game_id}"]


@pytest.mark.parametrize("prefer", ["return=minimal", "RETURN = \"minimal\"; x=1", "wait=5,return=minimal"])
def test_prefer_return_minimal_is_answered_alike_by_the_fast_handler_and_the_route(app: Flask, prefer: str) -> None:
    client = app.test_client()
    game_id, auth = toy_game(client)
    answers = []
    for seat, content_type in ((0, "application/json"), (1, "application/json; charset=UTF-8")):  # fast handler, route
        reached_flask(app).clear()
        answer = client.post(f"/v1/games/{game_id}/actions", data='{"type": "pick", "number": 2}',
                             headers={**auth[seat], "Content-Type": content_type, "Prefer": prefer})
        assert len(reached_flask(app)) == seat  # the first answered by the fast handler, the second by Flask
        assert answer.status_code == 200 and answer.headers["Preference-Applied"] == "return=minimal"
        answers.append(answer.get_json())
    assert [set(a) for a in answers] == [{"version", "events"}] * 2
    # The second pick follows the first (its commit also revealed both: a system step).
    assert answers[1]["events"][0]["seq"] == answers[0]["version"] + 1
    assert [e["type"] for e in answers[1]["events"]] == ["Picked", "Revealed"]


def test_only_a_return_minimal_preference_is_taken() -> None:
    assert prefers_minimal("return=minimal") and prefers_minimal(' Return="Minimal" ; q=1, respond-async')
    for raw in (None, "", "return", "return=minimalist", "return=representation", "minimal", "returns=minimal"):
        assert not prefers_minimal(raw), raw


def test_the_engines_refusals_are_the_apps_problems_word_for_word(app: Flask) -> None:
    client = app.test_client()
    game_id, auth = toy_game(client)
    plain = {**auth[0], "Content-Type": "application/json"}
    spelled = {**auth[0], "Content-Type": "application/json; charset=UTF-8"}  # the app's path
    for action, headers in (('{"type": "pick", "number": 9}', {}), ('{"type": "pick", "number": 1}', {"If-Match": "0"}),
                            ('{"type": "fly"}', {})):
        reached_flask(app).clear()
        fast = client.post(f"/v1/games/{game_id}/actions", data=action, headers={**plain, **headers})
        assert reached_flask(app) == []
        flask = client.post(f"/v1/games/{game_id}/actions", data=action, headers={**spelled, **headers})
        assert reached_flask(app) == [f"POST /v1/games/{game_id}/actions"]
        assert fast.status_code == flask.status_code and fast.status_code in (409, 422)
        assert fast.headers["Content-Type"] == flask.headers["Content-Type"] == "application/problem+json"
        assert fast.get_json() == flask.get_json()
    assert client.post("/v1/games/nope/actions", json={"type": "pick", "number": 1},
                       headers=auth[0]).get_json()["code"] == "game_not_found"


@pytest.mark.parametrize(("body", "headers", "status"), [
    ('{"type": "pick", "number": 1}', {"Content-Type": "text/plain"}, 415),
    ('{"type": "pick", "number": 1}', {"Content-Type": "application/json; charset=latin-1"}, 415),
    ("", {}, 400),
    ('{"type": "pick", "number": 1}', {"Authorization": "Bearer nobody"}, 401),
    ('{"type": "pick", "number": 1}', {"Authorization": "Basic abc"}, 401),
    ('{"type": "pick", "text": "' + "x" * 70_000 + '"}', {}, 413),
])
def test_what_the_fast_handler_declines_goes_to_the_app(app: Flask, body: str, headers: dict[str, str],
                                                         status: int) -> None:
    client = app.test_client()
    game_id, auth = toy_game(client)
    reached_flask(app).clear()
    response = client.post(f"/v1/games/{game_id}/actions", data=body,
                           headers={**auth[0], "Content-Type": "application/json", **headers})
    assert reached_flask(app) == [f"POST /v1/games/{game_id}/actions"]
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.headers["Content-Type"] == "application/problem+json"


@pytest.mark.parametrize(("body", "headers", "status"), [
    ('{"type": "pick", ', {}, 400),
    ('["pick"]', {}, 400),
    ('{"number": 1}', {}, 400),
    ('{"type": "pick", "number": NaN}', {}, 400),
    ('{"type": "pick", "number": 1}', {"If-Match": "W/\"1\""}, 409),
    ('{"type": "pick", "number": 1}', {"If-Match": "one"}, 400),
    ('{"type": "pick", "number": 1}', {"Idempotency-Key": "k" * 201}, 400),
])
def test_a_taken_requests_refusals_are_the_routes_word_for_word_and_spend_one_token(
        app: Flask, engine: Engine, body: str, headers: dict[str, str], status: int) -> None:
    client = app.test_client()
    game_id, auth = toy_game(client)
    token = auth[0]["Authorization"].split()[1]
    answers = []
    for content_type in ("application/json", "application/json; charset=UTF-8"):  # the fast handler's, the route's
        reached_flask(app).clear()
        before = bucket_tokens(engine, token)
        answers.append(client.post(f"/v1/games/{game_id}/actions", data=body,
                                   headers={**auth[0], "Content-Type": content_type, **headers}))
        assert 0.5 < before - bucket_tokens(engine, token) <= 1  # one token, whoever answered
        assert reached_flask(app) == ([] if content_type == "application/json"
                                      else [f"POST /v1/games/{game_id}/actions"])
    fast, route = answers
    assert fast.status_code == route.status_code == status, fast.get_data(as_text=True)
    assert fast.headers["Content-Type"] == route.headers["Content-Type"] == "application/problem+json"
    assert fast.get_json() == route.get_json()


def test_the_fast_handler_spends_one_rate_token_per_refusal_and_its_429_is_the_apps(app: Flask) -> None:
    client = app.test_client()
    game_id, auth = toy_game(client)
    reached_flask(app).clear()
    answers = [client.post(f"/v1/games/{game_id}/actions", json={"type": "pick", "number": 9}, headers=auth[1])
               for _ in range(4 * RATE)]
    codes = [a.status_code for a in answers]
    limited = codes.index(429)
    # A burst of 2 x RATE tokens, less the join's, some refilled while the requests ran: one
    # token per request (spending two would be refused after about half as many).
    assert 2 * RATE - 1 <= limited <= 3 * RATE and set(codes[:limited]) == {422}
    assert reached_flask(app) == []  # the fast handler answered every one, the 429s too
    # ...as the app answers a caller out of tokens on any other route.
    apps = client.get("/v1/me/games", headers=auth[1])
    fast = answers[limited]
    assert apps.status_code == fast.status_code == 429
    assert fast.headers["Content-Type"] == apps.headers["Content-Type"] == "application/problem+json"
    assert fast.headers["Retry-After"] and apps.headers["Retry-After"]
    assert fast.get_json().keys() == apps.get_json().keys() and fast.get_json()["code"] == "rate_limited"


def players(client: FlaskClient, count: int) -> list[dict[str, str]]:
    tokens = [client.post("/v1/players", json={"name": f"p{i}"}).get_json()["token"] for i in range(count)]
    return [{"Authorization": f"Bearer {token}"} for token in tokens]


def test_a_plain_join_is_answered_by_the_fast_handler_as_the_route_would(app: Flask) -> None:
    client = app.test_client()
    auth = players(client, 2)
    game_id = client.post("/v1/games", json={"game": "toy", "seats": 2}, headers=auth[0]).get_json()["id"]
    reached_flask(app).clear()
    fast = client.post(f"/v1/games/{game_id}/join", headers=auth[0])
    assert reached_flask(app) == []
    assert fast.status_code == 200 and fast.headers["Content-Type"] == "application/json"
    assert fast.get_json() == {"seat": 0, "game": client.get(f"/v1/games/{game_id}", headers=auth[0]).get_json()}
    # A body, or an Idempotency-Key, is the app's: the same answer, the game started by the last seat.
    route = client.post(f"/v1/games/{game_id}/join", json={}, headers=auth[1])
    assert reached_flask(app) == [f"GET /v1/games/{game_id}", f"POST /v1/games/{game_id}/join"]
    assert route.status_code == 200 and route.get_json()["seat"] == 1
    assert route.get_json()["game"]["status"] == "active"
    # Joining again keeps the seat: the fast handler's answer and the route's, byte for byte.
    reached_flask(app).clear()
    again_fast = client.post(f"/v1/games/{game_id}/join", headers=auth[1])
    again_route = client.post(f"/v1/games/{game_id}/join", json={}, headers=auth[1])
    assert again_fast.get_data() == again_route.get_data() and again_fast.status_code == 200
    keyed = client.post(f"/v1/games/{game_id}/join", headers={**auth[1], "Idempotency-Key": "j1"})
    assert keyed.status_code == 200
    assert reached_flask(app) == [f"POST /v1/games/{game_id}/join"] * 2  # the body's and the key's


def test_the_fast_handlers_join_refusals_are_the_apps_word_for_word(app: Flask) -> None:
    client = app.test_client()
    game_id, auth = toy_game(client)  # started: no seat is open
    late = players(client, 1)[0]
    for path in (f"/v1/games/{game_id}/join", "/v1/games/nope/join"):
        reached_flask(app).clear()
        fast = client.post(path, headers=late)
        assert reached_flask(app) == []
        route = client.post(path, json={}, headers=late)
        assert reached_flask(app) == [f"POST {path}"]
        assert fast.status_code == route.status_code and fast.status_code in (404, 409)
        assert fast.headers["Content-Type"] == route.headers["Content-Type"] == "application/problem+json"
        assert fast.get_json() == route.get_json()
    for headers in ({}, {"Authorization": "Bearer nobody"}):  # who is asking: the app says
        reached_flask(app).clear()
        assert client.post(f"/v1/games/{game_id}/join", headers=headers).status_code == 401
        assert reached_flask(app) == [f"POST /v1/games/{game_id}/join"]


def test_a_join_spends_one_token_in_its_append_and_a_caller_without_one_takes_no_seat(
        app: Flask, engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    client = app.test_client()
    auth = players(client, 3)
    game_id = client.post("/v1/games", json={"game": "toy", "seats": 2}, headers=auth[0]).get_json()["id"]
    token = auth[0]["Authorization"].split()[1]
    before = bucket_tokens(engine, token)
    spent_apart: list[Any] = []
    monkeypatch.setattr(engine.limiter, "spend_all", lambda gates: spent_apart.append(gates) or (0.0, ""))
    assert client.post(f"/v1/games/{game_id}/join", headers=auth[0]).status_code == 200
    assert 0.5 < before - bucket_tokens(engine, token) <= 1  # one token, by the append
    assert spent_apart == []
    monkeypatch.undo()
    # Joining again appends nothing: the token is spent apart, once.
    before = bucket_tokens(engine, token)
    assert client.post(f"/v1/games/{game_id}/join", headers=auth[0]).status_code == 200
    assert 0.5 < before - bucket_tokens(engine, token) <= 1
    # A caller out of tokens is answered 429 and the seat stays open.
    while client.get("/v1/me/games", headers=auth[1]).status_code != 429:
        pass
    version = engine.store.version(game_id)
    refused = client.post(f"/v1/games/{game_id}/join", headers=auth[1])
    assert refused.status_code == 429 and refused.get_json()["code"] == "rate_limited"
    assert refused.headers["Retry-After"]
    assert engine.store.version(game_id) == version
    assert client.post(f"/v1/games/{game_id}/join", headers=auth[2]).get_json()["seat"] == 1


@pytest.mark.parametrize("query", ["?view=true", ""])
def test_a_plain_stream_is_opened_by_the_fast_handler_as_the_route_would(app: Flask, engine: Engine,
                                                                        query: str) -> None:
    client = app.test_client()
    game_id, auth = toy_game(client)
    spectator = players(client, 1)[0]
    for headers in (auth[1], spectator):
        heads, openings = [], []
        for by_flask, path in enumerate((f"/v1/games/{game_id}/events/stream{query}",  # the fast's, the route's
                                         f"/v1/games/{game_id}/events/stream{query}{'&' if query else '?'}after=0")):
            reached_flask(app).clear()
            response = client.get(path, headers=headers, buffered=False)
            assert len(reached_flask(app)) == by_flask, path
            frames = iter(response.response)
            openings.append([next(frames), next(frames)])
            heads.append((response.status_code, sorted(response.headers.items())))
            assert engine.watcher.watching() == 1
            response.close()
            assert engine.watcher.watching() == 0
        assert heads[0] == heads[1] and heads[0][0] == 200
        assert openings[0] == openings[1]  # the view (when asked for) and the events so far, alike


def test_the_fast_handlers_stream_refusals_are_the_apps_word_for_word(app: Flask) -> None:
    client = app.test_client()
    game_id, auth = toy_game(client)
    for path in ("/v1/games/nope/events/stream", "/v1/games/nope/events/stream?view=true"):
        reached_flask(app).clear()
        fast = client.get(path, headers=auth[0])
        route = client.get(path + ("&" if "?" in path else "?") + "after=0", headers=auth[0])
        assert len(reached_flask(app)) == 1
        assert fast.status_code == route.status_code == 404 and fast.get_json() == route.get_json()
    unusual = ({"Last-Event-ID": "3"}, {"Authorization": "Bearer nobody"}, {})
    for query, headers in [("?view=1", auth[0]), ("?view=maybe", auth[0]), *(("", {**h}) for h in unusual)]:
        reached_flask(app).clear()
        response = client.get(f"/v1/games/{game_id}/events/stream{query}", headers=headers, buffered=False)
        assert reached_flask(app) == [f"GET /v1/games/{game_id}/events/stream"], (query, headers)
        response.close()


def test_a_stream_spends_one_token_and_its_429_is_the_apps(app: Flask, engine: Engine) -> None:
    client = app.test_client()
    game_id, auth = toy_game(client)
    token = auth[0]["Authorization"].split()[1]
    before = bucket_tokens(engine, token)
    response = client.get(f"/v1/games/{game_id}/events/stream?view=true", headers=auth[0], buffered=False)
    assert response.status_code == 200 and 0.5 < before - bucket_tokens(engine, token) <= 1
    response.close()
    while client.get("/v1/me/games", headers=auth[0]).status_code != 429:
        pass
    reached_flask(app).clear()
    refused = client.get(f"/v1/games/{game_id}/events/stream?view=true", headers=auth[0])
    assert reached_flask(app) == [] and refused.status_code == 429 and refused.get_json()["code"] == "rate_limited"
    assert refused.headers["Retry-After"] and engine.watcher.watching() == 0


def script_calls(engine: Engine) -> int:
    """Script calls the Redis served so far (each is one round trip of its own here)."""
    return int(engine.redis.info("commandstats").get("cmdstat_evalsha", {}).get("calls", 0))


def test_the_fast_handler_opens_a_stream_in_one_script_call_where_the_route_makes_three(engine: Engine) -> None:
    """The tokens and the lease are one script, and the first page brings the record: no
    read of the record and no script of the lease's own (the route: tokens, record, lease).
    Both then read the first page (events and messages) in one script call more, and the
    caller's buckets for the answer's RateLimit headers in one more."""
    app = create_app(engine, limits=Limits(**{**Limits.off().__dict__, "player_rate": RATE, "streams_per_player": 5}))
    client = app.test_client()
    game_id, auth = toy_game(client)
    calls = []
    for query in ("?view=true", "?view=true&after=0") * 2:  # the fast's, the route's; the first time loads scripts
        before = script_calls(engine)
        response = client.get(f"/v1/games/{game_id}/events/stream{query}", headers=auth[0], buffered=False)
        frames = iter(response.response)
        next(frames), next(frames)
        calls.append(script_calls(engine) - before)
        response.close()
    assert calls[2:] == [2 + 1, 4 + 1]  # each answer also reads its buckets for its RateLimit headers


def test_a_stream_past_the_ceiling_is_refused_by_the_fast_handler_as_by_the_route(engine: Engine) -> None:
    """At the player's ceiling of open streams: the same 429, its token spent all the same; a
    game that does not exist is still a 404 first; the fast's refusal holds no lease."""
    app = create_app(engine, limits=Limits(**{**Limits.off().__dict__, "player_rate": RATE, "streams_per_player": 1}))
    client = app.test_client()
    game_id, auth = toy_game(client)
    token = auth[0]["Authorization"].split()[1]
    held = client.get(f"/v1/games/{game_id}/events/stream", headers=auth[0], buffered=False)
    assert held.status_code == 200
    answers = []
    for query in ("", "?after=0"):  # the fast's, the route's
        before = bucket_tokens(engine, token)
        refused = client.get(f"/v1/games/{game_id}/events/stream{query}", headers=auth[0])
        assert 0.5 < before - bucket_tokens(engine, token) <= 1
        answers.append((refused.status_code, refused.get_json()))
        missing = client.get(f"/v1/games/nope/events/stream{query}", headers=auth[0])
        answers.append((missing.status_code, missing.get_json()))
    assert answers[0] == answers[2] and answers[0][0] == 429 and answers[0][1]["code"] == "too_many_streams"
    assert answers[1] == answers[3] and answers[1][0] == 404
    assert engine.streams.held(f"player:{engine.player_for_token(token).id}") == 1 and engine.watcher.watching() == 1
    held.close()
    assert engine.streams.held(f"player:{engine.player_for_token(token).id}") == 0 and engine.watcher.watching() == 0


def test_a_fast_stream_closed_before_its_first_frame_lets_its_watch_and_lease_go(engine: Engine) -> None:
    """Opened through the fast, a stream holds its watch before its answer starts: a client
    gone before the first frame (the server closes the stream unstarted) leaves neither."""
    app = create_app(engine, limits=Limits(**{**Limits.off().__dict__, "player_rate": RATE, "streams_per_player": 5}))
    client = app.test_client()
    game_id, auth = toy_game(client)
    player_id = engine.player_for_token(auth[1]["Authorization"].split()[1]).id
    response = client.get(f"/v1/games/{game_id}/events/stream?view=true", headers=auth[1], buffered=False)
    assert response.status_code == 200
    assert engine.watcher.watching() == 1 and engine.streams.held(f"player:{player_id}") == 1
    response.close()
    assert engine.watcher.watching() == 0 and engine.streams.held(f"player:{player_id}") == 0


def test_a_plain_creation_is_answered_by_the_fast_handler_as_the_route_would(app: Flask) -> None:
    client = app.test_client()
    auth = players(client, 1)[0]
    body = '{"game": "toy", "seats": 2, "options": {}}'
    reached_flask(app).clear()
    fast = client.post("/v1/games", data=body, headers={**auth, "Content-Type": "application/json"})
    assert reached_flask(app) == []
    route = client.post("/v1/games", data=body, headers={**auth, "Content-Type": "application/json; charset=UTF-8"})
    assert reached_flask(app) == ["POST /v1/games"]
    assert fast.status_code == route.status_code == 201
    assert fast.headers["Content-Type"] == route.headers["Content-Type"] == "application/json"
    made = [fast.get_json(), route.get_json()]
    assert made[0]["id"] != made[1]["id"] and made[0]["status"] == "open"
    for view in made:  # the same view but for the game's own id and times
        for key in ("id", "created_at", "updated_at", "deadlines", "seed_hash"):
            view.pop(key, None)
    assert made[0] == made[1]


@pytest.mark.parametrize(("body", "status"), [
    ('{"game": "toy", "seats": 9}', 422),  # the engine's refusal
    ('{"game": "chess", "seats": 2}', 422),
    ('{"game": "toy", "seats": 2, "colour": "red"}', 400),  # the schema's
    ('{"seats": 2}', 400),
])
def test_a_creation_the_schema_or_the_engine_refuses_is_answered_as_the_route_would(
        app: Flask, engine: Engine, body: str, status: int) -> None:
    client = app.test_client()
    auth = players(client, 1)[0]
    token = auth["Authorization"].split()[1]
    assert client.get("/v1/me/games", headers=auth).status_code == 200  # the player's bucket, begun
    answers = []
    for content_type in ("application/json", "application/json; charset=UTF-8"):  # the fast's, the route's
        before = bucket_tokens(engine, token)
        answers.append(client.post("/v1/games", data=body, headers={**auth, "Content-Type": content_type}))
        assert 0.5 < before - bucket_tokens(engine, token) <= 1  # one token, whoever answered
    assert answers[0].status_code == answers[1].status_code == status
    assert answers[0].get_json() == answers[1].get_json()


def bucket_tokens(engine: Engine, token: str) -> float:
    player = engine.player_for_token(token)
    assert player is not None
    return float(engine.redis.hget(engine.limiter.key(Limits().player(), player.id), "tokens"))


def test_an_action_spends_one_token_and_a_caller_without_one_appends_nothing(
        app: Flask, engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    client = app.test_client()
    game_id, auth = toy_game(client)
    token = auth[0]["Authorization"].split()[1]
    before = bucket_tokens(engine, token)
    # The body is in memory: the append spends the token, in its own round trip, none apart.
    spent_apart: list[Any] = []
    monkeypatch.setattr(engine.limiter, "spend_all", lambda gates: spent_apart.append(gates) or (0.0, ""))
    picked = client.post(f"/v1/games/{game_id}/actions", json={"type": "pick", "number": 1},
                         headers={**auth[0], "Idempotency-Key": "first"})
    assert picked.status_code == 200
    spent = before - bucket_tokens(engine, token)
    assert 0.5 < spent <= 1  # one token (less what refilled meanwhile), not two
    assert spent_apart == []
    monkeypatch.undo()
    # A replayed answer appends nothing: its token is spent apart, once.
    before = bucket_tokens(engine, token)
    again = client.post(f"/v1/games/{game_id}/actions", json={"type": "pick", "number": 1},
                        headers={**auth[0], "Idempotency-Key": "first"})
    assert again.status_code == 200 and again.get_json()["version"] == picked.get_json()["version"]
    assert 0.5 < before - bucket_tokens(engine, token) <= 1
    # Seat 1 runs out of tokens on refusals; its legal pick is then refused and appends nothing.
    version = engine.store.version(game_id)
    while client.post(f"/v1/games/{game_id}/actions", json={"type": "pick", "number": 9},
                      headers=auth[1]).status_code != 429:
        pass
    refused = client.post(f"/v1/games/{game_id}/actions", json={"type": "pick", "number": 1}, headers=auth[1])
    assert refused.status_code == 429 and refused.get_json()["code"] == "rate_limited"
    assert refused.headers["Retry-After"]
    assert engine.store.version(game_id) == version


def test_what_a_commit_owes_the_workers_waits_for_the_answer(worker_engine: Engine) -> None:
    engine = worker_engine  # the system step is left to a worker, whose drain job is owed
    app = create_app(engine, limits=Limits.off())
    client = app.test_client()
    game_id, auth = toy_game(client)
    asked: list[str] = []
    engine.scheduler.enqueue_drain = lambda: asked.append("drain")  # type: ignore[union-attr,method-assign]
    both_picked = None
    for seat in (0, 1):  # once both seats picked, nobody is awaited: a system step is due
        builder = EnvironBuilder(path=f"/v1/games/{game_id}/actions", method="POST",
                                 json={"type": "pick", "number": 1}, headers=auth[seat])
        statuses: list[str] = []
        answer = app.wsgi_app(builder.get_environ(), lambda status, headers, *_, seen=statuses: seen.append(status))
        body = b"".join(answer)
        assert statuses == ["200 OK"], body
        both_picked = asked.copy()
        answer.close()
    assert both_picked == [] and asked == ["drain"]


def gunicorn_body(arrived: bytes, length: int) -> DeadlineBody:
    """A request body as gunicorn holds it once the headers are parsed: ``arrived`` is what came
    with them; reading further would wait on the client (here: fail)."""

    class Socketless(Unreader):
        def chunk(self, size_hint: int | None = None) -> bytes:
            raise AssertionError("the test's client sends nothing more")

    unreader = Socketless()
    unreader.unread(arrived)
    return DeadlineBody(Body(LengthReader(unreader, length)), request=None, seconds=1.0)


def test_a_body_is_in_memory_when_all_of_it_came_with_the_headers() -> None:
    body = b'{"type": "income"}'
    assert in_memory(gunicorn_body(body, len(body)), len(body))
    # What follows the body (a pipelined request) does not count; a body cut short does not pass.
    assert in_memory(gunicorn_body(body + b"GET / HTTP/1.1\r\n", len(body)), len(body))
    assert not in_memory(gunicorn_body(body[:5], len(body)), len(body))
    assert not in_memory(gunicorn_body(b"", len(body)), len(body))
    assert in_memory(io.BytesIO(body), len(body)) and not in_memory(object(), len(body))
    whole = gunicorn_body(body, len(body))
    assert whole.read(len(body)) == body


def test_the_front_routes_by_the_apps_own_url_map(app: Flask) -> None:
    front = app.wsgi_app
    assert isinstance(front, Front)
    assert front.route({"PATH_INFO": "/v1/games/g1/actions", "REQUEST_METHOD": "POST"}) == (
        "games.act", {"game_id": "g1"})
    assert front.route({"PATH_INFO": "/v1/games/g1/events/stream", "REQUEST_METHOD": "GET"}) == (
        "games.event_stream", {"game_id": "g1"})
    assert front.route({"PATH_INFO": "/v1/games/g1", "REQUEST_METHOD": "GET"}) == ("games.show", {"game_id": "g1"})
    # A 405, a 404, a redirect and a path that is not ASCII are the app's to answer.
    for path, method in (("/v1/games/g1/actions", "GET"), ("/v1/nowhere", "GET"), ("/v1//games", "GET"),
                         ("/v1/games/caf\u00e9/actions", "POST")):
        assert front.route({"PATH_INFO": path, "REQUEST_METHOD": method}) is None
    # Every fast handler serves an endpoint of the app, under the app's name for it.
    assert set(FAST_HANDLERS) <= set(app.view_functions)
    with pytest.raises(ValueError, match="games.nope"):
        Front(app, front.inner, {"games.nope": FAST_HANDLERS["games.act"]})


def test_only_the_method_a_fast_handler_serves_takes_it(app: Flask) -> None:
    """A rule also answers OPTIONS (and a GET rule HEAD): those are the app's."""
    client = app.test_client()
    game_id, auth = toy_game(client)
    reached_flask(app).clear()
    for path in (f"/v1/games/{game_id}/actions", f"/v1/games/{game_id}/join", "/v1/games"):
        response = client.options(path, json={"type": "pick", "number": 1}, headers=auth[0])
        assert response.status_code == 200 and "POST" in response.headers["Allow"]
    assert client.head(f"/v1/games/{game_id}/events/stream", headers=auth[0]).status_code == 200
    assert reached_flask(app) == ["OPTIONS " + path for path in (f"/v1/games/{game_id}/actions",
                                                                 f"/v1/games/{game_id}/join", "/v1/games")] + [
        f"HEAD /v1/games/{game_id}/events/stream"]


def test_the_fronts_remembered_matches_are_the_maps_and_bounded(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    front = app.wsgi_app
    assert isinstance(front, Front)
    monkeypatch.setattr("service.front.REMEMBERED_ROUTES", 3)
    front.matched.clear()
    asked = [(f"/v1/games/g{n}/actions", "POST") for n in range(5)] + [("/v1/nowhere", "GET")]
    for path, method in asked * 2:
        environ = {"PATH_INFO": path, "REQUEST_METHOD": method}
        assert front.route(environ) == front._match(method, path)
        assert len(front.matched) <= 3
