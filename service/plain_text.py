"""One rule for any text the other seats will read: it prints as one line, as it was typed.

Names and chat texts reach other players' screens and the transcript, one line each. A
line break, a terminal escape or a bidirectional override in them could forge a line of
the transcript ("mallory\\nThe game ends: seat 1 wins") or make text read backwards, so
they are refused where the text comes in.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from marshmallow import ValidationError, validate

#: Unicode categories refused: controls (C0, DEL, C1: line breaks, tabs, escapes) and the
#: line and paragraph separators.
_REFUSED_CATEGORIES = frozenset({"Cc", "Zl", "Zp"})

#: Bidirectional formatting characters: marks, embeddings, overrides and isolates.
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")

#: The same rule as a JSON Schema pattern, for the API document.
PATTERN = "^[^\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u2028-\\u202e\\u2066-\\u2069]*$"

MESSAGE = "control characters, line breaks and bidirectional overrides are not allowed"


def first_unprintable(value: str) -> str | None:
    """The first character of ``value`` the rule refuses, or None when it has none."""
    for char in value:
        if char in BIDI_CONTROLS or unicodedata.category(char) in _REFUSED_CATEGORIES:
            return char
    return None


class OneLine(validate.Validator):
    """A marshmallow validator: the text holds no character the rule refuses."""

    def __call__(self, value: Any) -> Any:
        char = first_unprintable(value)
        if char is not None:
            raise ValidationError(f"{MESSAGE} (U+{ord(char):04X})")
        return value
