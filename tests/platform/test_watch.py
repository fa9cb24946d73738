"""The feed watcher: one pub/sub listener per process wakes the waiters of a game."""

from __future__ import annotations

import threading

from events import watch as watch_module
from events.watch import Watch
from service.engine import Engine
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
