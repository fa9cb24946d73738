"""The rate limits in headers: ``RateLimit-Policy`` and ``RateLimit`` on every answer under a limit.

The syntax is draft-ietf-httpapi-ratelimit-headers' structured fields: a policy names its
quota ``q`` over a window of ``w`` seconds (``"player";q=50;w=1``), and the answer says how
much of it is left (``r``) and in how many seconds it is whole again (``t``):
``RateLimit: "player";r=42;t=1``. A request spends a token of each of its buckets (the
player's and its address's ceiling, or an anonymous caller's address); each is a policy.

``service.admission.admit``, which admits every request on either path (the Flask app's
``before_request``, or a fast handler of ``service.front``), leaves its gates in the
request's environ (``GATES``); the ``start_response`` the front hands to both
(:func:`with_rate_limit_headers`) reads the buckets as they are once the answer starts (one
round trip) and adds the headers. A 429
gets them too, with ``r=0``; its problem names the policy spent (``policy``), and its
``Retry-After`` is the problem answer's own.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from engine.core import Engine
from events.store import Gate

#: The environ key of the gates a request spent (or asked for, when it was refused).
GATES = "intrigue.rate_gates"

StartResponse = Callable[..., Any]


def policy(gate: Gate) -> tuple[int, int]:
    """A bucket as a draft policy: (quota, window in seconds). A per-second bucket is its
    rate over one second; a slower one (per hour) its whole burst over the time it refills in."""
    if gate.rate >= 1:
        return max(1, math.floor(gate.rate)), 1
    return max(1, math.floor(gate.burst)), max(1, round(gate.burst / gate.rate))


def rate_limit_headers(gates: Sequence[Gate], left: Sequence[float]) -> list[tuple[str, str]]:
    """The two headers for ``gates`` whose buckets hold ``left`` tokens now."""
    policies, states = [], []
    for gate, tokens in zip(gates, left, strict=True):
        quota, window = policy(gate)
        remaining = max(0, min(quota, math.floor(tokens)))
        reset = 0 if tokens >= quota else math.ceil((quota - tokens) / gate.rate)
        policies.append(f'"{gate.name}";q={quota};w={window}')
        states.append(f'"{gate.name}";r={remaining};t={reset}')
    return [("RateLimit-Policy", ", ".join(policies)), ("RateLimit", ", ".join(states))]


def with_rate_limit_headers(engine: Engine, environ: dict[str, Any], start_response: StartResponse) -> StartResponse:
    """``start_response`` adding the headers when the request left its gates in the environ
    (the front, ``service.front.Front``, hands this one to both paths)."""

    def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
        gates = environ.get(GATES)
        if gates:
            try:
                headers = [*headers, *rate_limit_headers(gates, engine.limiter.left(gates))]
            except Exception:  # the store is unreachable: the answer (often a 503) goes without them
                pass
        return start_response(status, headers, exc_info) if exc_info is not None else start_response(status, headers)

    return start
