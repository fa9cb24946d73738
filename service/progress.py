"""One progress display for long work: the ``intrigue`` commands and the bench scripts."""

from __future__ import annotations

import sys
import time


class Progress:
    """A line on stderr: redrawn in place on a terminal, printed every tenth of the way otherwise.

    Use ``step()`` when counting as you go, or pass ``update`` as a ``(done, total)``
    callback to code that knows both.
    """

    def __init__(self, label: str, total: int = 0, unit: str = "") -> None:
        self.label, self.total, self.done, self.started = label, total, 0, time.monotonic()
        self.unit = f" {unit}" if unit else ""
        self.tty = sys.stderr.isatty()

    def step(self, count: int = 1) -> None:
        self.update(self.done + count, self.total)

    def update(self, done: int, total: int) -> None:
        self.done, self.total = done, total
        finished = done >= total
        if not (self.tty or finished or done % max(1, total // 10) == 0):
            return
        line = f"{self.label}: {done}/{total}{self.unit} ({time.monotonic() - self.started:.1f}s)"
        if self.tty:
            print("\r" + line, end="\n" if finished else "", file=sys.stderr, flush=True)
        else:
            print(line, file=sys.stderr, flush=True)
