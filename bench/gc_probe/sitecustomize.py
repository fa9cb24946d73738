"""Counts every garbage collection of a process, for bench/gc_pauses.py.

Python imports a ``sitecustomize`` module at start-up from its path; the bench puts this
folder on the path of the processes it starts, and names a folder in
``INTRIGUE_GC_PROBE_DIR``. Each process then writes ``<pid>.json`` there after every
collection: per generation, how many collections and their CPU time (the thread's clock, so
time the process spent preempted does not count), and the pauses of a millisecond or more
(when each ended, how long it lasted: the last thousand).
A forked process (gunicorn's workers) starts from its parent's counts; the bench reads
differences, so that does not matter.
"""

from __future__ import annotations

import gc
import json
import os
import time
from typing import Any

_FOLDER = os.environ.get("INTRIGUE_GC_PROBE_DIR")
_started: list[float] = [0.0, 0.0]
#: generation -> [collections, CPU seconds]
_counts: dict[int, list[float]] = {}
#: generation -> [[ended at (epoch seconds), wall seconds], ...] for pauses of LONG or more
_pauses: dict[int, list[list[float]]] = {}
LONG = 0.001


def _collected(phase: str, info: dict[str, Any]) -> None:
    if phase == "start":
        _started[0], _started[1] = time.thread_time(), time.perf_counter()
        return
    cpu, wall = time.thread_time() - _started[0], time.perf_counter() - _started[1]
    entry = _counts.setdefault(info["generation"], [0, 0.0])
    entry[0] += 1
    entry[1] += cpu
    if wall >= LONG:
        pauses = _pauses.setdefault(info["generation"], [])
        pauses.append([time.time(), wall])
        del pauses[:-1000]
    path = os.path.join(_FOLDER, f"{os.getpid()}.json")  # type: ignore[arg-type]
    with open(path + ".new", "w") as out:  # replaced whole: a reader never sees half a file
        json.dump({"generations": _counts, "pauses": _pauses}, out)
    os.replace(path + ".new", path)


if _FOLDER:
    gc.callbacks.append(_collected)
