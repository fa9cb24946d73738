"""The worker process: an RQ worker (no fork per job) with its scheduler, plus our sweep.

RQ's scheduler moves ``enqueue_at`` jobs onto the queue about once a second, but it
can stall for minutes after a worker dies. The sweep backs it up: every
``sweep_seconds`` it asks again for every game whose next step is due (the deadline
index), and every minute it repairs games whose indexes lag their stream.
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
    def __init__(self, engine: Engine, sweep_seconds: float = 1.0, reconcile_seconds: float = 60.0) -> None:
        super().__init__(name="intrigue-sweep", daemon=True)
        self.engine = engine
        self.sweep_seconds = sweep_seconds
        self.reconcile_seconds = reconcile_seconds
        self.stopping = threading.Event()

    def run(self) -> None:
        next_reconcile = 0.0
        while not self.stopping.is_set():
            try:
                if time.monotonic() >= next_reconcile:
                    repaired = self.engine.reconcile()
                    if repaired:
                        log.warning("reconciled the indexes of %d game(s)", repaired)
                    next_reconcile = time.monotonic() + self.reconcile_seconds
                self.engine.sweep()
            except redis.RedisError as err:
                log.warning("sweep failed, will retry: %s", err)
            self.stopping.wait(self.sweep_seconds)


def run_worker(redis_url: str, *, sweep_seconds: float = 1.0, burst: bool = False) -> None:
    client = connect(redis_url)
    queue = make_queue(client)
    engine = Engine(client, JobScheduler(queue))
    install_engine(engine)
    sweeper = Sweeper(engine, sweep_seconds=sweep_seconds)
    sweeper.start()
    worker = SimpleWorker([queue], connection=client, serializer=queue.serializer)
    try:
        worker.work(with_scheduler=True, burst=burst, logging_level="WARNING")
    finally:
        sweeper.stopping.set()
