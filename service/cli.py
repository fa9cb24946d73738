"""The ``intrigue`` command: serve, worker, verify, reindex, bot."""

from __future__ import annotations

import argparse
import dataclasses
import logging
import os
import subprocess
import sys
from pathlib import Path

from engine.seat_bots import STRATEGIES
from engine.settings import Settings, SettingsError, environment_with
from service.version import package_version

log = logging.getLogger("intrigue")

DEFAULT_DATA = "intrigue-data"
#: Exit status of a command that cannot run as asked (no Redis named, folder in use, port taken).
CANNOT_RUN = 2


class CannotRun(Exception):
    """A command that cannot start: one line for the operator, no traceback."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="intrigue", description="Hidden-information board games over HTTP.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    commands = parser.add_subparsers(dest="command", required=True)
    defaults = argparse.ArgumentDefaultsHelpFormatter

    serve = commands.add_parser("serve", formatter_class=defaults,
                                help="run the API and a worker (embedded Redis unless REDIS_URL is set)")
    serve.add_argument("--host", default="127.0.0.1", help="address the API listens on")
    serve.add_argument("--port", type=int, default=8000, help="port the API listens on")
    serve.add_argument("--data", default=DEFAULT_DATA,
                       help="folder of the embedded Redis (its append-only file); one serve per folder")
    serve.add_argument("--processes", type=int, default=1,
                       help="API processes (gunicorn with gevent workers: each serves thousands of connections)")
    serve.add_argument("--workers", type=int, default=1,
                       help="game worker processes to start beside the API (one more delivers webhooks, "
                            "one more plays the bot seats; 0: none)")

    attach = ("--data DIR attaches to the embedded Redis of the intrigue serve running on DIR; "
              "otherwise REDIS_URL names the Redis")
    worker = commands.add_parser("worker", formatter_class=defaults, description=attach,
                                 help="run a worker (system steps and deadlines)")
    worker.add_argument("--data", metavar="DIR", help="attach to the intrigue serve running on DIR")
    worker.add_argument("--burst", action="store_true", help="exit when the queue is empty")
    worker.add_argument("--sweep-seconds", type=float, default=1.0, help="longest pause of the deadline sweep")
    worker.add_argument("--queues", default="games,webhooks,bots",
                        help="queues to serve, in order: games (steps, deadlines), webhooks (deliveries), "
                             "bots (bot seats' decisions)")

    verify = commands.add_parser("verify", help="check a game log: hash chain, seed, every step replayed",
                                 description="Exit 0: the log checks; 1: it was tampered with (or the game has "
                                             "not ended); 2: the input is not a game log.")
    verify.add_argument("file", help="an NDJSON log from GET /v1/games/<id>/log, or a tournament's from "
                                     "GET /v1/tournaments/<id>/log: its pairings re-run ('-' for stdin)")
    verify.add_argument("--checkpoint", metavar="FILE",
                        help="also prove the game is in the transparency log this signed checkpoint "
                             "(GET /v1/transparency/checkpoint) commits to; needs --url for the proof")
    verify.add_argument("--url", help="the server: its published key (checks the log's signed final record) "
                                      "and the game's inclusion proof")
    verify.add_argument("--key", help="the server's Ed25519 public key, to check the log's signed final record "
                                      "and the checkpoint: base64, PEM or GET /v1/keys's JSON, or a file holding "
                                      "one (else fetched from --url)")

    witness = commands.add_parser("witness", help="check the transparency log grows honestly, and cosign it",
                                  description="Exit 0: the checkpoint extends the last one seen and is cosigned; "
                                              "1: a fork (both checkpoints printed) or a bad signature; "
                                              "2: the server or the state file cannot be used.")
    witness.add_argument("--url", required=True, help="the server whose log to witness")
    witness.add_argument("--state", required=True, metavar="FILE",
                         help="this witness's key, the log's key and the last checkpoint seen (made if absent)")

    reindex = commands.add_parser("reindex", formatter_class=defaults, description=attach,
                                  help="rebuild the lobby, inbox and deadline indexes and the ratings from the "
                                       "streams, and the players' name index")
    reindex.add_argument("--data", metavar="DIR", help="attach to the intrigue serve running on DIR")

    bot = commands.add_parser("bot", formatter_class=defaults,
                              help="play a seat of a game with one of the server's bots, through the Python SDK",
                              description="Plays the seat TOKEN holds in game ID (joining it if it is open) "
                                          "until the game ends, as any client would: over HTTP, with the "
                                          "intrigue_client SDK (pip install -e clients/python). An ISMCTS "
                                          "decision's budget is INTRIGUE_BOT_ITERATIONS and "
                                          "INTRIGUE_BOT_MILLISECONDS.")
    bot.add_argument("--url", required=True, help="the server's base URL, e.g. http://127.0.0.1:8000")
    bot.add_argument("--token", required=True, help="the bearer token of the player whose seat the bot plays")
    bot.add_argument("--game", required=True, metavar="ID", help="the game's id")
    bot.add_argument("--strategy", choices=STRATEGIES, default="ismcts", help="which bot plays")
    bot.add_argument("--seed", type=int, help="seed of the bot's own choices (default: a fresh one)")

    args = parser.parse_args(argv)
    command = {"serve": _serve, "worker": _worker, "verify": _verify, "witness": _witness, "reindex": _reindex,
               "bot": _bot}[args.command]
    try:
        # Read once, here: an unusable value is one line now, not a traceback at the first request.
        args.settings = Settings.from_env()
        logging.basicConfig(level=args.settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
        return command(args)
    except (CannotRun, SettingsError) as err:
        print(f"intrigue {args.command}: {err}", file=sys.stderr)
        return CANNOT_RUN


def _version() -> str:
    return package_version()


def _serve(args: argparse.Namespace) -> int:
    """Bind the port, own the data folder, then start Redis and the workers; stop them on exit.

    The port is bound before anything else, so a port in use costs one line and leaves
    nothing behind; gunicorn (with gevent workers, as in production) then serves on that
    very socket. Every child is told to die with this process, and recorded in the data
    folder so the next serve stops any that survived a SIGKILL.
    """
    import socket

    from events.store import without_password
    from service.datadir import DataFolder, FolderInUse, command_line, die_with_parent, stop_children
    from service.embedded import EmbeddedRedis

    folder = embedded = None
    settings: Settings = args.settings
    redis_url = settings.redis_url
    if not redis_url:
        folder = DataFolder(args.data)
        # Started below, once all is ours. Outside the terminal's process group, as the workers
        # are: Ctrl-C reaches this process alone, which stops the workers, then Redis.
        embedded = EmbeddedRedis(folder.path, preexec_fn=die_with_parent(), own_group=True, private=True)
        redis_url = embedded.url
    try:
        listener = socket.create_server((args.host, args.port), backlog=2048)
    except OSError as err:
        raise CannotRun(f"cannot listen on {args.host}:{args.port}: {err.strerror or err}") from None
    port = listener.getsockname()[1]
    if folder is not None:
        try:
            folder.acquire()
        except (FolderInUse, OSError) as err:
            listener.close()
            if isinstance(err, FolderInUse):
                raise CannotRun(str(err)) from None
            raise CannotRun(f"cannot use {folder.path} as the data folder: {err.strerror or err}") from None
    workers: list[subprocess.Popen[bytes]] = []
    try:
        children: dict[int, list[str] | None] = {}
        if folder is not None and embedded is not None:
            stopped = folder.stop_leftovers()
            if stopped:
                log.warning("stopped %d process(es) a previous serve on %s left running: %s",
                            len(stopped), folder.path, stopped)
            if settings.signing_key is None:  # made once in the folder, then read by each API process
                from engine.signing import key_in_folder, pem

                settings = dataclasses.replace(settings, signing_key=pem(key_in_folder(folder.path)).decode())
            embedded.start()
            assert embedded.process is not None
            children[embedded.process.pid] = command_line(embedded.process.pid)
            folder.record(redis_url=redis_url, children=children)
            log.info("embedded Redis on %s, data in %s", without_password(redis_url), folder.path)
        env = environment_with(REDIS_URL=redis_url)
        # Game workers, one for webhook deliveries and one for bot seats: neither a slow receiver
        # nor a bot's search ever delays a deadline. With --workers 0 the operator runs workers
        # apart (``intrigue worker`` serves every queue).
        apart = [["--queues", "webhooks"], ["--queues", "bots"]] if args.workers > 0 else []
        for extra in [["--queues", "games"]] * args.workers + apart:
            # Its own process group, so stopping a leftover worker stops the scheduler it forked.
            workers.append(subprocess.Popen(worker_command(tuple(extra[1].split(","))), env=env,
                                            preexec_fn=die_with_parent(), process_group=0))
            children[workers[-1].pid] = command_line(workers[-1].pid)
        if folder is not None:
            folder.record(redis_url=redis_url, children=children, api=f"http://{args.host}:{port}/")
        log.info("Intrigue serving on http://%s:%s/ (API docs at /docs)", args.host, port)
        print(f"Intrigue serving on http://{args.host}:{port}/", flush=True)
        try:  # gunicorn handles SIGTERM and SIGINT: it stops its workers, then exits here
            _ApiServer(redis_url, settings, bind=f"fd://{listener.fileno()}", workers=args.processes).run()
        except (KeyboardInterrupt, SystemExit):
            pass
    finally:
        stop_children(workers, timeout=10)
        if embedded is not None:
            embedded.stop()
        if folder is not None:
            folder.release()
    return 0


class _ApiServer:
    """The API under gunicorn with gevent workers, exactly as in production, in this process tree.

    The app is built in each worker after gevent has patched it, so nothing that opens
    sockets or locks is imported here before the patch.
    """

    def __init__(self, redis_url: str, app_settings: Settings, **settings: object) -> None:
        from gunicorn.app.base import BaseApplication

        from service import gunicorn_conf

        defaults = {name: getattr(gunicorn_conf, name) for name in
                    ("worker_class", "worker_connections", "keepalive", "timeout", "limit_request_line",
                     "post_worker_init")}
        # Streams never end on their own: a short grace lets Ctrl-C and SIGTERM stop promptly.
        options = {**defaults, "graceful_timeout": 3, "loglevel": "warning", **settings}

        class Application(BaseApplication):
            def load_config(self) -> None:
                for name, value in options.items():
                    self.cfg.set(name, value)

            def load(self):
                from service.app import create_app

                return create_app(redis_url=redis_url, settings=app_settings)

        self.application = Application()

    def run(self) -> None:
        self.application.run()


def _worker(args: argparse.Namespace) -> int:
    """Check the options, find the Redis, then become the worker process (``python -m workers``).

    The worker's code lives in ``workers``, beside this HTTP layer and never imported by it:
    this process is replaced by the worker's, with the same id, so signals reach it as before.
    """
    from engine.scheduling import QUEUES

    queues = tuple(name.strip() for name in args.queues.split(",") if name.strip())
    unknown = sorted(set(queues) - set(QUEUES))
    if unknown or not queues:
        raise CannotRun(f"unknown queue(s) {', '.join(unknown) or '(none)'}; choose from {', '.join(QUEUES)}")
    url = _redis_url(args)
    _check_reachable(url, args.settings.redis_cluster)
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(sys.executable, worker_command(queues, args.sweep_seconds, args.burst),
              environment_with(REDIS_URL=url))
    return 0  # not reached: execve replaced this process


def worker_command(queues: tuple[str, ...], sweep_seconds: float = 1.0, burst: bool = False) -> list[str]:
    """The command line of a worker process serving ``queues``."""
    command = [sys.executable, "-m", "workers", "worker", "--queues", ",".join(queues),
               "--sweep-seconds", str(sweep_seconds)]
    return command + ["--burst"] if burst else command


def _redis_url(args: argparse.Namespace) -> str:
    """The Redis a command other than serve works on: ``--data DIR`` (attach), else ``REDIS_URL``.

    Never a silent default: a Redis that happens to own 127.0.0.1:6379 may be anyone's.
    """
    from service.datadir import DataFolder, NotServing

    if args.data:
        try:
            return DataFolder(args.data).running_redis_url()
        except NotServing as err:
            raise CannotRun(str(err)) from None
    url = args.settings.redis_url
    if not url:
        raise CannotRun(f"which Redis? Pass --data DIR to attach to the intrigue serve running on DIR "
                        f"(it is {DEFAULT_DATA} by default), or set REDIS_URL (e.g. redis://127.0.0.1:6379/0)")
    return url


def _check_reachable(url: str, cluster: bool = False) -> None:
    import redis

    from events.store import connect, without_password

    try:
        connect(url, cluster).ping()
    except ValueError as err:
        raise CannotRun(f"REDIS_URL {url!r} is not a Redis URL: {err}") from None
    except redis.RedisError as err:
        raise CannotRun(f"cannot reach Redis at {without_password(url)}: {err}") from None


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
    if events and events[0].type == "TournamentCreated":  # a tournament's stream: its pairings re-run
        from service.tournament_verify import verify_tournament

        return verify_tournament(events)
    try:
        report = audit(events)
    except AuditError as err:
        print(f"INVALID: {err}", file=sys.stderr)
        return 1
    print(f"OK: {report.events} events, hash chain intact, seed matches its commitment, every step replayed; "
          f"winners {report.winners}")
    from engine.final_record import BadSignature, check_final_record
    from service.log_proof import NotProved, Unusable, check, resolve_key

    try:
        key = resolve_key(args.key, args.url)
        signed = check_final_record(events, key)
        if signed is not None:
            print("OK: " + signed)
        if args.checkpoint is not None:
            print("OK: " + check(events, Path(args.checkpoint).read_text(encoding="utf-8"), args.url, key))
    except (OSError, UnicodeDecodeError) as err:
        print(f"cannot read the checkpoint {args.checkpoint}: {err}", file=sys.stderr)
        return 2
    except Unusable as err:
        print(f"unusable input: {err}", file=sys.stderr)
        return 2
    except (BadSignature, NotProved) as err:
        print(f"INVALID: {err}", file=sys.stderr)
        return 1
    return 0


def _witness(args: argparse.Namespace) -> int:
    from service.log_proof import NotProved, Unusable
    from service.witness import Fork, witness

    try:
        print("OK: " + witness(args.url, Path(args.state)))
    except Unusable as err:
        print(f"unusable: {err}", file=sys.stderr)
        return 2
    except (Fork, NotProved) as err:
        print(f"FORK: {err}" if isinstance(err, Fork) else f"INVALID: {err}", file=sys.stderr)
        return 1
    return 0


def _bot(args: argparse.Namespace) -> int:
    """Delegate to ``service.seat_client``, which imports the SDK only now (the server needs none)."""
    from bots.ismcts import Budget
    from service.seat_client import play_seat

    settings: Settings = args.settings
    budget = Budget(iterations=settings.bot_iterations, milliseconds=settings.bot_milliseconds)
    return play_seat(args.url, args.token, args.game, args.strategy, budget, args.seed)


def _reindex(args: argparse.Namespace) -> int:
    from engine.core import Engine
    from engine.directory import backfill
    from engine.scheduling import JobScheduler, make_queue, queue_client
    from events.store import connect
    from service.progress import Progress

    url = _redis_url(args)
    _check_reachable(url, args.settings.redis_cluster)
    client = connect(url, args.settings.redis_cluster)
    progress = Progress("reindex", unit="games")
    settings: Settings = args.settings
    engine = Engine(client, JobScheduler(make_queue(queue_client(client, settings.queue_url, settings.redis_cluster))),
                    settings=settings)
    count = engine.rebuild_indexes(progress=progress.update)
    players = backfill(client, engine.keys)
    tournaments = engine.tournaments.rebuild_indexes()
    print(f"rebuilt the indexes of {count} game(s), {tournaments} tournament(s) and the name index of "
          f"{players} player(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
