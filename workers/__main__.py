"""``python -m workers worker``: the worker process, as ``intrigue worker`` and ``intrigue serve`` start it.

The ``intrigue`` command (``service.cli``) checks the options and finds the Redis, then
replaces itself with this program (the HTTP layer never imports the workers); ``serve``
starts it directly. The Redis is the settings' ``REDIS_URL``.
"""

from __future__ import annotations

import argparse
import logging
import sys

import redis

from engine.scheduling import QUEUES
from engine.settings import DEFAULT_REDIS_URL, Settings
from events.store import without_password
from workers.runner import run_worker


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="intrigue worker")
    commands = parser.add_subparsers(dest="command", required=True)
    worker = commands.add_parser("worker", help="run a worker (system steps and deadlines)")
    worker.add_argument("--burst", action="store_true", help="exit when the queue is empty")
    worker.add_argument("--sweep-seconds", type=float, default=1.0, help="longest pause of the deadline sweep")
    worker.add_argument("--queues", default="games,webhooks,bots",
                        help="queues to serve, in order: games, webhooks, bots")
    args = parser.parse_args(argv)
    settings = Settings.at_start("intrigue worker")
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    queues = tuple(name.strip() for name in args.queues.split(",") if name.strip())
    unknown = sorted(set(queues) - set(QUEUES))
    if unknown or not queues:
        print(f"intrigue worker: unknown queue(s) {', '.join(unknown) or '(none)'}; choose from {', '.join(QUEUES)}",
              file=sys.stderr)
        return 2
    url = settings.redis_url or DEFAULT_REDIS_URL
    try:
        run_worker(url, settings, sweep_seconds=args.sweep_seconds, burst=args.burst, queues=queues)
    except redis.ConnectionError as err:  # Redis went away for good (a serve that stopped, say)
        print(f"intrigue worker: lost Redis at {without_password(url)}: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
