"""Pax Porfiriana for Intrigue: the game protocol of :mod:`games.base`, for 2 to 6 seats.

The layout every game shares: the decisions in :mod:`.rules`, the fold in :mod:`.fold`,
the per-seat views in :mod:`.views`, the transcript lines in :mod:`.describe`, the
components (the card file format and its sets, ``data/starter.json`` first) read by
:mod:`.cards`. Pax adds readings of the board in :mod:`.board`, shared table steps in
:mod:`.effects`, the nine actions in :mod:`.actions` and the action schema in
:mod:`.schema`. README.md summarises the rules and documents the client API.
"""

from games.pax.codes import RULE_CODES
from games.pax.describe import describe
from games.pax.fold import evolve
from games.pax.orders import ORDER_CONDITIONS, ORDER_DECISIONS
from games.pax.rules import (
    MAX_SEATS,
    MIN_SEATS,
    NAME,
    PLAYOUT_OPTIONS,
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
from games.pax.sample import determinize, prepare_sampler
from games.pax.schema import ACTION_SCHEMA, OPTIONS_SCHEMA, REQUIRED_FIELDS
from games.pax.views import redact, view

__all__ = [
    "ACTION_SCHEMA",
    "MAX_SEATS",
    "MIN_SEATS",
    "NAME",
    "OPTIONS_SCHEMA",
    "ORDER_CONDITIONS",
    "ORDER_DECISIONS",
    "REQUIRED_FIELDS",
    "PLAYOUT_OPTIONS",
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
