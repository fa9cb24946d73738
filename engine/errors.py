"""What the application refuses, by kind: the transport decides how each kind is answered.

Each error carries a stable ``code`` for clients, a ``detail`` for people and any
``extra`` fields the answer shows (the game's version, the legal actions, when to
retry). Details are written from what the caller may already see: never another seat's
hand, bid, the deck or the seed.
"""

from __future__ import annotations

from typing import Any


class DomainError(Exception):
    """A refused command or query; subclasses say which kind of refusal it is."""

    def __init__(self, code: str, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.extra = extra


class NotFound(DomainError):
    """What was named does not exist (a game, a version, a webhook)."""


class Forbidden(DomainError):
    """The caller may not do this (not seated, not yet published)."""


class Conflict(DomainError):
    """The game's state does not allow it now (over, not open, moved on, busy)."""


class NotYourTurn(Conflict):
    """The seat has no decision to make now."""


class Invalid(DomainError):
    """The request is well formed but the rules or the settings refuse it."""


class Limited(DomainError):
    """The caller is out of allowance; ``retry_after`` says when to come back."""

    def __init__(self, code: str, detail: str, retry_after: float, **extra: Any) -> None:
        super().__init__(code, detail, retry_after=retry_after, **extra)
        self.retry_after = retry_after


#: Rule codes that fault the game's moment, not the action: a conflict whichever layer raises them,
#: so every problem code answers with one status.
CONFLICT_RULE_CODES = frozenset({"not_your_turn", "game_over"})


def rule_refusal(code: str, detail: str, **extra: Any) -> DomainError:
    """The domain error for a game's rule refusal: a conflict for the codes above, else invalid."""
    if code == "not_your_turn":
        return NotYourTurn(code, detail, **extra)
    if code in CONFLICT_RULE_CODES:
        return Conflict(code, detail, **extra)
    return Invalid(code, detail, **extra)
