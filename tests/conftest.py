"""Shared test configuration: hypothesis profiles, and a check that every problem answered is declared.

``default`` keeps the suite fast on a 2-core machine; ``long`` (HYPOTHESIS_PROFILE=long)
runs the big random-play searches for a soak before a release.
"""

import logging
import os
from collections.abc import Iterator
from typing import Any

import pytest
import requests
from hypothesis import HealthCheck, settings

from service.answers import PROBLEM_JSON, Problem
from tests.support.declared_codes import every_declared_code

settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", deadline=None, max_examples=20_000,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

LONG = os.environ.get("HYPOTHESIS_PROFILE") == "long"

# A thread that outlives its test (a feed listener whose Redis a test stopped) may log after
# pytest closed that test's captured stream. logging then prints a traceback of its own
# failure, and Python 3.11 parses source lines with ``ast`` to draw a traceback's carets:
# from a second thread, while a test parses source too (the layering test, ``inspect``),
# CPython 3.11 fails that test with "AST constructor recursion depth mismatch". Such a
# logging error is of no interest to a test: drop it quietly.
logging.raiseExceptions = False


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--faults-long", action="store_true", default=False,
                     help="run tests/faults for minutes with many games (also INTRIGUE_FAULTS=long)")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The long profile plays tens of thousands of games: lift the 300 s per-test limit to an hour."""
    if LONG:
        for item in items:
            item.add_marker(pytest.mark.timeout(3600))


@pytest.fixture(autouse=True)
def answers_carry_declared_codes(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every problem a test meets carries a declared code: those written in this process (the
    app under a test client) and those a test's requests read from a server it started."""
    answered: list[str] = []
    written, sent = Problem.to_dict, requests.Session.send

    def recorded(problem: Problem) -> dict[str, Any]:
        answered.append(problem.code)
        return written(problem)

    def read(session: requests.Session, request: requests.PreparedRequest, **kwargs: Any) -> requests.Response:
        response = sent(session, request, **kwargs)
        if response.headers.get("Content-Type", "").startswith(PROBLEM_JSON) and not kwargs.get("stream"):
            try:  # the body is already read (not streamed): a problem is small
                answered.append(str(response.json().get("code")))
            except ValueError:  # a body cut short (a server killed midway): the test reads it as it will
                pass
        return response

    monkeypatch.setattr(Problem, "to_dict", recorded)
    monkeypatch.setattr(requests.Session, "send", read)
    yield
    undeclared = sorted(set(answered) - every_declared_code()) if answered else []
    assert undeclared == [], "answered with a problem code that no declaration lists"
