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
from datetime import UTC, datetime

import redis
from rq import Queue
from rq.exceptions import DuplicateJobError, NoSuchJobError
from rq.job import Job
from rq.serializers import JSONSerializer

from events.store import MAX_CONNECTIONS, cluster_mode

log = logging.getLogger(__name__)

QUEUE_NAME = "intrigue"
#: How long a step asked for by the sweep may stay with a job that never finishes (its
#: worker was killed) before the sweep asks again under a new job id.
RETRY_SECONDS = 2
#: A step takes milliseconds; one still running after this is stuck, and RQ stops it.
JOB_TIMEOUT = 30
ADVANCE = "workers.jobs.advance"


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
    """Enqueues ``advance(game_id, version)`` now or at a deadline."""

    def __init__(self, queue: Queue) -> None:
        self.queue = queue

    @staticmethod
    def job_id(game_id: str, tag: str) -> str:
        return f"advance-{game_id}-{tag}"

    def advance(self, game_id: str, tag: str, at: datetime | None = None) -> None:
        """Ask for ``advance(game_id)``; ``tag`` (a version or a deadline) makes the job id unique."""
        options = {"job_id": self.job_id(game_id, tag), "unique": True, "result_ttl": 0,
                   "failure_ttl": 3600, "job_timeout": JOB_TIMEOUT}
        try:
            if at is None or at <= datetime.now(UTC):
                self.queue.enqueue(ADVANCE, game_id, **options)
            else:
                # The scheduler's registry counts whole seconds: round up so a job never runs early.
                at = datetime.fromtimestamp(math.ceil(at.timestamp()), UTC)
                self.queue.enqueue_at(at, ADVANCE, game_id, **options)
        except DuplicateJobError:
            pass  # already asked for this version: nothing more to do

    def cancel(self, game_id: str, tag: str) -> bool:
        """Drop a booked job that can no longer do anything (its game ended); False if there was none."""
        try:
            job = Job.fetch(self.job_id(game_id, tag), connection=self.queue.connection,
                            serializer=self.queue.serializer)
        except NoSuchJobError:
            return False
        job.delete()
        return True
