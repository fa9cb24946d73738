"""Ideology: The War of Ideas for Intrigue: the game protocol of :mod:`games.base`, 2 to 5 seats.

The rules live in :mod:`.rules`, the per-seat views and transcript lines in :mod:`.views`,
the components in ``data/*.json`` (validated by :mod:`.components`); README.md summarises
the rules and documents the client API.
"""

from games.ideology.codes import RULE_CODES
from games.ideology.rules import (
    MAX_SEATS,
    MIN_SEATS,
    NAME,
    PLAYOUT_OPTIONS,
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
from games.ideology.views import describe, redact, view

__all__ = [
    "MAX_SEATS",
    "MIN_SEATS",
    "NAME",
    "PLAYOUT_OPTIONS",
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
