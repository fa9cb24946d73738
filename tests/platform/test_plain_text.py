"""The one-line text rule and its pattern in the API document refuse the same characters."""

from __future__ import annotations

import re

from service.plain_text import PATTERN, first_unprintable


def test_the_documents_pattern_and_the_check_agree_on_every_basic_plane_character() -> None:
    pattern = re.compile(PATTERN)
    disagree = [hex(code) for code in range(0x10000)
                if (first_unprintable(chr(code)) is None) != bool(pattern.fullmatch(chr(code)))]
    assert disagree == []


def test_line_breaks_escapes_and_overrides_are_found_and_letters_are_not() -> None:
    assert first_unprintable("a\nb") == "\n"
    assert first_unprintable("x\u202ey") == "\u202e"
    assert first_unprintable("Наташа d'Arc 李 🎲") is None
