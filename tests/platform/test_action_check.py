"""An action body's check (``service.actions.action_errors``) says what ``ActionSchema`` says.

The check answers the usual case (an object with a short string ``type``) itself and
hands everything else to the schema; the two must agree on every input, or a body the
schema refuses would reach the rules.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from service.actions import ACTION_SCHEMA, action_errors

_LEAVES = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=70)
_JSON = st.recursive(_LEAVES, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner,
                                                                                        max_size=3), max_leaves=8)
_TYPES = st.text(max_size=70) | st.sampled_from(["", "a" * 64, "a" * 65, "income", "é" * 64]) | _LEAVES
_ACTIONS = st.builds(lambda kind, rest: {**rest, "type": kind}, _TYPES,
                     st.dictionaries(st.text(max_size=8), _JSON, max_size=3)) | _JSON


@given(_ACTIONS)
def test_the_check_agrees_with_the_schema(action: Any) -> None:
    assert action_errors(action) == ACTION_SCHEMA.validate(action)


def test_the_schema_still_refuses_what_it_refused() -> None:
    assert action_errors({"type": ""}) == {"type": ["Length must be between 1 and 64."]}
    assert action_errors({"type": "a" * 65}) == {"type": ["Length must be between 1 and 64."]}
    assert action_errors({"type": 3}) == {"type": ["Not a valid string."]}
    assert action_errors({"target": 1}) == {"type": ["Missing data for required field."]}
    assert action_errors([1]) == {"_schema": ["Invalid input type."]}
    assert action_errors({"type": "a" * 64, "extra": [1, {"x": None}]}) == {}
