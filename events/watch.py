"""Waiting for a game's next event without a Redis connection (or a thread) per watcher.

Every append publishes the game's new version on the game's feed channel (inside the
append script, so no append goes unannounced); a table-talk message publishes "m".
One listener per process subscribes to the pattern of all feed channels and wakes the
local waiters of the game named, so a thousand idle long-polls and event streams cost
one Redis connection and no polling.

A caller registers *before* it reads the stream (:meth:`FeedWatcher.watch`), so an
append after its read surely wakes it. Redis delivers every message of a live
subscription in order; when the listener's connection drops, it wakes every waiter as
it reconnects, and they read the store. An idle watcher costs no read: it sends its
keep-alive and reads the store only every ``VERIFY_EVERY`` quiet waits.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import redis

log = logging.getLogger(__name__)

#: Longest single wait (an event stream sends its keep-alive comment this often).
RECHECK_SECONDS = 15.0
#: Pause between the listener's attempts to reconnect to Redis.
RECONNECT_PAUSE = 0.5
#: While Redis stays away, one warning for the first failed attempt, then one for every this
#: many (a minute's worth): a long outage is told, not logged twice a second per process.
RECONNECT_WARN_EVERY = 120
#: Every this many quiet waits in a row, a waiter reads the store anyway (a safety net:
#: Redis delivers every message of a live subscription, and a lost one means a reconnect).
VERIFY_EVERY = 8


class Watch:
    """One caller's registration: woken when the game's stream may have moved.

    After each :meth:`wait`, ``known`` says what to read next: the newest version
    announced (read what is past your position up to it), ``0`` when nothing was
    announced (read nothing), or None when only the store can say (the first read, a
    reconnect of the listener, and every ``VERIFY_EVERY``-th quiet wait as a safety net).
    ``chat`` says whether a table-talk message may have been posted. Notifications are
    counted, so one that lands while a wait ends is never lost.
    """

    def __init__(self) -> None:
        self._event = threading.Event()
        self._count = 0  # notifications so far
        self._counted = 0  # notifications the caller has been told about
        self._announced = 0
        self._chatted = False
        self._reset = False
        self._quiet = 0
        self.known: int | None = None
        self.chat = True
        #: Set by a caller that can take a commit of this process straight from the committer
        #: (an event stream: see :meth:`FeedWatcher.push`): ``pusher(before, record, events)``.
        self.pusher: Callable[[int, Any, Sequence[Any]], None] | None = None
        #: The newest version a push delivered: its announcement has nothing left to say.
        self.delivered = 0
        self._poked = False

    def wait(self, timeout: float) -> bool:
        """Block up to ``timeout`` s (at most ``RECHECK_SECONDS``); True if notified meanwhile.

        A notification that only announced what a push already delivered (it came in before
        the push) is not a wake-up: the wait goes on for what is left of it."""
        ends = time.monotonic() + max(0.0, min(timeout, RECHECK_SECONDS))
        while True:
            if self._count == self._counted:
                self._event.wait(max(0.0, ends - time.monotonic()))
            self._event.clear()
            count = self._count
            if (count != self._counted and not (self._reset or self._chatted or self._poked)
                    and self._announced <= self.delivered and time.monotonic() < ends):
                self._counted = count
                continue
            break
        notified, self._counted = count != self._counted, count
        if self._reset or (not notified and self._quiet % VERIFY_EVERY == VERIFY_EVERY - 1):
            self.known, self.chat = None, True
        elif notified:
            self.known, self.chat = self._announced, self._chatted
        else:
            self.known, self.chat = 0, False
        self._quiet = 0 if notified else self._quiet + 1
        self._reset = self._chatted = self._poked = False
        return notified

    def may_push(self) -> bool:
        """Whether a push may go out before what this watch was told: nothing but events is
        pending (a message, or a reconnect's re-read, must come in the store's order)."""
        return not (self._reset or self._chatted or self._poked)

    def pushed(self, version: int, wake: bool = False) -> None:
        """A push delivered everything up to ``version``; ``wake`` the caller all the same
        (a last event, a write the caller must finish)."""
        self.delivered = max(self.delivered, version)
        if wake:
            self._poked = True
            self._notify()

    def announce(self, version: int) -> None:
        if version <= self.delivered:  # a push got there first
            return
        self._announced = max(self._announced, version)
        self._notify()

    def chatted(self) -> None:
        self._chatted = True
        self._notify()

    def reset(self) -> None:
        self._reset = True
        self._notify()

    def _notify(self) -> None:
        self._count += 1
        self._event.set()


class FeedWatcher:
    """Wakes callers when a game's stream moves; the listener starts on first use."""

    def __init__(self, client: redis.Redis, pattern: str, game_of_channel: Callable[[str], str],
                 on_events: Callable[[str, int, list[bytes]], None] | None = None) -> None:
        self._client = client
        #: Given the game, the version announced and the events (JSON) the notification
        #: carried, before the game's waiters wake (it may push them the events: see push).
        self._on_events = on_events
        self._pattern = pattern
        self._game_of_channel = game_of_channel
        self._lock = threading.Lock()
        self._waiters: dict[str, set[Watch]] = {}
        self._listener: threading.Thread | None = None
        self._subscribed = threading.Event()
        #: Plain channels the listener also hears (see :meth:`hear`), and their handlers.
        self._channels: dict[str, Callable[[bytes], None]] = {}
        #: Whether every subscription is in place now, and how many times it was put in place:
        #: what was heard is complete from the epoch's start while ``live`` holds.
        self._live = threading.Event()
        self.epoch = 0
        #: Failed attempts to (re)connect since the subscriptions were last in place.
        self.failed_attempts = 0
        self._stopping = threading.Event()
        self._pubsub: Any = None

    @contextmanager
    def watch(self, game_id: str) -> Iterator[Watch]:
        """Register for the game's appends; read the stream inside, then wait on the watch."""
        watch = self.register(game_id)
        try:
            yield watch
        finally:
            self.unregister(game_id, watch)

    def register(self, game_id: str) -> Watch:
        """:meth:`watch` without the block, for a caller whose registration outlives a call
        (an event stream opened before its answer starts); :meth:`unregister` ends it."""
        self._ensure_listening()
        watch = Watch()
        with self._lock:
            self._waiters.setdefault(game_id, set()).add(watch)
        return watch

    def unregister(self, game_id: str, watch: Watch) -> None:
        """End a registration (a second call does nothing)."""
        with self._lock:
            waiting = self._waiters.get(game_id)
            if waiting is not None:
                waiting.discard(watch)
                if not waiting:
                    del self._waiters[game_id]

    def push(self, game_id: str, before: int, record: Any, events: Sequence[Any]) -> None:
        """Hand ``events`` (those after version ``before``, and the record they led to) to the
        game's local watchers that take pushes, without waking them: a commit of this process
        from its committer, another's from this listener. A stream then writes its frames in
        that turn of the event loop, not in one more turn later."""
        with self._lock:
            waiting = self._waiters.get(game_id)
            pushers = [w.pusher for w in waiting if w.pusher is not None] if waiting else []
        for pusher in pushers:
            try:
                pusher(before, record, events)
            except Exception:  # the announcement wakes the watcher instead
                log.exception("could not push game %s's events to a watcher", game_id)

    def pushes_to(self, game_id: str) -> bool:
        """Whether a local watcher of the game takes pushes."""
        with self._lock:
            waiting = self._waiters.get(game_id)
            return waiting is not None and any(w.pusher is not None for w in waiting)

    def watching(self) -> int:
        """How many callers are registered now (for tests and figures)."""
        with self._lock:
            return sum(len(w) for w in self._waiters.values())

    def hear(self, channel: str, handler: Callable[[bytes], None]) -> None:
        """Also pass every message of the plain ``channel`` to ``handler`` (before the listener starts)."""
        self._channels[channel] = handler

    @property
    def live(self) -> bool:
        return self._live.is_set()

    def wait_live(self, timeout: float) -> bool:
        """Block until every subscription is in place (for tests and start-up checks)."""
        return self._live.wait(timeout)

    def start(self) -> None:
        """Start the listener if it is not running, without waiting for its subscription."""
        if self._listener is not None and self._listener.is_alive():
            return
        with self._lock:
            if self._listener is None or not self._listener.is_alive():
                self._subscribed.clear()
                self._listener = threading.Thread(target=self._listen, name="intrigue-feed-watch", daemon=True)
                self._listener.start()

    def stop(self, timeout: float = 5.0) -> None:
        """End the listener for good: a process that outlives its Redis (a test's) would
        otherwise try to reconnect, and say so, for as long as it runs."""
        self._stopping.set()
        pubsub = self._pubsub
        if pubsub is not None:
            try:
                pubsub.close()  # the blocked read fails at once and the loop sees the flag
            except Exception:  # noqa: BLE001 - the listener may be closing it at the same moment: either way it is shut
                pass
        if self._listener is not None:
            self._listener.join(timeout)

    def _ensure_listening(self) -> None:
        if self._listener is not None and self._listener.is_alive():
            return
        self.start()
        self._subscribed.wait(5.0)

    def _wake(self, game_id: str | None, version: int | None = None) -> None:
        with self._lock:
            if game_id is None:
                watches = [w for waiting in self._waiters.values() for w in waiting]
            else:
                watches = list(self._waiters.get(game_id, ()))
        for watch in watches:
            if game_id is None:
                watch.reset()
            elif version is None:
                watch.chatted()
            else:
                watch.announce(version)

    def _announced(self, game_id: str, data: bytes | str) -> None:
        """One notification: "m" (a chat message), or the new version, then maybe the events."""
        if isinstance(data, str):
            data = data.encode()
        if data == b"m":
            self._wake(game_id, None)
            return
        version, *events = data.split(b"\n")
        if events and self._on_events is not None:
            try:
                self._on_events(game_id, int(version), events)
            except Exception:  # the waiters read the stream instead; never lose the wake-up
                log.exception("could not take the events announced for game %s", game_id)
        self._wake(game_id, int(version))

    @staticmethod
    def _messages(pubsub: Any) -> Iterator[tuple[bytes, str, bytes]]:
        """The subscription's messages as (kind, channel, data), read straight off its connection.

        redis-py's ``listen()`` wraps every read in a retry closure, timers, metrics and a
        dictionary per message; with an announcement per append, that was a few per cent of
        the API's CPU (docs/performance.md, section 22). Its one read is done here as it does
        it (no time limit: an idle subscription waits), and any failure ends the loop for
        :meth:`_listen`'s reconnect, as the same failure inside ``listen()`` did.
        """
        connection = pubsub.connection
        while True:
            response = connection.read_response(disconnect_on_error=False, push_request=True, timeout=None)
            if not isinstance(response, list) or len(response) < 3:
                continue  # a health check's PONG, which nothing here asks for
            kind = response[0] if isinstance(response[0], bytes) else str(response[0]).encode()
            if kind == b"pmessage":
                channel, data = response[2], response[3]
            else:
                channel, data = response[1], response[2]
            channel = channel.decode() if isinstance(channel, bytes) else str(channel)
            yield kind, channel, data.encode() if isinstance(data, str) else data

    def _listen(self) -> None:
        # listen() blocks on the socket itself (cooperative under gevent); nothing here
        # polls with a timeout, so the API's gevent worker can leave ``select`` unpatched.
        while not self._stopping.is_set():
            pubsub = self._pubsub = self._client.pubsub()
            confirmed = 0
            try:
                pubsub.psubscribe(self._pattern)
                if self._channels:
                    pubsub.subscribe(*self._channels)
                for kind, channel, data in self._messages(pubsub):
                    if kind == b"pmessage":
                        self._announced(self._game_of_channel(channel), data)
                    elif kind == b"message":
                        handler = self._channels.get(channel)
                        if handler is not None:
                            handler(data)
                    elif kind in (b"psubscribe", b"subscribe"):
                        confirmed += 1
                        if confirmed == 1 + len(self._channels):
                            self.epoch += 1
                            self._live.set()
                            if self.failed_attempts:  # the count starts again before anyone is told
                                failed, self.failed_attempts = self.failed_attempts, 0
                                log.warning("feed notifications back after %d failed attempts", failed)
                        if kind == b"psubscribe":
                            # Anything published while we were away: every waiter re-reads. Woken
                            # before callers are let register, so a new watch is not reset at once.
                            self._wake(None)
                            self._subscribed.set()
            except Exception as err:
                self._live.clear()
                if self._stopping.is_set():  # stop() closed the connection under the read
                    return
                if not isinstance(err, redis.RedisError):
                    raise
                self.failed_attempts += 1
                if (self.failed_attempts - 1) % RECONNECT_WARN_EVERY == 0:
                    log.warning("feed notifications interrupted (attempt %d), reconnecting every %s s: %s",
                                self.failed_attempts, RECONNECT_PAUSE, err)
                self._subscribed.set()  # waiters fall back to re-reading on their own
                time.sleep(RECONNECT_PAUSE)
            finally:
                self._live.clear()
                try:
                    pubsub.close()
                except Exception:  # noqa: BLE001 - stop() may be closing it at the same moment: either way it is shut
                    pass
