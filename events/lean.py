"""Lua scripts run in one round trip without redis-py's per-command layers.

An action is one script call (the append), and so is each system step a worker takes.
redis-py 8 wraps every command in layers of its own: a retry closure, a failure callback,
observability timers and counters, a check for one special command, a lookup of the
reply's callback in a case-insensitive dictionary. Profiled under load, those layers cost
about as much as packing, sending and reading the append itself (docs/performance.md).

A plain ``redis.Redis`` client's script call here takes a pooled connection, sends
``EVALSHA`` and reads the reply; nothing else. Whatever is not that happy path goes to
redis-py's own ``Script`` call, which does what it always did: a ``NOSCRIPT`` reply (the
server restarted) makes it load the script; a connection error is retried by its policy
after this connection was dropped, as redis-py itself drops a failed one. A cluster client
always goes through redis-py (it routes the script to the keys' shard).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError
from redis.exceptions import TimeoutError as RedisTimeoutError


class LeanScript:
    """A registered Lua script, called like redis-py's ``Script``: ``script(keys=..., args=...)``."""

    def __init__(self, client: Any, source: str) -> None:
        self._script = client.register_script(source)
        self._pool = client.connection_pool if isinstance(client, redis.Redis) else None

    @property
    def sha(self) -> str:
        return self._script.sha

    def __call__(self, keys: Sequence[Any] = (), args: Sequence[Any] = ()) -> Any:
        pool = self._pool
        if pool is None:
            return self._script(keys=keys, args=args)
        connection = pool.get_connection()
        try:
            connection.send_command("EVALSHA", self._script.sha, len(keys), *keys, *args)
            return connection.read_response()
        except NoScriptError:
            pass  # the server forgot the script: redis-py's call below loads it again
        except (RedisConnectionError, RedisTimeoutError, OSError):
            connection.disconnect()  # redis-py's call below retries on a fresh one, by its policy
        except redis.ResponseError:  # read whole: the connection is as good as before
            raise
        except BaseException:  # a greenlet killed mid-read, say: a reply may be left unread on it
            connection.disconnect()
            raise
        finally:
            pool.release(connection)
        return self._script(keys=keys, args=args)
