"""Coup for Intrigue: the game protocol of :mod:`games.base`, for 2 to 6 seats.

The layout every game shares: the decisions in :mod:`.rules`, the fold in :mod:`.fold`,
the per-seat views in :mod:`.views`, the transcript lines in :mod:`.describe`, the
components in ``data/cards.json`` read by :mod:`.components`; README.md summarises the
rules and documents the client API.
"""

from games.coup.codes import RULE_CODES
from games.coup.describe import describe
from games.coup.fold import evolve
from games.coup.orders import ORDER_CONDITIONS, ORDER_DECISIONS
from games.coup.rules import (
    MAX_SEATS,
    MIN_SEATS,
    NAME,
    REQUIRED_FIELDS,
    SECRET_OPTIONS,
    awaiting,
    decide,
    legal_actions,
    may_act,
    on_timeout,
    outcome,
    resolve,
    setup,
    validate_options,
)
from games.coup.sample import determinize, prepare_sampler
from games.coup.schema import ACTION_SCHEMA, OPTIONS_SCHEMA
from games.coup.views import redact, view

__all__ = [
    "ACTION_SCHEMA",
    "MAX_SEATS",
    "MIN_SEATS",
    "NAME",
    "OPTIONS_SCHEMA",
    "ORDER_CONDITIONS",
    "ORDER_DECISIONS",
    "REQUIRED_FIELDS",
    "RULE_CODES",
    "SECRET_OPTIONS",
    "awaiting",
    "decide",
    "determinize",
    "describe",
    "evolve",
    "legal_actions",
    "may_act",
    "on_timeout",
    "outcome",
    "prepare_sampler",
    "redact",
    "resolve",
    "setup",
    "validate_options",
    "view",
]
