"""The one status each game-rule refusal answers with.

A game's rules refuse with a code; the platform answers 422 for most, since the action
itself is at fault. A few codes mean something else and are also raised by the platform
itself: ``not_your_turn`` says that the game is in a state where this seat owes no such
decision (someone moved first, or a window is open) and ``game_over`` that it has ended,
so each is a 409 conflict whoever raised it. Every problem code has one status, whatever
game and whichever layer.
"""

from __future__ import annotations

#: Rule codes whose status is not 422.
RULE_CODE_STATUS: dict[str, int] = {"not_your_turn": 409, "game_over": 409}


def rule_status(code: str) -> int:
    """The HTTP status of a refusal by a game's rules with ``code``."""
    return RULE_CODE_STATUS.get(code, 422)
