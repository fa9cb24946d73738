"""A per-player token bucket, so one runaway bot cannot starve a shared server.

Kept in process memory: cheap (no Redis round trip per request) and good enough to
stop a client that loops without waiting. Behind several API processes each keeps its
own buckets, so the effective limit is per process.
"""

from __future__ import annotations

import threading
import time


class RateLimiter:
    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def allow(self, key: str) -> float:
        """0 if the request may go ahead, else the seconds to wait before retrying."""
        if self.rate <= 0:
            return 0.0
        now = time.monotonic()
        with self._lock:
            tokens, last = self._buckets.get(key, (self.burst, now))
            tokens = min(self.burst, tokens + (now - last) * self.rate)
            if tokens >= 1:
                self._buckets[key] = (tokens - 1, now)
                if len(self._buckets) > 100_000:
                    self._buckets.clear()
                return 0.0
            self._buckets[key] = (tokens, now)
            return (1 - tokens) / self.rate
