"""Intrigue beside boardgame.io: the same table shape, alternating windows, one table of figures.

    cp -r <the peer's folder> /tmp/peer && (cd /tmp/peer && npm install)
    python bench/side_by_side.py --peer-dir /tmp/peer --rounds 3 --seconds 20

Both sides get N tables of 3 seats with one move in flight per table, a random legal move
as soon as a seat is awaited, over a window of --seconds. The windows alternate (peer,
Intrigue, peer, Intrigue...) so that both see the same load from whatever else runs on the
machine, and the ratio is taken within each round. Before each window the servers are let
settle (their CPU under 5% of a core), so no window pays for the clean-up of the last, and
before round 1 each server gets a --warm-up window that is not counted, so round 1 is not
the only one that pays for cold processes.
Load clients are Node programs (the peer's own ``load.js``; ours, ``bench/intrigue_load.mjs``); each reports the CPU its
process and the measured server's processes used in the window, so a client that became
the bottleneck would show.

Intrigue runs as the image runs it (Redis with an append-only file, fsync every second;
gunicorn started through the image's GUNICORN_CMD_ARGS, with --api-processes as its
WEB_CONCURRENCY; ``intrigue worker`` processes) or as ``intrigue serve`` (--intrigue
serve), on the image's kind of interpreter (bench/interpreter.py; its first line names it).
A move is timed from its POST to the next decision's view (bench/intrigue_load.mjs); the
POST alone and the stream's extra delay are printed beside it. The peer runs with its
FlatFile storage (files, no fsync) or in memory (--peer memory). Nothing here is asserted:
it prints figures.

--floor adds a column for the stack's floor (bench/floor_app.py): a null game served on
Intrigue's own server stack (gunicorn with its gevent worker, Flask, redis-py, Redis with
its append-only file, one script call per move), driven by the same client. What Intrigue
costs above it is the cost of its rules, views and safeguards, not of the stack.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack, contextmanager
from pathlib import Path

from common import NO_LIMITS as COMMON_NO_LIMITS
from common import PRODUCTION_API_PROCESSES, ROOT, wait_for
from interpreter import image_like

from service.datadir import stop_children
from service.embedded import EmbeddedRedis, free_port

CLIENT = ROOT / "bench" / "intrigue_load.mjs"
#: --worker-class's name for "as the image runs it" (its config file picks the class).
IMAGE = "image"
#: The limits lifted for the bench: every one of bench/common.py's but the per-player request
#: limit, which stays at its production default, as the image runs it (every move spends a
#: token). 300 players registered from one address, a new game every few seconds per table,
#: and one address standing for them all are not what the others police.
NO_LIMITS = {name: off for name, off in COMMON_NO_LIMITS.items() if name != "INTRIGUE_RATE_LIMIT"}


def descendants(pid: int) -> list[int]:
    """``pid`` and every process below it (read from /proc), for CPU accounting."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo += children.get(current, [])
    return found


@contextmanager
def spawned(command: list[str], env: dict[str, str], probe: str, cwd: Path = ROOT):
    """A server started and answering ``probe``. One that exits before it answers (a bad
    setting, say) stops the bench at once, with the end of what it wrote to stderr."""
    with tempfile.TemporaryFile() as stderr:
        process = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=stderr)
        try:
            try:
                wait_for(probe, timeout=60, process=process)
            except RuntimeError as failed:
                stderr.seek(0)
                said = stderr.read().decode(errors="replace").strip().splitlines()[-5:]
                raise RuntimeError("\n".join([str(failed), *said])) from None
            yield process
        finally:
            stop_children([process], timeout=20)


