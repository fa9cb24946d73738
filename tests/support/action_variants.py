"""Actions with one field's value swapped for a value of another JSON type: what a hostile or
careless client posts. Shared by the in-process and the HTTP conformance tests (issue 47)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

#: A value of every JSON type, and the numbers that trip rules written for small integers.
ODD_VALUES: tuple[Any, ...] = (0.0, 1.0, -0.0, 0.5, True, False, "0", "", None, [], [0], {}, {"a": 0},
                               10**30, -(10**30), -1)
#: How deep into an action's objects and lists the swaps reach.
MAX_DEPTH = 3


def paths(value: Any, depth: int = 0) -> Iterator[tuple[Any, ...]]:
    """Every place inside ``value`` (dict keys and list indexes), outermost first."""
    if depth >= MAX_DEPTH:
        return
    if isinstance(value, dict):
        items: list[tuple[Any, Any]] = list(value.items())
    elif isinstance(value, list):
        items = list(enumerate(value))
    else:
        return
    for key, inner in items:
        yield (key,)
        for rest in paths(inner, depth + 1):
            yield (key, *rest)


def replaced(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    """A copy of ``value`` with the value at ``path`` replaced by ``new``."""
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: replaced(value[head], rest, new)}
    copy = list(value)
    copy[head] = replaced(copy[head], rest, new)
    return copy


def variants(action: dict[str, Any], odd: tuple[Any, ...] = ODD_VALUES) -> Iterator[dict[str, Any]]:
    """``action`` with each field (at every depth but its ``type``) given each odd value, and with
    the odd values as a field it does not take."""
    for path in paths(action):
        if path == ("type",):
            continue
        for new in odd:
            yield replaced(action, path, new)
    yield {**action, "unexpected": 0}
