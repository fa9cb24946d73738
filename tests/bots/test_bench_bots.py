"""``python -m bench bots``: the interval it prints and a one-game run of a fast row."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import bots as bench_bots


def test_wilson_interval_matches_known_values() -> None:
    low, high = bench_bots.wilson(16, 20)
    assert low == pytest.approx(0.584, abs=0.001) and high == pytest.approx(0.919, abs=0.001)
    low, high = bench_bots.wilson(20, 20)
    assert high == 1.0 and low == pytest.approx(0.839, abs=0.001)


def test_percentile_is_the_nearest_rank() -> None:
    assert bench_bots.percentile([0.1, 0.2, 0.3, 0.4], 0.5) == 0.2
    assert bench_bots.percentile([0.1, 0.2, 0.3, 0.4], 0.95) == 0.4


def test_a_short_run_prints_and_saves_its_rows(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "rows.json"
    assert bench_bots.main(["--games", "3", "--titles", "coup", "--rows", "heuristic-random", "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "coup" in printed and "heuristic" in printed and "95% interval" in printed
    rows = json.loads(out.read_text())
    assert [(r["game"], r["bot"], r["games"]) for r in rows] == [("coup", "heuristic", 3)]
    assert 0 <= rows[0]["low"] <= rows[0]["win_share"] <= rows[0]["high"] <= 1


def test_unknown_rows_are_refused() -> None:
    with pytest.raises(SystemExit):
        bench_bots.main(["--rows", "ismcts-nobody"])


def test_the_search_budget_is_an_iteration_count_without_a_time_cap() -> None:
    """A bench result must not depend on how busy the machine is."""
    from bots.ismcts import Budget

    assert bench_bots.make_bot("ismcts", "coup", 37).budget == Budget(iterations=37, milliseconds=None)
    assert bench_bots.make_bot("ismcts", "pax").budget.milliseconds is None
    with pytest.raises(SystemExit):
        bench_bots.main(["--iterations", "0"])
