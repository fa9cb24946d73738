"""Shared test configuration: hypothesis profiles.

``default`` keeps the suite fast on a 2-core machine; ``long`` (HYPOTHESIS_PROFILE=long)
runs the big random-play searches for a soak before a release.
"""

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", deadline=None, max_examples=20_000,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

LONG = os.environ.get("HYPOTHESIS_PROFILE") == "long"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--faults-long", action="store_true", default=False,
                     help="run tests/faults for minutes with many games (also INTRIGUE_FAULTS=long)")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The long profile plays tens of thousands of games: lift the 300 s per-test limit to an hour."""
    if LONG:
        for item in items:
            item.add_marker(pytest.mark.timeout(3600))
