"""A vacation's account fields change by compare-and-set: two racing starts cannot both spend the days."""

from __future__ import annotations

from datetime import datetime

import pytest

from engine.core import Engine
from engine.errors import Conflict


def test_a_start_that_loses_the_race_decides_again_and_is_refused(engine: Engine) -> None:
    player, _ = engine.create_player("wanderer")
    vacations = engine.vacations
    rival_started = []

    real_fields = vacations._fields

    def fields_then_a_rival_starts(player_id: str) -> dict[str, str]:
        """The first read is overtaken by another request's start of 20 days before the swap."""
        read = real_fields(player_id)
        if not rival_started:
            rival_started.append(True)
            vacations.redis.hset(engine.keys.player(player_id), mapping={
                "vacation_until": "2999-01-01T00:00:00.000Z", "vacation_used": "20",
                "vacation_year": str(datetime.now().year)})
        return read

    vacations._fields = fields_then_a_rival_starts  # type: ignore[method-assign]  # the race, made on purpose
    with pytest.raises(Conflict) as refused:
        vacations.start(player, 25)  # decided on the stale read it would fit; the swap sees the rival
    assert refused.value.code == "on_vacation"
    account = vacations.account(player)
    assert account["vacation_until"] == "2999-01-01T00:00:00.000Z"
    assert account["vacation_days_left"] == vacations.days_per_year - 20  # the rival's days only


def test_an_ended_vacation_gives_back_its_unused_days_once(engine: Engine) -> None:
    player, _ = engine.create_player("homebody")
    vacations = engine.vacations
    vacations.start(player, 10)
    vacations.end(player)
    assert vacations.account(player)["vacation_days_left"] == vacations.days_per_year - 1  # a day begun is spent
    with pytest.raises(Conflict) as refused:
        vacations.end(player)
    assert refused.value.code == "not_on_vacation"