@contextmanager
def intrigue(shape: str, api_processes: int, workers: int, worker_class: str, root: Path = ROOT,
             gunicorn_args: tuple[str, ...] = (), env_extra: dict[str, str] | None = None,
             python: str = sys.executable):
    """Intrigue (the checkout at ``root``, run by the interpreter ``python``) on a free port;
    yields (base URL, a function giving the pids whose CPU counts as the server's: Redis,
    the workers, then gunicorn's; its Redis's URL, None for ``serve``'s own)."""
    port = free_port()
    # The limits of NO_LIMITS off (an older checkout ignores the ones it lacks); the per-player
    # request limit as the environment or the production default sets it.
    env = {**os.environ, "INTRIGUE_LOG_LEVEL": "WARNING", "PYTHONPATH": str(root), **NO_LIMITS, **(env_extra or {})}
    probe = f"http://127.0.0.1:{port}/v1/openapi.json"
    with ExitStack() as stack:
        data = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        if shape == "serve":
            env.pop("REDIS_URL", None)
            command = [python, "-m", "service.cli", "serve", "--port", str(port), "--workers", str(workers),
                       "--data", str(data)]
            main = stack.enter_context(spawned(command, env, probe, cwd=root))
            yield f"http://127.0.0.1:{port}", lambda: descendants(main.pid), None
            return
        redis_server = stack.enter_context(EmbeddedRedis(data, persist=True))
        env["REDIS_URL"] = redis_server.url
        worker_processes = [subprocess.Popen([python, "-m", "service.cli", "worker"], cwd=root, env=env)
                            for _ in range(workers)]
        stack.callback(stop_children, worker_processes, 20)
        if worker_class == IMAGE:
            # As the image starts it: its CMD, its GUNICORN_CMD_ARGS (service/gunicorn_conf.py,
            # with its hooks), the port and the processes through the variables it reads.
            env.update(GUNICORN_CMD_ARGS="--config python:service.gunicorn_conf", INTRIGUE_BIND=f"127.0.0.1:{port}",
                       WEB_CONCURRENCY=str(api_processes))
            command = [python, "-m", "gunicorn", "--log-level", "warning", *gunicorn_args, "service.wsgi:app"]
        else:
            # The settings of service/gunicorn_conf.py spelled out, so that an older checkout
            # (--before) is served the same way, whatever its worker class.
            command = [python, "-m", "gunicorn", "-k", worker_class, "-w", str(api_processes),
                       "--worker-connections", "10000", "--threads", str(args_threads(api_processes)),
                       "--keep-alive", "75", "--timeout", "60", "--limit-request-line", "8190",
                       "-b", f"127.0.0.1:{port}", "--log-level", "warning", *gunicorn_args,
                       "service.wsgi:app"]
        api = stack.enter_context(spawned(command, env, probe, cwd=root))
        assert redis_server.process is not None
        pids = [redis_server.process.pid, *(p.pid for p in worker_processes)]
        yield f"http://127.0.0.1:{port}", lambda: pids + descendants(api.pid), redis_server.url


@contextmanager
def floor(python: str):
    """bench/floor_app.py (the stack's floor: a null game on Intrigue's server stack) served as
    the image serves Intrigue, one API process and Redis with its append-only file; yields
    what ``intrigue()`` yields (there are no workers)."""
    port = free_port()
    env = {**os.environ, "INTRIGUE_LOG_LEVEL": "WARNING", "PYTHONPATH": str(ROOT), **NO_LIMITS,
           "GUNICORN_CMD_ARGS": "--config python:service.gunicorn_conf", "INTRIGUE_BIND": f"127.0.0.1:{port}",
           "WEB_CONCURRENCY": "1"}
    with ExitStack() as stack:
        data = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        redis_server = stack.enter_context(EmbeddedRedis(data, persist=True))
        env["REDIS_URL"] = redis_server.url
        api = stack.enter_context(spawned([python, "-m", "gunicorn", "--log-level", "warning", "bench.floor_app:app"],
                                          env, f"http://127.0.0.1:{port}/v1/openapi.json"))
        assert redis_server.process is not None
        pids = [redis_server.process.pid]
        yield f"http://127.0.0.1:{port}", lambda: pids + descendants(api.pid), redis_server.url


def args_threads(api_processes: int) -> int:
    """Threads per process for ``-k gthread``: a long-poll per table, as bench/coup_load.py gives."""
    return 100 // api_processes + 16


