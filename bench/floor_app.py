"""The stack's floor: a null game served the way Intrigue is served, for ``side_by_side.py --floor``.

How cheap can a move be on this server stack at all? This app speaks the part of Intrigue's
API that ``bench/intrigue_load.mjs`` uses (players, games, joins, a seat's event stream of
views, actions with ``If-Match``), on the same stack: gunicorn with Intrigue's gevent worker
and settings, Flask for the set-up requests, a bare WSGI path for the moves, redis-py with
hiredis, Redis with its append-only file, and Redis pub/sub carrying each commit to the
streams. What it leaves out is the game: a table of three seats takes ``MOVES_PER_GAME``
moves in turn, each a choice between two actions, then ends.

Each move still does what Intrigue's aims demand of every move: one Lua script appends the
event to the game's Redis stream after checking the version and spending the player's
rate-limit allowance, and publishes it; the POST is answered with the mover's view only
after that, and the committer hands each seat's new view to its stream (as Intrigue's
does; the listener reads every announcement, as Intrigue's does). There are no workers, no
records folded from events, no hidden cards, no snapshots, no webhooks, no deadlines.

So its CPU per move is a floor under Intrigue's on this stack: what the server, the Redis
client and Redis cost before any rule, view or safeguard of Intrigue's runs. It keeps its
tables in the process's memory, so it runs as one API process (the image's shape on a
2-core machine). It is a measuring instrument, not a server.
"""

from __future__ import annotations

import os
import secrets
import threading
from typing import Any

import gevent.queue
import orjson
import redis
from flask import Flask, Response, request

#: Moves in a game: Coup's average under the bench's random play is about this long, so the
#: set-up requests per move (create, three joins, three streams) come out as Intrigue's.
MOVES_PER_GAME = int(os.environ.get("FLOOR_MOVES_PER_GAME", "23"))
SEATS = 3
#: Requests a player may make per second (Intrigue's per-player default is of this order).
PER_SECOND = 20

#: KEYS: the game's stream, the player's counter for this second. ARGV: the version the
#: mover saw, the event, the channel, the allowance. The version is the stream's length.
APPEND = """
local spent = redis.call('INCR', KEYS[2])
if spent == 1 then redis.call('EXPIRE', KEYS[2], 2) end
if spent > tonumber(ARGV[4]) then return -1 end
local version = redis.call('XLEN', KEYS[1])
if version ~= tonumber(ARGV[1]) then return -2 end
redis.call('XADD', KEYS[1], '*', 'e', ARGV[2])
redis.call('PUBLISH', ARGV[3], KEYS[1] .. ' ' .. (version + 1))
return version + 1
"""

CHANNEL = "floor:commits"
client = redis.Redis.from_url(os.environ["REDIS_URL"], max_connections=10_000)
append = client.register_script(APPEND)


class Table:
    """One null game: seats, version, whose turn, and the queues of its open streams."""

    def __init__(self, game_id: str) -> None:
        self.id = game_id
        self.players: list[str] = []
        self.version = 1  # the stream holds the creation event
        self.moves = 0
        self.streams: list[tuple[int, gevent.queue.SimpleQueue]] = []

    @property
    def status(self) -> str:
        if len(self.players) < SEATS:
            return "open"
        return "finished" if self.moves >= MOVES_PER_GAME else "active"

    def view(self, seat: int) -> bytes:
        turn = self.moves % SEATS
        active = self.status == "active"
        return orjson.dumps({
            "id": self.id, "version": self.version, "status": self.status, "seat": seat, "moves": self.moves,
            "awaiting": [turn] if active else [],
            "legal_actions": [{"type": "left"}, {"type": "right"}] if active and seat == turn else [],
        })


TABLES: dict[str, Table] = {}
PLAYERS: dict[str, str] = {}  # token -> player id
app = Flask(__name__)


def commit(table: Table, player: str, event: dict[str, Any]) -> int:
    """Append ``event`` at the table's version; the new version, -1 when over the allowance, -2 on a race."""
    return append(keys=[f"floor:game:{table.id}", f"floor:spent:{player}"],
                  args=[table.version, orjson.dumps(event), CHANNEL, PER_SECOND])


def player_of(authorization: str) -> str | None:
    scheme, _, token = authorization.partition(" ")
    return PLAYERS.get(token) if scheme == "Bearer" else None


@app.get("/v1/openapi.json")
def ready() -> dict[str, str]:
    """What side_by_side.py polls to know a server is up."""
    return {"info": "the stack's floor"}


@app.post("/v1/players")
def create_player() -> tuple[dict[str, str], int]:
    token, player = secrets.token_urlsafe(24), secrets.token_hex(8)
    client.hset("floor:players", token, player)
    PLAYERS[token] = player
    return {"token": token, "id": player}, 201


