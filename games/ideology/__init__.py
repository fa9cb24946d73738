"""Ideology: The War of Ideas for Intrigue: the game protocol of :mod:`games.base`, 2 to 5 seats.

The layout every game shares: the entry points in :mod:`.rules`, each phase's decisions in
:mod:`.phases`, the readings of the state they share in :mod:`.board`, the fold in
:mod:`.fold`, the per-seat views in :mod:`.views`, the transcript lines in :mod:`.describe`,
the components in ``data/*.json`` (validated by :mod:`.components`); README.md summarises
the rules and documents the client API.
"""

from games.ideology.codes import RULE_CODES
from games.ideology.describe import describe
from games.ideology.fold import evolve
from games.ideology.orders import ORDER_CONDITIONS, ORDER_DECISIONS
from games.ideology.rules import (
    MAX_SEATS,
    MIN_SEATS,
    NAME,
    PLAYOUT_OPTIONS,
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
from games.ideology.sample import determinize, prepare_sampler
from games.ideology.schema import ACTION_SCHEMA, OPTIONS_SCHEMA
from games.ideology.views import redact, view

__all__ = [
    "ACTION_SCHEMA",
    "MAX_SEATS",
    "MIN_SEATS",
    "NAME",
    "OPTIONS_SCHEMA",
    "ORDER_CONDITIONS",
    "ORDER_DECISIONS",
    "PLAYOUT_OPTIONS",
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
