"""What the engine's commands answer: the player acting, a commit, a join, a feed page as read.

Kept apart from the parts of the engine that make them (``engine.commit``, ``engine.tables``,
``engine.reading``) so the HTTP layer and the workers can name them without the machinery.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from events.envelope import Envelope
from projections.record import Record


@dataclass(frozen=True)
class Player:
    id: str
    name: str
    #: What the token it was found by may do (service/scopes.py); None: everything.
    scopes: frozenset[str] | None = field(default=None, compare=False)
    #: A bot account (registered with ``"bot": true``): shown as a bot, kept off leaderboards.
    bot: bool = field(default=False, compare=False)


@dataclass(frozen=True)
class Committed:
    """The outcome of a command: the record after it and the events it appended."""

    record: Record
    events: list[Envelope]
    #: Whether the append spent the caller's rate-limit token (its gate ran): not for a
    #: replayed answer, nor for a commit made without a gate.
    gated: bool = False
    #: What the caller runs once its answer is sent (asked for with ``answer_first``): only
    #: requests to workers for a step the commit already recorded (see ``engine.commit.owe``).
    after_answer: tuple[Callable[[], None], ...] = ()


@dataclass(frozen=True)
class Joined:
    """The outcome of a join: the seat taken, the record after it, and the work owed after the answer."""

    seat: int
    record: Record
    after_answer: tuple[Callable[[], None], ...] = ()


@dataclass(frozen=True)
class RawPage:
    """A feed page as read (events, messages, whether a limit was hit, the record they lead
    to), before a seat's redaction: see :meth:`engine.reading.Reading.read_page`."""

    events: list[Envelope]
    messages: list[dict[str, Any]]
    full: bool
    record: Record | None
