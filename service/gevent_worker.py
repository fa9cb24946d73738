"""gunicorn's gevent worker, patching everything but ``select``.

redis-py checks every pooled connection with a zero-timeout ``poll()`` before each
command. Under gevent's patched ``select`` that check becomes a trip through the event
loop (a watcher, a timeout, a switch to the hub): about an eighth of an API process's
time in the side-by-side bench. The real ``poll()`` with a zero timeout never blocks,
so it is kept; nothing in the API process selects with a timeout (the feed listener
blocks on its socket, which gevent does patch).

Once the application is loaded, what it holds is frozen out of the garbage collector's
sight and young collections run about a thirtieth as often: an API process keeps thousands of
recent game records, and each collection of the older generations walked them all (the
side by side measured the gain: docs/performance.md). The
oldest generation is still collected, after a thousand collections of the middle one, so
cyclic garbage is freed later, not never.

It also sends a response's head and the first part of its body in one write: gunicorn
writes them apart, a second system call and trip through gevent's socket for every
answer (a sixth of the worker's time outside the application went to that extra write).

Plain HTTP/1.1 requests (nearly all of them) are parsed and answered by the worker itself,
past gunicorn's request objects; the first request on a connection that is anything else goes
to gunicorn with every byte read of it (``service/http1.py``, ``Worker._serve``).

Slow clients cost little and cannot crowd others out: a request's headers must arrive
within ``INTRIGUE_HEADER_TIMEOUT`` seconds (an idle keep-alive connection lives as long),
its whole body within ``INTRIGUE_BODY_TIMEOUT`` once the headers are read (else 408
``body_timeout`` and the connection closes), and one client address holds at most
``INTRIGUE_CONNECTIONS_PER_ADDRESS`` connections to a process at once: the next is
answered 429 ``too_many_connections`` and closed before anything of it is read.
"""

from __future__ import annotations

import errno
import gc
import warnings
from typing import Any

import gevent
from gevent import monkey, socket
from gunicorn import util
from gunicorn.http import wsgi
from gunicorn.workers.ggevent import GeventWorker

from engine.settings import Limits, Settings  # the standard library alone: safe before gevent's patch
from service.deadline_body import DeadlineBody

# service.http_errors and service.answers import Flask and redis: only once a worker has patched
# (this module is imported by gunicorn's arbiter, which must not create locks gevent replaces).


#: Allocations before a young collection, and the two older generations' multipliers
#: (CPython's defaults: 700, 10, 10).
GC_THRESHOLDS = (20_000, 20, 1_000)


def freeze_settings(cfg: Any) -> None:
    """Copy gunicorn's settings into its config object, where a plain attribute lookup finds them.

    gunicorn reads each setting through ``Config.__getattr__`` and the setting's ``get``,
    some thirty reads per request; in a worker the settings never change (a reload starts
    new workers), so each read can be a dictionary hit. Settings that Config computes as
    properties (``worker_class``...) stay computed.
    """
    for name, setting in cfg.settings.items():
        if not isinstance(getattr(type(cfg), name, None), property):
            cfg.__dict__[name] = setting.get()


#: gevent warns when ``ssl`` was imported before its patch. Under ``intrigue serve`` the process
#: that forks the API workers has imported redis, whose asyncio client takes ssl's names
#: directly; the API never uses that client, and the sync one looks ssl up when it connects.
#: Only a warning naming nothing but redis.asyncio modules is silenced.
_ONLY_REDIS_ASYNCIO = (r"(?s)Monkey-patching ssl after ssl has already been imported.*"
                       r"NOT patched\): \[(?:'redis\.asyncio\.[\w.]+ \([^)]*\)'(?:, )?)+\]\.\s*$")