@contextmanager
def idle_watchers(base: str, count: int):
    """``count`` idle watchers held open on ``base`` by bench/hold_watchers.py while inside."""
    holder = subprocess.Popen([sys.executable, str(ROOT / "bench" / "hold_watchers.py"), base, str(count)],
                              cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        line = holder.stdout.readline() if holder.stdout else ""
        if not line.startswith("ready"):
            raise RuntimeError(f"the watchers did not open: {line!r}")
        yield
    finally:
        holder.terminate()
        holder.wait(timeout=60)


@contextmanager
def peer(peer_dir: Path, storage: str):
    port = free_port()
    with ExitStack() as stack:
        command = ["node", "server.js", str(port)]
        if storage == "flatfile":
            command += ["--flatfile", stack.enter_context(tempfile.TemporaryDirectory())]
        process = stack.enter_context(spawned(command, dict(os.environ), f"http://127.0.0.1:{port}/games",
                                              cwd=peer_dir))
        yield f"http://127.0.0.1:{port}", lambda: [process.pid]


def running(pid: int) -> bool:
    """Whether process ``pid`` still runs (an exited child not yet waited for does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def run_client(command: list[str], cwd: Path, seconds: float, tries: int = 2,
               servers: list[int] | None = None) -> dict:
    """Run one window's client; a client that fails (a server dropping a connection while the
    tables are set up, on a loaded machine) is run once more, and the failure is told. When a
    process of ``servers`` has exited, the window cannot be run again: that is said instead."""
    for attempt in range(1, tries + 1):
        done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=seconds + 600)
        if done.returncode == 0:
            break
        failure = f"{' '.join(command)} failed:\n{done.stdout[-1500:]}\n{done.stderr[-1500:]}"
        exited = [pid for pid in servers or () if not running(pid)]
        if exited:
            raise RuntimeError(f"the measured server's process {', '.join(map(str, exited))} exited during the "
                               f"window, so its figures cannot be had; the load client said:\n{failure}")
        if attempt == tries:
            raise RuntimeError(failure)
        print(f"window failed, running it again: {done.stderr.strip().splitlines()[-1:] or ''}", flush=True)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    figures = json.loads(lines[0])
    # The peer's client prints its CPU as a sentence; ours prints it in the JSON line.
    for line in done.stdout.splitlines():
        if line.startswith("CPU over window"):
            figures.update(_peer_cpu(line, figures["moves"]))
    return figures


def _peer_cpu(line: str, moves: int) -> dict:
    import re

    cap = float(re.search(r"capacity ([\d.]+)", line).group(1))
    server = float(re.search(r"server ([\d.]+) cpu-s", line).group(1))
    client = float(re.search(r"client ([\d.]+) cpu-s", line).group(1))
    busy = float(re.search(r"machine busy ([\d.]+)%", line).group(1)) / 100
    return {"capacity": cap, "server_cpu": server, "client_cpu": client, "client_share": client / cap,
            "server_share": server / cap, "machine_busy": busy, "server_ms_per_move": server / max(1, moves) * 1000}


def by_role(figures: dict, pids: list[int], workers: int) -> dict:
    """The server's CPU per move split by role, from the client's per-pid figures; ``pids``
    is in the order ``intrigue()`` lists them (Redis, the workers, gunicorn's processes)."""
    by_pid = figures.get("ms_per_move_by_pid", {})
    each = [by_pid.get(str(pid), 0.0) for pid in pids]
    if len(each) < workers + 2:
        return {}
    return {"redis_ms_per_move": each[0], "workers_ms_per_move": sum(each[1:1 + workers]),
            "api_ms_per_move": sum(each[1 + workers:])}


def redis_calls(url: str | None) -> tuple[int, int] | None:
    """Commands the Redis at ``url`` ran so far (INFO commandstats, those inside scripts
    included), and of them the script calls (EVALSHA: an append is one)."""
    if url is None:
        return None
    import redis

    client = redis.Redis.from_url(url)
    try:
        stats = client.info("commandstats")
    finally:
        client.close()
    return sum(entry["calls"] for entry in stats.values()), stats.get("cmdstat_evalsha", {}).get("calls", 0)


def cpu_seconds(pids: list[int]) -> float:
    total = 0.0
    for pid in pids:
        try:
            fields = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def settle(pids: list[int], quiet_share: float = 0.05, longest: float = 90.0) -> float:
    """Wait until ``pids`` use under ``quiet_share`` of a core over a second; how long it took.

    A window must not pay for the one before it: after 5,000 idle watchers hang up, their
    server spends a while closing them, and that CPU would be taken from the next window.
    """
    started = time.monotonic()
    while time.monotonic() - started < longest:
        before = cpu_seconds(pids)
        time.sleep(1.0)
        if cpu_seconds(pids) - before < quiet_share:
            break
    return time.monotonic() - started


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def main() -> None:
    # A plain SIGTERM would skip the clean-up and leave every server running.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--peer-dir", default=os.environ.get("INTRIGUE_PEER_DIR", "/tmp/peer"),
                        help="the peer's folder after `npm install` (default %(default)s)")
    parser.add_argument("--peer", choices=["flatfile", "memory"], action="append",
                        help="peer storage(s) to measure (default: flatfile)")
    parser.add_argument("--intrigue", choices=["gunicorn", "serve"], default="gunicorn",
                        help="gunicorn: the production shape (default); serve: `intrigue serve`")
    parser.add_argument("--worker-class", default=IMAGE,
                        help="gunicorn worker class, or `image` (the default): gunicorn started as the image "
                             "starts it, with its GUNICORN_CMD_ARGS (service/gunicorn_conf.py: gevent, its hooks)")
    parser.add_argument("--api-processes", type=int, default=PRODUCTION_API_PROCESSES,
                        help="gunicorn processes (default %(default)s: what the image starts on this machine)")
    parser.add_argument("--workers", type=int, default=2, help="`intrigue worker` processes")
    parser.add_argument("--feed", choices=["sse", "poll"], default="sse",
                        help="how Intrigue's bots learn their views (default %(default)s)")
    parser.add_argument("--games", type=int, default=100, help="tables of 3 seats (default %(default)s)")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each window (default %(default)s)")
    parser.add_argument("--rounds", type=int, default=3, help="alternations (default %(default)s)")
    parser.add_argument("--warm-up", type=float, default=10.0,
                        help="seconds of load each server gets once, unmeasured, before round 1: every server "
                             "process starts cold, and only the first window would pay for it (default "
                             "%(default)s; 0: none)")
    parser.add_argument("--before", type=Path,
                        help="also measure this older checkout of Intrigue (git archive of main, say), "
                             "with --before-worker-class and --before-feed, as an extra column")
    parser.add_argument("--before-worker-class", default="gthread")
    parser.add_argument("--before-feed", choices=["sse", "poll"], default="poll")
    parser.add_argument("--before-api-processes", type=int, help="(default: --api-processes)")
    parser.add_argument("--python",
                        help="the interpreter (of a venv with the project installed) that runs Intrigue's "
                             "processes (default: the image's CPython or the nearest build this machine has, "
                             "see bench/interpreter.py)")
    parser.add_argument("--before-python", help="the same for --before (default: --python); with --before "
                                                "naming this checkout, it compares two interpreters")
    parser.add_argument("--idle-watchers", type=int, default=0,
                        help="also measure Intrigue while this many idle watchers (half event streams, half "
                             "long-polls) are open on it, as an extra column")
    parser.add_argument("--minimal", action="store_true",
                        help="Intrigue's bots (not the --before ones) post with Prefer: return=minimal and take every "
                             "view from their streams (bench/intrigue_load.mjs --minimal 1)")
    parser.add_argument("--floor", action="store_true",
                        help="also measure the stack's floor (bench/floor_app.py: a null game on Intrigue's "
                             "server stack, one API process), as an extra column")
    parser.add_argument("--json", help="also write every window's figures to this file")
    args = parser.parse_args()
    peer_dir = Path(args.peer_dir)
    if not (peer_dir / "node_modules" / "boardgame.io").exists():
        sys.exit(f"no installed peer in {peer_dir}: copy its folder there and run `npm install`")
    storages = args.peer or ["flatfile"]
    shape = (f"gunicorn -k {{}} x{args.api_processes}" if args.intrigue == "gunicorn" else "intrigue serve")
    short = {"service.gevent_worker.Worker": "gevent", IMAGE: "as the image"}
    if args.python is None:
        chosen = image_like()
        args.python = chosen.path
        print(f"Intrigue runs on {chosen.label}: {chosen.path}", flush=True)
    before_python = args.before_python or args.python
    named = before_python != args.python  # then each side says which

    def interpreter(python: str) -> str:
        return f", {python}" if named else ""

    main_side = (f"Intrigue {shape.format(short.get(args.worker_class, args.worker_class))}, {args.feed}"
                 + (", minimal" if args.minimal else "") + interpreter(args.python))
    sides = {main_side: (ROOT, args.worker_class, args.feed, args.python)}
    watched_side = f"same + {args.idle_watchers} idle watchers"
    before_processes = args.before_api_processes or args.api_processes
    if args.before:
        before_shape = shape.replace(f"x{args.api_processes}", f"x{before_processes}")
        sides[f"before: {before_shape.format(short.get(args.before_worker_class, args.before_worker_class))}, "
              f"{args.before_feed}{interpreter(before_python)}"] = (args.before.resolve(), args.before_worker_class,
                                                                   args.before_feed, before_python)

    windows: list[dict] = []
    with ExitStack() as stack:
        servers = {name: stack.enter_context(intrigue(
            args.intrigue, args.api_processes if name == main_side else before_processes, args.workers, wc, root,
            python=python))
            for name, (root, wc, _, python) in sides.items()}
        floor_side = "the stack's floor (bench/floor_app.py)"
        if args.floor:
            servers[floor_side] = stack.enter_context(floor(args.python))
            sides[floor_side] = (ROOT, IMAGE, "sse", args.python)
        peers = {s: stack.enter_context(peer(peer_dir, s)) for s in storages}
        names = [*sides, *([watched_side] if args.idle_watchers else [])]
        peer_windows = [("bgio " + s, s) for s in storages]

        def window(name: str, storage: str | None, round_: int, seconds: float) -> dict:
            """One window of ``name``'s load client, after the servers settled."""
            settle([pid for _, pids, *_ in [*servers.values(), *peers.values()] for pid in pids()])
            load = load_average()
            if storage is None:
                side = main_side if name == watched_side else name
                base, pids, redis_url = servers[side]
                server_pids = pids()
                calls_before = redis_calls(redis_url)
                command = ["node", str(CLIENT), "--url", base, "--games", str(args.games), "--seconds",
                           str(seconds), "--feed", sides[side][2], "--seed", str(round_),
                           "--server-pids", ",".join(map(str, server_pids))]
                if args.minimal and side == main_side:
                    command += ["--minimal", "1"]
                with ExitStack() as held:
                    if name == watched_side:
                        held.enter_context(idle_watchers(base, args.idle_watchers))
                    figures = run_client(command, ROOT, seconds, servers=server_pids)
                calls_after = redis_calls(redis_url)
                if calls_before is not None and calls_after is not None:
                    moves = max(1, figures["moves"])
                    figures["redis_calls_per_move"] = (calls_after[0] - calls_before[0]) / moves
                    figures["redis_scripts_per_move"] = (calls_after[1] - calls_before[1]) / moves
            else:
                url, pids = peers[storage]
                command = ["node", "load.js", "--url", url, "--games", str(args.games), "--seconds",
                           str(seconds), "--seed", str(round_), "--server-pid", str(pids()[0])]
                figures = run_client(command, peer_dir, seconds, servers=pids())
            figures.update(name=name, round=round_, load=load)
            if storage is None and (args.intrigue == "gunicorn" or name == floor_side):
                figures.update(by_role(figures, server_pids, 0 if name == floor_side else args.workers))
            return figures

        if args.warm_up > 0:  # every server once, unmeasured: round 1 should not be the only cold one
            for name, storage in [*peer_windows, *((name, None) for name in sides)]:
                figures = window(name, storage, 0, args.warm_up)
                print(f"warm-up {name:<42} {figures['rate']:7.1f} moves/s  p99 {figures['p99']:6.1f} ms "
                      "(not counted)", flush=True)
        for round_ in range(1, args.rounds + 1):
            order = [*peer_windows, *((name, None) for name in names)]
            if round_ % 2 == 0:
                order.reverse()
            for name, storage in order:
                figures = window(name, storage, round_, args.seconds)
                windows.append(figures)
                post = (f" (POST alone {figures['post_p99']:.0f}, stream's extra {figures['extra_p99']:.0f})"
                        if "post_p99" in figures else "")
                print(f"round {round_} {name:<42} {figures['rate']:7.1f} moves/s  p50 {figures['p50']:6.1f} ms  "
                      f"p99 {figures['p99']:6.1f} ms{post}  "
                      f"server {figures.get('server_ms_per_move', float('nan')):.2f} "
                      f"cpu-ms/move  client {figures.get('client_share', float('nan')) * 100:4.1f}% of machine  "
                      f"(load {figures['load']})", flush=True)
                if "api_ms_per_move" in figures:
                    print(f"        of which API {figures['api_ms_per_move']:.2f}, workers "
                          f"{figures['workers_ms_per_move']:.2f}, Redis {figures['redis_ms_per_move']:.2f}; "
                          f"Redis commands per move {figures.get('redis_calls_per_move', float('nan')):.2f} "
                          f"(script calls {figures.get('redis_scripts_per_move', float('nan')):.2f})"
                          + (f"; 429s waited out {figures['limited']}" if figures.get("limited") else ""),
                          flush=True)
    print()
    print(table(windows, names, storages))
    if args.json:
        Path(args.json).write_text(json.dumps(windows, indent=1))


