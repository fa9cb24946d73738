"""Where the API processes' CPU goes, by route: exact totals, not samples.

    python bench/route_cpu.py --seconds 20            # the side-by-side bench's load, no peer
    python bench/route_cpu.py --root BEFORE           # the same for another checkout (git archive)
    python bench/route_cpu.py --gunicorn-arg=--http-parser=python   # one of gunicorn's settings changed

Runs Intrigue in the production shape of ``bench/side_by_side.py`` (gunicorn with the
gevent worker, ``intrigue worker`` processes, Redis with an append-only file) with the
hooks of ``bench/route_cpu_hooks.py``, which read each API process's CPU clock at every
greenlet switch and at the start and end of every request. The same Node load client
(100 tables of 3 seats, one POST per move, views down event streams) plays a short
warm-up, then the measured run. Printed: per route, the requests, the CPU per request and
the share of the API's CPU, and the CPU per move. The measured run's totals include its own
set-up (players, games and streams for every table) and the pushes of each event stream,
which are charged to the ``GET .../events/stream`` request that holds them. Nothing is
asserted: it prints figures. The hooks cost a little per switch, so compare runs of this
script with each other, not with the side-by-side bench's.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from common import PRODUCTION_API_PROCESSES, ROOT
from side_by_side import CLIENT, by_role, intrigue, run_client, settle

HOOKS = ROOT / "bench" / "route_cpu_hooks.py"


def totals(folder: Path, fresher_than: float) -> tuple[dict[str, list[float]], dict[str, float]]:
    """Every API process's figures summed by label, and each process's CPU, from dumps
    written after ``fresher_than``."""
    files = sorted(folder.glob("[0-9]*.json"))
    while any(f.stat().st_mtime < fresher_than for f in files):
        time.sleep(0.1)  # the hooks dump every half second: wait for the next dump
    summed: dict[str, list[float]] = {}
    each: dict[str, float] = {}
    for path in files:
        for label, (seconds, requests) in json.loads(path.read_text()).items():
            entry = summed.setdefault(label, [0.0, 0])
            entry[0] += seconds
            entry[1] += requests
            each[path.stem] = each.get(path.stem, 0.0) + seconds
    return summed, each


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=20.0, help="the measured run (default %(default)s)")
    parser.add_argument("--warm-up", type=float, default=3.0, help="a first run, not counted (default %(default)s)")
    parser.add_argument("--games", type=int, default=100, help="tables of 3 seats (default %(default)s)")
    parser.add_argument("--api-processes", type=int, default=PRODUCTION_API_PROCESSES,
                        help="gunicorn processes (default %(default)s: what the image starts on this machine)")
    parser.add_argument("--workers", type=int, default=2, help="`intrigue worker` processes")
    parser.add_argument("--root", type=Path, default=ROOT,
                        help="measure this checkout (a `git archive` of another commit, say) with this one's hooks")
    parser.add_argument("--gunicorn-arg", action="append", default=[], metavar="ARG",
                        help="one more argument for gunicorn (repeatable): an A/B of a server setting in one checkout")
    parser.add_argument("--minimal", action="store_true",
                        help="the bots post with Prefer: return=minimal (bench/intrigue_load.mjs --minimal 1)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder, intrigue(
            "gunicorn", args.api_processes, args.workers, "service.gevent_worker.Worker",
            root=args.root.resolve(), gunicorn_args=("-c", str(HOOKS), *args.gunicorn_arg),
            env_extra={"INTRIGUE_ROUTE_CPU_DIR": folder}) as (base, pids, _):
        server_pids = pids()

        def play(seconds: float, seed: int) -> dict:
            command = ["node", str(CLIENT), "--url", base, "--games", str(args.games), "--seconds", str(seconds),
                       "--feed", "sse", "--seed", str(seed), "--server-pids", ",".join(map(str, server_pids)),
                       "--minimal", "1" if args.minimal else "0"]
            figures = run_client(command, ROOT, seconds)
            settle(server_pids)  # the streams closed and the workers idle: nothing left to charge
            return figures

        play(args.warm_up, 1)
        before, before_each = totals(Path(folder), time.time())
        figures = play(args.seconds, 2)
        after, after_each = totals(Path(folder), time.time())

    spent = {label: (after[label][0] - before.get(label, [0.0, 0])[0], after[label][1] - before.get(label, [0.0, 0])[1])
             for label in after}
    api_seconds = sum(seconds for seconds, _ in spent.values())
    moves = figures["moves"]
    roles = by_role(figures, server_pids, args.workers)
    print(f"{moves} moves in {args.seconds:.0f} s ({figures['rate']:.0f}/s), p99 {figures['p99']:.0f} ms; "
          f"in the window, server CPU {figures.get('server_ms_per_move', float('nan')):.2f} ms per move, of which "
          f"API {roles.get('api_ms_per_move', float('nan')):.2f}; the streams sent "
          f"{figures.get('stream_views_per_move', float('nan')):.2f} views per move")
    print(f"API processes, all included (the run's set-up too): {api_seconds:.2f} s of CPU, "
          f"{api_seconds / moves * 1000:.2f} ms per move")
    shares = {pid: seconds - before_each.get(pid, 0.0) for pid, seconds in after_each.items()}
    print("each API process's share of that CPU (an uneven split means one queue is longer): "
          + ", ".join(f"{seconds / api_seconds * 100:.0f}%" for seconds in shares.values()))
    print()
    print(f"| {'where':<52} | requests | µs per request | share | ms per move |")
    print(f"|{'-' * 54}|---------:|---------------:|------:|------------:|")
    for label, (seconds, requests) in sorted(spent.items(), key=lambda item: -item[1][0]):
        if not requests and seconds < 0.001:
            continue  # the probe that saw the server up, before the warm-up
        each = f"{seconds / requests * 1e6:,.0f}" if requests else "-"
        print(f"| {label:<52} | {requests:>8} | {each:>14} | {seconds / api_seconds * 100:4.1f}% | "
              f"{seconds / moves * 1000:11.3f} |")


if __name__ == "__main__":
    main()
