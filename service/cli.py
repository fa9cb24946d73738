"""The ``intrigue`` command: serve, worker, verify, reindex."""

from __future__ import annotations

import argparse
import logging
import os
import subprocess
import sys
from pathlib import Path

log = logging.getLogger("intrigue")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="intrigue", description="Hidden-information board games over HTTP.")
    commands = parser.add_subparsers(dest="command", required=True)

    serve = commands.add_parser("serve", help="run the API and a worker (embedded Redis unless REDIS_URL is set)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--data", default="intrigue-data", help="folder for the embedded Redis (default: %(default)s)")
    serve.add_argument("--processes", type=int, default=1,
                       help="API processes (gevent: each serves thousands of connections; default %(default)s)")
    serve.add_argument("--workers", type=int, default=1, help="worker processes to start beside the API")

    worker = commands.add_parser("worker", help="run a worker (system steps and deadlines) against REDIS_URL")
    worker.add_argument("--burst", action="store_true", help="exit when the queue is empty")
    worker.add_argument("--sweep-seconds", type=float, default=1.0)
    worker.add_argument("--queues", default="games,webhooks",
                        help="queues to serve, in order: games (steps, deadlines), webhooks (deliveries)")

    verify = commands.add_parser("verify", help="check a game log: hash chain, seed, every step replayed")
    verify.add_argument("file", help="an NDJSON log from GET /v1/games/<id>/log ('-' for stdin)")

    commands.add_parser("reindex", help="rebuild the lobby, inbox and deadline indexes from the streams")

    args = parser.parse_args(argv)
    logging.basicConfig(level=os.environ.get("INTRIGUE_LOG_LEVEL", "INFO"),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    return {"serve": _serve, "worker": _worker, "verify": _verify, "reindex": _reindex}[args.command](args)


def _serve(args: argparse.Namespace) -> int:
    from service.embedded import EmbeddedRedis

    embedded = None
    redis_url = os.environ.get("REDIS_URL")
    if not redis_url:
        embedded = EmbeddedRedis(Path(args.data).resolve()).start()
        redis_url = embedded.url
        log.info("embedded Redis on %s, data in %s", redis_url, Path(args.data).resolve())
    env = {**os.environ, "REDIS_URL": redis_url}
    # Game workers, and one for webhook deliveries: a slow receiver never delays a deadline.
    commands = [["--queues", "games"]] * args.workers + [["--queues", "webhooks"]]
    workers = [subprocess.Popen([sys.executable, "-m", "service.cli", "worker", *extra], env=env)
               for extra in commands]
    log.info("Intrigue serving on http://%s:%s/ (API docs at /docs)", args.host, args.port)
    print(f"Intrigue serving on http://{args.host}:{args.port}/", flush=True)
    try:
        _ApiServer(redis_url, bind=f"{args.host}:{args.port}", workers=args.processes).run()
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        for process in workers:
            process.terminate()
        for process in workers:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
        if embedded is not None:
            embedded.stop()
    return 0


class _ApiServer:
    """The API under gunicorn with gevent workers, exactly as in production, in this process tree.

    The app is built in each worker after gevent has patched it, so nothing that opens
    sockets or locks is imported here before the patch.
    """

    def __init__(self, redis_url: str, **settings: object) -> None:
        from gunicorn.app.base import BaseApplication

        from service import gunicorn_conf

        defaults = {name: getattr(gunicorn_conf, name) for name in
                    ("worker_class", "worker_connections", "keepalive", "timeout", "limit_request_line")}
        # Streams never end on their own: a short grace lets Ctrl-C and SIGTERM stop promptly.
        options = {**defaults, "graceful_timeout": 3, "loglevel": "warning", **settings}

        class Application(BaseApplication):
            def load_config(self) -> None:
                for name, value in options.items():
                    self.cfg.set(name, value)

            def load(self):
                from service.app import create_app

                return create_app(redis_url=redis_url)

        self.application = Application()

    def run(self) -> None:
        self.application.run()


def _worker(args: argparse.Namespace) -> int:
    from workers.runner import QUEUES, run_worker

    queues = tuple(name.strip() for name in args.queues.split(",") if name.strip())
    unknown = sorted(set(queues) - set(QUEUES))
    if unknown or not queues:
        print(f"unknown queue(s) {', '.join(unknown) or '(none)'}; choose from {', '.join(QUEUES)}", file=sys.stderr)
        return 2
    run_worker(os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"), sweep_seconds=args.sweep_seconds,
               burst=args.burst, queues=queues)
    return 0


def _verify(args: argparse.Namespace) -> int:
    """Exit 0: the log checks; 1: it is a game log and it was tampered with (or the game has
    not ended); 2: the input is not a usable game log at all (unreadable, empty, binary,
    not UTF-8, not JSON events)."""
    from projections.audit import AuditError, UnusableLog, audit, read_log

    try:
        data = sys.stdin.buffer.read() if args.file == "-" else Path(args.file).read_bytes()
        events = read_log(data.decode("utf-8").splitlines())
    except OSError as err:
        print(f"cannot read {args.file}: {err.strerror or err}", file=sys.stderr)
        return 2
    except UnicodeDecodeError as err:
        print(f"unusable input: {args.file} is not UTF-8 text (byte {err.start}); a game log is NDJSON",
              file=sys.stderr)
        return 2
    except UnusableLog as err:
        print(f"unusable input: {args.file}: {err}", file=sys.stderr)
        return 2
    try:
        report = audit(events)
    except AuditError as err:
        print(f"INVALID: {err}", file=sys.stderr)
        return 1
    print(f"OK: {report.events} events, hash chain intact, seed matches its commitment, every step replayed; "
          f"winners {report.winners}")
    return 0


def _reindex(args: argparse.Namespace) -> int:
    from events.store import connect
    from service.engine import Engine
    from service.progress import Progress
    from workers.scheduling import JobScheduler, make_queue

    client = connect(os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))
    progress = Progress("reindex", unit="games")
    count = Engine(client, JobScheduler(make_queue(client))).rebuild_indexes(progress=progress.update)
    print(f"rebuilt the indexes of {count} game(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
