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
    assert re.search(r"CommitPath.commit: [1-9]\d* µs of CPU each over [1-9]\d* commits", out), out
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


def test_the_node_load_client_plays_the_image_shaped_server_and_times_the_next_decision(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The side by side's Intrigue half, tiny: the server started as the image starts it, its
    per-player limit on, the Node client timing a move to the next decision's view."""
    import json

    monkeypatch.syspath_prepend(str(ROOT / "bench"))
    from bench import side_by_side

    with side_by_side.intrigue("gunicorn", 1, 1, side_by_side.IMAGE, python=sys.executable) as (base, pids, url):
        server_pids = pids()
        calls_before = side_by_side.redis_calls(url)
        done = subprocess.run(["node", str(side_by_side.CLIENT), "--url", base, "--games", "3", "--seconds", "2",
                               "--feed", "sse", "--server-pids", ",".join(map(str, server_pids))],
                              cwd=ROOT, capture_output=True, text=True, timeout=120)
        calls_after = side_by_side.redis_calls(url)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "to the next decision's view p50" in done.stdout and "the stream's extra delay p99" in done.stdout
    figures = json.loads(next(line for line in done.stdout.splitlines() if line.startswith("{")))
    assert figures["moves"] > 0 and figures["conflicts"] == 0 and figures["stalls"] == 0
    # A move waits at least for its own answer; the next decision's view comes no sooner.
    assert figures["p50"] >= figures["extra_p50"] >= 0 and figures["post_p50"] > 0
    assert calls_before is not None and calls_after is not None
    assert calls_after[0] > calls_before[0] and calls_after[1] > calls_before[1]  # commands, script calls
    assert len(server_pids) >= 4  # Redis, a worker, gunicorn's arbiter and its process


def test_the_stack_floor_plays_the_node_client_and_appends_every_move(monkeypatch: pytest.MonkeyPatch) -> None:
    """bench/floor_app.py, tiny: the same client plays its null game to the end, every move
    an append to the game's Redis stream, every seat's view down its stream."""
    import json

    import redis

    monkeypatch.syspath_prepend(str(ROOT / "bench"))
    from bench import side_by_side

    with side_by_side.floor(sys.executable) as (base, pids, url):
        server_pids = pids()
        done = subprocess.run(["node", str(side_by_side.CLIENT), "--url", base, "--games", "3", "--seconds", "2",
                               "--feed", "sse", "--server-pids", ",".join(map(str, server_pids))],
                              cwd=ROOT, capture_output=True, text=True, timeout=120)
        store = redis.Redis.from_url(url)
        appended = sum(store.xlen(key) for key in store.scan_iter("floor:game:*"))
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    figures = json.loads(next(line for line in done.stdout.splitlines() if line.startswith("{")))
    assert figures["moves"] > 0 and figures["finished"] > 0 and figures["stalls"] == 0
    assert figures["stream_views_per_move"] > 1  # the other seats' views came down their streams
    # Each game's stream: its creation, three joins, then its moves (those posted after the
    # window closed are not counted by the client, but are in the stream).
    assert appended >= figures["moves"] + 4 * figures["games"]
    assert len(server_pids) == 3  # Redis, gunicorn's arbiter and its process


def test_the_bench_runs_intrigue_on_an_interpreter_built_as_the_images(
        monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    monkeypatch.syspath_prepend(str(ROOT / "bench"))
    from bench import interpreter

    dockerfile = tmp_path / "Dockerfile"
    dockerfile.write_text("FROM python:3.12-slim\nWORKDIR /app\n")
    assert interpreter.image_minor(dockerfile) == "3.12"
    assert interpreter.image_minor() == "3.11"  # the project's own image
    assert interpreter.optimised({"config": "'--enable-optimizations' '--with-lto'", "base_prefix": "/usr/local"})
    assert interpreter.optimised({"config": "'--enable-shared'", "base_prefix": "/usr"})  # a distribution's build
    assert not interpreter.optimised({"config": "'--enable-shared'", "base_prefix": "/root/.pyenv/versions/3.11.7"})
    # Its virtual environment is installed again when the project's dependencies change.
    project = tmp_path / "pyproject.toml"
    project.write_text('[project]\ndependencies = ["flask"]\n')
    before = interpreter.installed_for(project)
    assert interpreter.installed_for(project) == before
    project.write_text('[project]\ndependencies = ["flask", "gunicorn_h1c"]\n')
    assert interpreter.installed_for(project) != before
    before = interpreter.installed_for(project)
    (tmp_path / "constraints.txt").write_text("flask==3.1.3\n")  # and when the pins change
    assert interpreter.installed_for(project) != before
    monkeypatch.setenv("INTRIGUE_BENCH_PYTHON", sys.executable)
    chosen = interpreter.image_like(say=lambda text: None)
    assert chosen.path == sys.executable and "$INTRIGUE_BENCH_PYTHON" in chosen.label


def test_a_server_that_exits_before_it_answers_stops_the_bench_with_what_it_said(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A bad setting (``route_cpu.py --gunicorn-arg``, say) ends the wait at once, not after a minute."""
    monkeypatch.syspath_prepend(str(ROOT / "bench"))
    from bench.side_by_side import spawned
    from service.embedded import free_port

    command = [sys.executable, "-c", "import sys; sys.stderr.write('error: unknown setting --nope\\n'); sys.exit(3)"]
    with pytest.raises(RuntimeError) as stopped, spawned(command, {}, f"http://127.0.0.1:{free_port()}/"):
        pass
    assert "exited with status 3" in str(stopped.value)
    assert "error: unknown setting --nope" in str(stopped.value)


def test_the_gc_probe_counts_each_collection_by_generation(tmp_path) -> None:
    """bench/gc_probe, in a process of its own: three full collections are three of generation 2."""
    import json
    import os

    env = {**os.environ, "PYTHONPATH": str(ROOT / "bench" / "gc_probe"), "INTRIGUE_GC_PROBE_DIR": str(tmp_path)}
    script = "import gc, os; gc.disable(); [gc.collect() for _ in range(3)]; print(os.getpid())"
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    written = json.loads((tmp_path / f"{done.stdout.strip()}.json").read_text())
    collections, cpu = written["generations"]["2"]
    assert collections >= 3 and cpu >= 0
    assert all(wall >= 0.001 for _, wall in written["pauses"].get("2", []))


def test_gc_pauses_bench_prints_a_row_per_generation() -> None:
    import os

    done = subprocess.run([sys.executable, "bench/gc_pauses.py", "--seconds", "2", "--warm-up", "1", "--games", "3",
                           "--workers", "1"], cwd=ROOT, capture_output=True, text=True, timeout=180,
                          env={**os.environ, "INTRIGUE_BENCH_PYTHON": sys.executable})
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert re.search(r"[1-9]\d* moves in 2 s .* the API process used \d+\.\d\d s of CPU", done.stdout), done.stdout
    rows = re.findall(r"^\| ([012]) \| (\d+) \| (\d+\.\d\d) \| (\d+\.\d)% \| (\d+) \| (\d+|-) \|$", done.stdout, re.M)
    assert [row[0] for row in rows] == ["0", "1", "2"], done.stdout


def test_rq_job_cost_bench_prints_cpu_and_commands_per_job() -> None:
    out = run_bench("bench/rq_job_cost.py", "--jobs", "20")
    assert re.search(r"queueing a job: \d+ µs of CPU", out), out
    assert re.search(r"running a job that does nothing: \d+ µs of CPU, [1-9]\d*\.\d Redis commands \(over 20 jobs\)",
                     out), out


def test_python_client_bench_prints_cpu_per_request_for_both_checkouts() -> None:
    import os

    done = subprocess.run([sys.executable, "bench/python_client.py", "--before", str(ROOT), "--rounds", "1",
                           "--requests", "20"], cwd=ROOT, capture_output=True, text=True, timeout=180,
                          env={**os.environ, "INTRIGUE_BENCH_PYTHON": sys.executable})
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    rows = re.findall(r"^round 1 (this checkout|before) +20 requests  API +\d+ µs CPU/request", done.stdout, re.M)
    assert rows == ["this checkout", "before"], done.stdout
    assert re.search(r"^median before +API +\d+ µs CPU/request", done.stdout, re.M), done.stdout


def test_a_window_whose_server_exited_says_so_instead_of_running_again(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(ROOT / "bench"))
    from bench import side_by_side

    server = subprocess.Popen([sys.executable, "-c", "pass"])
    server.wait()  # gone: the load client below fails as it would against a dead server
    client = [sys.executable, "-c", "import sys; print('connect ECONNREFUSED', file=sys.stderr); sys.exit(1)"]
    with pytest.raises(RuntimeError, match=rf"(?s)process {server.pid} exited during the window.*ECONNREFUSED"):
        side_by_side.run_client(client, ROOT, 1.0, servers=[server.pid])
    alive = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
    try:
        assert side_by_side.running(alive.pid)
        with pytest.raises(RuntimeError, match="failed") as failed:  # a live server: tried twice, then told
            side_by_side.run_client(client, ROOT, 1.0, servers=[alive.pid])
        assert "exited" not in str(failed.value)
    finally:
        alive.kill()
        alive.wait()
    assert not side_by_side.running(alive.pid)


def test_correspondence_bench_prints_days_with_and_without_orders() -> None:
    out = run_bench("-m", "bench", "correspondence", "--games", "3", "--titles", "coup")
    rows = re.findall(r"^coup +([35]) +\d+ +(\d+\.\d) +(\d+\.\d) +-?\d+% +\d+\.\d +\d+\.\d +(\d+\.\d)$", out, re.M)
    assert [row[0] for row in rows] == ["3", "5"], out
    for _, without, with_orders, by_order in rows:
        assert float(by_order) > 0 and float(with_orders) < float(without), out


def test_bot_latency_bench_prints_p50_and_p95_of_the_bots_decisions() -> None:
    out = run_bench("bench/bot_latency.py", "--tables", "2", "--decisions", "3")
    match = re.search(r"(\d+) decisions\s+p50 (\d+) ms\s+p95 (\d+) ms", out)
    assert match, out
    assert int(match.group(1)) >= 6 and int(match.group(2)) <= int(match.group(3))


def test_tournament_pairing_bench_prints_a_row_per_field() -> None:
    out = run_bench("bench/tournament_pairing.py", "--field", "7x3x3", "--field", "9x3x4")
    assert re.search(r"7x3x3 +\d+\.\d ms +0\b", out), out  # seven at three seats never need to meet again in 3 rounds
    assert re.search(r"9x3x4 +\d+\.\d ms +\d+", out), out
