"""Coup for Intrigue: the game protocol of :mod:`games.base`, for 2 to 6 seats.

The rules live in :mod:`.rules`, the per-seat views in :mod:`.views`, the components in
``data/cards.json``; README.md summarises the rules and documents the client API.
"""

from games.coup.codes import RULE_CODES
from games.coup.describe import describe
from games.coup.rules import (
    MAX_SEATS,
    MIN_SEATS,
    NAME,
    REQUIRED_FIELDS,
    SECRET_OPTIONS,
    awaiting,
    decide,
    evolve,
    legal_actions,
    may_act,
    on_timeout,
    outcome,
    resolve,
    setup,
    validate_options,
)
from games.coup.views import redact, view

__all__ = [
    "MAX_SEATS",
    "MIN_SEATS",
    "NAME",
    "REQUIRED_FIELDS",
    "RULE_CODES",
    "SECRET_OPTIONS",
    "awaiting",
    "decide",
    "describe",
    "evolve",
    "legal_actions",
    "may_act",
    "on_timeout",
    "outcome",
    "redact",
    "resolve",
    "setup",
    "validate_options",
    "view",
]
