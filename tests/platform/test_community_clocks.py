"""The weekend pause's clock arithmetic (projections.community), on dates chosen for it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from projections.community import clock_end, running_seconds

PARIS = ZoneInfo("Europe/Paris")


def test_a_clock_started_on_friday_evening_resumes_on_monday_in_the_seats_zone() -> None:
    friday_evening = datetime(2026, 11, 27, 20, 0, tzinfo=PARIS).astimezone(UTC)  # 19:00 UTC
    assert clock_end(friday_evening, 8 * 3600, PARIS) == datetime(2026, 11, 30, 4, 0, tzinfo=PARIS).astimezone(UTC)
    assert clock_end(friday_evening, 8 * 3600, None) == friday_evening + timedelta(hours=8)
    # Started on a Sunday, it starts on Monday at midnight.
    sunday = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
    assert clock_end(sunday, 3600, PARIS) == datetime(2026, 11, 30, 1, 0, tzinfo=PARIS).astimezone(UTC)


def test_running_seconds_skip_the_weekend_and_its_change_of_summer_time() -> None:
    friday = datetime(2026, 10, 23, 12, 0, tzinfo=PARIS).astimezone(UTC)  # summer time ends on 25 October
    monday = datetime(2026, 10, 26, 12, 0, tzinfo=PARIS).astimezone(UTC)
    assert running_seconds(friday, monday, PARIS) == 24 * 3600
    assert running_seconds(friday, monday, None) == (monday - friday).total_seconds() == 73 * 3600
    assert clock_end(friday, 24 * 3600, PARIS) == monday
