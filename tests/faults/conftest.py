"""Fault tests: a fleet of real processes, SIGKILLed and restarted while games are played.

The short form runs in CI (well under a minute each); ``--faults-long`` or
``INTRIGUE_FAULTS=long`` runs the same tests for minutes with more games.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support.faults import Fleet


@dataclass(frozen=True)
class Scale:
    games: int
    kill_seconds: float
    kill_period: float
    drain_seconds: float


@pytest.fixture(scope="session")
def scale(request: pytest.FixtureRequest) -> Scale:
    if request.config.getoption("--faults-long") or os.environ.get("INTRIGUE_FAULTS") == "long":
        return Scale(games=12, kill_seconds=300, kill_period=2.0, drain_seconds=300)
    return Scale(games=4, kill_seconds=20, kill_period=1.5, drain_seconds=60)


@pytest.fixture()
def fleet_factory(tmp_path: Path) -> Iterator:
    fleets: list[Fleet] = []

    def make(apis: int = 2, workers: int = 2) -> Fleet:
        fleet = Fleet(tmp_path / f"fleet{len(fleets)}", apis=apis, workers=workers)
        fleet.tmp.mkdir()
        fleets.append(fleet)
        return fleet.start()

    yield make
    for fleet in fleets:
        fleet.stop()
