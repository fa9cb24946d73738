"""A bounded poll: wait for a condition the system will reach, never for a fixed time."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def wait_until(check: Callable[[], T], what: str, timeout: float = 60.0, interval: float = 0.05) -> T:
    """``check()``'s first truthy answer, polled every ``interval`` seconds for at most ``timeout``."""
    give_up = time.monotonic() + timeout
    pause = threading.Event()
    while time.monotonic() < give_up:
        found = check()
        if found:
            return found
        pause.wait(interval)
    raise AssertionError(f"timed out waiting for {what}")
