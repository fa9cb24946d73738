"""The routes' declarations: what the document is built from, and what they cost a request.

The document's content is checked against the live server by
tests/integration/test_api_reference.py; these check the machinery itself: a hot route is
served by its own function (its declaration adds no call and no parsing), a route that
declares nothing cannot be added, a query field refuses with the route's code and text,
and nothing of flask-smorest's own conventions leaks into the document.
"""

from __future__ import annotations

from typing import Any

import flask
import pytest
from marshmallow import Schema

from service import routes
from service.answers import Problem
from service.api_doc import TOKEN, Blueprint, declare
from service.app import create_app
from service.openapi import openapi_document, operations
from service.queries import Flag, QueryParser, WholeNumber
from service.transparency import CONSISTENCY_QUERY


@pytest.mark.parametrize(("endpoint", "view"), [
    ("games.act", routes.act), ("games.join", routes.join), ("games.create_game", routes.create_game),
    ("games.event_stream", routes.event_stream)])
def test_a_hot_route_is_served_by_its_own_function(endpoint: str, view: Any) -> None:
    app = create_app(redis_url="redis://127.0.0.1:1/0", rate_limit=0)
    assert app.view_functions[endpoint] is view
    assert not hasattr(view, "__wrapped__")


def test_a_route_that_declares_nothing_is_refused() -> None:
    blueprint = Blueprint("undeclared", __name__, url_prefix="/v1/undeclared")
    with pytest.raises(TypeError, match="declares its operation"):
        blueprint.get("")(lambda: {})


def test_a_declared_route_is_an_operation_with_its_method_path_and_idempotency_codes() -> None:
    blueprint = Blueprint("declared", __name__, url_prefix="/v1/declared")

    @blueprint.post("/<thing_id>")
    @declare("Poke a thing", auth="required", ok=(200, None), problems=(TOKEN, {404: ("thing_not_found",)}))
    def poke(thing_id: str) -> dict[str, Any]:
        return {}

    (operation,) = blueprint.operations
    assert operation.key == "POST /v1/declared/{thing_id}"
    assert operation.problems[404] == ("thing_not_found",)
    assert "idempotency_key_reused" in operation.problems[409]
    assert "Idempotency-Key" in [param["name"] for param in operation.params]


class _Query(Schema):
    limit = WholeNumber(1, 20)
    view = Flag()


@pytest.mark.parametrize(("query", "text"), [
    ("limit=²", "limit must be a whole number from 1 to 20, written in ASCII digits"),
    ("limit=21", "limit must be a whole number from 1 to 20, written in ASCII digits"),
    ("view=yes", "view must be true or false"),
])
def test_a_query_field_refuses_with_bad_query_and_the_hand_parsings_text(query: str, text: str) -> None:
    with flask.Flask(__name__).test_request_context(f"/?{query}"), pytest.raises(Problem) as refused:
        QueryParser().parse(_Query(), location="query")
    assert (refused.value.status, refused.value.code, refused.value.detail) == (400, "bad_query", text)


def test_a_required_query_value_left_out_is_bad_query_naming_it() -> None:
    with flask.Flask(__name__).test_request_context("/?from=1"), pytest.raises(Problem) as refused:
        QueryParser().parse(CONSISTENCY_QUERY, location="query")
    assert (refused.value.code, refused.value.detail) == ("bad_query", "to is required: a tree size")


def test_the_document_keeps_to_its_own_conventions() -> None:
    document = openapi_document()
    assert "tags" not in document
    assert not {"Error", "PaginationMetadata"} & set(document["components"]["schemas"])
    for path, item in document["paths"].items():
        assert "parameters" not in item, path  # path parameters are written with each operation
        for method, operation in item.items():
            assert list(operation["responses"]) == sorted(operation["responses"], key=int), (method, path)
            assert "default" not in operation["responses"], (method, path)
    documented = {f"{method.upper()} {path}" for path, item in document["paths"].items() for method in item}
    assert documented == {operation.key for operation in operations()}
