"""gunicorn settings for the API (``gunicorn -c python:service.gunicorn_conf service.wsgi:app``;
the image sets ``GUNICORN_CMD_ARGS=--config python:service.gunicorn_conf``).

The worker class is gevent: a long-poll or a server-sent event stream is a greenlet
waiting on a socket, not a thread, so thousands of watchers cost memory, not threads,
and do not hold up a move (docs/ARCHITECTURE.md). gunicorn's own refusals (a header too
large, a malformed request line) are written as problem+json like every answer of the API.
"""

from __future__ import annotations

import os
from typing import Any

from engine.settings import Settings

CGROUP_CPU_MAX = "/sys/fs/cgroup/cpu.max"


def usable_cpus(cpu_max: str = CGROUP_CPU_MAX) -> int:
    """The cores this process may run on, capped by a cgroup (v2) CPU quota such as a container's."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    try:
        with open(cpu_max) as file:
            quota, period = file.read().split()[:2]
        if quota != "max":
            cores = min(cores, max(1, -(-int(quota) // int(period))))
    except (OSError, ValueError):
        pass
    return cores


def default_api_processes(cores: int) -> int:
    """One API process per core but one, and at least one.

    A gevent API process uses at most one core, and Redis, the workers and the OS need
    the rest; each API process that holds a game's watchers also reads and folds every
    event of that game. Measured side by side on a 2-core machine with Redis and two
    workers, one process took less CPU per move than two and had a lower p99, for about
    the same moves per second (docs/performance.md).
    """
    return max(1, cores - 1)


settings = Settings.at_start("intrigue")
bind = settings.bind
workers = settings.web_concurrency or default_api_processes(usable_cpus())
#: gevent, with ``select`` left unpatched (see service/gevent_worker.py for why).
worker_class = "service.gevent_worker.Worker"
#: Open connections per API process: watchers plus players.
worker_connections = 10_000
#: Long keep-alive: clients that post a move every few hundred milliseconds keep their socket.
#: The gevent worker bounds it by INTRIGUE_HEADER_TIMEOUT (the wait for a request's headers).
keepalive = 75
#: Request lines up to gunicorn's ceiling, so an over-long query is the app's 400, not a 414.
limit_request_line = 8190
#: A long-poll waits up to 30 s; a stream lives as long as its client.
timeout = 60


def post_worker_init(worker: Any) -> None:
    from service.chunked_bodies import refuse_oversized_chunks
    from service.http_errors import answer_gunicorn_errors_as_problems

    answer_gunicorn_errors_as_problems()
    refuse_oversized_chunks()


def post_fork(server: Any, worker: Any) -> None:
    """A worker dies with its arbiter: after ``kill -9`` of ``intrigue serve`` (or of the
    image's gunicorn) no worker keeps serving a socket, or the data of a Redis that is gone."""
    import ctypes
    import signal

    from service.datadir import PR_SET_PDEATHSIG

    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):  # not Linux: gunicorn's own parent check remains
        return
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != server.pid:  # the arbiter died before the line above
        os._exit(1)
