"""The worker process: an RQ worker (no fork per job) with its scheduler, plus our sweep.

RQ's scheduler moves ``enqueue_at`` jobs onto the queue about once a second, but it
can stall for minutes after a worker dies. The sweep backs it up: every
``sweep_seconds`` it asks again for every game whose next step is due (the deadline
index), and every half minute it repairs games whose indexes lag their stream.
"""

from __future__ import annotations

import logging
import threading
import time

import redis
from rq.worker import SimpleWorker

from events.store import connect
from service.engine import Engine
from workers.jobs import install_engine
from workers.scheduling import JobScheduler, make_queue

log = logging.getLogger(__name__)


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
                self.engine.sweep()
            except redis.RedisError as err:
                log.warning("sweep failed, will retry: %s", err)
            self.stopping.wait(self.sweep_seconds)


def build_worker(redis_url: str) -> tuple[SimpleWorker, Engine]:
    """The RQ worker and the engine its jobs use, each with its own Redis client.

    RQ raises the socket timeout of its client's pool above its blocking dequeue (400 s
    or so), but only connections opened later get it. Sharing one client with the
    engine and the sweep let the dequeue reuse a connection opened earlier with redis-py's
    5 s timeout: an idle worker then failed every 5 s and backed off for up to a minute,
    holding up the next resolution.
    """
    engine_client = connect(redis_url)
    engine = Engine(engine_client, JobScheduler(make_queue(engine_client)))
    queue = make_queue(connect(redis_url))
    worker = SimpleWorker([queue], connection=queue.connection, serializer=queue.serializer)
    return worker, engine


def run_worker(redis_url: str, *, sweep_seconds: float = 1.0, burst: bool = False) -> None:
    worker, engine = build_worker(redis_url)
    install_engine(engine)
    sweeper = Sweeper(engine, sweep_seconds=sweep_seconds)
    sweeper.start()
    try:
        worker.work(with_scheduler=True, burst=burst, logging_level="WARNING")
    finally:
        sweeper.stopping.set()
