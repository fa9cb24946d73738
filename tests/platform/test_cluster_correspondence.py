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
    try:
        yield Engine(nodes.client(), JobScheduler(make_queue(redis.Redis.from_url(queues.url))))
    finally:
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