def table(windows: list[dict], labels: list[str], storages: list[str]) -> str:
    def span(name: str, key: str, scale: float = 1.0, fmt: str = "{:.0f}") -> str:
        values = [w[key] * scale for w in windows if w["name"] == name and key in w]
        if not values:
            return "-"
        low, high = min(values), max(values)
        return fmt.format(low) if fmt.format(low) == fmt.format(high) else f"{fmt.format(low)}-{fmt.format(high)}"

    names = [*labels, *("bgio " + s for s in storages)]
    rows = [("moves/s", "rate", 1, "{:.0f}"), ("p50 ms, POST to the next decision's view", "p50", 1, "{:.0f}"),
            ("p99 ms, POST to the next decision's view", "p99", 1, "{:.0f}"),
            ("p99 ms, the POST alone", "post_p99", 1, "{:.0f}"),
            ("p99 ms, the stream's extra delay", "extra_p99", 1, "{:.0f}"),
            ("server CPU ms/move", "server_ms_per_move", 1, "{:.2f}"),
            ("of which API", "api_ms_per_move", 1, "{:.2f}"), ("of which workers", "workers_ms_per_move", 1, "{:.2f}"),
            ("of which Redis", "redis_ms_per_move", 1, "{:.2f}"),
            ("Redis commands per move (in scripts too; the window's set-up included)", "redis_calls_per_move", 1,
             "{:.2f}"),
            ("of which script calls (EVALSHA)", "redis_scripts_per_move", 1, "{:.2f}"),
            ("load client CPU, % of machine", "client_share", 100, "{:.0f}")]
    lines = ["| | " + " | ".join(names) + " |", "|---" * (len(names) + 1) + "|"]
    for title, key, scale, fmt in rows:
        lines.append(f"| {title} | " + " | ".join(span(n, key, scale, fmt) for n in names) + " |")
    for label in labels:
        for storage in storages:
            lines.extend(_round_ratios(windows, label, "bgio " + storage))
    loads = sorted({w["load"] for w in windows})
    lines.append(f"load averages at the windows' starts: {loads[0]} .. {loads[-1]}")
    return "\n".join(lines)


