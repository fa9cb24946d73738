"""Spending a caller's rate-limit tokens around a command: inside its append when it appends,
apart when it does not (a refusal, a replayed answer, a seat already held), and first of all
on a cluster, where a bucket lives in another hash slot than the game."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import is_dataclass, replace
from typing import Any, TypeVar, cast

from engine.errors import DomainError, Limited
from engine.ratelimit import RateLimiter, limited
from engine.settings import Bucket
from events.store import Gate

#: What a gated attempt returns (see Gating.gated).
T = TypeVar("T")


class Gating:
    def __init__(self, limiter: RateLimiter, cluster: bool) -> None:
        self.limiter = limiter
        self.cluster = cluster

    def gates(self, asked: list[tuple[Bucket, str]]) -> tuple[Gate, ...]:
        """The gates that spend a token of each ``(bucket, subject)`` in an action's append."""
        return self.limiter.gates(asked)

    def take_all(self, asked: list[tuple[Bucket, str]]) -> None:
        """Spend one token of each ``(bucket, subject)`` in one round trip, all or none, or refuse."""
        wait, empty = self.limiter.allow_all(asked)
        if wait:
            raise limited(empty, wait)

    def take(self, bucket: Bucket, subject: str) -> None:
        """Spend one token of ``bucket`` for ``subject`` now, or refuse with when to retry."""
        wait = self.limiter.allow(bucket, subject)
        if wait:
            raise limited(bucket.name, wait)

    def gated(self, gates: Sequence[Gate], attempt: Callable[[Sequence[Gate]], tuple[T, bool]]) -> T:
        """Run ``attempt`` with the caller's gates, which its append spends when it appends
        (``attempt`` says whether it did); spent apart otherwise: when nothing was appended,
        when it was refused (but not for want of a token), and first of all on a cluster,
        where a bucket lives in another hash slot than the game. Spent apart, what the
        buckets hold after goes into the result's ``levels`` (the append's own said it otherwise)."""
        levels = None
        if gates and self.cluster:
            levels = self.spend_apart(gates)
            gates = ()
        try:
            result, spent = attempt(gates)
        except DomainError as refused:
            if gates and not isinstance(refused, Limited):
                self.spend_apart(gates)
            raise
        if gates and not spent:
            levels = self.spend_apart(gates)
        if levels is not None and is_dataclass(result) and hasattr(result, "levels"):
            return cast(T, replace(cast(Any, result), levels=tuple(levels)))
        return result

    def spend_apart(self, gates: Sequence[Gate]) -> list[float] | None:
        """Spend the tokens of an action whose append did not (a 429 if one is missing): what
        each bucket holds after, for the answer's RateLimit header."""
        wait, empty, levels = self.limiter.spend_all(gates)
        if wait:
            raise limited(empty, wait)
        return levels
