"""What follows an append: the indexes, the workers asked for the next step, webhooks, the archive.

The lobby, inboxes, deadlines and the rest are projections of the streams: a commit writes
only what changed from the record it started from, as commands that ride inside the append
(``events.store.IndexCommands``), so they move in the same atomic step as the events or not
at all. What needs the append's replies (a drain job, bot requests, webhook jobs) runs once
they are back (:meth:`FollowUps.finish`). Repairs and rebuilds write everything
(:meth:`FollowUps.run`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

import redis

from engine.active_games import queue_live, queue_offer
from engine.export import queue_finished
from engine.ratings import Ratings, result_of
from engine.reliability import Reliability
from engine.scheduling import JobScheduler
from engine.seat_bots import bot_seats
from engine.seeds import Seeds
from engine.transparency import GamesLog
from engine.webhooks import Webhooks
from events.envelope import parse_time
from events.store import EventStore, IndexCommands, Keys
from projections.listing import card
from projections.record import Record, earliest_deadline, final_ranks, resigned

log = logging.getLogger(__name__)

#: A step left in the due set this long with no drain job asked for is asked for by the sweep;
#: a system step not taken this long after it fell due is asked for again (see sweep_score).
STALE_DUE_SECONDS = 2.0

#: Where a commit's index updates are written: a pipeline, or the commands its append runs.
Pipe: TypeAlias = redis.client.Pipeline | IndexCommands


@dataclass
class FollowUpPlan:
    """What a commit's index updates leave to do once their round trip is back."""

    record: Record
    #: Reply positions (from the follow-up's first command) of the drain mark and the webhook question.
    mark_at: int | None = None
    hooks_at: int | None = None
    notes: list | None = None
    #: A step is due now and RQ's Redis is another: ask for it after the round trip.
    due_now: bool = False
    #: The game ended with this commit: it is archived here, or by the worker's step asked for.
    ended: bool = False
    archive_here: bool = True
    #: Bot seats the commit leaves awaited: a bot worker is asked for each one's decision.
    bot_turns: list[int] = field(default_factory=list)
    #: Seats awaited since an earlier batch of the commit than its last (a standing order
    #: answered after it): the version their ``your_turn`` names (see ``CommitPath._seal``).
    since: dict[int, int] = field(default_factory=dict)


def owe(work: Callable[[], None], later: list[Callable[[], None]] | None) -> None:
    """Leave ``work`` to the caller, to run once its answer is sent (``later``), or run it now.

    Only for work whose loss is repaired elsewhere: asking workers for a step already
    recorded in the commit's own round trip (the due set, the deadlines index: if this
    process dies before the work runs, the worker's sweep asks for the step instead;
    each request is one or more round trips of RQ's, which the player no longer waits
    for), and pushing the commit to this process's streams (Redis announces it too).
    """
    if later is None:
        work()
    else:
        later.append(work)


