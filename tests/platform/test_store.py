"""The event store's client-side guarantees against a real Redis."""

from __future__ import annotations

from events.envelope import GENESIS_HASH, Envelope, seal
from events.store import EventStore, Gate, IndexCommands, connect
from service.embedded import EmbeddedRedis


def test_connect_allows_more_connections_than_a_busy_api_process_has_threads(platform_redis: EmbeddedRedis) -> None:
    client = connect(platform_redis.url)
    held = [client.connection_pool.get_connection() for _ in range(150)]
    try:
        assert len({id(c) for c in held}) == 150
    finally:
        for connection in held:
            client.connection_pool.release(connection)


def _event(seq: int, prev: str = GENESIS_HASH) -> Envelope:
    return seal(seq, "Noted", "2026-11-23T00:00:00.000Z", None, {"n": seq}, {}, prev)


def test_index_commands_run_inside_a_successful_append_and_give_their_replies(platform_redis: EmbeddedRedis) -> None:
    client = connect(platform_redis.url)
    client.flushall()
    store = EventStore(client)
    index = IndexCommands()
    index.zadd("inbox", {"g1": 1795468525.057931})
    index.set("mark", 1, nx=True, px=5000)
    index.set("mark", 1, nx=True, px=5000)  # taken already: a nil reply, kept in its place
    index.hset("meta", mapping={"indexed": 1, "card": '{"id": "g1"}'})
    index.smismember("hooked", ["a", "b"])
    client.sadd("hooked", "b")
    result = store.append("g1", 0, [_event(1)], index=index)
    assert result.status == "ok" and result.version == 1
    assert list(result.replies) == [1, b"OK", None, 2, [0, 1]]
    assert client.zscore("inbox", "g1") == 1795468525.057931
    assert 0 < client.pttl("mark") <= 5000
    assert client.hgetall("meta") == {b"indexed": b"1", b"card": b'{"id": "g1"}'}


def test_index_commands_of_an_append_that_loses_the_race_do_not_run(platform_redis: EmbeddedRedis) -> None:
    client = connect(platform_redis.url)
    client.flushall()
    store = EventStore(client)
    first = _event(1)
    assert store.append("g1", 0, [first]).status == "ok"
    index = IndexCommands()
    index.zadd("inbox", {"g1": 1.0})
    index.zrem("lobby", "g1")
    client.zadd("lobby", {"g1": 1.0})
    result = store.append("g1", 0, [_event(1)], index=index)  # decided on version 0: stale
    assert result.status == "conflict" and not result.replies
    assert client.exists("inbox") == 0 and client.zscore("lobby", "g1") == 1.0
    assert [e.seq for e in store.read("g1")] == [1]


def test_a_gate_spends_a_token_only_when_the_append_goes_ahead_and_refuses_one_without(
        platform_redis: EmbeddedRedis) -> None:
    client = connect(platform_redis.url)
    client.flushall()
    store = EventStore(client)
    gate = Gate("bucket", rate=0.001, burst=2)  # two tokens, the next one in 1,000 s
    first = _event(1)
    assert store.append("g1", 0, [first], idempotency=("0:k", {"first": 1}), gates=(gate,)).status == "ok"
    assert 0.99 < float(client.hget("bucket", "tokens")) <= 1
    # Neither a stale append nor a duplicate key spends the token.
    assert store.append("g1", 0, [_event(1)], gates=(gate,)).status == "conflict"
    assert store.append("g1", 1, [_event(2, first.hash)], idempotency=("0:k", {}), gates=(gate,)).status == "duplicate"
    assert 0.99 < float(client.hget("bucket", "tokens")) <= 1
    second = _event(2, first.hash)
    assert store.append("g1", 1, [second], gates=(gate,)).status == "ok"
    # Out of tokens: refused with the wait, and nothing is written or announced.
    pubsub = client.pubsub()
    pubsub.subscribe(store.keys.feed("g1"))
    assert pubsub.get_message(timeout=1)["type"] == "subscribe"
    index = IndexCommands()
    index.set("mark", 1)
    result = store.append("g1", 2, [_event(3, second.hash)], index=index, gates=(gate,))
    assert result.status == "limited" and 990 < result.wait <= 1000 and result.empty == gate
    assert [e.seq for e in store.read("g1")] == [1, 2] and store.version("g1") == 2
    assert client.exists("mark") == 0
    assert pubsub.get_message(timeout=0.2) is None
    pubsub.close()


def test_gates_spend_a_token_of_every_bucket_or_of_none_and_name_the_empty_one(
        platform_redis: EmbeddedRedis) -> None:
    client = connect(platform_redis.url)
    client.flushall()
    store = EventStore(client)
    player = Gate("player-bucket", rate=0.001, burst=5)
    address = Gate("address-bucket", rate=0.001, burst=1, name="address")  # one token, then 1,000 s
    first = _event(1)
    assert store.append("g1", 0, [first], gates=(player, address)).status == "ok"
    assert 3.99 < float(client.hget("player-bucket", "tokens")) <= 4
    assert float(client.hget("address-bucket", "tokens")) < 0.01
    result = store.append("g1", 1, [_event(2, first.hash)], gates=(player, address))
    assert result.status == "limited" and result.empty == address and 990 < result.wait <= 1000
    # The player's bucket kept its token: all or none.
    assert 3.99 < float(client.hget("player-bucket", "tokens")) <= 4
    assert store.version("g1") == 1
