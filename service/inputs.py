"""Everything the API reads from a request by hand, read strictly, in one place: bodies, and
the queries and headers of the hot routes (the others' queries are declared schemas that
webargs reads, :mod:`service.queries`, with these same rules).

A header, a query value or a body that the API cannot use is the client's mistake and
gets a 400 (or 415) problem that names it: never a 500, whose text has to say an
action "may have been recorded". So numbers are ASCII digits within bounds (Python's
``int`` also accepts ``²``-like digits, signs, underscores and spaces, and refuses more
than 4,300 digits with a ValueError), and a JSON body is UTF-8, not nested without end,
and holds only strings that can be stored.
"""

from __future__ import annotations

import json
import re
from typing import Any

from flask import request

from service.answers import Problem

#: The deepest nesting a body may have; no request of the API needs more than 4.
MAX_JSON_DEPTH = 32
#: Versions, sequence numbers and seconds fit well within this many digits.
MAX_DIGITS = 15

#: A whole number as the API accepts one: ASCII digits, at most MAX_DIGITS of them.
DIGITS = re.compile(rf"[0-9]{{1,{MAX_DIGITS}}}")
_JSON_TYPES = ("application/json",)


def whole_number(raw: str, *, name: str, code: str, low: int = 0, high: int | None = None) -> int:
    """``raw`` as an int from ``low`` to ``high``, or a 400 problem with ``code`` naming ``name``."""
    if DIGITS.fullmatch(raw) is None or int(raw) < low or (high is not None and int(raw) > high):
        bound = f"from {low} to {high}" if high is not None else f"of at least {low}"
        raise Problem(400, code, f"{name} must be a whole number {bound}, written in ASCII digits")
    return int(raw)


def query_int(name: str, default: int, low: int = 0, high: int | None = None) -> int:
    """The query parameter ``name`` as a bounded int; ``default`` when absent (a hot route's:
    it pays for no schema)."""
    raw = request.args.get(name)
    if raw is None:
        return default
    return whole_number(raw, name=name, code="bad_query", low=low, high=high)


def query_bool(name: str) -> bool:
    raw = request.args.get(name)
    if raw is None or raw in ("false", "0"):
        return False
    if raw in ("true", "1"):
        return True
    raise Problem(400, "bad_query", f"{name} must be true or false")


def header_int(name: str, code: str, low: int = 0, high: int | None = None) -> int | None:
    """The header ``name`` of this request as a bounded int (see :func:`parse_header_int`)."""
    return parse_header_int(request.headers.get(name), name, code, low, high)


def parse_header_int(raw: str | None, name: str, code: str, low: int = 0, high: int | None = None) -> int | None:
    """A header's value as a bounded int, None when absent; an entity tag's quotes and
    ``W/`` are allowed, so ``If-Match: "12"`` works as well as ``If-Match: 12``."""
    if raw is None:
        return None
    value = raw.strip()
    if value.startswith("W/"):
        value = value[2:]
    if len(value) >= 2 and value[0] == value[-1] == '"':
        value = value[1:-1]
    return whole_number(value, name=name, code=code, low=low, high=high)


def prefers_minimal(raw: str | None) -> bool:
    """Whether a ``Prefer`` header (RFC 7240) holds ``return=minimal``.

    A preference is only a wish: one the server does not know, or cannot parse, is
    ignored, never refused. Names and values are compared without regard to case or
    quotes, and a preference's parameters (after ``;``) are ignored.
    """
    if not raw:
        return False
    for preference in raw.split(","):
        name, _, value = preference.partition(";")[0].partition("=")
        if name.strip().lower() == "return" and value.strip().strip('"').lower() == "minimal":
            return True
    return False


def json_body() -> Any:
    """The request's JSON body, or the problem that says what is wrong with it.

    415 unless the body is declared ``application/json`` (or ``+json``) in UTF-8; 400
    when it is empty, not UTF-8, not JSON (``NaN`` and ``Infinity`` are not JSON),
    nested deeper than :data:`MAX_JSON_DEPTH`, or holds a lone surrogate (``"\\ud800"``
    parses, but no store can encode it).
    """
    data = request.get_data(cache=True)
    if not data:
        raise Problem(400, "empty_body", "this request needs a JSON body")
    mimetype = request.mimetype
    if mimetype not in _JSON_TYPES and not (mimetype.startswith("application/") and mimetype.endswith("+json")):
        raise Problem(415, "unsupported_media_type", "send the body as 'Content-Type: application/json'")
    charset = request.mimetype_params.get("charset", "utf-8").lower()
    if charset not in ("utf-8", "utf8"):
        raise Problem(415, "unsupported_media_type", "the body must be UTF-8")
    return parse_json(data)


def parse_json(data: bytes) -> Any:
    """A declared JSON body's bytes as a value, or the 400 problem of :func:`json_body`."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise Problem(400, "bad_encoding", f"the body is not UTF-8 (byte {err.start})") from None
    try:
        body = json.loads(text, parse_constant=_refuse_constant)
    except RecursionError:
        raise Problem(400, "too_deep", f"the body is nested deeper than {MAX_JSON_DEPTH} levels") from None
    except ValueError as err:
        raise Problem(400, "malformed_json", f"the body is not valid JSON: {err}") from None
    _check_tree(body)
    return body


def object_body() -> dict[str, Any]:
    """:func:`json_body`, which must be a JSON object."""
    return as_object(json_body())


def as_object(body: Any) -> dict[str, Any]:
    """A parsed body that must be a JSON object, or the 400 that says it is not."""
    if not isinstance(body, dict):
        raise Problem(400, "malformed_body", "the body must be a JSON object")
    return body


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


def _check_tree(body: Any) -> None:
    """Refuse deep nesting and strings that are not Unicode text (lone surrogates).

    Iterative, so it costs no stack, and cheap for the few small values a request holds.
    """
    pending: list[tuple[Any, int]] = [(body, 1)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, str):
            _check_text(value)
        elif isinstance(value, (dict, list)):
            if depth > MAX_JSON_DEPTH:
                raise Problem(400, "too_deep", f"the body is nested deeper than {MAX_JSON_DEPTH} levels")
            if isinstance(value, dict):
                for key, item in value.items():
                    _check_text(key)
                    pending.append((item, depth + 1))
            else:
                pending.extend((item, depth + 1) for item in value)


def _check_text(text: str) -> None:
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise Problem(400, "bad_encoding", "the body holds a lone surrogate (\\ud800-\\udfff), "
                                               "which is not Unicode text") from None
