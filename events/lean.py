"""Lua scripts run in one round trip without redis-py's per-command layers.

An action is one script call (the append), and so is each system step a worker takes.
redis-py 8 wraps every command in layers of its own: a retry closure, a failure callback,
observability timers and counters, a check for one special command, a lookup of the
reply's callback in a case-insensitive dictionary. Profiled under load, those layers cost
about as much as packing, sending and reading the append itself (docs/performance.md).

A plain ``redis.Redis`` client's script call here takes one of the lean calls' own idle
connections (see :class:`_Spare`), sends ``EVALSHA`` and reads the reply; nothing else.
Whatever is not that happy path goes to redis-py's own ``Script`` call, which does what it
always did: a ``NOSCRIPT`` reply (the server restarted) makes it load the script; a
connection error is retried by its policy after this connection was dropped, as redis-py
itself drops a failed one. A cluster client always goes through redis-py (it routes the
script to the keys' shard).
"""

from __future__ import annotations

import os
import weakref
from collections.abc import Sequence
from typing import Any

import redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError
from redis.exceptions import TimeoutError as RedisTimeoutError


class _Spare:
    """Idle connections of one pool kept for the lean calls alone.

    redis-py's pool checks each connection it hands out (is there an unread reply on it?
    was the process forked?) and records metrics as it lends and takes it back: under load
    that was about a third of a script call's CPU on the API's side (docs/performance.md,
    section 19). A connection here comes back only after a whole reply was read from it, and
    any other end (an error, a greenlet killed mid-read) drops it, so none can hold a stale
    reply; a forked child starts with none. They are made as the pool makes its own, from
    its settings, and closed with their socket when the pool is gone.
    """

    def __init__(self, pool: redis.ConnectionPool) -> None:
        self._pool = pool
        self._idle: list[Any] = []

    def take(self) -> Any:
        idle = self._idle
        if idle:
            return idle.pop()
        return self._pool.connection_class(**self._pool.connection_kwargs)

    def give_back(self, connection: Any) -> None:
        self._idle.append(connection)


_spares: weakref.WeakKeyDictionary[redis.ConnectionPool, _Spare] = weakref.WeakKeyDictionary()


def _forget_the_parents_connections() -> None:
    """In a forked child: its parent's sockets are not its own to use (nor to close)."""
    for spare in list(_spares.values()):
        spare._idle = []


os.register_at_fork(after_in_child=_forget_the_parents_connections)


def _spare_of(client: Any) -> _Spare | None:
    """The lean calls' connections beside ``client``'s pool; None where redis-py must do the
    call (a cluster, which routes it by key, or a pool with a client-side cache)."""
    if not isinstance(client, redis.Redis):
        return None
    pool = client.connection_pool
    if getattr(pool, "cache", None) is not None or type(pool) is not redis.ConnectionPool:
        return None
    spare = _spares.get(pool)
    if spare is None:
        spare = _spares[pool] = _Spare(pool)
    return spare


class LeanScript:
    """A registered Lua script, called like redis-py's ``Script``: ``script(keys=..., args=...)``."""

    def __init__(self, client: Any, source: str) -> None:
        self._script = client.register_script(source)
        self._spare = _spare_of(client)

    @property
    def sha(self) -> str:
        return self._script.sha

    def __call__(self, keys: Sequence[Any] = (), args: Sequence[Any] = ()) -> Any:
        spare = self._spare
        if spare is None:
            return self._script(keys=keys, args=args)
        connection = spare.take()
        try:
            connection.send_command("EVALSHA", self._script.sha, len(keys), *keys, *args)
            reply = connection.read_response()
        except redis.ResponseError as refused:  # read whole: the connection is as good as before
            spare.give_back(connection)
            if not isinstance(refused, NoScriptError):
                raise
            # The server forgot the script: redis-py's call below loads it again.
        except (RedisConnectionError, RedisTimeoutError, OSError):
            connection.disconnect()  # redis-py's call below retries on a pooled one, by its policy
        except BaseException:  # a greenlet killed mid-read, say: a reply may be left unread on it
            connection.disconnect()
            raise
        else:
            spare.give_back(connection)
            return reply
        return self._script(keys=keys, args=args)
