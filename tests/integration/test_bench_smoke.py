"""The bench scripts still run and print their figures (tiny sizes; no timing is asserted)."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from tests.integration.conftest import ROOT


def run_bench(*args: str) -> str:
    done = subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return done.stdout


@pytest.mark.parametrize("game", ["coup", "revolution", "ideology", "pax"])
def test_load_bench_prints_its_figures(game: str) -> None:
    out = run_bench("bench/coup_load.py", "--game", game, "--games", "2", "--long-actions", "20",
                    "--server", "serve", "--workers", "1", "--seconds", "1.5")
    assert re.search(r"baseline \(Flask \+ XADD\) +[1-9]\d* req", out), out
    assert re.search(rf"{game} actions \(POST\) +[1-9]\d* req", out), out
    assert "throughput ratio: actions" in out
    if game != "pax":  # Pax has no system step between decisions: its rules settle each action at once
        assert re.search(r"last decision -> resolution: n=[1-9]", out), out
    if game in ("coup", "pax"):
        assert "one long game: actions 5-15 mean" in out


def test_profile_bench_prints_commands_per_action() -> None:
    out = run_bench("bench/profile_actions.py", "--actions", "30", "--top", "3")
    assert re.search(r"Redis commands per action: \d+\.\d", out), out
    assert "evalsha" in out


def test_hot_paths_bench_prints_cpu_per_commit_and_per_call() -> None:
    out = run_bench("bench/hot_paths.py", "--actions", "30")
    assert re.search(r"Engine._commit: [1-9]\d* µs of CPU each over [1-9]\d* commits", out), out
    assert re.search(r"fold an event into the record +\d+\.\d µs", out), out


def test_archive_bench_prints_bytes_per_finished_game() -> None:
    out = run_bench("bench/archive_size.py", "--games", "3", "--seats", "3")
    assert re.search(r"Coup 3 seats, 3 games .* mean \d+\.\d KiB", out), out


def test_the_suite_prints_one_table_saves_json_and_draws_a_png(tmp_path) -> None:
    import json

    out = run_bench("-m", "bench", "--quick", "--only", "archive,replay", "--json", str(tmp_path / "r.json"),
                    "--png", str(tmp_path / "r.png"))
    assert re.search(r"Redis bytes per finished 3-seat Coup game +\d+\.\d\d +KiB", out), out
    assert re.search(r"replay of a \d+-event game", out), out
    saved = json.loads((tmp_path / "r.json").read_text())
    assert {row["key"] for row in saved["rows"]} == {"archive_3", "archive_6", "replay"}
    assert all(row["value"] > 0 for row in saved["rows"])
    assert (tmp_path / "r.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_ideology_playouts_print_how_random_games_end() -> None:
    out = run_bench("bench/ideology_playouts.py", "--games", "2", "--seats", "2", "--option", "max_turns=3")
    assert re.search(r"2 seats, 2 games: ended by \{'turn_limit': 2\}; seat actions median \d+", out), out


def test_my_games_bench_prints_a_row_per_size() -> None:
    out = run_bench("bench/my_games.py", "--sizes", "3,6", "--requests", "3", "--limit", "3")
    rows = re.findall(r"^ +(\d+) +\d+\.\d\d / +\d+\.\d\d \((\d\.\d\d)x\)", out, re.MULTILINE)
    assert [size for size, _ in rows] == ["3", "6"] and rows[0][1] == "1.00", out
    assert "6 games -> 3 mine" in out, out


def test_side_by_side_compares_each_figure_within_its_round(monkeypatch: pytest.MonkeyPatch) -> None:
    """The ratios are taken round by round (its windows alternate), never across rounds."""
    monkeypatch.syspath_prepend(str(ROOT / "bench"))
    from bench import side_by_side

    def window(name: str, round_: int, rate: float, cpu: float, p99: float) -> dict:
        return {"name": name, "round": round_, "rate": rate, "server_ms_per_move": cpu, "p99": p99, "p50": 1.0,
                "client_share": 0.1, "load": "0"}

    windows = [window("ours", 1, 600, 2.0, 100), window("bgio flatfile", 1, 400, 2.5, 250),
               window("ours", 2, 900, 1.2, 120), window("bgio flatfile", 2, 1000, 1.0, 200)]
    out = side_by_side.table(windows, ["ours"], ["flatfile"])
    assert "moves/s, ours / bgio flatfile (higher is better), per round: 1.50, 0.90 (median 1.20)" in out
    assert "server CPU per move, ours / bgio flatfile (lower is better), per round: 0.80, 1.20 (median 1.00)" in out
    assert "p99, ours / bgio flatfile (lower is better), per round: 0.40, 0.60 (median 0.50)" in out
