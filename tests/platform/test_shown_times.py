"""Times shown while a game is on are rounded down (standing orders' timing, docs/correspondence.md)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from events.envelope import format_at
from projections.views import SHOWN_STEP_LIVE, SHOWN_STEP_SLOW, shown_step, shown_time


@pytest.mark.parametrize(("per_move", "step"), [(30, SHOWN_STEP_LIVE), (3599, SHOWN_STEP_LIVE),
                                                (3600, SHOWN_STEP_SLOW), (86400, SHOWN_STEP_SLOW),
                                                (None, SHOWN_STEP_SLOW)])
def test_a_time_is_rounded_down_to_the_minute_or_the_hour_while_the_game_is_on(per_move: int | None,
                                                                                 step: int) -> None:
    record = {"status": "active", "time_control": {"seconds_per_move": per_move}}
    assert shown_step(record) == step
    moment = datetime(2026, 11, 29, 11, 59, 59, 999000, tzinfo=UTC)
    for shift in range(0, 7200, 97):  # across minutes and hours: the same as arithmetic on the epoch
        at = format_at(moment + timedelta(seconds=shift))
        seconds = int(datetime.fromisoformat(at).timestamp())
        assert shown_time(record, at) == format_at(datetime.fromtimestamp(seconds - seconds % step, UTC))


def test_a_game_over_and_an_exact_caller_see_the_time_as_it_is() -> None:
    at = "2026-11-29T11:19:06.123Z"
    assert shown_time({"status": "finished", "time_control": {}}, at) == at
    assert shown_time({"status": "active", "time_control": {}}, at, exact=True) == at
    assert shown_time({"status": "active", "time_control": {}}, at) == "2026-11-29T11:00:00.000Z"