def patch_all_but_select() -> None:
    """gevent's patch of the standard library, ``select`` left alone (see the module's text)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=_ONLY_REDIS_ASYNCIO, category=monkey.MonkeyPatchWarning)
        monkey.patch_all(select=False)


#: How long a refused connection is read from (and what it sent dropped) before it is closed.
REFUSAL_LINGER_SECONDS = 1.0
REFUSAL_DRAIN_BYTES = 65536


class Worker(GeventWorker):
    #: Set by the first quit signal; a second one is ignored (see :meth:`handle_quit`).
    _quitting = False
    limits: Limits = Limits()
    #: Whether plain requests take the short path (see :meth:`_serve`).
    plain_requests = False

    def init_process(self) -> None:
        settings = Settings.at_start("intrigue")
        self.limits = settings.limits
        self.plain_requests = settings.plain_requests  # and the server's settings allow it: load_wsgi
        #: Connections open now, by client address (this process's).
        self.connections: dict[str, int] = {}
        super().init_process()

    def timeout_ctx(self) -> gevent.Timeout:
        """How long a request's headers may take to arrive (and an idle connection may wait)."""
        return gevent.Timeout(min(self.limits.header_timeout, self.cfg.keepalive or self.limits.header_timeout),
                              False)

    def handle(self, listener: Any, client: Any, addr: Any) -> None:
        address = addr[0] if isinstance(addr, tuple) else str(addr)
        ceiling = self.limits.connections_per_address
        held = self.connections.get(address, 0)
        if ceiling and held >= ceiling:
            refuse_connection(client, ceiling)
            return
        self.connections[address] = held + 1
        try:
            self._serve(listener, client, addr)
        finally:
            left = self.connections[address] - 1
            if left:
                self.connections[address] = left
            else:
                del self.connections[address]

    def _serve(self, listener: Any, client: Any, addr: Any) -> None:
        """Plain requests on the short path (service/http1.py), the rest by gunicorn."""
        if not self.plain_requests:
            super().handle(listener, client, addr)
            return
        from service.http1 import replaying, serve_plain

        try:
            leftover = serve_plain(self, listener.getsockname(), client, addr)
        except OSError as exc:  # as gunicorn's handler treats a socket's error
            if exc.errno not in (errno.EPIPE, errno.ECONNRESET, errno.ENOTCONN):
                self.log.exception("Socket error processing request.")
            leftover = None
        except BaseException:
            util.close(client)
            raise
        if leftover is None:
            util.close(client)
            return
        super().handle(listener, replaying(client, leftover), addr)

    def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
        """A body that timed out while gunicorn drained it (its request was answered without
        reading it): the connection just closes."""
        from service.http_errors import BodyTimeout

        if isinstance(exc, BodyTimeout):
            return
        super().handle_error(req, client, addr, exc)

    def handle_request(self, listener_name: Any, req: Any, sock: Any, addr: Any) -> Any:
        if req.body is not None:
            req.body = DeadlineBody(req.body, req, self.limits.body_timeout)
        return super().handle_request(listener_name, req, sock, addr)

    def load_wsgi(self) -> None:
        from service.http1 import plain_served

        super().load_wsgi()
        self.plain_requests = self.plain_requests and plain_served(self.cfg)
        freeze_settings(self.cfg)
        gc.collect()
        gc.freeze()  # modules, the app, the games' data: never garbage, never walked again
        gc.set_threshold(*GC_THRESHOLDS)

    def handle_quit(self, sig: int, frame: Any) -> None:
        """Quit once. A terminal's Ctrl-C reaches this process twice: from the terminal, and
        as SIGQUIT from the arbiter that got it too. gunicorn's quick exit (``sys.exit`` in a
        greenlet) then ran a second time during interpreter shutdown, and gevent printed a
        ``SystemExit`` traceback for it."""
        if self._quitting:
            return
        self._quitting = True
        super().handle_quit(sig, frame)

    def patch(self) -> None:
        patch_all_but_select()
        # What GeventWorker.patch does after patching: rewrap the listening sockets.
        self.sockets = [socket.socket(s.FAMILY, socket.SOCK_STREAM, fileno=s.sock.detach()) for s in self.sockets]


def refuse_connection(client: Any, ceiling: int) -> None:
    """429 ``too_many_connections`` on a connection over its address's ceiling, then close it.

    Nothing of the request is parsed: the answer goes out whatever the client sends. What it
    sent is read and dropped for a moment before closing (a bounded lingering close), or the
    kernel would answer its unread bytes with a reset that can destroy the 429 in flight.
    """
    from service.answers import Problem
    from service.http_errors import raw_problem_answer

    problem = Problem(429, "too_many_connections", f"your address holds {ceiling} connections to this server "
                                                   "already; close one first", retry_after=1,
                      policy="connections")
    try:
        with gevent.Timeout(REFUSAL_LINGER_SECONDS, False):  # the whole refusal, however the client drips
            client.sendall(raw_problem_answer(problem, retry_after=1))
            client.shutdown(socket.SHUT_WR)
            dropped = 0
            while dropped < REFUSAL_DRAIN_BYTES:
                data = client.recv(16384)
                if not data:
                    break
                dropped += len(data)
    except OSError:  # a client that left: done with it
        pass
    finally:
        try:
            client.close()
        except OSError:
            pass


def chunked_socket(write: Any) -> Any | None:
    """The plain gevent socket under a gunicorn response whose ``write`` (what
    ``start_response`` returned) frames its body in chunks and has sent its head, else None.

    An event stream's frames can then be sent from another greenlet between the stream's own
    writes (see service/event_stream.py); anything else (a TLS socket, a response not chunked,
    another server) keeps to the stream's own writes.
    """
    response = getattr(write, "__self__", None)
    if (not isinstance(response, wsgi.Response) or not response.chunked or not response.headers_sent
            or getattr(response, "_head", b"")):
        return None
    sock = response.sock
    # A connection the short path handed to gunicorn reads through a stand-in that replays
    # what it had read (service/http1.py); writes go to the socket under it.
    sock = getattr(sock, "writes_to", sock)
    return sock if type(sock) is socket.socket else None


def send_now(sock: Any, data: bytes) -> int:
    """Send what the kernel takes of ``data`` at once, without waiting: how many bytes went
    (gevent's ``send`` with a timeout of 0 raises rather than wait for room)."""
    try:
        return sock.send(data, 0, 0.0)
    except BlockingIOError:
        return 0