#: The figures compared within each round: (key, what the line calls it, which way is better).
RATIOS = (("rate", "moves/s", "higher"), ("server_ms_per_move", "server CPU per move", "lower"),
          ("p99", "p99", "lower"))


def _round_ratios(windows: list[dict], ours: str, theirs: str) -> list[str]:
    """One line per figure of :data:`RATIOS`: ours over theirs, round by round.

    An absolute aim (1.5 ms of CPU per move, say) holds only for the machine's speed on
    the day it was set; this machine's speed swings by half from hour to hour, and the
    ratio within a round, whose windows alternate, is what stays comparable across days.
    """
    lines = []
    for key, title, better in RATIOS:
        ratios = []
        for round_ in sorted({w["round"] for w in windows}):
            mine = [w for w in windows if w["round"] == round_ and w["name"] == ours and key in w]
            other = [w for w in windows if w["round"] == round_ and w["name"] == theirs and key in w]
            if mine and other and other[0][key]:
                ratios.append(mine[0][key] / other[0][key])
        if ratios:
            lines.append(f"{title}, {ours} / {theirs} ({better} is better), per round: "
                         + ", ".join(f"{r:.2f}" for r in ratios) + f" (median {statistics.median(ratios):.2f})")
    return lines


if __name__ == "__main__":
    main()
