"""Upkeep: the workers' side of the engine. A game's next step when it falls due (a system
step, a deadline's default action), the sweep that asks for deadlines that came, open games
expired, the drain of the due set, reconciling indexes that lag their streams after a crash,
and rebuilding every index from the streams.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

import redis

from engine.active_games import seeking_key
from engine.bot_turns import BotTurns
from engine.commit import MAX_RETRIES, CommitPath
from engine.fair_shuffle import start_late
from engine.follow_up import STALE_DUE_SECONDS, FollowUps
from engine.ratings import Ratings, result_of
from engine.scheduling import DRAIN_IDLE_SECONDS, QUEUED_MARK_MS, JobScheduler
from engine.seeds import Seeds
from engine.settings import Settings
from events.envelope import parse_time
from events.store import EventStore, Keys
from games.base import GameEvent, RuleViolation
from projections.projector import Projector
from projections.record import Record, awaiting, final_ranks, resigned, rules_of

log = logging.getLogger(__name__)

#: A bot seat awaited this long with no move was not asked for (a lost job): the sweep asks again.
BOT_STALL_SECONDS = 60.0


class Upkeep:
    def __init__(self, client: redis.Redis, keys: Keys, store: EventStore, projector: Projector, seeds: Seeds,
                 commits: CommitPath, follow_ups: FollowUps, bots: BotTurns, scheduler: JobScheduler | None,
                 ratings: Ratings, settings: Settings) -> None:
        self.redis = client
        self.keys = keys
        self.store = store
        self.projector = projector
        self.seeds = seeds
        self.commits = commits
        self.follow_ups = follow_ups
        self.bots = bots
        self.scheduler = scheduler
        self.ratings = ratings
        self.settings = settings

    # ---------------------------------------------------------------- workers
    def advance(self, game_id: str, version: int = 0, now: datetime | None = None,
                loaded: Mapping[str, Record | None] | None = None) -> str:
        """The worker's step for one game: whatever is due at the moment it runs.

        If nobody is awaited it runs the game's ``resolve``; otherwise it applies the
        default action of the first awaited seat whose deadline has passed. ``version``
        only names the job: the step is decided from the current record, and the
        append's version check makes running it twice harmless. ``loaded`` holds records a
        drain read for several games at once; a step decided on one that has gone stale
        loses the append's version check, and the move that made it stale asked for
        whatever step follows it.
        """
        record = loaded[game_id] if loaded is not None and game_id in loaded else self.projector.load(game_id)
        if record is not None and record["status"] == "finished":
            # Asked for by the commit that ended it; archiving twice does nothing.
            self.follow_ups.archive(game_id, record)
            return "archived"
        if record is not None and record["status"] == "starting":  # the wait for the committed secrets
            if not self.seeds.at_hand(game_id):
                return "raced"
            return start_late(self.seeds, self.commits, record, now or datetime.now(UTC))
        if record is None or record["status"] != "active":
            return "idle"
        if not self.seeds.at_hand(game_id):
            return "raced"
        rules = rules_of(record)
        waiting = awaiting(record)
        if not waiting:
            drafts = rules.resolve(record["state"], self.seeds.rng(record, record["version"] + 1))
            done = self.commits.commit(game_id, record, drafts, {"kind": "system"})
            return "raced" if done is None else "resolved"
        now = now or datetime.now(UTC)
        due = [seat for seat in sorted(waiting) if parse_time(record["deadlines"][seat]) <= now]
        if not due:
            # Asked for twice, or the deadline moved later since it was asked for: the
            # deadline index holds the new time, and the sweep asks again then.
            return "nothing_due"
        return self._time_out(record, due[0])

    def _time_out(self, record: Record, seat: int) -> str:
        rules = rules_of(record)
        game_id, version = record["id"], record["version"]
        misses = record["misses"][seat] + 1
        was_autoplay = record["autoplay"][seat]
        autoplay = was_autoplay or misses >= record["time_control"]["autoplay_after"]
        # The bot picks with its own stream: the rules' draws must not depend on its pick,
        # or an audit replaying the decision would draw different cards.
        bot_rng = self.seeds.rng(record, version + 1, "bot")
        if seat in resigned(record):  # no deadline was missed: the bot holds the seat for good
            action, strategy = self.bots.takeover(record, seat, bot_rng)
            drafts = rules.decide(record["state"], seat, action, self.seeds.rng(record, version + 1))
            done = self.commits.commit(game_id, record, drafts,
                                {"kind": "bot", "seat": seat, "strategy": strategy, "action": action})
            return "raced" if done is None else "bot_played"
        cause: dict[str, Any] = {"kind": "timeout", "seat": seat}
        if was_autoplay:
            action, strategy = self.bots.takeover(record, seat, bot_rng)
            cause.update(kind="bot", strategy=strategy)
        else:
            action = rules.on_timeout(record["state"], seat)
        try:
            drafts = rules.decide(record["state"], seat, action, self.seeds.rng(record, version + 1))
        except RuleViolation:
            log.exception("default action refused in game %s for seat %s; playing a random legal one", game_id, seat)
            action = bot_rng.choice(rules.legal_actions(record["state"], seat))
            cause.update(kind="bot", strategy="random")
            drafts = rules.decide(record["state"], seat, action, self.seeds.rng(record, version + 1))
        missed = GameEvent("DeadlineMissed", {"seat": seat, "misses": misses, "autoplay": autoplay}, actor=seat)
        done = self.commits.commit(game_id, record, [missed, *drafts], {**cause, "action": action})
        return "raced" if done is None else "timed_out"


    def sweep(self, now: datetime | None = None, limit: int = 500) -> int:
        """Ask for every game whose deadline has come (no job is booked for a deadline), and
        again for steps whose drain job was lost or stalled."""
        if self.scheduler is None:
            return 0
        now = now or datetime.now(UTC)
        due = self.redis.zrangebyscore(self.keys.deadlines(), "-inf", now.timestamp(), start=0, num=limit)
        self.scheduler.ask_drain([raw.decode() for raw in due])
        # Steps waiting in the due set with no deadline behind them (archiving a game that
        # ended) whose drain job was never queued: the process that owed it died.
        waiting = self.scheduler.queue.connection.zrangebyscore(
            self.keys.due(), "-inf", now.timestamp() - STALE_DUE_SECONDS, start=0, num=1)
        if waiting and not due:
            self.scheduler.enqueue_drain()
        return len(due)

    def expire_open_games(self, now: float | None = None, limit: int = 100) -> list[str]:
        """End every open game that has waited longer than the ``open_game_ttl`` setting.

        Each gets a ``GameEnded`` event (no winners, reason ``expired``) in its log, so it
        leaves the lobby and stops counting against its creator's open games in the same
        step; a join that races it wins or loses the append's version check, never both.
        Returns the games expired (the sweep calls it; ``limit`` bounds one pass).
        """
        ttl = self.settings.open_game_ttl
        if not ttl:
            return []
        cutoff = (time.time() if now is None else now) - ttl
        expired = []
        waiting = [raw for key in (self.keys.lobby(), self.keys.unlisted())  # unlisted games expire too
                   for raw in self.redis.zrangebyscore(key, "-inf", cutoff, start=0, num=limit)]
        for raw in waiting:
            game_id = raw.decode()
            for _ in range(MAX_RETRIES):
                record = self.projector.load(game_id)
                if record is None or record["status"] != "open":
                    break
                if parse_time(record["created_at"]).timestamp() > cutoff:
                    break
                ended = GameEvent("GameEnded", {"winners": [], "reason": "expired", "seed": self.seeds.seed(game_id)})
                if self.commits.commit(game_id, record, [ended], {"kind": "system", "reason": "expired"}) is not None:
                    expired.append(game_id)
                    break
        return expired

    def drain_due(self, batch: int = 20, linger: float = 0.0, idle: float = DRAIN_IDLE_SECONDS,
                  yield_to: Sequence[str] = ()) -> int:
        """The drain job: run the step of every game in the due set; how many it ran.

        Games are popped from the set, so two drain jobs never run the same step twice over.
        The games popped together are read from the store together (one pipeline).

        With ``linger`` (seconds) the job stays that long at most while steps keep falling
        due, waiting up to ``idle`` seconds at a time for the next one (a blocking pop) and
        holding the "drain queued" mark all the while, so the commits meanwhile queue no job
        of their own: a busy server runs one job for many games' steps, where it ran one
        for every few (RQ's own work for one job is about 60 Redis commands and 2.5 ms of
        CPU; docs/performance.md, section 22). It stops lingering at once when a job waits
        in one of the ``yield_to`` queues (RQ's keys of the other queues its worker serves).

        The mark is dropped before the last pass, so a step that falls due from then on
        queues another job (it may find the step already run: that is harmless).
        """
        assert self.scheduler is not None, "the drain job runs in a worker, which has a scheduler"
        queues = self.scheduler.queue.connection  # the due set lives beside RQ's queues
        due, mark = self.keys.due(), self.keys.drain_queued()
        done = 0
        ends = time.monotonic() + linger
        while linger > 0 and time.monotonic() < ends:
            pipe = queues.pipeline(transaction=False)
            pipe.set(mark, 1, px=QUEUED_MARK_MS)  # held while this job lingers
            pipe.zpopmin(due, batch)
            for key in yield_to:
                pipe.llen(key)
            _, popped, *waiting = pipe.execute()
            if not popped:
                if any(waiting):
                    break
                got = queues.bzpopmin(due, timeout=min(idle, max(0.01, ends - time.monotonic())))
                if got is None:
                    break
                popped = [(got[1], got[2])]
            done += self._run_due([raw.decode() for raw, _ in popped])
        queues.delete(mark)
        while True:
            popped = queues.zpopmin(due, batch)
            if not popped:
                return done
            done += self._run_due([raw.decode() for raw, _ in popped])

    def _run_due(self, game_ids: list[str]) -> int:
        """The steps of ``game_ids`` (popped from the due set), their records read together."""
        try:  # one read of the store for the whole batch, not one per step
            loaded = self.projector.load_many(game_ids)
        except Exception:
            log.exception("could not load the games %s together; loading each on its own", game_ids)
            loaded = {}
        for game_id in game_ids:
            try:
                self.advance(game_id, loaded=loaded)
            except Exception:  # one game's failure must not hold up the others; the sweep asks again
                log.exception("step of game %s failed", game_id)
        return len(game_ids)

    def seconds_to_next_deadline(self, now: datetime | None = None) -> float | None:
        """How long until the earliest deadline still in the future (None: there is none).

        Deadlines already due are left out: their steps were just asked for, and a
        sweeper that woke for them again would spin until a worker ran them.
        """
        now_ts = (now or datetime.now(UTC)).timestamp()
        upcoming = self.redis.zrangebyscore(self.keys.deadlines(), f"({now_ts}", "+inf", start=0, num=1,
                                            withscores=True)
        return upcoming[0][1] - now_ts if upcoming else None

    def reconcile(self, suspects: Mapping[str, bytes] | None = None,
                  now: float | None = None) -> tuple[int, dict[str, bytes]]:
        """Re-run the follow-up of every game whose indexes lag its stream (after a crash).

        A commit in flight lags for a moment too, between its append and its follow-up,
        so a game is repaired only when it already lagged at the same version on the
        previous pass (``suspects``, as this method returned them). Returns how many
        games were repaired and the suspects for the next pass.

        Only games that can lag are read: those open or active at their last indexing
        and those being created. A finished game leaves the active set in the same
        follow-up that indexes its last event, so its work is done; the cost of a pass
        grows with the games in play, not with every game ever played.

        A bot seat left awaited for ``BOT_STALL_SECONDS`` (its job was lost: the process
        that owed the request died after its answer, or the bot worker died searching) is
        asked for again, as of ``now``.
        """
        suspects = suspects or {}
        candidates = self._reconcile_candidates()
        repaired, lagging = 0, {}
        pipe = self.redis.pipeline(transaction=False)
        for game_id in candidates:
            pipe.hmget(self.keys.meta(game_id), "version", "indexed", "card", "indexed_at")
        for game_id, (version, indexed, listed, indexed_at) in zip(candidates, pipe.execute(), strict=True):
            if version is not None and version == indexed and listed is not None:
                self._ask_again_for_stalled_bots(game_id, listed, indexed_at, now)
            if version is None or version == indexed:
                continue
            if suspects.get(game_id) != version:
                lagging[game_id] = version
                continue
            record = self.projector.load(game_id)
            if record is not None:
                self.follow_ups.run(record)
                repaired += 1
        return repaired, lagging

    def _ask_again_for_stalled_bots(self, game_id: str, listed: bytes, indexed_at: bytes | None,
                                    now: float | None) -> None:
        """Ask again for the decision of a bot seat awaited too long (its listing card says so).

        How long is read from the exact time of the version indexed (``indexed_at``), not the
        card's ``updated_at``, which is rounded down while the game is on (to the hour in a slow
        game) and would make every bot seat look stalled."""
        if self.scheduler is None or b'"bots":{"' not in listed:
            return
        found = json.loads(listed)
        if found.get("status") != "active":
            return
        since = indexed_at.decode() if indexed_at is not None else found["updated_at"]  # older indexes: the card
        if parse_time(since).timestamp() > (now or time.time()) - BOT_STALL_SECONDS:
            return
        for seat in found.get("bots") or {}:
            if found["awaiting"][int(seat)] is not None:
                self.follow_ups.bot_request(game_id, found["version"], int(seat))()

    def _reconcile_candidates(self, abandoned_after: float = 3600.0) -> list[str]:
        """Open, active and still-being-created games; drops creations that never appended."""
        # Read in chunks (SCAN): no single read grows with the number of games in play.
        lobby = [raw for raw, _ in self.redis.zscan_iter(self.keys.lobby(), count=500)]
        lobby += [raw for raw, _ in self.redis.zscan_iter(self.keys.unlisted(), count=500)]
        active = list(self.redis.sscan_iter(self.keys.active(), count=500))
        creating_scores = list(self.redis.zscan_iter(self.keys.creating(), count=500))
        creating = [raw for raw, _ in creating_scores]
        stale = [raw for raw, score in creating_scores if score <= time.time() - abandoned_after]
        abandoned = {raw for raw in stale if not self.store.exists(raw.decode())}
        for raw in abandoned:  # the process died between saving the seed and appending
            self.redis.zrem(self.keys.creating(), raw)
            self.store.delete_seed(raw.decode())
        return sorted({raw.decode() for raw in (*lobby, *active, *creating) if raw not in abandoned})


    def rebuild_indexes(self, progress: Callable[[int, int], None] | None = None) -> int:
        """Drop and rebuild every index from the streams (they are projections).

        ``progress(done, total)`` is called after each game, for a progress display.
        """
        game_ids = self.store.game_ids()
        for pattern in ("inbox", "hosting", "live"):  # live: seats in games not over (engine.active_games)
            for key in self.redis.scan_iter(match=f"{self.keys.prefix}:player:*:{pattern}"):
                self.redis.delete(key)
        for key in self.redis.scan_iter(match=f"{self.keys.lobby()}:*"):
            self.redis.delete(key)
        self.redis.delete(self.keys.lobby(), self.keys.unlisted(), self.keys.active(), self.keys.deadlines(),
                          seeking_key(self.keys))
        count = 0
        results = []
        for done, game_id in enumerate(game_ids, start=1):
            self.projector.forget(game_id)
            record = self.projector.load(game_id)
            if record is not None:
                result = result_of(record, final_ranks(record))
                if result is not None:
                    results.append(result)
                self.follow_ups.run(record)
                if record.get("rematch_of"):  # the old game's link to its rematch, from the new one's log
                    self.redis.hset(self.keys.meta(record["rematch_of"]), "rematch", game_id)
                count += 1
            if progress is not None:
                progress(done, len(game_ids))
        self.ratings.rebuild(results)  # folded in the order of their ends, as they were live
        return count