class FollowUps:
    def __init__(self, client: redis.Redis, keys: Keys, store: EventStore, seeds: Seeds,
                 scheduler: JobScheduler | None, hooks: Webhooks, ratings: Ratings) -> None:
        self.redis = client
        self.keys = keys
        self.store = store
        self.seeds = seeds
        self.scheduler = scheduler
        self.hooks = hooks
        self.ratings = ratings
        self.transparency = GamesLog(client, keys.prefix)
        self.reliability = Reliability(client, keys)  # the players' record of decisions (issue 50)
        #: Told of every game of a tournament that ends (``engine.tournaments``, set by the facade).
        self.on_game_end: Callable[[Record], None] | None = None

    def run(self, record: Record, before: Record | None = None) -> None:
        """Update the indexes of one game and ask a worker for its next system step.

        With ``before`` (the record the commit started from) only what changed is
        written; without it (repairs, rebuilds) everything is. A deadline needs no job of
        its own: the deadline index is the workers' timer (see ``workers.runner.Sweeper``).
        A game that ended is archived at once.
        """
        pipe = self.redis.pipeline(transaction=False)
        plan = self.queue(pipe, record, before, defer_archive=False)
        self.finish(plan, pipe.execute(), offset=0)

    def queue(self, pipe: Pipe, record: Record, before: Record | None,
              defer_archive: bool = True, notify_from: Record | None = None,
              since: dict[int, int] | None = None) -> FollowUpPlan:
        """Add the index updates of :meth:`run` to ``pipe``; what to do after it ran.

        ``notify_from`` is the record before the last system step the commit took, when it
        took one: the webhooks compare with it, as they would have for a worker's step. There
        nobody was awaited, so a seat that passed and owes the next decision too is told.
        """
        start = len(pipe)
        if before is None or before["status"] != record["status"]:
            self._queue_listing(pipe, record)
        self._queue_seats(pipe, record, before)
        queue_live(pipe, self.keys, record, before)
        queue_offer(pipe, self.keys, record, before)
        due = self._queue_deadline(pipe, record, before)
        plan = self._plan(record, before, defer_archive)
        # The card shows its times rounded while the game is on (projections.views.shown_time);
        # the upkeep's stall check needs the exact one, kept beside it.
        indexed = {"indexed": record["version"], "card": card(record), "indexed_at": record["updated_at"]}
        if self._queue_step_due(pipe, plan, due, start):
            # The record this process just folded, for the worker that takes the step: it
            # starts from here instead of folding every event appended since it last saw the
            # game (see Projector.load_many). A snapshot in all but name: the events decide.
            indexed.update(self.store.handoff_fields(record))
        pipe.hset(self.keys.meta(record["id"]), mapping=indexed)
        if before is None:
            pipe.zrem(self.keys.creating(), record["id"])
        # Webhooks: one question in the same round trip.
        plan.notes = self.hooks.queue_check(pipe, record, notify_from or before)
        plan.since = dict(since or {})
        if plan.notes:
            plan.hooks_at = len(pipe) - 1 - start
        return plan

    def _queue_listing(self, pipe: Pipe, record: Record) -> None:
        """The game's status changed: the lobby, its creator's hosting, the invitations, the active set."""
        game_id = record["id"]
        if record["status"] == "open":
            created = parse_time(record["created_at"]).timestamp()
            if not record.get("unlisted"):
                pipe.zadd(self.keys.lobby(), {game_id: created})
                pipe.zadd(self.keys.lobby(record["game"]), {game_id: created})
            else:
                pipe.zadd(self.keys.unlisted(), {game_id: created})
            pipe.zadd(self.keys.hosting(record["created_by"]), {game_id: created})
            for invited in record.get("invite") or ():  # an invitation shows among the player's games
                pipe.zadd(self.keys.player_games(invited), {game_id: created})
        else:
            seated = {player["id"] for player in record["players"] if player is not None}
            for invited in record.get("invite") or ():  # the game went on (or off) without them
                if invited not in seated:
                    pipe.zrem(self.keys.player_games(invited), game_id)
            pipe.zrem(self.keys.lobby(), game_id)
            pipe.zrem(self.keys.lobby(record["game"]), game_id)
            if record.get("unlisted"):
                pipe.zrem(self.keys.unlisted(), game_id)
            pipe.zrem(self.keys.hosting(record["created_by"]), game_id)
        if record["status"] == "finished":  # among each player's finished games, for their export
            queue_finished(pipe, self.keys, record)
        if record["status"] in ("active", "starting"):  # a starting game too: the reconcile repairs it
            pipe.sadd(self.keys.active(), game_id)
        else:
            pipe.srem(self.keys.active(), game_id)

    def _queue_seats(self, pipe: Pipe, record: Record, before: Record | None) -> None:
        """Each seated player's list of games and inbox, where their seat changed."""
        game_id = record["id"]
        for seat, player in enumerate(record["players"]):
            if player is None or "bot" in player:  # a bot has no list of games and no inbox
                gone = None if before is None else before["players"][seat]
                if player is None and gone is not None and gone["id"] not in (record.get("invite") or ()):
                    pipe.zrem(self.keys.player_games(gone["id"]), game_id)  # a seat left: no longer theirs
                continue
            if before is None or before["players"][seat] is None:
                pipe.zadd(self.keys.player_games(player["id"]),
                          {game_id: parse_time(record["created_at"]).timestamp()})
            awaited, deadline = record["awaiting"][seat], record["deadlines"][seat]
            if before is not None and (before["awaiting"][seat], before["deadlines"][seat]) == (awaited, deadline):
                continue
            if awaited is not None and deadline is not None and seat not in resigned(record):
                pipe.zadd(self.keys.inbox(player["id"]), {game_id: parse_time(deadline).timestamp()})
            else:
                pipe.zrem(self.keys.inbox(player["id"]), game_id)

    def _queue_deadline(self, pipe: Pipe, record: Record, before: Record | None) -> str | None:
        """The game's place in the deadline index, the workers' timer; its earliest deadline."""
        due = earliest_deadline(record)
        if before is None or due != earliest_deadline(before):
            if due is not None:
                pipe.zadd(self.keys.deadlines(), {record["id"]: sweep_score(record, due)})
            else:
                pipe.zrem(self.keys.deadlines(), record["id"])
        return due

    def _plan(self, record: Record, before: Record | None, defer_archive: bool) -> FollowUpPlan:
        """Whether the game ended here, who archives it, and which bot seats are asked to decide."""
        plan = FollowUpPlan(record=record, ended=record["status"] == "finished"
                            and (before is None or before["status"] != "finished"))
        if record["status"] == "active" and self.scheduler is not None:
            plan.bot_turns = [seat for seat in bot_seats(record) if record["awaiting"][seat] is not None]
        if plan.ended and defer_archive and self.scheduler is not None:
            # Archiving reads and rewrites the whole stream: a worker does it, so the last
            # move's answer does not wait for it (it held that answer up ~100 ms under load).
            plan.archive_here = False
        return plan

    def _queue_step_due(self, pipe: Pipe, plan: FollowUpPlan, due: str | None, start: int) -> bool:
        """Put the game in the due set if a worker's step is due now; whether it is.

        A step is due now when nobody is awaited (a system step: ``due`` is then the
        commit's own time), when a deadline passed while this step was taken (seats
        awaited together time out one step at a time), or when a worker archives the game.
        A deadline still ahead needs nothing more: the workers' sweep wakes for it, reading
        the deadline index.
        """
        if self.scheduler is None:
            return False
        now_ms = time.time() * 1000
        if not (plan.ended and not plan.archive_here):
            if due is None or int(parse_time(due).timestamp() * 1000) > now_ms:
                return False
        if self.scheduler.queue.connection is self.redis:  # the due set and drain mark ride along
            self.scheduler.mark_due(pipe, plan.record["id"])
            plan.mark_at = len(pipe) - 1 - start
        else:  # RQ's queues live in a Redis of their own (beside a cluster): asked for after
            plan.due_now = True
        return True

    def finish(self, plan: FollowUpPlan, replies: Sequence[Any], offset: int,
               later: list[Callable[[], None]] | None = None) -> None:
        """What follows the index updates' round trip: the drain job if one is owed, then webhooks.

        ``replies`` are the pipe's; the follow-up's own start at ``offset``. A game that
        ended is archived here, or by the worker's step asked for (see ``engine.upkeep``).
        """
        if plan.mark_at is not None:
            if replies[offset + plan.mark_at]:
                owe(self.scheduler.enqueue_drain, later)  # type: ignore[union-attr]  # a mark implies a scheduler
        elif plan.due_now:
            self.scheduler.advance(plan.record["id"])  # type: ignore[union-attr]  # as above
        for seat in plan.bot_turns:
            owe(self.bot_request(plan.record["id"], plan.record["version"], seat), later)
        if plan.notes:
            try:  # the game's own steps are booked: a webhook problem must not fail the commit's reply
                self.hooks.after_commit(plan.record, plan.notes, replies[offset + plan.hooks_at],  # type: ignore[operator]  # set with notes
                                        plan.since)
            except Exception:
                log.exception("could not ask for the webhook notifications of game %s at version %s",
                              plan.record["id"], plan.record["version"])
        if plan.ended and plan.record.get("tournament") and self.on_game_end is not None:
            try:  # a tournament's trouble must not fail the game's commit: its sweep tells it again
                self.on_game_end(plan.record)
            except Exception:
                log.exception("could not tell tournament %s that game %s ended", plan.record["tournament"],
                              plan.record["id"])
        if plan.ended and plan.archive_here:
            self.archive(plan.record["id"], plan.record)
        elif plan.ended:
            self.seeds.drop(plan.record["id"])

    def archive(self, game_id: str, record: Record) -> None:
        """Fold a rated game into its players' ratings, then keep it in its compact form; drop
        its seed and live-only keys. Both steps may run twice: the second changes nothing.

        Idempotency keys go too: a retry of a game's last actions is answered from the
        archived events' causes instead (see ``engine.moves``).
        """
        result = result_of(record, final_ranks(record))
        if result is not None:
            self.ratings.record(result)
        self.reliability.record(record)
        self.store.archive(game_id)
        self.transparency.add(record)  # the public log's leaf (engine.transparency); added once
        self.seeds.drop(game_id)

    def bot_request(self, game_id: str, version: int, seat: int) -> Callable[[], None]:
        """Asking a bot worker for a bot seat's decision; a failure is logged, never the commit's.

        If the request is lost, the seat's deadline still stands: its default is played then.
        """
        def request() -> None:
            try:
                self.scheduler.enqueue_bot(game_id, version, seat)  # type: ignore[union-attr]  # asked for only with one
            except Exception:
                log.exception("could not ask for the decision of bot seat %s in game %s at version %s",
                              seat, game_id, version)
        return request


def sweep_score(record: Record, due: str) -> float:
    """When the sweep should look at the game: at a seat's deadline, or, for a system step,
    only once it is ``STALE_DUE_SECONDS`` late.

    A system step is asked for at once through the due set; a worker is taking it while the
    sweep could see it. Indexed at its own time, every sweep asked again for the steps in
    flight (one drain job and one needless step each: about a tenth of a worker's steps
    under load found nothing due). A step that is late means its job was lost.
    """
    moment = parse_time(due).timestamp()
    if record["status"] == "active" and all(deadline is None for deadline in record["deadlines"]):
        return moment + STALE_DUE_SECONDS
    return moment
