"""The one status each game-rule refusal answers with, for the API document and its tests.

The engine decides the kind of a refusal (``engine.errors.rule_refusal``): most rule codes
fault the action (422), while ``not_your_turn`` and ``game_over`` fault the moment (409),
whichever layer raised them. Every problem code has one status, whatever game and layer.
"""

from __future__ import annotations

from engine.errors import rule_refusal
from service.answers import status_of


def rule_status(code: str) -> int:
    """The HTTP status of a refusal by a game's rules with ``code``."""
    return status_of(rule_refusal(code, ""))
