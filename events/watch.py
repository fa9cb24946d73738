"""Waiting for a game's next event without a Redis connection (or a thread) per watcher.

Every append publishes the game's new version on the game's feed channel (inside the
append script, so no append goes unannounced). One listener per process subscribes to
the pattern of all feed channels and wakes the local waiters of the game named, so a
thousand idle long-polls and event streams cost one Redis connection and no polling.

A notification can be lost (the listener's connection dropped); a waiter never relies
on one alone: it checks the stream's version after registering, the listener wakes
every waiter when it reconnects, and callers re-read the stream at least every
``RECHECK_SECONDS``.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

import redis

log = logging.getLogger(__name__)

#: Longest a waiter trusts the notifications alone before reading the stream again.
RECHECK_SECONDS = 15.0


class FeedWatcher:
    """Blocks callers until a game's stream passes a version; started on first use."""

    def __init__(self, client: redis.Redis, pattern: str, game_of_channel: Callable[[str], str],
                 version_of: Callable[[str], int]) -> None:
        self._client = client
        self._pattern = pattern
        self._game_of_channel = game_of_channel
        self._version_of = version_of
        self._lock = threading.Lock()
        self._waiters: dict[str, set[threading.Event]] = {}
        self._listener: threading.Thread | None = None
        self._subscribed = threading.Event()

    def wait(self, game_id: str, after: int, timeout: float) -> bool:
        """Block up to ``timeout`` seconds until the game's version is past ``after``.

        True when it is (or may be: a wake-up after a reconnect); the caller re-reads.
        """
        self._ensure_listening()
        woken = threading.Event()
        with self._lock:
            self._waiters.setdefault(game_id, set()).add(woken)
        try:
            # Registered before this read, so an append after it surely wakes us.
            if self._version_of(game_id) > after:
                return True
            return woken.wait(max(0.0, min(timeout, RECHECK_SECONDS)))
        finally:
            with self._lock:
                waiting = self._waiters.get(game_id)
                if waiting is not None:
                    waiting.discard(woken)
                    if not waiting:
                        del self._waiters[game_id]

    def watching(self) -> int:
        """How many callers wait now (for tests and figures)."""
        with self._lock:
            return sum(len(w) for w in self._waiters.values())

    def _ensure_listening(self) -> None:
        if self._listener is not None and self._listener.is_alive():
            return
        with self._lock:
            if self._listener is None or not self._listener.is_alive():
                self._subscribed.clear()
                self._listener = threading.Thread(target=self._listen, name="intrigue-feed-watch", daemon=True)
                self._listener.start()
        self._subscribed.wait(5.0)

    def _wake(self, game_id: str | None) -> None:
        with self._lock:
            if game_id is None:
                events = [e for waiting in self._waiters.values() for e in waiting]
            else:
                events = list(self._waiters.get(game_id, ()))
        for event in events:
            event.set()

    def _listen(self) -> None:
        while True:
            pubsub = self._client.pubsub(ignore_subscribe_messages=True)
            try:
                pubsub.psubscribe(self._pattern)
                pubsub.get_message(timeout=5.0)  # the subscription's confirmation
                self._subscribed.set()
                self._wake(None)  # anything published while we were away: every waiter re-reads
                while True:
                    message = pubsub.get_message(timeout=RECHECK_SECONDS)
                    if message is not None and message["type"] == "pmessage":
                        channel = message["channel"]
                        self._wake(self._game_of_channel(channel.decode() if isinstance(channel, bytes) else channel))
            except redis.RedisError as err:
                log.warning("feed notifications interrupted, reconnecting: %s", err)
                self._subscribed.set()  # waiters fall back to re-reading on their own
                time.sleep(0.5)
            finally:
                try:
                    pubsub.close()
                except redis.RedisError:
                    pass
