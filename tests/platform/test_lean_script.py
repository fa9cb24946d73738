"""The lean script call answers as redis-py's Script does, and recovers where it would."""

from __future__ import annotations

import os

import pytest
import redis

from events.lean import LeanScript, _spares
from service.embedded import EmbeddedRedis

ECHO = "redis.call('SET', KEYS[1], ARGV[1]); return {ARGV[1], redis.call('INCR', KEYS[2])}"
FAILS = "return redis.error_reply('NOPE not today')"


@pytest.fixture()
def client(platform_redis: EmbeddedRedis) -> redis.Redis:
    client = redis.Redis.from_url(platform_redis.url)
    client.flushall()
    return client


def test_the_reply_is_redis_pys_own(client: redis.Redis) -> None:
    lean = LeanScript(client, ECHO)
    assert lean(keys=["a", "n"], args=["x"]) == [b"x", 1]
    assert client.register_script(ECHO)(keys=["a", "n"], args=["y"]) == [b"y", 2]
    assert lean(keys=["a", "n"], args=[3]) == [b"3", 3]
    assert client.get("a") == b"3"


def test_a_flushed_script_is_loaded_again(client: redis.Redis) -> None:
    lean = LeanScript(client, ECHO)
    assert lean(keys=["a", "n"], args=["x"]) == [b"x", 1]
    client.script_flush()
    assert lean(keys=["a", "n"], args=["x"]) == [b"x", 2]
    assert client.script_exists(lean.sha) == [True]


def test_an_error_reply_is_raised_and_the_connection_stays_usable(client: redis.Redis) -> None:
    lean = LeanScript(client, FAILS)
    with pytest.raises(redis.ResponseError, match="not today"):
        lean()
    idle = _spares[client.connection_pool]._idle
    assert len(idle) == 1 and idle[0]._sock is not None  # given back, not dropped
    assert LeanScript(client, ECHO)(keys=["a", "n"], args=["x"]) == [b"x", 1]
    assert len(idle) == 1  # the lean calls of one pool share their connections


def test_a_dropped_connection_is_replaced_and_the_call_answered(client: redis.Redis,
                                                                 platform_redis: EmbeddedRedis) -> None:
    lean = LeanScript(client, ECHO)
    assert lean(keys=["a", "n"], args=["x"]) == [b"x", 1]
    killer = redis.Redis.from_url(platform_redis.url)
    assert killer.client_kill_filter(_type="normal", skipme=True) >= 1
    assert lean(keys=["a", "n"], args=["y"]) == [b"y", 2]
    assert client.get("a") == b"y"


class Interrupted(BaseException):
    """What a greenlet killed while it waits for a reply sees (gevent's GreenletExit is one)."""


def test_a_call_cut_off_mid_read_drops_its_connection(client: redis.Redis) -> None:
    lean = LeanScript(client, ECHO)
    assert lean(keys=["a", "n"], args=["x"]) == [b"x", 1]
    [connection] = _spares[client.connection_pool]._idle

    def cut_off(*args: object, **kwargs: object) -> None:
        raise Interrupted

    connection.read_response = cut_off  # type: ignore[method-assign]
    with pytest.raises(Interrupted):
        lean(keys=["a", "n"], args=["y"])
    assert connection._sock is None  # its reply, unread, must not answer the next caller
    assert _spares[client.connection_pool]._idle == []
    del connection.read_response
    assert lean(keys=["a", "n"], args=["z"]) == [b"z", 3]


def test_the_lean_calls_skip_the_pools_checks_and_keep_their_connections_apart(client: redis.Redis) -> None:
    lean = LeanScript(client, ECHO)
    pool = client.connection_pool
    assert lean(keys=["a", "n"], args=["x"]) == [b"x", 1]  # redis-py's own call loaded the script
    lent = pool._created_connections
    for n in range(2, 5):
        assert lean(keys=["a", "n"], args=["x"]) == [b"x", n]
    assert pool._created_connections == lent and len(pool._in_use_connections) == 0
    assert len(_spares[pool]._idle) == 1  # one connection served the three calls


def test_a_forked_child_does_not_reuse_its_parents_connections(client: redis.Redis) -> None:
    lean = LeanScript(client, ECHO)
    assert lean(keys=["a", "n"], args=["x"]) == [b"x", 1]
    spare = _spares[client.connection_pool]
    assert len(spare._idle) == 1
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # the child tells how many of its parent's connections it would reuse
        os.write(write, str(len(spare._idle)).encode())
        os._exit(0)
    os.close(write)
    os.waitpid(child, 0)
    assert os.read(read, 16) == b"0"
    os.close(read)
    assert len(spare._idle) == 1  # the parent keeps its own
