"""Table talk and webhooks on a Redis Cluster: scripts and pipelines stay within what a cluster allows.

A chat message is appended by a script that reads the game's version (keys of one hash
tag) and the feed reads events and chat in one pipeline; a webhook's keys live on
several shards, so its pipelines are not transactions.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import redis

from engine.core import Engine
from engine.scheduling import JobScheduler, make_queue
from service.embedded import EmbeddedRedis
from tests.support.redis_cluster import LocalCluster


@pytest.fixture(scope="module")
def cluster_engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    nodes = LocalCluster(tmp_path_factory.mktemp("cluster"), masters=3, replicas=0).start()
    queues = EmbeddedRedis(tmp_path_factory.mktemp("cluster-queues"), persist=False).start()
    engine = Engine(nodes.client(), JobScheduler(make_queue(redis.Redis.from_url(queues.url))))
    try:
        yield engine
    finally:
        engine.watcher.stop()  # its listener would try the stopped nodes until the suite ends
        queues.stop()
        nodes.stop()


def test_chat_and_webhooks_work_on_a_cluster(cluster_engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    engine = cluster_engine
    monkeypatch.setattr(engine.hooks, "private_ok", True)  # INTRIGUE_WEBHOOKS_ALLOW_PRIVATE=1
    received: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802
            received.append(self.headers["Intrigue-Event"])
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    receiver = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    try:
        players = [engine.create_player(f"c{i}")[0] for i in range(2)]
        hook = engine.hooks.create(players[1].id, f"http://127.0.0.1:{receiver.server_address[1]}/", ["your_turn"])
        game_id, version = "c1a55e7", 7  # a game's version is all a message reads of it
        engine.redis.hset(engine.keys.meta(game_id), "version", version)

        message = engine.chat.post(game_id, 0, 1, "psst")
        assert message["id"] == f"{version}-0" and message["version"] == version
        assert engine.chat.post(game_id, 1, None, "hm")["id"] == f"{version}-1"
        events, messages = engine.chat.read_with_events(game_id, 0, None, 1, 500)
        assert events == [] and [m["text"] for m in messages] == ["psst", "hm"]
        engine.chat.check_rate(players[0].id)
        # A long-poll waits on the process's feed watcher: the chat post publishes from its
        # script on the game's shard, and the listener hears it.
        with engine.watcher.watch(game_id) as watch:
            engine.chat.post(game_id, 1, None, "and you?")
            assert watch.wait(10) and watch.chat

        # Seat 1 became awaited: its dispatch (the job a worker would run) delivers it.
        assert engine.hooks.dispatch(players[1].id, "your_turn", game_id, version, 1, None, str(version)) == 1
        assert received == ["your_turn"]
        assert [d["status"] for d in engine.hooks.deliveries(players[1].id, hook["id"])] == ["delivered"]
        assert engine.hooks.sweep() == 0
        engine.hooks.delete(players[1].id, hook["id"])
        assert engine.hooks.listing(players[1].id) == []
    finally:
        receiver.shutdown()
        receiver.server_close()


def test_the_ceilings_hold_on_a_cluster(cluster_engine: Engine) -> None:
    """Open games (reserved before the append), both rate buckets, and stream leases: keys of several shards."""
    from engine.errors import Conflict, Limited
    from engine.settings import Bucket

    host, _ = cluster_engine.create_player("cluster-host")
    made = [cluster_engine.create_game(host, "coup", 2, {}, {"seconds_per_move": 60}, max_open=2)["id"]
            for _ in range(2)]
    with pytest.raises(Conflict) as refused:
        cluster_engine.create_game(host, "coup", 2, {}, {"seconds_per_move": 60}, max_open=2)
    assert refused.value.code == "too_many_open_games"
    assert sorted(raw.decode() for raw in cluster_engine.redis.zrange(cluster_engine.keys.hosting(host.id), 0, -1)) \
        == sorted(made)
    player_bucket, address_bucket = Bucket("player", 100, 100), Bucket("address", 1, 1)
    cluster_engine.take_all([(player_bucket, host.id), (address_bucket, "10.3.3.3")])
    with pytest.raises(Limited) as limited:
        cluster_engine.take_all([(player_bucket, host.id), (address_bucket, "10.3.3.3")])
    assert limited.value.code == "address_rate_limited"
    lease = cluster_engine.open_stream(host.id, "10.3.3.4", per_player=1, per_address=5)
    with pytest.raises(Limited) as streams:
        cluster_engine.open_stream(host.id, "10.3.3.4", per_player=1, per_address=5)
    assert streams.value.code == "too_many_streams"
    assert cluster_engine.streams.held("address:10.3.3.4") == 1  # the refused one gave its place back
    lease.release()
    assert cluster_engine.streams.held(f"player:{host.id}") == 0
