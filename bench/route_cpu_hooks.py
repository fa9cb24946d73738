"""gunicorn hooks that charge each API process's CPU to the request it was spent on (bench only).

Loaded by ``bench/route_cpu.py`` with ``gunicorn -c``; never by the image. Under the gevent
worker a request runs in its connection's greenlet, and greenlets take turns only at switches,
so reading the process's CPU clock at every switch (``greenlet.settrace``) and whenever a
request starts or ends gives exact totals per route: no sampling, and a process preempted
in a system call is not counted as busy (py-spy does count it). What runs outside a request
is charged to where it ran: gunicorn's reading and parsing of the next request on a
connection, the event loop, and other greenlets (the feed listener, timers).

Every half second each process writes ``<pid>.json`` (label: [CPU seconds, requests]) in
``INTRIGUE_ROUTE_CPU_DIR``.
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path
from typing import Any

import greenlet

BETWEEN = "gunicorn: reading and parsing requests, keep-alive"
HUB = "gevent: the event loop"
OTHER = "other greenlets: feed listener, timers"
_ID = re.compile(r"/[0-9a-f]{8,}(?=/|$)")

_cpu: dict[str, float] = {}
_requests: dict[str, int] = {}
_last = [0.0]


def _label_of(greenlet: Any) -> str:
    label = getattr(greenlet, "route_cpu_label", None)
    if label is not None:
        return label
    return HUB if type(greenlet).__name__ == "Hub" else OTHER


def _charge(greenlet: Any) -> None:
    """Charge the CPU since the last reading to ``greenlet``'s current label."""
    now = time.process_time()
    label = _label_of(greenlet)
    _cpu[label] = _cpu.get(label, 0.0) + now - _last[0]
    _last[0] = now


def _on_switch(event: str, args: tuple[Any, Any]) -> None:
    if event in ("switch", "throw"):
        _charge(args[0])  # the greenlet that ran until now


def _relabel(label: str) -> None:
    current = greenlet.getcurrent()
    _charge(current)
    current.route_cpu_label = label


def _dump(folder: Path) -> None:
    snapshot = {label: [seconds, _requests.get(label, 0)] for label, seconds in _cpu.items()}
    partial = folder / f".{os.getpid()}.json"
    partial.write_text(json.dumps(snapshot))
    partial.replace(folder / f"{os.getpid()}.json")  # readers never see half a file


def post_worker_init(worker: Any) -> None:
    import gevent

    folder = Path(os.environ["INTRIGUE_ROUTE_CPU_DIR"])

    def dump_often() -> None:
        while True:
            gevent.sleep(0.5)
            _dump(folder)

    _last[0] = time.process_time()
    greenlet.settrace(_on_switch)
    gevent.spawn(dump_often)


def pre_request(worker: Any, req: Any) -> None:
    label = f"{req.method} {_ID.sub('/<id>', req.path)}"
    _requests[label] = _requests.get(label, 0) + 1
    _relabel(label)


def post_request(worker: Any, req: Any, environ: Any, resp: Any) -> None:
    _relabel(BETWEEN)
