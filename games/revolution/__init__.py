"""Revolution! for Intrigue: the game protocol of :mod:`games.base`, for 3 or 4 seats.

The rules live in :mod:`.rules`, the per-seat views in :mod:`.views`, the components in
``data/board.json``; README.md summarises the rules and documents the client API.
"""

from games.revolution.codes import RULE_CODES
from games.revolution.describe import describe
from games.revolution.rules import (
    MAX_SEATS,
    MIN_SEATS,
    NAME,
    REQUIRED_FIELDS,
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
from games.revolution.views import redact, view

__all__ = [
    "MAX_SEATS",
    "MIN_SEATS",
    "NAME",
    "REQUIRED_FIELDS",
    "RULE_CODES",
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
