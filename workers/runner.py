"""The worker process: an RQ worker (no fork per job) plus our sweep.

The sweep is the deadlines' timer: it wakes at the earliest upcoming deadline (and at
least every ``sweep_seconds``), asks for every game whose next step is due (the
deadline index, which each append writes in its own step), and every half minute
repairs games whose indexes lag their stream. It also asks again for steps whose drain
job was lost. RQ's scheduler still runs, for the deadline jobs that earlier versions
booked with ``enqueue_at`` (it counts whole seconds and polls once a second).
"""

from __future__ import annotations

import logging
import threading
import time
from datetime import UTC, datetime

import redis
from rq.worker import SimpleWorker

from engine.core import Engine
from engine.scheduling import (
    DRAIN_LINGER_SECONDS,
    QUEUE_NAME,
    QUEUES,
    JobScheduler,
    fresh_queue_client,
    make_queue,
    queue_client,
)
from engine.settings import Settings
from events.store import connect
from workers.jobs import install_engine

log = logging.getLogger(__name__)

#: How often a worker runs RQ's registry maintenance, which fails the jobs a killed
#: worker left "started" (their heartbeat ran out) so their hashes expire. RQ's default
#: is ten minutes; the sweep does not wait for it (see ``Engine.sweep``).
MAINTENANCE_SECONDS = 60
#: Longest wait between attempts to reach a Redis that went away.
RECONNECT_SECONDS = 2.0

#: Woken this long after a deadline, the sweep's ``<= now`` surely counts it as due.
DEADLINE_GRACE = 0.01


class Sweeper(threading.Thread):
    def __init__(self, engine: Engine, sweep_seconds: float = 1.0, reconcile_seconds: float = 30.0) -> None:
        super().__init__(name="intrigue-sweep", daemon=True)
        self.engine = engine
        self.sweep_seconds = sweep_seconds
        self.reconcile_seconds = reconcile_seconds
        self.stopping = threading.Event()

    def run(self) -> None:
        # A first pass at start names the suspects; the second, soon after, repairs those
        # still lagging at the same version (a crash); then every ``reconcile_seconds``.
        next_reconcile, suspects, passes = 0.0, {}, 0
        while not self.stopping.is_set():
            try:
                if time.monotonic() >= next_reconcile:
                    repaired, suspects = self.engine.reconcile(suspects)
                    if repaired:
                        log.warning("repaired the indexes of %d game(s) a crash left behind", repaired)
                    passes += 1
                    next_reconcile = time.monotonic() + (5.0 if passes == 1 else self.reconcile_seconds)
                now = datetime.now(UTC)
                self.engine.sweep(now=now)
                self.sweep_webhooks(now)
                self.sweep_tournaments(now)
                self.expire_open_games(now)
                wait = self.next_wait(now)
            except redis.RedisError as err:
                log.warning("sweep failed, will retry: %s", err)
                wait = self.sweep_seconds
            self.stopping.wait(wait)

    def sweep_webhooks(self, now: datetime) -> None:
        """Ask for the webhook attempts and deadline_soon checks that are due.

        Whatever goes wrong here is logged and left for the next pass: webhooks must
        never stop the sweep that keeps the games' deadlines.
        """
        try:
            self.engine.hooks.sweep(now=now.timestamp())
        except Exception:
            log.exception("webhook sweep failed; retrying on the next pass")

    def sweep_tournaments(self, now: datetime) -> None:
        """Tournaments' starts and rounds' deadlines (logged and left for the next pass on failure)."""
        try:
            self.engine.tournaments.sweep(now=now)
        except Exception:
            log.exception("tournament sweep failed; retrying on the next pass")

    def expire_open_games(self, now: datetime) -> None:
        """End the open games that waited too long (logged and left for the next pass on failure)."""
        try:
            expired = self.engine.expire_open_games(now.timestamp())
        except Exception:
            log.exception("open-game expiry failed; retrying on the next pass")
            return
        if expired:
            log.info("expired %d open game(s) nobody joined", len(expired))

    def next_wait(self, swept_at: datetime) -> float:
        """Sleep until the next deadline falls due, but never longer than ``sweep_seconds``.

        "Next" is counted from the sweep's own clock reading (``swept_at``): a deadline
        that fell due just after the sweep read the index is swept at once, instead of
        being mistaken for one already asked for. The index is read at each wake, so only
        a deadline booked less than ``sweep_seconds`` ahead while the sweeper sleeps can
        be late, and by less than that.
        """
        upcoming = self.engine.seconds_to_next_deadline(now=swept_at)
        if upcoming is None:
            return self.sweep_seconds
        elapsed = datetime.now(UTC).timestamp() - swept_at.timestamp()
        return min(self.sweep_seconds, max(0.0, upcoming - elapsed) + DEADLINE_GRACE)


def build_worker(redis_url: str, queues: tuple[str, ...] = ("games", "webhooks", "bots"),
                 settings: Settings | None = None) -> tuple[SimpleWorker, Engine]:
    """The RQ worker and the engine its jobs use, each with its own Redis client.

    RQ raises the socket timeout of its client's pool above its blocking dequeue (400 s
    or so), but only connections opened later get it. Sharing one client with the
    engine and the sweep let the dequeue reuse a connection opened earlier with redis-py's
    5 s timeout: an idle worker then failed every 5 s and backed off for up to a minute,
    holding up the next resolution.

    ``queues`` are served in the order given: a worker of both takes game jobs first.
    """
    settings = settings or Settings()
    engine_client = connect(redis_url, settings.redis_cluster)
    engine = Engine(engine_client, JobScheduler(make_queue(queue_client(engine_client, settings.queue_url,
                                                                        settings.redis_cluster))),
                    settings=settings)
    rq_client = fresh_queue_client(redis_url, settings.queue_url, settings.redis_cluster)
    served = [make_queue(rq_client, QUEUES[name]) for name in queues]
    worker = SimpleWorker(served, connection=rq_client, serializer=served[0].serializer,
                          maintenance_interval=MAINTENANCE_SECONDS)
    # RQ doubles its wait after each failed dequeue up to a minute: after a Redis restart
    # that would hold every step back for as long. Retry every couple of seconds instead.
    worker.max_connection_wait_time = RECONNECT_SECONDS
    return worker, engine


def run_worker(redis_url: str, settings: Settings, *, sweep_seconds: float = 1.0, burst: bool = False,
               queues: tuple[str, ...] = ("games", "webhooks", "bots")) -> None:
    worker, engine = build_worker(redis_url, queues, settings)
    # A drain job lingers while steps keep falling due (not in a burst, which ends when the
    # queues are empty), and gives way to a job waiting in this worker's other queues.
    others = tuple(queue.key for queue in worker.queues if queue.name != QUEUE_NAME)
    install_engine(engine, linger=0.0 if burst else DRAIN_LINGER_SECONDS, yield_to=others)
    sweeper = Sweeper(engine, sweep_seconds=sweep_seconds)
    sweeper.start()
    try:
        worker.work(with_scheduler=True, burst=burst, logging_level="WARNING")
    finally:
        sweeper.stopping.set()
