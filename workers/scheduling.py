"""How the engine asks for later work: ``advance(game_id)`` now, or at a deadline.

A job's id is built from the game and a tag (the version for a system step, the
deadline's time for a deadline), so asking twice is harmless and a deadline that did
not move is not scheduled again. Finished jobs keep no result (``result_ttl=0``), so
the sweep can ask again for a step whose job ran too early or was lost.
"""

from __future__ import annotations

import logging
import math
import os
import time
from datetime import UTC, datetime

import redis
from rq import Queue
from rq.exceptions import DuplicateJobError, NoSuchJobError
from rq.job import Job
from rq.serializers import JSONSerializer

from events.store import MAX_CONNECTIONS, IndexCommands, Keys, cluster_mode

log = logging.getLogger(__name__)

QUEUE_NAME = "intrigue"
#: How long a step asked for by the sweep may stay with a job that never finishes (its
#: worker was killed) before the sweep asks again under a new job id.
RETRY_SECONDS = 2
#: A step takes milliseconds; one still running after this is stuck, and RQ stops it.
JOB_TIMEOUT = 30
ADVANCE = "workers.jobs.advance"
DRAIN = "workers.jobs.drain"
#: How long a "drain job queued" mark lives: a job lost with its mark set delays due
#: steps by at most this (and the sweep asks for a drain regardless of the mark).
QUEUED_MARK_MS = 5_000


def queue_client(store: redis.Redis, store_url: str) -> redis.Redis:
    """The Redis that holds RQ's queues: ``INTRIGUE_QUEUE_URL`` if set, else the store's.

    RQ needs a plain Redis (its keys and transactions span hash slots), so beside a
    Redis Cluster the queues live in a small Redis of their own.
    """
    url = os.environ.get("INTRIGUE_QUEUE_URL")
    if url:
        return redis.Redis.from_url(url, max_connections=MAX_CONNECTIONS)
    if cluster_mode():
        raise RuntimeError("with INTRIGUE_REDIS_CLUSTER set, INTRIGUE_QUEUE_URL must name a plain Redis for the queues")
    return store


def fresh_queue_client(store_url: str) -> redis.Redis:
    """A client of its own for RQ's worker loop (see ``workers.runner.build_worker``)."""
    url = os.environ.get("INTRIGUE_QUEUE_URL") or store_url
    if not os.environ.get("INTRIGUE_QUEUE_URL") and cluster_mode():
        raise RuntimeError("with INTRIGUE_REDIS_CLUSTER set, INTRIGUE_QUEUE_URL must name a plain Redis for the queues")
    return redis.Redis.from_url(url, max_connections=MAX_CONNECTIONS)


def make_queue(connection: redis.Redis, name: str = QUEUE_NAME) -> Queue:
    return Queue(name, connection=connection, serializer=JSONSerializer)


class JobScheduler:
    """Asks workers for ``advance(game_id)``: at once through the due set, or at a deadline.

    A step due now costs no job of its own: the game joins the due set, and one
    ``drain`` job is queued unless one already waits; that job runs every step that is
    due when it starts (see Engine.drain_due). Deadlines are scheduled jobs whose id
    is built from the game and the deadline, so booking one twice is harmless.
    """

    def __init__(self, queue: Queue, keys: Keys | None = None) -> None:
        self.queue = queue
        self.keys = keys or Keys()

    @staticmethod
    def job_id(game_id: str, tag: str) -> str:
        return f"advance-{game_id}-{tag}"

    def advance(self, game_id: str, tag: str, at: datetime | None = None) -> None:
        """Ask for ``advance(game_id)`` now, or at ``at``; ``tag`` names a deadline's job."""
        if at is None or at <= datetime.now(UTC):
            pipe = self.queue.connection.pipeline(transaction=False)
            self.mark_due(pipe, game_id)
            if pipe.execute()[-1]:
                self.enqueue_drain()
            return
        options = {"job_id": self.job_id(game_id, tag), "unique": True, "result_ttl": 0,
                   "failure_ttl": 3600, "job_timeout": JOB_TIMEOUT}
        # The scheduler's registry counts whole seconds: round up so a job never runs early.
        at = datetime.fromtimestamp(math.ceil(at.timestamp()), UTC)
        try:
            self.queue.enqueue_at(at, ADVANCE, game_id, **options)
        except DuplicateJobError:
            pass  # this deadline is already booked: nothing more to do

    def mark_due(self, pipe: redis.client.Pipeline | IndexCommands, game_id: str) -> None:
        """Add to ``pipe``: the game joins the due set, then the "drain queued" mark is taken.

        The last reply of the pipe is then true when this caller took the mark and must
        call :meth:`enqueue_drain` once the pipe has run.
        """
        pipe.zadd(self.keys.due(), {game_id: time.time()}, nx=True)
        pipe.set(self.keys.drain_queued(), 1, nx=True, px=QUEUED_MARK_MS)

    def enqueue_drain(self) -> None:
        self.queue.enqueue(DRAIN, result_ttl=0, failure_ttl=3600, job_timeout=60)

    def ask_drain(self, game_ids: list[str]) -> None:
        """Mark games due and queue a drain job whatever the mark says (the sweep's backup)."""
        if not game_ids:
            return
        pipe = self.queue.connection.pipeline(transaction=False)
        pipe.zadd(self.keys.due(), {game_id: time.time() for game_id in game_ids}, nx=True)
        pipe.set(self.keys.drain_queued(), 1, px=QUEUED_MARK_MS)
        pipe.execute()
        self.enqueue_drain()

    def cancel(self, game_id: str, tag: str) -> bool:
        """Drop a booked job that can no longer do anything (its game ended); False if there was none."""
        try:
            job = Job.fetch(self.job_id(game_id, tag), connection=self.queue.connection,
                            serializer=self.queue.serializer)
        except NoSuchJobError:
            return False
        job.delete()
        return True
