"""A stream of the process that committed a move gets its frames from the committer (a push):
the same frames, in the same order, as a stream that reads them from the store."""

from __future__ import annotations

import json
import os
import queue
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from service.embedded import EmbeddedRedis
from tests.integration.conftest import serving
from tests.support.client import Client

FRAME_WAIT_SECONDS = 10


@pytest.fixture()
def debug_server(redis_server: EmbeddedRedis, tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """`intrigue serve` with one API process, logging at DEBUG (a push says so)."""
    env = {**os.environ, "REDIS_URL": redis_server.url, "INTRIGUE_LOG_LEVEL": "DEBUG", "INTRIGUE_RATE_LIMIT": "0",
           "INTRIGUE_ADDRESS_RATE_LIMIT": "0"}
    log = tmp_path / "serve.log"
    with serving(env, log, "--processes", "1") as base:
        yield base, log


class StreamReader:
    """An SSE stream read on a thread of its own; its frames (id, event, data) come out of a queue."""

    def __init__(self, base: str, client: Client, game_id: str, after: int | None = None) -> None:
        params = {"view": "true"} if after is None else {"view": "true", "after": str(after)}
        self.response = client.http.get(f"{base}/v1/games/{game_id}/events/stream", headers=client.headers(),
                                        params=params, stream=True, timeout=(5, 60))
        assert self.response.status_code == 200
        self.frames: queue.Queue[tuple[str | None, str, str]] = queue.Queue()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        fields: dict[str, str] = {}
        try:
            for line in self.response.iter_lines(decode_unicode=True):
                if line == "":
                    if "data" in fields:
                        self.frames.put((fields.get("id"), fields.get("event", "message"), fields["data"]))
                    fields = {}
                elif not line.startswith(":"):
                    name, _, value = line.partition(": ")
                    fields[name] = value
        except (requests.exceptions.ConnectionError, requests.exceptions.ChunkedEncodingError, AttributeError):
            pass  # closed by the test

    def until_view(self, version: int) -> list[tuple[str | None, str, str]]:
        """Every frame up to the view of ``version`` (the view included)."""
        seen = []
        while True:
            frame = self.frames.get(timeout=FRAME_WAIT_SECONDS)
            seen.append(frame)
            if frame[1] == "game" and position(frame) >= version:
                return seen

    def close(self) -> None:
        # Shut the socket first: closing the response alone waits for the reading thread, which
        # sits in a read until the server's next keep-alive comment (15 s).
        connection = getattr(self.response.raw, "_connection", None)
        sock = getattr(connection, "sock", None)
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        self.response.close()


def position(frame: tuple[str | None, str, str]) -> int:
    return int((frame[0] or "0").split("/")[0])


def test_the_committers_streams_get_the_frames_a_reading_stream_gets(debug_server: tuple[str, Path]) -> None:
    base, log = debug_server
    players = [Client.register(base, f"push{i}") for i in range(3)]
    game_id = players[0].create_game("coup", 3)
    for player in players:
        player.join(game_id)
    streams = [StreamReader(base, player, game_id) for player in players]
    live: list[list[tuple[str | None, str, str]]] = [[] for _ in players]
    try:
        version = players[0].game(game_id)["version"]
        for index, stream in enumerate(streams):
            live[index] += stream.until_view(version)
        for turn in range(12):
            view = players[0].game(game_id)
            if view["status"] != "active" or not view["awaiting"]:
                break
            seat = view["awaiting"][0]
            mine = players[seat].game(game_id)
            action = next(a for a in mine["legal_actions"] if a["type"] in ("income", "pass", "coup"))
            done = players[seat].act(game_id, action, if_match=mine["version"])
            if turn == 3:  # a message between moves: the next move's push waits its turn behind it
                players[seat].post(f"/v1/games/{game_id}/messages", {"text": f"turn {turn}"}, expect=201)
            for index, stream in enumerate(streams):
                live[index] += stream.until_view(done["version"])
        final = players[0].game(game_id)["version"]
    finally:
        for stream in streams:
            stream.close()
    # What each seat's live stream sent equals what a stream opened afterwards reads from the
    # store: the same events, messages and views' versions, in the same order, none twice.
    for index, player in enumerate(players):
        replay = StreamReader(base, player, game_id, after=0)
        try:
            read = replay.until_view(final)
        finally:
            replay.close()
        # (A frame's id also carries the chat cursor as of its page: pages differ, so only its
        # position is compared.)
        live_items = [(position(frame), *frame[1:]) for frame in live[index] if frame[1] != "game"]
        read_items = [(position(frame), *frame[1:]) for frame in read if frame[1] != "game"]
        assert live_items == read_items
        versions = [position(frame) for frame in live[index] if frame[1] == "game" and frame[0]]
        assert versions == sorted(set(versions)) and versions[-1] == final
        assert any('"type":"ChatMessage"' in data or "turn 3" in data for _, _, data in live_items)
    pushed = [line for line in log.read_text().splitlines() if f"pushed game {game_id}" in line]
    assert len(pushed) >= 3 * 8, "the committer pushed (nearly) every move to the three streams"


def test_a_stream_held_open_across_leaving_a_seat_shows_its_next_occupants_hand_to_nobody(
        debug_server: tuple[str, Path]) -> None:
    """Over the real server: the leaver's streams (the fast handler's, and the route's) follow
    the seat they no longer hold, and the game dealt after they left looks to them as it looks
    to a spectator (docs/ARCHITECTURE.md, "Secrets")."""
    base, _ = debug_server
    players = [Client.register(base, f"leaver{i}") for i in range(4)]
    game_id = players[0].create_game("coup", 3)
    players[0].join(game_id)
    assert players[1].join(game_id) == 1
    streams = [StreamReader(base, players[1], game_id), StreamReader(base, players[1], game_id, after=0)]
    try:
        opened = players[1].game(game_id)["version"]
        for stream in streams:
            assert '"seat":1' in stream.until_view(opened)[-1][2]  # opened while seated
        players[1].post(f"/v1/games/{game_id}/leave")
        assert players[2].join(game_id) == 1 and players[3].join(game_id) == 2
        dealt = players[2].game(game_id)
        hand = dealt["view"]["seats"][1]["hand"]
        spectator = Client(base).game(game_id)
        for stream in streams:
            seen = stream.until_view(dealt["version"])
            assert json.loads(seen[-1][2]) == spectator
            assert json.dumps(hand) not in "".join(data for _, _, data in seen)
    finally:
        for stream in streams:
            stream.close()


def test_a_stream_on_a_connection_gunicorn_took_over_is_pushed_to(debug_server: tuple[str, Path]) -> None:
    """A request the short path leaves to gunicorn (here a field name with an underscore) hands
    gunicorn the connection for good, reading through a stand-in socket. An event stream opened
    later on that connection still gets the committer's pushes (it used to be woken to read them,
    every move, for the connection's life). A push needs the stream parked when the move commits,
    which a loaded machine may delay past a move: of six moves, one pushed is enough."""
    base, log = debug_server
    players = [Client.register(base, f"handed{i}") for i in range(3)]
    game_id = players[0].create_game("coup", 3)
    for player in players:
        player.join(game_id)
    host, port = base.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=FRAME_WAIT_SECONDS)
    try:
        auth = f"Authorization: Bearer {players[1].token}\r\nHost: {host}\r\n"
        sock.sendall(f"GET /v1/games/{game_id} HTTP/1.1\r\n{auth}X_Not_Plain: 1\r\n\r\n".encode())
        answer = b""
        while b"\r\n\r\n" not in answer:
            answer += sock.recv(65536)
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 200") and b"connection: keep-alive" in head.lower()
        length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n")
                      if line.lower().startswith(b"content-length:"))
        while len(body) < length:
            body += sock.recv(65536)
        assert len(body) == length  # nothing beyond the answer: the connection is ready for the next request

        sock.sendall(f"GET /v1/games/{game_id}/events/stream?view=true HTTP/1.1\r\n{auth}\r\n".encode())
        seen = b""
        while b"event: game" not in seen:
            seen += sock.recv(65536)
        versions = []
        for _ in range(6):
            view = players[0].game(game_id)
            seat = view["awaiting"][0]
            mine = players[seat].game(game_id)
            action = next(a for a in mine["legal_actions"] if a["type"] == "income")
            done = players[seat].act(game_id, action, if_match=mine["version"])
            versions.append(done["version"])
            while f"id: {done['version']}\nevent: game".encode() not in seen:
                seen += sock.recv(65536)
    finally:
        sock.close()
    said = log.read_text()
    pushed = [version for version in versions
              if f"pushed game {game_id} up to version {version} to a stream of seat 1" in said]
    assert pushed, "the stream was woken to read every move instead of being pushed one"
