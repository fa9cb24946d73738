"""A feed held open follows its caller's seat: a seat left in an open game shows nothing of
whoever takes it.

A player may leave a game that has not started, and another may take the seat before the
cards are dealt. A stream (or a long-poll) that kept the seat it was opened with would then
show the new occupant's hand to the player who left. Each page and each push is redacted
for the seat the caller holds in the record it is redacted with.
"""

from __future__ import annotations

import json
from typing import Any

from flask.testing import FlaskClient

from engine.core import Engine
from service.event_stream import EventStream
from tests.platform.test_stream_ceilings import app_with
from tests.platform.test_stream_push import chunked_pair, read_all, read_exactly


def frames_of(raw: bytes) -> list[tuple[str, dict[str, Any]]]:
    """The (event, data) of each server-sent frame that carries JSON."""
    found = []
    for block in raw.decode().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.split("\n") if ": " in line and not line.startswith(":"))
        if "data" in lines:
            found.append((lines.get("event", ""), json.loads(lines["data"])))
    return found


def seated_then_left(client: FlaskClient) -> tuple[str, list[dict[str, str]]]:
    """A 3-seat Coup game: seat 0 and the leaver (seat 1) joined; the headers of four players."""
    auth = [{"Authorization": f"Bearer {client.post('/v1/players', json={'name': f'p{i}'}).get_json()['token']}"}
            for i in range(4)]
    game_id = client.post("/v1/games", json={"game": "coup", "seats": 3}, headers=auth[0]).get_json()["id"]
    for headers in auth[:2]:
        assert client.post(f"/v1/games/{game_id}/join", headers=headers).status_code == 200
    return game_id, auth


def take_the_seat_and_start(client: FlaskClient, game_id: str, auth: list[dict[str, str]]) -> None:
    """The leaver (auth[1]) leaves; auth[2] takes seat 1 and auth[3] seat 2: the cards are dealt."""
    assert client.post(f"/v1/games/{game_id}/leave", headers=auth[1]).status_code == 200
    assert client.post(f"/v1/games/{game_id}/join", headers=auth[2]).get_json()["seat"] == 1
    assert client.post(f"/v1/games/{game_id}/join", headers=auth[3]).get_json()["seat"] == 2


def test_a_stream_held_open_across_leaving_shows_the_new_occupants_cards_to_nobody(engine: Engine) -> None:
    client = app_with(engine)
    game_id, auth = seated_then_left(client)
    streams = []
    for query in ("?view=true", "?view=true&after=0"):  # the fast handler's, the route's
        response = client.get(f"/v1/games/{game_id}/events/stream{query}", headers=auth[1], buffered=False)
        frames = iter(response.response)
        opening = next(frames) + next(frames)
        assert frames_of(opening)[-1][1]["seat"] == 1  # opened while seated
        streams.append((response, frames))
    take_the_seat_and_start(client, game_id, auth)
    hand = client.get(f"/v1/games/{game_id}", headers=auth[2]).get_json()["view"]["seats"][1]["hand"]
    spectator = client.get(f"/v1/games/{game_id}").get_json()
    for response, frames in streams:
        later = frames_of(next(frames))
        view = [data for event, data in later if event == "game"][-1]
        assert view["version"] == spectator["version"]
        assert view == spectator  # as any spectator sees it: seat 1's hand is not in it
        assert all("hand" not in seat for seat in view["view"]["seats"]) and hand
        assert json.dumps(hand) not in json.dumps(later)
        response.close()


def test_a_push_to_a_stream_whose_player_left_is_redacted_for_a_spectator(engine: Engine) -> None:
    client = app_with(engine)
    game_id, auth = seated_then_left(client)
    leaver = engine.player_for_token(auth[1]["Authorization"].split()[1])
    assert leaver is not None
    response, reader = chunked_pair()
    stream = EventStream(engine, game_id, engine.load(game_id), 1, 0, None, True, None, player_id=leaver.id)
    stream.write = response.start_response("200 OK", [("Content-Type", "text/event-stream")])
    frames = iter(stream)
    stream.write(next(frames))
    stream.write(next(frames))
    stream._parked = True  # parked on its watch: the commits below are pushed to it
    read_all(reader)
    leave = engine.leave(leaver, game_id)
    pushed = read_exactly(reader, 1)
    pushed += read_all(reader)
    stream._parked = True  # the push woke nobody: still parked
    engine.join(engine.player_for_token(auth[2]["Authorization"].split()[1]), game_id)
    engine.join(engine.player_for_token(auth[3]["Authorization"].split()[1]), game_id)
    started = engine.load(game_id)
    pushed += read_exactly(reader, 1) + read_all(reader)
    views = [data for event, data in frames_of(b"\n".join(line for line in pushed.split(b"\r\n")
                                                            if not line.isalnum())) if event == "game"]
    assert views and views[0]["version"] == leave["version"] and views[-1]["version"] == started["version"]
    assert all(view["seat"] is None for view in views)
    dealt = views[-1]["view"]  # an open game has no cards to show; the last view is the dealt game's
    assert dealt["seats"] and all("hand" not in seat for seat in dealt["seats"])
    stream.close()


def test_a_long_poll_whose_player_leaves_while_it_waits_is_answered_as_a_spectator(engine: Engine,
                                                                                    monkeypatch) -> None:
    """The seat is taken from the page's record, not from the record read before the wait."""
    client = app_with(engine)
    game_id, auth = seated_then_left(client)
    version = client.get(f"/v1/games/{game_id}", headers=auth[1]).get_json()["version"]
    real_read = engine.read_page
    moved: list[bool] = []

    def read_after_the_seat_changed_hands(*args: Any, **kwargs: Any) -> Any:
        if not moved:  # what happens while the long-poll waits
            moved.append(True)
            take_the_seat_and_start(client, game_id, auth)
        return real_read(*args, **kwargs)

    monkeypatch.setattr(engine, "read_page", read_after_the_seat_changed_hands)
    answer = client.get(f"/v1/games/{game_id}/events?after={version}&wait=5&view=true", headers=auth[1]).get_json()
    assert moved and answer["events"]
    assert answer["game"]["seat"] is None
    assert all("hand" not in seat for seat in answer["game"]["view"]["seats"])
    monkeypatch.undo()
    spectator = client.get(f"/v1/games/{game_id}/events?after={version}").get_json()
    assert answer["events"] == spectator["events"]
