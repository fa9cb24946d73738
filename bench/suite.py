"""The whole benchmark suite as one table, saved as JSON and drawn as a PNG.

    pip install -e '.[test,prod,bench]'
    python -m bench                       # everything, at the sizes the issues name (about 15 min)
    python -m bench --quick               # every row at toy sizes (a smoke run, figures meaningless)
    python -m bench --only archive,replay # some rows

Rows: HTTP throughput against the bare Flask + XADD baseline and action p50/p99 (from
``bench/coup_load.py``, run as its own process), the 1,000th action against the 10th,
Revolution! and Ideology resolution at 200 games, deadline lateness among 10,000 open
correspondence games, the replay of a 5,000-event game, Redis bytes per finished
Coup game (``bench/archive_size.py``), and action p99 with 0 and with many idle
watchers. Each row records the command-line parameters it ran with.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import archive_size, figures_platform  # noqa: E402
from bench.common import redis_for_bench  # noqa: E402


@dataclass
class Row:
    """One line of the table: what was measured, its figure(s), and the aim when there is one."""

    key: str
    measure: str
    value: float | None
    unit: str
    detail: str = ""
    aim: str = ""
    extra: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Sizes:
    load_games: int
    load_seconds: float
    long_actions: int
    revolution_games: int
    open_games: int
    probes: int
    replay_events: int
    archive_games: int
    watchers: int
    watcher_tables: int
    watcher_seconds: float


FULL = Sizes(load_games=100, load_seconds=20, long_actions=1000, revolution_games=200, open_games=10_000,
             probes=100, replay_events=5000, archive_games=1000, watchers=5000, watcher_tables=20, watcher_seconds=20)
QUICK = Sizes(load_games=2, load_seconds=3, long_actions=20, revolution_games=4, open_games=50, probes=5,
              replay_events=200, archive_games=3, watchers=20, watcher_tables=2, watcher_seconds=3)


def _number(pattern: str, text: str) -> float | None:
    found = re.search(pattern, text)
    return float(found.group(1)) if found else None


def _coup_load(*args: str) -> str:
    done = subprocess.run([sys.executable, "bench/coup_load.py", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=3600)
    if done.returncode != 0:
        raise RuntimeError(done.stderr[-2000:])
    return done.stdout


def load_rows(sizes: Sizes, redis_url: str | None) -> list[Row]:
    args = ["--games", str(sizes.load_games), "--seconds", str(sizes.load_seconds),
            "--long-actions", str(sizes.long_actions)]
    out = _coup_load(*args, *(["--redis-url", redis_url] if redis_url else []))
    rate = _number(r"coup actions \(POST\)\s+\d+ req\s+([\d.]+)/s", out)
    base = _number(r"baseline \(Flask \+ XADD\)\s+\d+ req\s+([\d.]+)/s", out)
    p50 = _number(r"coup actions \(POST\).*?p50\s+([\d.]+) ms", out)
    p99 = _number(r"coup actions \(POST\).*?p99\s+([\d.]+) ms", out)
    ratio = _number(r"one long game: .*ratio ([\d.]+)", out)
    shape = f"{sizes.load_games} Coup tables, gunicorn x2 + 2 workers"
    return [
        Row("throughput", "Coup actions per second vs bare Flask+XADD", rate, "actions/s",
            f"{shape}; baseline {base or float('nan'):.0f} req/s", "ratio >= 0.5",
            {"baseline_per_s": base or math.nan, "ratio": (rate / base) if rate and base else math.nan}),
        Row("latency", "Coup action latency p50 / p99", p99, "ms p99", f"p50 {p50 or math.nan:.1f} ms; {shape}",
            "p99 <= 150 ms", {"p50_ms": p50 or math.nan}),
        Row("long_game", f"action {sizes.long_actions:,} vs action 10 (mean of ten)", ratio, "x",
            "one Coup game kept going with exchanges", "<= 1.5"),
    ]


def resolution_row(sizes: Sizes, redis_url: str | None) -> list[Row]:
    """The worker's time from the last seat's decision to the system step, for each game made of them."""
    rows = []
    for game, key, measure in (("revolution", "resolution", "Revolution! last bid -> resolved round"),
                               ("ideology", "resolution_ideology", "Ideology last offer or pass -> next phase")):
        out = _coup_load("--game", game, "--games", str(sizes.revolution_games), "--seconds",
                         str(sizes.load_seconds), *(["--redis-url", redis_url] if redis_url else []))
        p50 = _number(r"last decision -> resolution: n=\d+\s+p50 ([\d.]+) ms", out)
        p99 = _number(r"last decision -> resolution: .*p99 ([\d.]+) ms", out)
        rows.append(Row(key, f"{measure}, {sizes.revolution_games} games", p99, "ms p99",
                        f"p50 {p50 or math.nan:.1f} ms", "", {"p50_ms": p50 or math.nan}))
    return rows


def lateness_row(sizes: Sizes, redis_url: str) -> list[Row]:
    got = figures_platform.lateness_among_open_games(redis_url, sizes.open_games, sizes.probes)
    return [Row("lateness", f"deadline lateness among {sizes.open_games:,} open correspondence games", got["p99_ms"],
                "ms p99", f"p50 {got['p50_ms']:.0f} ms, max {got['max_ms']:.0f} ms over {got['deadlines']} deadlines",
                "a few seconds at most", got)]


def replay_row(sizes: Sizes, redis_url: str) -> list[Row]:
    got = figures_platform.replay_figures(redis_url, sizes.replay_events)
    return [Row("replay", f"replay of a {got['events']:,}-event game (read + fold)", got["replay_ms"], "ms",
                f"read {got['read_ms']:.0f} ms, fold {got['fold_ms']:.0f} ms; at mid-game via snapshots "
                f"{got['at_middle_ms']:.1f} ms; cold load {got['cold_load_ms']:.1f} ms", "", got)]


def archive_rows(sizes: Sizes, redis_url: str) -> list[Row]:
    rows = []
    for seats in (3, 6):
        got = archive_size.measure(redis_url, seats, sizes.archive_games)
        measure = f"Redis bytes per finished {seats}-seat Coup game"
        detail = f"{sizes.archive_games} games: max {got['max_bytes'] / 1024:.1f} KiB, {got['over_aim']} over the aim"
        rows.append(Row(f"archive_{seats}", measure, got["mean_bytes"] / 1024, "KiB", detail,
                        f"<= {got['aim_bytes'] // 1024:.0f} KiB", got))
    return rows


def watcher_rows(sizes: Sizes, redis_url: str) -> list[Row]:
    server = os.environ.get("INTRIGUE_BENCH_WATCH_SERVER", "waitress")
    rows = []
    for watchers in (0, sizes.watchers):
        got = figures_platform.action_p99_with_watchers(redis_url, watchers, sizes.watcher_tables,
                                                        sizes.watcher_seconds, server=server)
        rows.append(Row(f"watchers_{watchers}", f"action p99 with {watchers:,} idle SSE watchers", got["p99_ms"],
                        "ms p99", f"`intrigue serve`; {got['held']} held, {got['actions']} actions, "
                                  f"{got['failed_requests']} failed requests", "", got))
    return rows


#: Every row group: (name for --only, function, needs a Redis URL of its own).
GROUPS: dict[str, Callable[[Sizes, str], list[Row]]] = {
    "load": load_rows, "resolution": resolution_row, "lateness": lateness_row, "replay": replay_row,
    "archive": archive_rows, "watchers": watcher_rows,
}


def table(rows: list[Row]) -> str:
    width = max(len(row.measure) for row in rows)
    lines = [f"{'measure':<{width}}  {'value':>10}  {'unit':<10}  {'aim':<20}  detail", "-" * (width + 70)]
    for row in rows:
        value = "n/a" if row.value is None or math.isnan(row.value) else f"{row.value:,.2f}"
        lines.append(f"{row.measure:<{width}}  {value:>10}  {row.unit:<10}  {row.aim:<20}  {row.detail}")
    return "\n".join(lines)


def plot(rows: list[Row], path: Path) -> None:
    """One small panel per row: the figure as a bar, labelled with its unit and aim."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    shown = [row for row in rows if row.value is not None and not math.isnan(row.value)]
    columns = 3
    lines = max(1, math.ceil(len(shown) / columns))
    figure, axes = plt.subplots(lines, columns, figsize=(4.2 * columns, 2.2 * lines), squeeze=False)
    for axis in axes.flat:
        axis.set_visible(False)
    for axis, row in zip(axes.flat, shown, strict=False):
        axis.set_visible(True)
        axis.barh([0], [row.value], color="#4c72b0")
        axis.set_yticks([])
        axis.set_title(row.measure, fontsize=8)
        axis.set_xlabel(f"{row.unit}" + (f"  (aim {row.aim})" if row.aim else ""), fontsize=7)
        axis.tick_params(labelsize=7)
        axis.text(row.value, 0, f" {row.value:,.1f}", va="center", fontsize=8)
        aim = re.search(r"<= ([\d.]+)", row.aim)
        if aim:
            axis.axvline(float(aim.group(1)), color="#c44e52", linestyle="--", linewidth=1)
        axis.set_xlim(0, max(row.value, float(aim.group(1)) if aim else 0) * 1.35 or 1)
    figure.suptitle(f"Intrigue bench, {os.cpu_count()} cores, {time.strftime('%Y-%m-%d')}", fontsize=10)
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=110)
    plt.close(figure)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="toy sizes: checks that every row runs")
    parser.add_argument("--only", help=f"comma-separated groups of rows: {', '.join(GROUPS)}")
    parser.add_argument("--json", default="bench/results.json", help="where to save the table (default %(default)s)")
    parser.add_argument("--png", default="bench/results.png", help="where to draw it (default %(default)s)")
    parser.add_argument("--redis-url", help="measure on this Redis (a spare one: rows write to it) instead of "
                                            "a fresh embedded one per group")
    args = parser.parse_args(argv)
    sizes = QUICK if args.quick else FULL
    chosen = args.only.split(",") if args.only else list(GROUPS)
    unknown = [name for name in chosen if name not in GROUPS]
    if unknown:
        parser.error(f"unknown groups: {', '.join(unknown)}")
    rows: list[Row] = []
    for name in chosen:
        started = time.monotonic()
        print(f"== {name}", file=sys.stderr, flush=True)
        try:
            if name in ("load", "resolution"):
                rows += GROUPS[name](sizes, args.redis_url)  # coup_load starts its own Redis when given none
            else:
                with redis_for_bench(args.redis_url) as url:
                    rows += GROUPS[name](sizes, url)
        except Exception as err:  # one failing group must not lose the others' figures
            rows.append(Row(name, f"{name} (failed)", None, "", f"{type(err).__name__}: {str(err)[-200:]}"))
        print(f"== {name}: {time.monotonic() - started:.0f} s", file=sys.stderr, flush=True)
    print(table(rows))
    Path(args.json).parent.mkdir(parents=True, exist_ok=True)
    Path(args.json).write_text(json.dumps({"cores": os.cpu_count(), "quick": args.quick, "sizes": asdict(sizes),
                                           "rows": [asdict(row) for row in rows]}, indent=2, default=str) + "\n")
    plot(rows, Path(args.png))
    print(f"saved {args.json} and {args.png}")
    return 1 if any(row.value is None for row in rows) else 0
