"""The feed watcher: one pub/sub listener per process wakes the waiters of a game."""

from __future__ import annotations

import threading

from engine.core import Engine
from events import watch as watch_module
from events.watch import Watch
from tests.platform.test_engine import started


def test_an_append_after_registering_wakes_the_watch_with_its_version(engine: Engine) -> None:
    game_id, players = started(engine)
    with engine.watcher.watch(game_id) as watch:
        version = engine.load(game_id)["version"]  # the caller's read, after registering
        engine.act(players[0], game_id, {"type": "pick", "number": 3})
        assert watch.wait(10) is True
        assert watch.known == version + 1 and watch.chat is False
        assert watch.wait(0.05) is False and watch.known == 0  # quiet: nothing to read
    assert engine.watcher.watching() == 0


def test_a_waiter_in_another_thread_is_woken_promptly(engine: Engine) -> None:
    game_id, players = started(engine)
    woken = []
    registered = threading.Event()

    def wait() -> None:
        with engine.watcher.watch(game_id) as watch:
            registered.set()
            woken.append(watch.wait(10))

    waiter = threading.Thread(target=wait)
    waiter.start()
    assert registered.wait(10)
    engine.act(players[0], game_id, {"type": "pick", "number": 3})
    waiter.join(10)
    assert woken == [True]


def test_a_notification_as_a_wait_ends_is_not_lost_and_quiet_waits_verify_now_and_then() -> None:
    watch = Watch()
    watch.announce(7)
    assert watch.wait(0) is True and watch.known == 7  # counted, though the wait did not block
    watch.chatted()
    assert watch.wait(0) is True and watch.known == 7 and watch.chat is True
    quiet = [watch.wait(0) or watch.known for _ in range(watch_module.VERIFY_EVERY)]
    assert quiet[:-1] == [0] * (watch_module.VERIFY_EVERY - 1) and quiet[-1] is None
    watch.reset()  # the listener reconnected: only the store can say
    assert watch.wait(0) is True and watch.known is None and watch.chat is True


def test_another_process_learns_the_appended_events_from_the_notification_alone(engine: Engine,
                                                                                monkeypatch) -> None:
    """A second engine (another API process) decides and serves feeds without reading the stream."""
    other = Engine(engine.redis, engine.scheduler)
    try:
        game_id, players = started(engine)
        other.load(game_id)  # the game is at hand in the other process: a cached record
        with other.watcher.watch(game_id) as watch:
            done = engine.act(players[0], game_id, {"type": "pick", "number": 3})
            assert watch.wait(10) is True and watch.known == done.record["version"]

        def no_read(*args, **kwargs):
            raise AssertionError("the stream was read")

        monkeypatch.setattr(other.store, "read", no_read)
        # Its feed page and its next decision come from what the notification carried.
        assert other.projector.read(game_id, after=done.record["version"] - len(done.events),
                                    known=watch.known) == done.events
        assert other.projector.cached(game_id) == done.record
        moved = other.act(players[1], game_id, {"type": "pick", "number": 1})
        assert moved.record["version"] > done.record["version"]
    finally:
        other.watcher.stop()  # its listener would outlive the test, and the session's Redis


def test_a_notification_without_events_wakes_with_its_version_and_a_chat_mark_wakes_for_chat() -> None:
    """Batches over the size limit announce their version alone; table talk announces "m"."""
    taken: list[tuple[str, list[bytes]]] = []
    watcher = watch_module.FeedWatcher(None, "feed:*", lambda channel: channel,  # type: ignore[arg-type]
                                       on_events=lambda game, version, lines: taken.append((game, lines)))
    woken: list[tuple[str | None, int | None]] = []
    watcher._wake = lambda game_id, version=None: woken.append((game_id, version))  # type: ignore[method-assign]
    watcher._announced("g1", b"7")
    watcher._announced("g1", b"m")
    watcher._announced("g1", b'9\n{"seq":8}\n{"seq":9}')
    assert woken == [("g1", 7), ("g1", None), ("g1", 9)]
    assert taken == [("g1", [b'{"seq":8}', b'{"seq":9}'])]


def test_a_listener_without_redis_warns_now_and_then_and_says_when_it_is_back(monkeypatch, tmp_path) -> None:
    """An outage is told once, then every RECONNECT_WARN_EVERY attempts, not at every attempt;
    the subscription's return is told with the count and starts the count again."""
    import logging

    import redis
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    from service.embedded import EmbeddedRedis, free_port

    monkeypatch.setattr(watch_module, "RECONNECT_PAUSE", 0.0)
    monkeypatch.setattr(watch_module, "RECONNECT_WARN_EVERY", 5)
    warnings: list[str] = []
    third_warning, back = threading.Event(), threading.Event()

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            message = record.getMessage()
            if message.startswith("feed notifications interrupted"):
                warnings.append(message)
                if len(warnings) == 3:
                    third_warning.set()
            elif message.startswith("feed notifications back"):
                warnings.append(message)
                back.set()

    handler = Collect(level=logging.WARNING)
    watch_module.log.addHandler(handler)
    port = free_port()
    # No retries inside redis-py: each refused connection is one attempt of the listener's.
    client = redis.Redis(port=port, socket_connect_timeout=0.2, retry=Retry(NoBackoff(), 0))
    watcher = watch_module.FeedWatcher(client, "feed:*", lambda channel: channel)
    try:
        watcher.start()
        assert third_warning.wait(30)
        assert [w.split(")")[0] for w in warnings[:3]] == [
            "feed notifications interrupted (attempt 1", "feed notifications interrupted (attempt 6",
            "feed notifications interrupted (attempt 11"]
        with EmbeddedRedis(tmp_path, persist=False, port=port):
            assert back.wait(30) and watcher.wait_live(10)
            told = next(w for w in warnings if w.startswith("feed notifications back"))
            assert int(told.split("after ")[1].split()[0]) >= 11
            assert watcher.failed_attempts == 0
    finally:
        watcher.stop()
        watch_module.log.removeHandler(handler)


def test_a_stopped_listener_ends_and_tries_no_more(engine: Engine) -> None:
    """stop() ends the listener whether it is subscribed (its read is cut off) or retrying."""
    import redis
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    watcher = watch_module.FeedWatcher(engine.redis, "feed:*", lambda channel: channel)
    watcher.start()
    assert watcher.wait_live(10)
    watcher.stop()
    assert watcher._listener is not None and not watcher._listener.is_alive()
    assert not watcher.live
    client = redis.Redis(port=1, socket_connect_timeout=0.2, retry=Retry(NoBackoff(), 0))
    stranded = watch_module.FeedWatcher(client, "feed:*", lambda channel: channel)
    stranded.start()
    stranded.stop()
    assert stranded._listener is not None and not stranded._listener.is_alive()
    assert stranded.failed_attempts <= 1