@app.post("/v1/games")
def create_game() -> tuple[dict[str, str], int]:
    player = player_of(request.headers.get("Authorization", ""))
    if player is None:
        return {"code": "unauthorised"}, 401
    table = Table(secrets.token_hex(8))
    client.xadd(f"floor:game:{table.id}", {"e": orjson.dumps({"type": "GameCreated", "by": player})})
    TABLES[table.id] = table
    return {"id": table.id}, 201


@app.post("/v1/games/<game_id>/join")
def join(game_id: str) -> Any:
    player = player_of(request.headers.get("Authorization", ""))
    table = TABLES.get(game_id)
    if player is None or table is None or table.status != "open":
        return {"code": "refused"}, 409
    version = commit(table, player, {"type": "PlayerJoined", "player": player})
    if version < 0:
        return {"code": "busy"}, 429 if version == -1 else 409
    table.version = version
    table.players.append(player)
    push(table)
    return Response(b'{"game":' + table.view(len(table.players) - 1) + b"}", mimetype="application/json")


def seated(game_id: str) -> tuple[Table, int] | None:
    """The caller's table and seat, if the request's token is a player seated at it."""
    player = player_of(request.headers.get("Authorization", ""))
    table = TABLES.get(game_id)
    if player is None or table is None or player not in table.players:
        return None
    return table, table.players.index(player)


@app.get("/v1/games/<game_id>")
def game(game_id: str) -> Any:
    found = seated(game_id)
    if found is None:
        return {"code": "refused"}, 404
    table, seat = found
    return Response(table.view(seat), mimetype="application/json")


@app.get("/v1/games/<game_id>/events/stream")
def stream(game_id: str) -> Any:
    found = seated(game_id)
    if found is None:
        return {"code": "refused"}, 404
    table, seat = found
    queue: gevent.queue.SimpleQueue = gevent.queue.SimpleQueue()
    table.streams.append((seat, queue))

    def frames() -> Any:
        try:
            yield b": floor\n\nevent: game\ndata: " + table.view(seat) + b"\n\n"
            while True:
                frame = queue.get()
                if frame is None:
                    return
                yield frame
        finally:
            table.streams.remove((seat, queue))

    return Response(frames(), mimetype="text/event-stream")


def push(table: Table) -> None:
    """Every stream of the table gets its seat's new view (sent by the stream's greenlet)."""
    for seat, queue in list(table.streams):
        queue.put(b"event: game\ndata: " + table.view(seat) + b"\n\n")
        if table.status == "finished":
            queue.put(None)


def listen() -> None:
    """Reads each commit's announcement, as Intrigue's listener does. A commit of this
    process was pushed by its committer already (the announcement can arrive before the
    script's reply), and there is no other process: nothing is left to do with it."""
    pubsub = client.pubsub(ignore_subscribe_messages=True)
    pubsub.subscribe(CHANNEL)
    for _message in pubsub.listen():
        pass


def actions(environ: dict[str, Any], start_response: Any) -> list[bytes]:
    """``POST /v1/games/<id>/actions``, outside Flask as Intrigue's fast handler (service/front.py) is."""
    game_id = environ["PATH_INFO"].split("/")[3]
    table = TABLES.get(game_id)
    player = player_of(environ.get("HTTP_AUTHORIZATION", ""))
    body = environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
    status, answer = "409 Conflict", b'{"code":"refused"}'
    if table is not None and player in table.players and table.status == "active":
        seat = table.players.index(player)
        action = orjson.loads(body)
        expected = int(environ.get("HTTP_IF_MATCH") or table.version)
        if seat == table.moves % SEATS and action.get("type") in ("left", "right") and expected == table.version:
            version = commit(table, player, {"type": "Moved", "seat": seat, "action": action})
            if version == -1:
                status, answer = "429 Too Many Requests", b'{"code":"rate_limited","retry_after":0.05}'
            elif version > 0:
                table.version, table.moves = version, table.moves + 1
                status, answer = "200 OK", b'{"game":' + table.view(seat) + b"}"
                push(table)
    start_response(status, [("Content-Type", "application/json"), ("Content-Length", str(len(answer)))])
    return [answer]


flask_app = app.wsgi_app


def wsgi(environ: dict[str, Any], start_response: Any) -> Any:
    if environ["REQUEST_METHOD"] == "POST" and environ["PATH_INFO"].endswith("/actions"):
        return actions(environ, start_response)
    return flask_app(environ, start_response)


app.wsgi_app = wsgi  # type: ignore[method-assign]
_listener = threading.Thread(target=listen, daemon=True)  # a greenlet under the gevent worker
_listener.start()
