"""Revolution! for Intrigue: the game protocol of :mod:`games.base`, for 3 or 4 seats.

The layout every game shares: the decisions in :mod:`.rules`, the fold in :mod:`.fold`,
the per-seat views in :mod:`.views`, the transcript lines in :mod:`.describe`, the
components in ``data/board.json`` read by :mod:`.components`; README.md summarises the
rules and documents the client API.
"""

from games.revolution.codes import RULE_CODES
from games.revolution.describe import describe
from games.revolution.fold import evolve
from games.revolution.orders import ORDER_ANSWER_TYPES, ORDER_CONDITIONS, ORDER_DECISIONS, order_answer
from games.revolution.rules import (
    MAX_SEATS,
    MIN_SEATS,
    NAME,
    REQUIRED_FIELDS,
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
from games.revolution.sample import determinize, prepare_sampler
from games.revolution.schema import ACTION_SCHEMA, OPTIONS_SCHEMA
from games.revolution.views import redact, view

__all__ = [
    "ACTION_SCHEMA",
    "MAX_SEATS",
    "MIN_SEATS",
    "NAME",
    "OPTIONS_SCHEMA",
    "ORDER_ANSWER_TYPES",
    "ORDER_CONDITIONS",
    "ORDER_DECISIONS",
    "REQUIRED_FIELDS",
    "RULE_CODES",
    "awaiting",
    "decide",
    "determinize",
    "describe",
    "evolve",
    "legal_actions",
    "may_act",
    "on_timeout",
    "order_answer",
    "outcome",
    "prepare_sampler",
    "redact",
    "resolve",
    "setup",
    "validate_options",
    "view",
]
