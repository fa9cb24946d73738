"""Query values as webargs reads them: the fields a route's query schema is made of, and the parser.

A value the route cannot use is a 400 problem that names it, as :mod:`service.inputs`
says of every input: a number is ASCII digits within bounds (``²`` and ``-5`` are not),
a flag is true/false/1/0. A field raises the route's own code (``bad_query`` unless it
says otherwise) with the same text the hand parsing gave, so clients see no change; each
field also says in its metadata what the document shows (bounds, enum, pattern). A route
supplies its own defaults (``query.get("limit", 50)``): a ``load_default`` would show in the
document as a ``default`` it never had.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any, NoReturn

import flask
from marshmallow import Schema, ValidationError, fields
from webargs.flaskparser import FlaskParser

from service.answers import Problem
from service.inputs import whole_number


class WholeNumber(fields.Integer):
    """A bounded whole number in ASCII digits (see :func:`service.inputs.whole_number`)."""

    def __init__(self, low: int = 0, high: int | None = None, *, code: str = "bad_query", **kwargs: Any) -> None:
        metadata = {"minimum": low, **({"maximum": high} if high is not None else {}), **kwargs.pop("metadata", {})}
        super().__init__(metadata=metadata, **kwargs)
        self.low, self.high, self.code = low, high, code

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any) -> int:
        return whole_number(str(value), name=self.data_key or self.name or "value", code=self.code,
                            low=self.low, high=self.high)


class Flag(fields.Field):
    """``true``/``1`` or ``false``/``0``."""

    def __init__(self, **kwargs: Any) -> None:
        metadata = {"type": "string", "enum": ["true", "false", "1", "0"], **kwargs.pop("metadata", {})}
        super().__init__(metadata=metadata, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any) -> bool:
        if value in ("true", "1"):
            return True
        if value in ("false", "0"):
            return False
        raise Problem(400, "bad_query", f"{self.data_key or self.name} must be true or false")


class Matching(fields.String):
    """A string that matches ``pattern`` whole, else ``code`` with ``refusal`` as its text."""

    def __init__(self, pattern: str, refusal: str, *, code: str = "bad_query", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.regex, self.refusal, self.code = re.compile(pattern), refusal, code

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any) -> str:
        if not isinstance(value, str) or self.regex.fullmatch(value) is None:
            raise Problem(400, self.code, self.refusal)
        return value


class QueryParser(FlaskParser):
    """webargs' Flask parser, answering what a field refuses (a required one left out) with 400 ``bad_query``."""

    DEFAULT_VALIDATION_STATUS = 400

    def handle_error(self, error: ValidationError, req: flask.Request, schema: Schema, *,
                     error_status_code: int | None, error_headers: Mapping[str, str] | None) -> NoReturn:
        messages = error.messages
        raise Problem(400, "bad_query", "; ".join(_texts(messages)) or "the query cannot be used")


def _texts(messages: Any) -> list[str]:
    """The refusals' texts, the place ("query") and field names peeled off: each field says its own name."""
    if isinstance(messages, str):
        return [messages]
    if isinstance(messages, Mapping):
        return [text for value in messages.values() for text in _texts(value)]
    if isinstance(messages, list):
        return [text for value in messages for text in _texts(value)]
    return []


class Choice(fields.String):
    """One of ``values``, else ``bad_query`` with ``refusal`` as its text; the document shows the enum.

    ``values`` may be a callable, read at each request, for a set that grows after import (the
    registered games: a test registers its toy game after the routes are defined).
    """

    def __init__(self, values: Iterable[str] | Callable[[], Iterable[str]], refusal: str | Callable[[], str],
                 **kwargs: Any) -> None:
        shown = values() if callable(values) else values
        super().__init__(metadata={"enum": list(shown), **kwargs.pop("metadata", {})}, **kwargs)
        self.values, self.refusal = values, refusal

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any) -> str:
        allowed = self.values() if callable(self.values) else self.values
        if value not in allowed:
            raise Problem(400, "bad_query", self.refusal() if callable(self.refusal) else self.refusal)
        return str(value)
