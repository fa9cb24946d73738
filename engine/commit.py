"""The commit path: load a record, seal and fold the events the rules decided, append, follow up.

Every command of the engine ends here (a seat's move, a join, a worker's step, a deadline's
default action), so each is validated, sealed, appended and indexed the same way. Appends
carry the expected version: of two writers racing on one game only one wins; the other is
told so (:meth:`CommitPath.commit` answers None) and decides again on a fresh record.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

import redis
from redis.cluster import RedisCluster

from engine.commit_check import refuse_unrenderable
from engine.errors import Conflict, NotFound
from engine.follow_up import FollowUps, owe
from engine.orders import MAX_ANSWERS_IN_COMMIT, StandingOrders
from engine.outcomes import Committed
from engine.ratelimit import limited
from engine.seeds import Seeds
from events.envelope import GENESIS_HASH, Envelope, seal, utc_now
from events.store import AppendResult, Cap, EventStore, Gate, IndexCommands, Keys
from events.watch import FeedWatcher
from games.base import GameEvent
from projections.projector import Projector
from projections.record import Record, awaiting, fold, platform_outcome, rules_of

log = logging.getLogger(__name__)

#: One append's outcome: the store's answer, the record and events it wrote, the follow-ups'
#: plan, the index updates' replies and the orders this process holds once it lands.
_Attempt = tuple[AppendResult, Record, list[Envelope], Any, list[Any], Any]

#: How often a command decides again after losing the append's version check before it answers "busy".
MAX_RETRIES = 5
#: How often one commit is decided again because the standing orders changed under it (a PUT
#: racing the append) before it answers "busy".
MAX_STALE_RETRIES = 5
#: System steps a commit takes after its own batch, when every awaited seat has acted (a
#: reaction window all passed, the last bid of a round): one is the usual case; a game whose
#: steps chain further than this leaves the rest to a worker (see CommitPath.system_step).
MAX_STEPS_IN_COMMIT = 4
#: Game ids are 12 hex digits; a longer path segment names no game (and is not echoed whole).
MAX_GAME_ID = 64


class KeyWonRace(Exception):
    """A keyed action's append found its idempotency key taken: a twin request appended first,
    and its answer is the one to give (see ``engine.moves``)."""


class CommitPath:
    def __init__(self, client: redis.Redis, keys: Keys, store: EventStore, projector: Projector, seeds: Seeds,
                 follow_ups: FollowUps, orders: StandingOrders, steps_in_commit: bool = True,
                 render_check: bool = False) -> None:
        """``steps_in_commit`` False leaves every system step to the workers (see :meth:`system_step`);
        ``render_check`` refuses a commit whose state some reader cannot read (engine.commit_check);
        ``orders`` are the seats' standing orders, which answer inside the commit (``engine.orders``)."""
        self.redis = client
        self.keys = keys
        self.store = store
        self.projector = projector
        self.seeds = seeds
        self.follow_ups = follow_ups
        self.orders = orders
        self.steps_in_commit = steps_in_commit
        self.render_check = render_check
        #: On a cluster a script may touch one hash slot alone: the index updates follow the append.
        self.cluster = isinstance(client, RedisCluster)
        #: This process's appends awaiting their reply, by their last event's stored JSON: the
        #: announcement of one may reach the listener first (see :meth:`announced`).
        self.in_flight: dict[bytes, tuple[str, int, Record, list[Envelope]]] = {}
        #: The process's listener of every game's feed (and of the channels others ask it to hear).
        self.watcher = FeedWatcher(client, keys.feed_pattern(), keys.game_id_from_feed, on_events=self.announced)
        self.watcher.hear(orders.channel, orders.heard)  # every change of orders, on any process

    def load(self, game_id: str) -> Record:
        """The game's record, or ``NotFound``."""
        record = self.projector.load(game_id) if len(game_id) <= MAX_GAME_ID else None
        if record is None:
            shown = game_id if len(game_id) <= MAX_GAME_ID else game_id[:MAX_GAME_ID] + "..."
            raise NotFound("game_not_found", f"there is no game {shown!r}")
        return record

    def commit(self, game_id: str, record: Record | None, drafts: Sequence[GameEvent], cause: Mapping[str, Any],
               idem: tuple[str, str] | None = None, gates: Sequence[Gate] = (),
               later: list[Callable[[], None]] | None = None, cap: Cap | None = None) -> Committed | None:
        """Seal, fold and append; then index and schedule.

        None when nothing was appended: the game moved on from ``record`` (a version
        conflict) or the ``cap`` was full; the caller decides again on a fresh record.
        Raises ``Limited`` when a gate had no token (see ``engine.moves``), and
        :class:`KeyWonRace` when the idempotency key of ``idem`` was taken meanwhile. Work
        owed after the answer goes to ``later`` when given (see ``engine.follow_up.owe``).
        """
        version = record["version"] if record else 0
        # Known before deciding, whether or not any seat has orders (engine.orders: a commit's
        # round trips must not tell), and kept fresh by the orders' announcements after that.
        self.orders.ensure_known(game_id, record)
        for tried in range(MAX_STALE_RETRIES):
            if tried:
                # The orders changed between this process's reading and its append (a race with
                # a PUT, as a version conflict is one with another writer): again, with them.
                self.orders.refresh(game_id)
            attempt = self._append(game_id, record, drafts, cause, idem, gates, cap)
            if attempt is not None:
                break
        else:
            raise Conflict("busy", "the standing orders of this game kept changing while your action was "
                                   "decided; try again")
        result, new, envelopes, plan, replies, holds = attempt
        if result.status == "limited":
            assert result.empty is not None and result.wait is not None
            raise limited(result.empty.name, result.wait)
        if result.status != "ok":
            self.projector.forget(game_id)
            if result.status == "duplicate":
                raise KeyWonRace(game_id)
            return None
        self.orders.landed(game_id, holds)
        self.projector.remember(game_id, new)
        self.projector.remember_events(game_id, envelopes)
        # This process's streams of the game take the commit from here, first of what is owed
        # once the answer is sent (see FeedWatcher.push); others hear Redis's announcement.
        owe(partial(self.watcher.push, game_id, version, new, envelopes), later)
        self.follow_ups.finish(plan, replies, offset=1, later=later)
        return Committed(new, envelopes, gated=bool(gates), after_answer=tuple(later) if later else ())

    def _append(self, game_id: str, record: Record | None, drafts: Sequence[GameEvent], cause: Mapping[str, Any],
                idem: tuple[str, str] | None, gates: Sequence[Gate], cap: Cap | None) -> _Attempt | None:
        """One try at :meth:`commit`'s append, decided with the orders this process holds; None
        when the store's orders moved on meanwhile (``stale``)."""
        version = record["version"] if record else 0
        guard = self.orders.guard(game_id)  # the standing orders' revision this commit decides with
        envelopes, new, settled, spent, since = self._seal(game_id, record, drafts, cause)
        if self.render_check:  # a state some reader cannot read never reaches the log
            refuse_unrenderable(game_id, new, envelopes)
        record_for_key = None
        if idem is not None:
            record_for_key = (idem[0], {"fingerprint": idem[1], "first": version + 1,
                                        "last": version + len(envelopes)})
        # The index updates are written as if the append succeeds and run inside it, in the
        # same atomic step and only if it does: one command per commit. A cluster's script
        # may touch only its game's hash slot: there the updates follow the append.
        replies: list[Any] = []
        plan: Any = None
        holds = None
        if self.cluster:
            if gates:
                raise ValueError("a gate's bucket lives in another hash slot than the game on a cluster")
            result = self.store.append(game_id, version, envelopes, record_for_key, guard=guard)
            if result.status == "ok":
                plan = self.follow_ups.queue(pipe := self.redis.pipeline(transaction=False), new, record,
                                             notify_from=settled, since=since)
                self.projector.queue_snapshot(pipe, game_id, version, new)
                holds = self.orders.queue_spent(pipe, game_id, spent, guard[1])
                replies = [None, *pipe.execute()]
        else:
            plan = self.follow_ups.queue(index := IndexCommands(), new, record, notify_from=settled, since=since)
            self.projector.queue_snapshot(index, game_id, version, new)
            holds = self.orders.queue_spent(index, game_id, spent, guard[1])
            flight = envelopes[-1].to_json().encode()
            self.in_flight[flight] = (game_id, version, new, envelopes)
            try:
                result = self.store.append(game_id, version, envelopes, record_for_key, index, gates, cap, guard)
            finally:  # two commits of one keyed request can spell the very same events: no KeyError
                self.in_flight.pop(flight, None)
            replies = [None, *result.replies]
        if result.status == "stale":
            return None
        return result, new, envelopes, plan, replies, holds

    def _seal(self, game_id: str, record: Record | None, drafts: Sequence[GameEvent], cause: Mapping[str, Any]
              ) -> tuple[list[Envelope], Record, Record | None, set[tuple[int, int]], dict[int, int]]:
        """The envelopes of ``drafts`` (and of the game's end, of the system steps they leave
        due and of the standing orders' answers), the record they lead to, the record before
        the last system step taken (None: none was), the ``once`` orders spent, and for each
        seat left awaited since a batch before the last (an order answered after it) the
        version of that batch: its ``your_turn`` names it, as it would have with no order."""
        version = record["version"] if record else 0
        prev = record["last_hash"] if record else GENESIS_HASH
        at = utc_now()
        cause = {**cause, "batch": version + 1}
        envelopes: list[Envelope] = []
        new = record
        pending = list(drafts)
        steps = answered = 0
        settled: Record | None = None
        spent: set[tuple[int, int]] = set()
        batches: list[tuple[int, set[int]]] = []  # each batch's last version and the seats it left awaited
        while pending:
            draft = pending.pop(0)
            envelope = seal(version + len(envelopes) + 1, draft.type, at, draft.actor, draft.data, cause, prev)
            new = fold(new, envelope)
            envelopes.append(envelope)
            prev = envelope.hash
            if not pending:
                batches.append((version + len(envelopes), set(awaiting(new))))
            if not pending and new["status"] == "active":
                outcome = platform_outcome(new)
                if outcome is not None:
                    pending.append(GameEvent("GameEnded", {"winners": list(outcome.winners), "reason": outcome.reason,
                                                           "seed": self.seeds.seed(game_id)}))
                elif self.steps_in_commit and steps < MAX_STEPS_IN_COMMIT and not awaiting(new):
                    # Every awaited seat has acted: the system step is a batch of this commit.
                    seq = version + len(envelopes) + 1
                    pending = self.system_step(game_id, new, seq)
                    if pending:
                        steps += 1
                        settled = new
                        cause = {"kind": "system", "batch": seq, "follows": version + 1}
                elif answered < MAX_ANSWERS_IN_COMMIT and (order := self.orders.answer(
                        game_id, new, partial(self.seeds.rng, new, version + len(envelopes) + 1), spent)):
                    # A seat's standing order answers the decision this commit opened (engine.orders).
                    answered += 1
                    pending, cause = order.drafts, order.cause(version + len(envelopes) + 1, version + 1)
        assert new is not None
        return envelopes, new, settled, spent, _awaited_since(batches) if answered else {}

    def system_step(self, game_id: str, record: Record, seq: int) -> list[GameEvent]:
        """The events of the game's ``resolve`` at ``seq``, or none (then a worker takes the step).

        They are the events a worker's step (``engine.upkeep``) would append next, drawn from
        the same seeded stream, so the log is the same whoever takes the step. A ``resolve``
        that fails leaves the step to the worker, which logs it: the action that completed
        the phase stands either way.
        """
        try:
            return list(rules_of(record).resolve(record["state"], self.seeds.rng(record, seq)))
        except Exception:
            log.exception("the system step of game %s at %s failed; a worker will take it", game_id, seq)
            return []

    def announced(self, game_id: str, version: int, lines: list[bytes]) -> None:
        """Events an append published, as Redis announced them: kept (Projector.announced),
        then pushed to this process's streams of the game from the listener itself, when the
        record they continue is at hand (no read here: the listener serves every game).

        This process's own append is often heard before its reply reaches the committer (the
        reply and the announcement arrive together): then the committer's record and events
        are taken as they are, instead of parsing the events and folding them a second time."""
        flight = self.in_flight.get(lines[-1]) if lines else None
        if flight is not None and flight[0] == game_id and flight[1] + len(lines) == version:
            # Kept now, as a fold of the announcement was, for a request that reads it next.
            _, before, folded, sealed = flight
            self.projector.remember(game_id, folded)
            self.projector.remember_events(game_id, sealed)
            if self.watcher.pushes_to(game_id):
                self.watcher.push(game_id, before, folded, sealed)
            return
        self.projector.announced(game_id, version, lines)
        if not lines or not self.watcher.pushes_to(game_id):
            return
        before = version - len(lines)
        events = self.projector.remembered(game_id, before, version)
        record = self.projector.cached(game_id) if events else None
        if events and record is not None and record["version"] == events[-1].seq == version:
            self.watcher.push(game_id, before, record, events)


def _awaited_since(batches: list[tuple[int, set[int]]]) -> dict[int, int]:
    """For each seat the last batch left awaited, the last version of the first batch of the
    run of batches that left it awaited, where that is not the last one."""
    last = batches[-1][0]
    since: dict[int, int] = {}
    for seat in batches[-1][1]:
        for version, awaited in reversed(batches):
            if seat not in awaited:
                break
            since[seat] = version
        if since[seat] == last:
            del since[seat]
    return since
