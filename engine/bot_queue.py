"""Bot seats' decisions: one request per (game, seat), served oldest first by the bot workers.

A commit that leaves a bot seat awaited asks for its decision. Asking used to queue one RQ
job per version, so a game that kept changing without moving on (a seat replacing its bid
in a loop) queued a job per change: thousands piled up, and a bot of any other game waited
behind all of them. Now a request is a member ``<game>:<seat>`` of one sorted set (the
bots' due set), scored by when it was first asked: asking again while it waits changes
nothing, so at most one request per (game, seat) is ever queued, and a seat whose game
changed while it waited keeps its place in the line.

A bot worker's ``drain`` job pops the oldest request and plays the seat's decision at the
game's current version, if the seat is still awaited: a request the game has outrun is
dropped before any search. One drain job waits in the queue at a time (a mark, as for the
games' steps); it is queued at the front of the bots queue, so it never waits behind jobs
queued by earlier versions (one per version each), which do nothing once their game moved.

The search budget shares the worker's time: a decision popped with others waiting behind
it gets a share of ``INTRIGUE_BOT_MILLISECONDS`` (and of the iterations) so that the line
ahead of the last one is searched within about one budget, not one budget each (see
:func:`shared_budget`).
"""

from __future__ import annotations

import logging
import time
from typing import Any, Protocol

import redis
from rq import Queue

from bots.ismcts import Budget
from events.store import Keys

log = logging.getLogger(__name__)

DRAIN_BOTS = "workers.bots.drain"
#: How long a "bot drain job queued" mark lives: a job lost with its mark set delays the
#: next request's job by at most this (the sweep asks again for a seat awaited too long).
BOTS_QUEUED_MARK_MS = 5_000
#: A shared budget never falls below this part of the whole one: a decision still searches.
MIN_SHARE = 0.1
#: A bot drain job ends after this long even if requests keep coming, so RQ's job timeout
#: never kills it mid-search (the next request queues another).
DRAIN_BOTS_SECONDS = 60.0


class BotQueue:
    """The bots' due set in the Redis of RQ's queues, and the one drain job that serves it."""

    def __init__(self, connection: redis.Redis, queue: Queue, keys: Keys) -> None:
        self.redis = connection
        self.queue = queue
        self.due = f"{keys.prefix}:bots:due"
        self.mark = f"{keys.prefix}:bots:due:queued"

    def ask(self, game_id: str, seat: int) -> None:
        """Ask for bot seat ``seat``'s decision in ``game_id`` (one round trip, and a job if none waits)."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.zadd(self.due, {f"{game_id}:{seat}": time.time()}, nx=True)
        pipe.set(self.mark, 1, nx=True, px=BOTS_QUEUED_MARK_MS)
        if pipe.execute()[-1]:
            self.enqueue_drain()

    def enqueue_drain(self) -> None:
        """Queue a drain job at the front of the bots queue, ahead of any backlog of older jobs."""
        self.queue.enqueue(DRAIN_BOTS, result_ttl=0, failure_ttl=3600, job_timeout=DRAIN_BOTS_SECONDS + 60,
                           at_front=True)

    def release(self) -> None:
        """A drain job has started: from now on a request queues another job."""
        self.redis.delete(self.mark)

    def pop(self) -> tuple[str, int, float, int] | None:
        """The oldest request: (game, seat, when first asked, how many wait behind it), or None."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.zpopmin(self.due, 1)
        pipe.zcard(self.due)
        popped, behind = pipe.execute()
        if not popped:
            return None
        member, asked_at = popped[0]
        game_id, _, seat = member.decode().rpartition(":")
        return game_id, int(seat), float(asked_at), int(behind)

    def waiting(self) -> list[tuple[str, int]]:
        """The requests waiting, oldest first (for tests and operators)."""
        members = self.redis.zrange(self.due, 0, -1)
        return [(game_id, int(seat)) for game_id, _, seat in (m.decode().rpartition(":") for m in members)]


def shared_budget(whole: Budget, asked_at: float, behind: int, now: float) -> Budget:
    """The part of ``whole`` a decision gets when ``behind`` more wait after it.

    Each decision is meant to be played within about one whole budget of being asked
    for: what is left of that window is split evenly between this decision and those
    behind it (never below ``MIN_SHARE`` of the whole). Alone and on time, it gets the
    whole budget.
    """
    if whole.milliseconds is None:
        return whole
    left_ms = whole.milliseconds - max(0.0, now - asked_at) * 1000
    share = max(MIN_SHARE, min(1.0, left_ms / whole.milliseconds / (1 + behind)))
    iterations = None if whole.iterations is None else max(1, round(whole.iterations * share))
    return Budget(iterations=iterations, milliseconds=whole.milliseconds * share)


class PlaysBotSeats(Protocol):
    """What the drain needs of the engine (``Engine``, whose bot turns are ``engine.bot_turns``)."""

    def bot_budget(self) -> Budget: ...

    def play_bot_seat(self, game_id: str, version: int | None, seat: int, budget: Budget | None = None) -> str: ...


def drain_bot_queue(turns: BotQueue, engine: PlaysBotSeats, seconds: float = DRAIN_BOTS_SECONDS) -> dict[str, Any]:
    """The bot drain job: play the waiting requests oldest first; what became of them, counted."""
    turns.release()
    outcomes: dict[str, int] = {}
    ends = time.monotonic() + seconds
    while time.monotonic() < ends:
        request = turns.pop()
        if request is None:
            return outcomes
        game_id, seat, asked_at, behind = request
        budget = shared_budget(engine.bot_budget(), asked_at, behind, time.time())
        try:
            outcome = engine.play_bot_seat(game_id, None, seat, budget=budget)
        except Exception:  # one game's failure must not hold up the others; the sweep asks again
            log.exception("bot seat %s of game %s failed to decide", seat, game_id)
            outcome = "failed"
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
    if turns.waiting():
        turns.enqueue_drain()  # out of time with requests left: another job takes them
    return outcomes
