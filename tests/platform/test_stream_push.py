"""A push: a commit's frames sent to the committing process's parked streams from the commit.

Driven here on a real gunicorn response over a socket pair, so what the kernel does not take
at once (a reader that stopped reading) can be shown: the stream itself sends the rest.
"""

from __future__ import annotations

import socket
import threading
from types import SimpleNamespace

import gevent.socket
import redis
from gunicorn.config import Config

from engine.core import Engine
from engine.scheduling import JobScheduler, make_queue
from service.embedded import EmbeddedRedis
from service.event_stream import EventStream
from service.worker_response import CoalescingResponse
from tests.platform.test_front import toy_game
from tests.platform.test_stream_ceilings import app_with


def chunked_pair() -> tuple[CoalescingResponse, socket.socket]:
    """A gunicorn response (its head not yet sent) writing to one end of a socket pair (a gevent
    socket, as in the API's worker); the other end (a plain one, for a reader's thread)."""
    ours, reader_end = socket.socketpair()
    server_end = gevent.socket.socket(fileno=ours.detach())
    request = SimpleNamespace(version=(1, 1), method="GET", should_close=lambda: False, proxy_protocol_info=None)
    return CoalescingResponse(request, server_end, Config()), reader_end


def read_all(sock: socket.socket) -> bytes:
    """What was sent so far (without waiting for more)."""
    sock.setblocking(False)
    seen = b""
    while True:
        try:
            data = sock.recv(1 << 20)
        except BlockingIOError:
            return seen
        if not data:
            return seen
        seen += data


def read_exactly(sock: socket.socket, size: int, timeout: float = 10.0) -> bytes:
    """The next ``size`` bytes sent, waiting for them up to ``timeout`` (then what came)."""
    sock.setblocking(True)
    sock.settimeout(timeout)
    seen = b""
    try:
        while len(seen) < size:
            data = sock.recv(size - len(seen))
            if not data:
                break
            seen += data
    except TimeoutError:
        pass
    return seen


def parked_stream(engine: Engine, game_id: str, seat: int) -> tuple[EventStream, CoalescingResponse,
                                                                    socket.socket]:
    """A stream of ``seat`` that has sent its opening and its first page, and waits on its watch."""
    response, reader = chunked_pair()
    stream = EventStream(engine, game_id, engine.load(game_id), seat, 0, None, True, None)
    stream.write = response.start_response("200 OK", [("Content-Type", "text/event-stream")])
    frames = iter(stream)
    stream.write(next(frames))  # the opening (and the head)
    stream.write(next(frames))  # the events so far and the view: the generator stops at this yield
    stream._parked = True  # where it stands once that write is done and it waits on its watch
    read_all(reader)
    return stream, response, reader


def test_a_commit_is_pushed_as_the_frames_a_woken_stream_would_send(engine: Engine) -> None:
    client = app_with(engine)
    game_id, auth = toy_game(client)
    stream, _, reader = parked_stream(engine, game_id, seat=1)
    before = engine.load(game_id)["version"]
    mover = engine.player_for_token(auth[0]["Authorization"].split()[1])
    assert mover is not None

    engine.act(mover, game_id, {"type": "pick", "number": 2})  # no answer to send first: pushed at once

    # What a stream reading from the store sends for the same versions, as its first page.
    reading = EventStream(engine, game_id, engine.load(game_id), 1, before, None, True, None)
    frames = iter(reading)
    next(frames)
    expected = next(frames)
    chunk = b"%X\r\n%s\r\n" % (len(expected), expected)
    # The committer or this process's listener (a thread here, where Redis's announcement
    # may arrive first) pushes it; the one that does may still be sending as act returns.
    pushed = read_exactly(reader, len(chunk))
    assert pushed == chunk
    # Seat 1 is told that seat 0 picked, not what.
    assert b'event: Picked\ndata: {"seq":' in pushed and b'"actor":0,"data":{}}' in pushed
    assert stream.after == engine.load(game_id)["version"] and stream._watch.delivered == stream.after
    reading.close()
    stream.close()


