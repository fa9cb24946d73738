"""How often the API process collects garbage under load, what it costs, and how long it stops.

    python bench/gc_pauses.py --seconds 60              # the side-by-side bench's load, no peer
    python bench/gc_pauses.py --root BEFORE             # another checkout (a git archive), same probe

Runs Intrigue as the image runs it (``bench/side_by_side.py``'s production shape) with
``bench/gc_probe`` on its processes' path: each process counts its collections by
generation (``gc.callbacks``). The Node load client plays a warm-up, then the measured run.
Printed, for the API process over the measured run: per generation the collections, their
CPU in all and as a share of the process's CPU, and the longest pause. A collection stops
every request in flight on that process, so a long pause reaches the slowest moves: the p99
that the side by side measures. Nothing is asserted: it prints figures.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

from common import PRODUCTION_API_PROCESSES, ROOT
from interpreter import image_like
from side_by_side import CLIENT, IMAGE, cpu_seconds, intrigue, run_client, settle

PROBE = ROOT / "bench" / "gc_probe"


def counts(folder: Path, pid: int) -> dict:
    """The process's counts so far (none before its first collection)."""
    path = folder / f"{pid}.json"
    return json.loads(path.read_text()) if path.exists() else {"generations": {}, "pauses": {}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=60.0, help="the measured run (default %(default)s)")
    parser.add_argument("--warm-up", type=float, default=10.0, help="a first run, not counted (default %(default)s)")
    parser.add_argument("--games", type=int, default=100, help="tables of 3 seats (default %(default)s)")
    parser.add_argument("--workers", type=int, default=2, help="`intrigue worker` processes")
    parser.add_argument("--root", type=Path, default=ROOT,
                        help="measure this checkout (a `git archive` of another commit, say) with this one's probe")
    parser.add_argument("--python", help="the interpreter that runs Intrigue (default: the image's CPython or the "
                                          "nearest build this machine has, as bench/side_by_side.py chooses)")
    args = parser.parse_args()
    root = args.root.resolve()
    python = args.python or image_like().path

    with tempfile.TemporaryDirectory() as folder, intrigue(
            "gunicorn", PRODUCTION_API_PROCESSES, args.workers, IMAGE, root=root, python=python,
            env_extra={"PYTHONPATH": os.pathsep.join([str(root), str(PROBE)]),
                       "INTRIGUE_GC_PROBE_DIR": folder}) as (base, pids, _):
        server_pids = pids()
        api = server_pids[-1] if PRODUCTION_API_PROCESSES == 1 else None
        if api is None:
            raise SystemExit("this bench reads one API process; the image starts more on this machine")

        def play(seconds: float, seed: int) -> dict:
            command = ["node", str(CLIENT), "--url", base, "--games", str(args.games), "--seconds", str(seconds),
                       "--feed", "sse", "--seed", str(seed), "--server-pids", ",".join(map(str, server_pids))]
            return run_client(command, ROOT, seconds)

        play(args.warm_up, 1)
        settle(server_pids)
        before, cpu_before, started = counts(Path(folder), api), cpu_seconds([api]), time.time()
        figures = play(args.seconds, 2)
        after, cpu_after, ended = counts(Path(folder), api), cpu_seconds([api]), time.time()

    spent = cpu_after - cpu_before
    print(f"{figures['moves']} moves in {args.seconds:.0f} s ({figures['rate']:.0f}/s), p50 {figures['p50']:.0f} ms, "
          f"p99 {figures['p99']:.0f} ms; the API process used {spent:.2f} s of CPU over {ended - started:.0f} s")
    print()
    print("| generation | collections | CPU, s | share of the API's CPU | pauses of 10 ms or more | longest, ms |")
    print("|---|---:|---:|---:|---:|---:|")
    for generation in ("0", "1", "2"):
        was = before["generations"].get(generation, [0, 0.0])
        now = after["generations"].get(generation, [0, 0.0])
        pauses = [wall for at, wall in after["pauses"].get(generation, []) if started <= at <= ended]
        longest = f"{max(pauses) * 1000:.0f}" if pauses else "-"
        print(f"| {generation} | {int(now[0] - was[0])} | {now[1] - was[1]:.2f} | "
              f"{(now[1] - was[1]) / spent * 100:.1f}% | {sum(wall >= 0.01 for wall in pauses)} | {longest} |")


if __name__ == "__main__":
    main()
