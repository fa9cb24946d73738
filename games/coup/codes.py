"""Every code Coup's rules refuse with, and what it means: the declaration the API reference and
the conformance suite read (a code raised and not listed here fails the suite)."""

from __future__ import annotations

RULE_CODES: dict[str, str] = {
    "bad_seat_count": "Coup is not played by this many seats",
    "unknown_option": "an option Coup does not have",
    "bad_deck": "the `deck` option is not a list of card names",
    "not_your_turn": "the seat is not awaited, or posted a turn action while a window is open",
    "unknown_action": "no string `type`, or a type unknown at this moment",
    "unknown_field": "a key the action does not take",
    "missing_field": "a field the action's type requires is missing",
    "bad_field": "a field's value is not of the JSON type the action declares for it",
    "must_coup": "ten or more coins at the start of the turn and the action is not a coup",
    "missing_target": "a targeted action without `target`",
    "bad_target": "the target is not a seat of this game, or is the acting seat",
    "target_eliminated": "the target has been exiled",
    "not_enough_coins": "too few coins for an assassination or a coup",
    "cannot_challenge": "nothing in this window can be challenged",
    "cannot_block": "this action cannot be blocked, not by this seat, or not with that card",
    "must_reveal": "a seat owing a reveal posted another decision",
    "card_not_in_hand": "a reveal or keep of a card the seat does not hold",
    "must_keep": "an exchanging seat posted another decision",
    "bad_keep": "`cards` is not a list of card names of the right length",
}
