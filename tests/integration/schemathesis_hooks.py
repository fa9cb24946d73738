"""Hooks for the schemathesis run of test_api_reference.py: keep long-polls and streams short.

``wait`` may be up to 30 s by the document; a generated case that waits that long on a
game with nothing new tests nothing more than one that waits a second. An event stream
ends only when its game has; a stream of a game still in play is pointed at the
finished game the test provides (``INTRIGUE_FINISHED_GAME``), which streams to its end.
"""

from __future__ import annotations

import os
from typing import Any

import requests
import schemathesis
from hypothesis.internal import lambda_sources


@schemathesis.hook
def map_query(context: Any, query: dict[str, Any] | None) -> dict[str, Any] | None:
    if query and isinstance(query.get("wait"), int) and query["wait"] > 1:
        query["wait"] = 1
    return query


@schemathesis.hook
def map_path_parameters(context: Any, path_parameters: dict[str, Any] | None) -> dict[str, Any] | None:
    operation = context.operation
    if operation is None or not operation.path.endswith("/events/stream") or not path_parameters:
        return path_parameters
    game_id = path_parameters.get("game_id")
    base = os.environ["INTRIGUE_BASE_URL"]
    if isinstance(game_id, str) and "/" not in game_id:
        try:
            found = requests.get(f"{base}/v1/games/{game_id}", timeout=5)
        except requests.RequestException:
            return path_parameters
        if found.status_code == 200 and found.json().get("status") != "finished":
            path_parameters["game_id"] = os.environ["INTRIGUE_FINISHED_GAME"]
    return path_parameters


@schemathesis.hook
def map_case(context: Any, case: Any) -> Any:
    """A page cursor is opaque: only one the server wrote is valid, which no schema can say.
    Valid cases therefore start at the first page; invalid ones keep their cursor."""
    meta = getattr(case, "meta", None)
    positive = meta is not None and meta.generation.mode.is_positive
    if positive and isinstance(case.query, dict) and "cursor" in case.query:
        case.query = {k: v for k, v in case.query.items() if k != "cursor"}
    return case


def _plain_lambda_description(f: Any) -> str:
    return f"lambda ({getattr(f, '__qualname__', 'function')})"


# CPython 3.11.7 can fail inside ast.parse deep in a call stack ("AST constructor recursion
# depth mismatch", fixed in later 3.11 releases); hypothesis parses a lambda's source only
# to describe a strategy, so describe lambdas plainly instead.
lambda_sources.lambda_description = _plain_lambda_description
