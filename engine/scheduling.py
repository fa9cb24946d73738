"""How the engine asks workers for a game's next step: the due set and one drain job.

Deadlines need no job of their own: the deadline index (written in the append's own
step) is the workers' timer, and the sweep of each worker wakes at its earliest entry
(see ``workers.runner.Sweeper``). Finished jobs keep no result (``result_ttl=0``).
"""

from __future__ import annotations

import logging
import time

import redis
from rq import Queue
from rq.serializers import JSONSerializer

from engine.bot_queue import BotQueue
from engine.webhooks import QUEUE_NAME as WEBHOOK_QUEUE
from events.store import MAX_CONNECTIONS, IndexCommands, Keys

log = logging.getLogger(__name__)

QUEUE_NAME = "intrigue"
#: Bot seats' decisions: a queue of their own, so a search never holds up a game's step.
BOTS_QUEUE = "intrigue-bots"
#: The queues a worker may serve, by the name an operator gives: game steps and deadlines,
#: webhook deliveries, and bot seats' decisions.
QUEUES = {"games": QUEUE_NAME, "webhooks": WEBHOOK_QUEUE, "bots": BOTS_QUEUE}
DRAIN = "workers.jobs.drain"
#: The job earlier versions queued for each bot decision (see ``workers.bots.play_seat``).
PLAY_BOT_SEAT = "workers.bots.play_seat"
#: How long a "drain job queued" mark lives: a job lost with its mark set delays due
#: steps by at most this (and the sweep asks for a drain regardless of the mark).
QUEUED_MARK_MS = 5_000
#: A worker's drain job stays this long at most while steps keep falling due (see
#: ``Engine.drain_due``): well under its job timeout, and under the mark's life per wait.
DRAIN_LINGER_SECONDS = 10.0
#: How long a lingering drain job waits for the next step before it ends.
DRAIN_IDLE_SECONDS = 0.5


def queue_client(store: redis.Redis, queue_url: str | None = None, cluster: bool = False) -> redis.Redis:
    """The Redis that holds RQ's queues: ``queue_url`` (``INTRIGUE_QUEUE_URL``) if set, else the store's.

    RQ needs a plain Redis (its keys and transactions span hash slots), so beside a
    Redis Cluster the queues live in a small Redis of their own.
    """
    if queue_url:
        return redis.Redis.from_url(queue_url, max_connections=MAX_CONNECTIONS)
    if cluster:
        raise RuntimeError("with INTRIGUE_REDIS_CLUSTER set, INTRIGUE_QUEUE_URL must name a plain Redis for the queues")
    return store


def fresh_queue_client(store_url: str, queue_url: str | None = None, cluster: bool = False) -> redis.Redis:
    """A client of its own for RQ's worker loop (see ``workers.runner.build_worker``)."""
    if not queue_url and cluster:
        raise RuntimeError("with INTRIGUE_REDIS_CLUSTER set, INTRIGUE_QUEUE_URL must name a plain Redis for the queues")
    return redis.Redis.from_url(queue_url or store_url, max_connections=MAX_CONNECTIONS)


def make_queue(connection: redis.Redis, name: str = QUEUE_NAME) -> Queue:
    return Queue(name, connection=connection, serializer=JSONSerializer)


class JobScheduler:
    """Asks workers for ``advance(game_id)`` of the games whose step is due.

    A step due now costs no job of its own: the game joins the due set, and one
    ``drain`` job is queued unless one already waits; that job runs every step that is
    due when it starts (see Engine.drain_due). A deadline is asked for by the sweep when
    it comes (see ``Engine.sweep``).
    """

    def __init__(self, queue: Queue, keys: Keys | None = None) -> None:
        self.queue = queue
        self.keys = keys or Keys()
        self.bots = make_queue(queue.connection, BOTS_QUEUE)
        self.bot_queue = BotQueue(queue.connection, self.bots, self.keys)

    def enqueue_bot(self, game_id: str, version: int, seat: int) -> None:
        """Ask a bot worker for the decision of bot seat ``seat``, awaited at ``version`` of the game.

        At most one request per (game, seat) waits (``engine.bot_queue``): asking again while
        it waits changes nothing, and the request is played at the game's version then.
        """
        self.bot_queue.ask(game_id, seat)

    def advance(self, game_id: str) -> None:
        """Ask for ``advance(game_id)`` now (where the due set could not ride in the commit)."""
        pipe = self.queue.connection.pipeline(transaction=False)
        self.mark_due(pipe, game_id)
        if pipe.execute()[-1]:
            self.enqueue_drain()

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

