"""Thousands of idle HTTP watchers (event streams, long-polls) held by one thread.

One selector over plain sockets, so the test or bench that holds them costs almost
nothing and a thread per watcher on the client side cannot hide a server that needs one.
"""

from __future__ import annotations

import selectors
import socket
import time
from collections.abc import Callable
from urllib.parse import urlsplit


class Watcher:
    def __init__(self, sock: socket.socket, request: bytes) -> None:
        self.sock = sock
        self.request = request
        self.received = bytearray()


class Watchers:
    """Opens GET requests that stay open and reads whatever they receive."""

    def __init__(self, base_url: str) -> None:
        parts = urlsplit(base_url)
        self.address = (parts.hostname or "127.0.0.1", parts.port or 80)
        self.selector = selectors.DefaultSelector()
        self.all: list[Watcher] = []

    def open(self, path: str, count: int, token: str | None = None) -> list[Watcher]:
        headers = f"GET {path} HTTP/1.1\r\nHost: {self.address[0]}\r\n"
        if token:
            headers += f"Authorization: Bearer {token}\r\n"
        request = (headers + "\r\n").encode()
        opened = []
        for _ in range(count):
            sock = socket.create_connection(self.address, timeout=10)
            sock.sendall(request)
            sock.setblocking(False)
            watcher = Watcher(sock, request)
            self.selector.register(sock, selectors.EVENT_READ, watcher)
            opened.append(watcher)
            self.all.append(watcher)
            if len(opened) % 200 == 0:
                self.pump(0)
        return opened

    def pump(self, timeout: float) -> None:
        """Read whatever has arrived, waiting up to ``timeout`` for something."""
        for key, _ in self.selector.select(timeout):
            watcher: Watcher = key.data
            try:
                chunk = watcher.sock.recv(65536)
            except BlockingIOError:
                continue
            if not chunk:
                self.selector.unregister(watcher.sock)
                continue
            watcher.received += chunk

    def pump_until(self, done: Callable[[], bool], timeout: float) -> bool:
        """Keep reading until ``done()`` or ``timeout`` seconds pass; whether it got done."""
        give_up = time.monotonic() + timeout
        while not done():
            left = give_up - time.monotonic()
            if left <= 0:
                return False
            self.pump(min(left, 0.2))
        return True

    def close(self) -> None:
        for watcher in self.all:
            try:
                self.selector.unregister(watcher.sock)
            except (KeyError, ValueError):
                pass
            watcher.sock.close()
        self.all.clear()
