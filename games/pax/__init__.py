"""Pax Porfiriana for Intrigue: the game protocol of :mod:`games.base`, for 2 to 6 seats.

The card file format lives in :mod:`.cards`, the fold in :mod:`.fold`, readings of the
board in :mod:`.board`, shared table steps in :mod:`.effects`, the nine actions in
:mod:`.actions`, the protocol in :mod:`.rules` and the views in :mod:`.views`; the
original starter set is ``data/starter.json``. README.md summarises the rules and
documents the client API.
"""

from games.pax.codes import RULE_CODES
from games.pax.fold import evolve
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
from games.pax.schema import ACTION_SCHEMA, REQUIRED_FIELDS
from games.pax.views import describe, redact, view

__all__ = [
    "ACTION_SCHEMA",
    "MAX_SEATS",
    "MIN_SEATS",
    "NAME",
    "REQUIRED_FIELDS",
    "PLAYOUT_OPTIONS",
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