def test_a_stream_busy_or_behind_is_not_pushed_to(engine: Engine) -> None:
    client = app_with(engine)
    game_id, auth = toy_game(client)
    stream, _, reader = parked_stream(engine, game_id, seat=1)
    mover = engine.player_for_token(auth[0]["Authorization"].split()[1])
    other = engine.player_for_token(auth[1]["Authorization"].split()[1])
    assert mover is not None and other is not None
    stream._parked = False  # writing a page of its own: a push would interleave with it
    engine.act(mover, game_id, {"type": "pick", "number": 2})
    assert read_all(reader) == b"" and stream.after < engine.load(game_id)["version"]
    # Parked, but behind what the next commit continues (it must read what it missed first).
    stream.after -= 1
    stream._parked = True
    engine.act(other, game_id, {"type": "pick", "number": 3})
    assert read_all(reader) == b""
    stream.close()


def test_what_the_kernel_does_not_take_the_stream_sends_itself_then_ends_with_the_game(engine: Engine) -> None:
    client = app_with(engine)
    game_id, auth = toy_game(client)
    stream, response, reader = parked_stream(engine, game_id, seat=1)
    # A reader that stopped reading, its buffers full: the kernel takes nothing more for now.
    reader.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    response.sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    while True:  # (gevent keeps the socket under its own non-blocking)
        try:
            response.sock._sock.send(b"x" * 4096)
        except BlockingIOError:
            break
    mover = engine.player_for_token(auth[0]["Authorization"].split()[1])
    assert mover is not None

    engine.resign(mover, game_id)  # the last event of a two-seat game, pushed: it stays unsent

    unsent = stream._unsent
    assert unsent.endswith(b"\n\n\r\n") and b"event: game" in unsent  # the push's chunk, or its end
    assert not stream._watch.may_push()  # the stream was woken to send it
    received = bytearray()
    drained = threading.Event()

    def drain() -> None:
        reader.setblocking(True)
        while not received.endswith(unsent):
            received.extend(reader.recv(1 << 16))
        drained.set()

    threading.Thread(target=drain, daemon=True).start()
    remaining = list(stream)  # it sends the rest itself, then ends: the game is over
    assert remaining == []
    assert drained.wait(10)
    assert b"event: GameEnded" in unsent
    stream.close()


def test_another_processs_commit_is_pushed_by_the_listener_that_hears_of_it(engine: Engine,
                                                                           platform_redis: EmbeddedRedis) -> None:
    client = app_with(engine)
    game_id, auth = toy_game(client)
    stream, _, reader = parked_stream(engine, game_id, seat=1)
    # Another API process (or a worker): an engine of its own on the same Redis.
    other_redis = redis.Redis.from_url(platform_redis.url)
    other = Engine(other_redis, JobScheduler(make_queue(other_redis)))
    mover = other.player_for_token(auth[0]["Authorization"].split()[1])
    assert mover is not None

    other.act(mover, game_id, {"type": "pick", "number": 2})

    reader.settimeout(10)  # the listener's thread pushes it as soon as Redis announces it
    pushed = reader.recv(1 << 16)
    assert b"event: Picked" in pushed and pushed.endswith(b"\n\n\r\n")
    assert stream.after == other.load(game_id)["version"]
    stream.close()


def test_a_closed_stream_is_freed_without_the_garbage_collector(engine: Engine) -> None:
    """Its watch and the server's response refer back to it; closing unties them, so the stream
    and the record it holds go as it ends (a cycle would wait for a collection of the older
    generations, which walks every live record: a pause of up to ~0.1 s under load)."""
    import gc
    import weakref

    client = app_with(engine)
    game_id, _ = toy_game(client)
    stream, response, reader = parked_stream(engine, game_id, seat=1)
    gone = weakref.ref(stream)
    gc.disable()
    try:
        stream.close()
        del stream
        assert gone() is None
    finally:
        gc.enable()
        reader.close()


def test_a_request_s_body_does_not_keep_its_request_alive() -> None:
    import gc
    import weakref

    from service.deadline_body import DeadlineBody

    class Request:  # gunicorn's request: a plain object the body is set on
        must_close = False

    request = Request()
    request.body = DeadlineBody(b"", request, seconds=1.0)  # type: ignore[attr-defined]
    gone = weakref.ref(request)
    gc.disable()
    try:
        del request
        assert gone() is None
    finally:
        gc.enable()
