"""The command side of Intrigue: load a record, let the rules decide, append, follow up.

Both the HTTP API and the workers go through this one class, so a seat's action, a
worker's system step and a deadline's default action are validated, sealed, appended
and indexed the same way. Appends carry the expected version: of two writers racing
on one game only one wins; the other re-reads and re-decides, or reports 409.
"""

from __future__ import annotations

import hashlib
import json
import logging
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from typing import Any, TypeVar

import orjson
import redis
from redis.cluster import RedisCluster

from bots.ismcts import Budget
from engine.chat import Chat, between_players, merge, public, visible
from engine.commit_check import refuse_unrenderable
from engine.errors import Conflict, DomainError, Forbidden, Invalid, Limited, NotFound, NotYourTurn, rule_refusal
from engine.ratelimit import RateLimiter, limited
from engine.ratings import Ratings, result_of
from engine.scheduling import DRAIN_IDLE_SECONDS, QUEUED_MARK_MS, JobScheduler, make_queue
from engine.seat_bots import bot_seats, check_bots, make_bot, observation_for
from engine.settings import Bucket, Settings
from engine.streams import Lease, StreamLeases, TokensShort
from engine.webhooks import QUEUE_NAME as WEBHOOK_QUEUE
from engine.webhooks import Webhooks
from events.envelope import GENESIS_HASH, Envelope, canonical_json, parse_time, seal, seed_commitment, utc_now
from events.lean import LeanScript
from events.store import Cap, EventStore, Gate, IndexCommands, Keys
from events.watch import FeedWatcher, Watch
from games import registry
from games.base import GameEvent, InvalidOptions, RuleViolation, derive_rng
from games.pax import cards as pax_cards
from projections.listing import Page, card, read_page
from projections.projector import Projector
from projections.record import (
    Record,
    awaiting,
    earliest_deadline,
    final_ranks,
    fold,
    platform_outcome,
    resigned,
    rules_of,
    seat_of,
)
from projections.transcript import transcript
from projections.views import feed_item, public_options

log = logging.getLogger(__name__)
#: What a gated attempt returns (see Engine._gated).
T = TypeVar("T")

MAX_RETRIES = 5
#: System steps a commit takes after its own batch, when every awaited seat has acted (a
#: reaction window all passed, the last bid of a round): one is the usual case; a game whose
#: steps chain further than this leaves the rest to a worker (see Engine._system_step).
MAX_STEPS_IN_COMMIT = 4
#: Game ids are 12 hex digits; a longer path segment names no game (and is not echoed whole).
MAX_GAME_ID = 64
#: A step left in the due set this long with no drain job asked for is asked for by the sweep;
#: a system step not taken this long after it fell due is asked for again (see _sweep_score).
STALE_DUE_SECONDS = 2.0
#: A bot seat awaited this long with no move was not asked for (a lost job): the sweep asks again.
BOT_STALL_SECONDS = 60.0


@dataclass(frozen=True)
class RawPage:
    """A feed page as read (events, messages, whether a limit was hit, the record they lead
    to), before a seat's redaction: see :meth:`Engine.read_page`."""

    events: list[Envelope]
    messages: list[dict[str, Any]]
    full: bool
    record: Record | None


@dataclass(frozen=True)
class Player:
    id: str
    name: str


@dataclass
class _FollowUp:
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


@dataclass(frozen=True)
class Committed:
    """The outcome of a command: the record after it and the events it appended."""

    record: Record
    events: list[Envelope]
    #: Whether the append spent the caller's rate-limit token (its gate ran): not for a
    #: replayed answer, nor for a commit made without a gate.
    gated: bool = False
    #: What the caller runs once its answer is sent (asked for with ``answer_first``): only
    #: requests to workers for a step the commit already recorded (see :meth:`Engine._owe`).
    after_answer: tuple[Callable[[], None], ...] = ()


@dataclass(frozen=True)
class Joined:
    """The outcome of a join: the seat taken, the record after it, and the work owed after the answer."""

    seat: int
    record: Record
    after_answer: tuple[Callable[[], None], ...] = ()


class Engine:
    def __init__(self, client: redis.Redis, scheduler: JobScheduler | None = None, *,
                 keys: Keys | None = None, snapshot_every: int = 50,
                 operator_token: str | None = None, settings: Settings | None = None,
                 steps_in_commit: bool = True) -> None:
        """``settings`` (the defaults when None) configure chat, webhooks and the games;
        ``operator_token``, when given, stands for the settings' one. ``steps_in_commit``
        False leaves every system step to the workers (see :meth:`_system_step`): tests
        of the workers' own path, which otherwise takes only what a commit left."""
        settings = settings or Settings()
        self.settings = settings
        self.steps_in_commit = steps_in_commit
        self.redis = client
        self.keys = keys or Keys()
        self.store = EventStore(client, self.keys)
        self.projector = Projector(self.store, snapshot_every=snapshot_every)
        self.scheduler = scheduler
        self.operator_token = operator_token or settings.operator_token
        self.chat = Chat(client, self.keys, self.store.read, rate=settings.chat_rate,
                         per_game=settings.messages_per_game)
        self.limiter = RateLimiter(client, self.keys.prefix)
        self.ratings = Ratings(client, self.keys.prefix, settings.leaderboard_min_games)
        self.hooks = Webhooks(client, self.keys,
                              make_queue(scheduler.queue.connection, WEBHOOK_QUEUE) if scheduler else None,
                              policy=settings.webhook_retry, private_ok=settings.webhooks_allow_private)
        if settings.pax_card_sets is not None:
            pax_cards.use_operator_folder(settings.pax_card_sets)
        self._seeds: dict[str, str] = {}
        #: token hash -> player, until when to trust it, and the listener's epoch it relies on
        #: (None: trusted until then whatever the listener does)
        self._players: dict[str, tuple[Player, float, int | None]] = {}
        #: This process's appends awaiting their reply, by their last event's stored JSON: the
        #: announcement of one may reach the listener first (see :meth:`_announced`).
        self._in_flight: dict[bytes, tuple[str, int, Record, list[Envelope]]] = {}
        self.watcher = FeedWatcher(client, self.keys.feed_pattern(), self.keys.game_id_from_feed,
                                   on_events=self._announced)
        #: Revoked tokens are announced to every process (see :meth:`player_for_token`).
        self.watcher.hear(self._revoked_channel(), self._token_revoked)
        self._revocations = 0  # revocations heard so far
        #: On a cluster a rate-limit bucket and a game live in different hash slots: a gate's
        #: token is spent apart, before the command, instead of inside its append.
        self.cluster = isinstance(client, RedisCluster)
        self._reserve = LeanScript(client, _RESERVE)
        self._add_token = LeanScript(client, _ADD_TOKEN)
        self.streams = StreamLeases(client, self.keys.prefix)

    # ----------------------------------------------------------------- players
    def create_player(self, name: str) -> tuple[Player, str]:
        """Register a player; the token is returned once and only its hash is kept."""
        player = Player(id=secrets.token_hex(8), name=name)
        token = secrets.token_urlsafe(32)
        hashed = _token_hash(token)
        pipe = self.redis.pipeline()
        pipe.hset(self.keys.player(player.id), mapping={"name": name, "created_at": utc_now()})
        pipe.hset(self.keys.player_tokens(player.id), token_id(hashed),
                  canonical_json({"hash": hashed, "created_at": utc_now()}))
        pipe.hset(self.keys.tokens(), hashed, player.id)
        pipe.execute()
        return player, token

    def issue_token(self, player: Player, ceiling: int = 0) -> dict[str, Any]:
        """Another token for ``player`` (to rotate one: issue, then revoke the old). Shown once.

        ``ceiling`` (0: none) bounds the tokens a player holds, counted and added in one step.
        """
        token = secrets.token_urlsafe(32)
        hashed = _token_hash(token)
        issued = {"id": token_id(hashed), "created_at": utc_now()}
        added = self._add_token(keys=[self.keys.player_tokens(player.id)],
                                args=[ceiling, issued["id"], canonical_json({"hash": hashed,
                                                                            "created_at": issued["created_at"]})])
        if not added:
            raise Conflict("too_many_tokens", f"you already hold {ceiling} tokens (at most {ceiling}); "
                                              "revoke one with DELETE /v1/me/tokens/<id> first")
        self.redis.hset(self.keys.tokens(), hashed, player.id)
        return {**issued, "token": token, "last_used_at": None}

    def tokens_of(self, player: Player, current: str | None = None) -> list[dict[str, Any]]:
        """The player's tokens, oldest first: ids and dates, never a token or its hash."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.hgetall(self.keys.player_tokens(player.id))
        pipe.hgetall(self.keys.tokens_used(player.id))
        held, used = pipe.execute()
        current_id = token_id(_token_hash(current)) if current else None
        listed = []
        for raw_id, raw in held.items():
            found = orjson.loads(raw)
            ident = raw_id.decode()
            last = used.get(raw_id)
            listed.append({"id": ident, "created_at": found["created_at"],
                           "last_used_at": last.decode() if last else None, "current": ident == current_id})
        return sorted(listed, key=lambda item: (item["created_at"], item["id"]))

    def revoke_token(self, player: Player, ident: str) -> None:
        """Revoke one of the player's tokens: it stops working on every API process within
        :data:`TOKEN_CACHE_SECONDS`, at once on this one."""
        raw = self.redis.hget(self.keys.player_tokens(player.id), ident) if len(ident) <= MAX_GAME_ID else None
        if raw is None:
            raise NotFound("token_not_found", "you hold no token with this id (see GET /v1/me/tokens)")
        hashed = orjson.loads(raw)["hash"]
        pipe = self.redis.pipeline(transaction=False)
        pipe.hdel(self.keys.tokens(), hashed)
        pipe.hdel(self.keys.player_tokens(player.id), ident)
        pipe.hdel(self.keys.tokens_used(player.id), ident)
        pipe.execute()
        self._players.pop(hashed, None)
        self.redis.publish(self._revoked_channel(), hashed)  # every other process drops it now

    def _revoked_channel(self) -> str:
        return f"{self.keys.prefix}:tokens:revoked"

    def _token_revoked(self, hashed: bytes) -> None:
        """The listener heard that a token was revoked (on any process)."""
        self._revocations += 1
        self._players.pop(hashed.decode(), None)

    def player_for_token(self, token: str) -> Player | None:
        """The token's player, kept in this process, each refresh noting when it was last used.

        A revocation is announced to every process, whose listener drops the token at once;
        while that listener is subscribed, a token is kept :data:`TOKEN_TRUST_SECONDS`. When
        it is not (not started, or reconnecting: an announcement may be missed), or when a
        revocation was heard while the token was looked up, the token is kept only
        :data:`TOKEN_CACHE_SECONDS`, the longest a revoked token may still work anywhere.
        """
        hashed = _token_hash(token)
        cached = self._players.get(hashed)
        now = time.monotonic()
        watcher = self.watcher
        if cached is not None and cached[1] > now and (cached[2] is None or (watcher.live
                                                                             and cached[2] == watcher.epoch)):
            return cached[0]
        watcher.start()
        epoch = watcher.epoch if watcher.live else None
        heard = self._revocations
        player_id = self.redis.hget(self.keys.tokens(), hashed)
        if player_id is None:
            self._players.pop(hashed, None)
            return None
        player_id = player_id.decode()
        pipe = self.redis.pipeline(transaction=False)
        pipe.hget(self.keys.player(player_id), "name")
        pipe.hset(self.keys.tokens_used(player_id), token_id(hashed), utc_now())
        # A token issued before tokens were listed joins its player's list when first seen.
        pipe.hsetnx(self.keys.player_tokens(player_id), token_id(hashed),
                    canonical_json({"hash": hashed, "created_at": utc_now()}))
        name, _, _ = pipe.execute()
        player = Player(player_id, name.decode() if name else "")
        if len(self._players) > 100_000:
            self._players.clear()
        if epoch is not None and watcher.live and watcher.epoch == epoch and self._revocations == heard:
            self._players[hashed] = (player, now + TOKEN_TRUST_SECONDS, epoch)
        else:
            self._players[hashed] = (player, now + TOKEN_CACHE_SECONDS, None)
        return player

    def open_games_of(self, player_id: str) -> int:
        """How many games ``player_id`` created that still wait for players."""
        return int(self.redis.zcard(self.keys.hosting(player_id)))

    def check_open_games(self, player_id: str, ceiling: int) -> None:
        """Refuse early a creator who already hosts ``ceiling`` open games (0: no ceiling).

        A cheap look before the creation spends anything; the creation itself decides
        again, atomically (see :meth:`create_game`).
        """
        if ceiling:
            held = self.open_games_of(player_id)
            if held >= ceiling:
                raise too_many_open_games(held, ceiling)

    def is_operator(self, token: str) -> bool:
        # Bytes, not str: compare_digest refuses str with non-ASCII characters (a TypeError).
        return bool(self.operator_token) and secrets.compare_digest(
            token.encode("utf-8", "surrogateescape"), (self.operator_token or "").encode("utf-8", "surrogateescape"))

    # ------------------------------------------------------------------ limits
    def gates(self, asked: list[tuple[Bucket, str]]) -> tuple[Gate, ...]:
        """The gates that spend a token of each ``(bucket, subject)`` in an action's append (see :meth:`act`)."""
        return self.limiter.gates(asked)

    def take_all(self, asked: list[tuple[Bucket, str]]) -> None:
        """Spend one token of each ``(bucket, subject)`` in one round trip, all or none, or refuse."""
        wait, empty = self.limiter.allow_all(asked)
        if wait:
            raise limited(empty, wait)

    def take(self, bucket: Bucket, subject: str) -> None:
        """Spend one token of ``bucket`` for ``subject`` now, or refuse with when to retry."""
        wait = self.limiter.allow(bucket, subject)
        if wait:
            raise limited(bucket.name, wait)

    # ------------------------------------------------------------------- games
    def load(self, game_id: str) -> Record:
        record = self.projector.load(game_id) if len(game_id) <= MAX_GAME_ID else None
        if record is None:
            shown = game_id if len(game_id) <= MAX_GAME_ID else game_id[:MAX_GAME_ID] + "..."
            raise NotFound("game_not_found", f"there is no game {shown!r}")
        return record

    def create_game(self, creator: Player, game: str, seats: int, options: Mapping[str, Any],
                    time_control: Mapping[str, Any], bots: Mapping[str, Any] | None = None, *,
                    max_open: int = 0, unlisted: bool = False, invite: Sequence[str] = (),
                    game_id: str | None = None, rematch_of: str | None = None, rated: bool | None = None) -> Record:
        """Open a game; ``bots`` (``{"<seat>": "<strategy>"}``) seats bots at once, the people join the rest.

        With ``max_open`` the creator's open games are counted and the game created in one
        atomic step (the append's cap, or a reservation on a cluster), so concurrent creations
        never pass the ceiling together. ``unlisted`` keeps it out of the lobby; with ``invite``
        only the players named (and its creator) may join, and each is told (``invited``).
        ``rated`` (default: whether no seat is a bot's) says whether the result moves ratings."""
        if game not in registry.GAMES:
            raise Invalid("unknown_game", f"unknown game {game!r}; available: {', '.join(registry.available())}")
        rules = registry.load(game)
        if not rules.MIN_SEATS <= seats <= rules.MAX_SEATS:
            raise Invalid("bad_seat_count",
                           f"{game} is played by {rules.MIN_SEATS} to {rules.MAX_SEATS} seats, not {seats}")
        try:
            full_options = rules.validate_options(dict(options), seats)
        except InvalidOptions as err:
            raise Invalid(err.code, err.message) from None
        chosen_bots = check_bots(bots or {}, seats)
        invite = list(dict.fromkeys(invite))
        if len(invite) > seats:
            raise Invalid("too_many_invitations", f"{len(invite)} players invited to a game of {seats} seats")
        if invite:
            pipe = self.redis.pipeline(transaction=False)
            for player_id in invite:
                pipe.exists(self.keys.player(player_id))
            unknown = [pid for pid, found in zip(invite, pipe.execute(), strict=True) if not found]
            if unknown:
                raise Invalid("unknown_player", f"no player has the id {unknown[0]!r}")
        # A game id chosen beforehand (a rematch's) may be created by two callers at once: the
        # first seed written is the one both use, and the first append wins (None for the other).
        chosen = game_id is not None
        game_id = game_id or secrets.token_hex(6)
        seed = secrets.token_hex(32)
        # Written before the append, in one round trip: the seed, and the game's place
        # among those the reconcile checks, in case this process dies before indexing it.
        pipe = self.redis.pipeline(transaction=False)
        pipe.set(self.keys.seed(game_id), seed, nx=chosen)
        pipe.zadd(self.keys.creating(), {game_id: time.time()})
        pipe.execute()
        if chosen:
            seed = self.store.seed(game_id)
        self._seeds[game_id] = seed
        created = GameEvent("GameCreated", {
            "id": game_id, "game": game, "seats": seats, "options": full_options,
            "time_control": dict(time_control), "created_by": creator.id, "seed_hash": seed_commitment(seed),
            **({"bots": chosen_bots} if chosen_bots else {}),
            **({"unlisted": True} if unlisted else {}), **({"invite": invite} if invite else {}),
            **({"rematch_of": rematch_of} if rematch_of else {}),
            "rated": (not chosen_bots) if rated is None else rated,
        })
        hosting = self.keys.hosting(creator.id)
        cap = Cap(hosting, max_open) if max_open else None
        if cap is not None and self.cluster:  # the hosting set lives in another hash slot: reserve first
            held = int(self._reserve(keys=[hosting], args=[max_open, game_id, time.time()]))
            if held >= 0:
                self._abandon_creation(game_id)
                raise too_many_open_games(held, max_open)
            cap = None
        done = self._commit(game_id, None, [created], {"kind": "create", "player": creator.id}, cap=cap)
        if not isinstance(done, Committed):
            if chosen:  # another caller created the same rematch first
                return self.load(game_id)
            self._abandon_creation(game_id, hosting if max_open and self.cluster else None)
            held = self.open_games_of(creator.id)
            raise too_many_open_games(held, max_open)
        return done.record

    def _abandon_creation(self, game_id: str, hosting: str | None = None) -> None:
        """Undo what a refused creation wrote before its append (seed, place, reservation)."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.zrem(self.keys.creating(), game_id)
        pipe.delete(self.keys.seed(game_id))
        pipe.execute()
        if hosting is not None:
            self.redis.zrem(hosting, game_id)
        self._seeds.pop(game_id, None)

    def rematch(self, player: Player, game_id: str, answer_first: bool = False) -> Joined:
        """A new game like a finished one, offered to its players, with the caller seated in it.

        Same title, seats, options (less those that fix hidden cards: a rematch is dealt
        afresh) and time control; unlisted, and open to the same players only. The first
        request names the new game in the old one's meta hash (``HSETNX``), so every later
        one, racing or not, gets the same game.
        """
        record = self.load(game_id)
        if seat_of(record, player.id) is None:
            raise Forbidden("not_seated", "only the players of this game may ask for its rematch")
        if record["status"] != "finished":
            raise Conflict("game_not_over", "a rematch is offered once the game has ended")
        meta = self.keys.meta(game_id)
        self.redis.hsetnx(meta, "rematch", secrets.token_hex(6))
        new_id = self.redis.hget(meta, "rematch").decode()
        if not self.store.exists(new_id):
            # The people are invited again; the bots take their seats again at once.
            invite = [p["id"] for p in record["players"] if p is not None and "bot" not in p]
            self.create_game(player, record["game"], record["seats"], public_options(record),
                             record["time_control"], dict(record.get("bots") or {}) or None, unlisted=True,
                             invite=invite, game_id=new_id, rematch_of=game_id, rated=bool(record.get("rated")))
        return self.join(player, new_id, answer_first=answer_first)

    def rematch_link(self, record: Record) -> str | None:
        """The id of a finished game's rematch, once someone asked for one."""
        if record["status"] != "finished":
            return None
        found = self.redis.hget(self.keys.meta(record["id"]), "rematch")
        return found.decode() if found and self.store.exists(found.decode()) else None

    def join(self, player: Player, game_id: str, answer_first: bool = False, gates: Sequence[Gate] = ()) -> Joined:
        """Take the first free seat; the last seat filled starts the game (setup runs here).

        With ``answer_first`` what the commit owes the workers is returned to run after the
        answer (see :meth:`_owe`); without it, it runs before this returns. The ``gates``
        spend the caller's rate-limit tokens as :meth:`act`'s do: inside the append that
        takes the seat, or apart when nothing is appended (a seat already held, a refusal).
        """
        return self._gated(gates, lambda held: self._join(player, game_id, answer_first, held))

    def _join(self, player: Player, game_id: str, answer_first: bool, gates: Sequence[Gate]) -> tuple[Joined, bool]:
        """The join, and whether its gates were spent (by its append)."""
        later: list[Callable[[], None]] | None = [] if answer_first else None
        for attempt in range(MAX_RETRIES):
            # The first try decides on the record this process last saw, as act does: a stale
            # one only loses the append's version check (seats and status only ever move on),
            # and the next try reads the store.
            cached = self.projector.cached(game_id) if attempt == 0 else None
            record = cached or self.load(game_id)
            seat = seat_of(record, player.id)
            if seat is not None:  # joining twice is harmless: you keep your seat (and see the game as it is)
                return Joined(seat, self.load(game_id) if cached else record), False
            if record["status"] != "open":
                raise Conflict("game_not_open", "this game is not open for joining")
            if record.get("invite") and player.id not in record["invite"] and player.id != record["created_by"]:
                raise Forbidden("not_invited", "only the players invited to this game may join it")
            seat = record["players"].index(None)
            drafts = [GameEvent("PlayerJoined", {"seat": seat, "player": {"id": player.id, "name": player.name}},
                                actor=seat)]
            if record["players"].count(None) == 1:
                rules = rules_of(record)
                drafts.append(GameEvent("GameStarted", {}))
                drafts += rules.setup(record["options"], record["seats"], self._rng(game_id, record["version"] + 1))
            done = self._commit(game_id, record, drafts, {"kind": "join", "player": player.id}, later=later,
                                gates=gates)
            if isinstance(done, Committed):
                return Joined(seat, done.record, done.after_answer), done.gated
        raise Conflict("busy", "the game changed too often while joining; try again")

    # ------------------------------------------------------ the table's etiquette
    def leave(self, player: Player, game_id: str) -> Record:
        """Free the caller's seat in a game still open; refused once it has started."""

        def decide(record: Record) -> list[GameEvent]:
            seat = seat_of(record, player.id)
            if seat is None:
                raise Forbidden("not_seated", "you do not hold a seat in this game")
            self._still_open(record, "leave")
            return [GameEvent("PlayerLeft", {"seat": seat, "player": player.id}, actor=seat)]

        return self._table_command(game_id, decide, {"kind": "leave", "player": player.id}).record

    def cancel(self, player: Player, game_id: str) -> Record:
        """The creator calls off a game nobody has started: kept in the log, gone from the lobby.

        Cancelling a cancelled game again changes nothing and answers as the first time.
        """

        def decide(record: Record) -> list[GameEvent]:
            if record["created_by"] != player.id:
                raise Forbidden("not_creator", "only the player who created this game may cancel it")
            if record["status"] == "cancelled":
                return []
            self._still_open(record, "cancel")
            return [GameEvent("GameCancelled", {"by": player.id})]

        return self._table_command(game_id, decide, {"kind": "cancel", "player": player.id}).record

    def resign(self, player: Player, game_id: str, answer_first: bool = False) -> Committed:
        """The caller's seat gives up: ranked last among those still in, played by the takeover bot.

        The game goes on for the others; with at most one seat still in, it ends.
        """

        def decide(record: Record) -> list[GameEvent]:
            seat = seat_of(record, player.id)
            if seat is None:
                raise Forbidden("not_seated", "you do not hold a seat in this game")
            if record["status"] == "open":
                raise Conflict("game_not_started", "the game has not started: leave it instead")
            if record["status"] == "cancelled":
                raise Conflict("game_cancelled", "this game was cancelled before it started")
            if record["status"] == "finished":
                raise Conflict("game_over", "the game is over")
            if seat in resigned(record):
                raise Conflict("already_resigned", "you have already resigned this game")
            return [GameEvent("SeatResigned", {"seat": seat}, actor=seat)]

        later: list[Callable[[], None]] | None = [] if answer_first else None
        return self._table_command(game_id, decide, {"kind": "resign", "player": player.id}, later)

    @staticmethod
    def _still_open(record: Record, what: str) -> None:
        if record["status"] == "cancelled":
            raise Conflict("game_cancelled", "this game was cancelled before it started")
        if record["status"] != "open":
            raise Conflict("game_started", f"the game has started: too late to {what}; resign instead")

    def _table_command(self, game_id: str, decide: Callable[[Record], list[GameEvent]], cause: Mapping[str, Any],
                       later: list[Callable[[], None]] | None = None) -> Committed:
        """Decide on the game's current record and append with its version: of racing commands
        (joins, leaves, cancels, resigns, moves) the store lets one win, and the others decide again."""
        for _ in range(MAX_RETRIES):
            record = self.load(game_id)
            drafts = decide(record)
            if not drafts:
                return Committed(record, [])
            done = self._commit(game_id, record, drafts, cause, later=later)
            if isinstance(done, Committed):
                return done
        raise Conflict("busy", "the game changed too often; try again")

    def act(self, player: Player, game_id: str, action: Mapping[str, Any], idempotency_key: str | None = None,
            if_match: int | None = None, gates: Sequence[Gate] = (), answer_first: bool = False) -> Committed:
        """A seat's action: decide, append, follow up. Rejected actions change nothing.

        It decides on the record this process last saw, without reading the store first:
        the append's version check refuses a stale one (then it re-reads and decides
        again), and a refusal is only given after a fresh read confirms it.

        The ``gates`` spend the caller's rate-limit tokens (its own, its address's) once per
        request: inside the append when there is one (no round trip of their own), which
        refuses the action with a 429 and appends nothing when a token is not there; apart
        for an action that appends nothing (a refusal, a replayed answer), whose caller, out
        of tokens, hears the 429 instead. On a cluster the tokens are spent first, apart.

        With ``answer_first`` what the commit owes the workers comes back in the result
        (``after_answer``), for the caller to run once its answer is sent.
        """
        later: list[Callable[[], None]] | None = [] if answer_first else None

        def attempt(held: Sequence[Gate]) -> tuple[Committed, bool]:
            done = self._act_on_cached(player, game_id, action, idempotency_key, if_match, held, later)
            return done, done.gated

        return self._gated(gates, attempt)

    def _gated(self, gates: Sequence[Gate], attempt: Callable[[Sequence[Gate]], tuple[T, bool]]) -> T:
        """Run ``attempt`` with the caller's gates, which its append spends when it appends
        (``attempt`` says whether it did); spent apart otherwise: when nothing was appended,
        when it was refused (but not for want of a token), and first of all on a cluster,
        where a bucket lives in another hash slot than the game."""
        if gates and self.cluster:
            self.spend_apart(gates)
            gates = ()
        try:
            result, spent = attempt(gates)
        except DomainError as refused:
            if gates and not isinstance(refused, Limited):
                self.spend_apart(gates)
            raise
        if gates and not spent:
            self.spend_apart(gates)
        return result

    def spend_apart(self, gates: Sequence[Gate]) -> None:
        """Spend the tokens of an action whose append did not (a 429 if one is missing)."""
        wait, empty = self.limiter.spend_all(gates)
        if wait:
            raise limited(empty, wait)

    def _act_on_cached(self, player: Player, game_id: str, action: Mapping[str, Any], idempotency_key: str | None,
                       if_match: int | None, gates: Sequence[Gate], later: list[Callable[[], None]] | None
                       ) -> Committed:
        record = self.projector.cached(game_id)
        if record is not None:
            try:
                return self._act(player, game_id, record, action, idempotency_key, if_match, gates, later)
            except DomainError as refused:
                if isinstance(refused, Limited):
                    raise
                fresh = self.load(game_id)
                if fresh["version"] == record["version"]:
                    raise
        return self._act(player, game_id, self.load(game_id), action, idempotency_key, if_match, gates, later)

    def _act(self, player: Player, game_id: str, record: Record, action: Mapping[str, Any],
             idempotency_key: str | None, if_match: int | None, gates: Sequence[Gate] = (),
             later: list[Callable[[], None]] | None = None) -> Committed:
        seat = seat_of(record, player.id)
        if seat is None:
            raise Forbidden("not_seated", "you do not hold a seat in this game")
        idem = None
        if idempotency_key is not None:
            field = f"{seat}:{idempotency_key}"
            fingerprint = hashlib.sha256(canonical_json(dict(action)).encode()).hexdigest()
            idem = (field, fingerprint)
            replay = self._replay_idempotent(game_id, record, seat, idem)
            if replay is not None:
                return replay
        for _ in range(MAX_RETRIES):
            try:
                drafts = self._decide(record, seat, action, if_match)
            except Exception:
                if idem is not None:  # an identical request may have won meanwhile: answer as it did
                    replay = self._replay_idempotent(game_id, self.load(game_id), seat, idem)
                    if replay is not None:
                        return replay
                raise
            cause = {"kind": "player", "seat": seat, "action": dict(action)}
            if idempotency_key is not None:
                cause["key"] = idempotency_key
            done = self._commit(game_id, record, drafts, cause, idem, gates, later)
            if isinstance(done, Committed):
                return done
            if isinstance(done, dict):  # duplicate: the same key won a race
                replay = self._replay_idempotent(game_id, self.load(game_id), seat, idem)  # type: ignore[arg-type]
                assert replay is not None
                return replay
            if if_match is not None:
                raise Conflict("version_conflict", "the game moved on before your action landed",
                               version=self.store.version(game_id))
            record = self.load(game_id)
        raise Conflict("busy", "the game changed too often; try again")

    def _decide(self, record: Record, seat: int, action: Mapping[str, Any], if_match: int | None) -> list[GameEvent]:
        if record["status"] == "open":
            raise Conflict("game_not_started", "the game has not started: seats are still open")
        if record["status"] == "finished":
            raise Conflict("game_over", "the game is over")
        if record["status"] == "cancelled":
            raise Conflict("game_cancelled", "this game was cancelled before it started")
        if if_match is not None and if_match != record["version"]:
            raise Conflict("version_conflict", f"the game is at version {record['version']}, not {if_match}",
                           version=record["version"])
        if seat in resigned(record):
            raise Conflict("seat_resigned", "you resigned this game: the takeover bot plays your seat")
        rules = rules_of(record)
        if not rules.may_act(record["state"], seat):
            raise NotYourTurn("not_your_turn", "you have no decision to make now", version=record["version"])
        try:
            return rules.decide(record["state"], seat, dict(action), self._rng(record["id"], record["version"] + 1))
        except RuleViolation as err:
            raise rule_refusal(err.code, err.message, version=record["version"],
                           legal_actions=rules.legal_actions(record["state"], seat)) from None

    def _replay_idempotent(self, game_id: str, record: Record, seat: int,
                           idem: tuple[str, str]) -> Committed | None:
        stored = self.store.idempotent_result(game_id, idem[0])
        if stored is None and record["status"] == "finished":
            stored = self._archived_idempotent_result(game_id, seat, idem[0].split(":", 1)[1])
        if stored is None:
            return None
        if stored["fingerprint"] != idem[1]:
            raise Conflict("idempotency_key_reused",
                           "this Idempotency-Key was already used for a different action")
        events = self.store.read(game_id, after=stored["first"] - 1, upto=stored["last"])
        if record["version"] < stored["last"]:
            # The record was read before a racing request with this key appended: the
            # answer's view must include the action it reports.
            record = self.load(game_id)
        return Committed(record, events)

    def _archived_idempotent_result(self, game_id: str, seat: int, key: str) -> dict[str, Any] | None:
        """What the idempotency hash said of ``key``, read back from the events' causes.

        Each batch a player's keyed action caused records the action and the key, so an
        archived game needs no idempotency hash to answer a retry as the first post was; the
        system steps its commit took name it (``follows``) and were in that answer too.
        """
        found: dict[str, Any] | None = None
        for event in self.store.read(game_id):
            cause = event.cause
            if found is not None:
                if found["first"] not in (cause.get("batch"), cause.get("follows")):  # its commit's system steps too
                    break
                found["last"] = event.seq
            elif (cause.get("kind") == "player" and cause.get("key") == key and event.actor == seat
                  and cause.get("batch") == event.seq):
                fingerprint = hashlib.sha256(canonical_json(cause.get("action")).encode()).hexdigest()
                found = {"fingerprint": fingerprint, "first": event.seq, "last": event.seq}
        return found

    # ---------------------------------------------------------------- reading
    def version(self, game_id: str) -> int:
        """The game's version in the store (0: no such game)."""
        return self.store.version(game_id)

    def record_at(self, game_id: str, version: int) -> Record:
        """The game's record right after event ``version`` (one it has reached)."""
        record = self.projector.at_version(game_id, version)
        if record is None:
            raise NotFound("version_not_found", f"the game has no version {version}")
        return record

    def read_events(self, game_id: str, after: int = 0, count: int | None = None) -> list[Envelope]:
        """The game's events after ``after``, at most ``count`` (its full, unredacted log)."""
        return self.store.read(game_id, after=after, count=count)

    def open_stream(self, player_id: str | None, address: str, per_player: int, per_address: int) -> Lease:
        """A lease for one more event stream of this player and address, or ``Limited`` past a ceiling."""
        return self.streams.open(_stream_ceilings(player_id, address, per_player, per_address))

    def open_stream_gated(self, asked: list[tuple[Bucket, str]], player_id: str, address: str, per_player: int,
                          per_address: int) -> Lease:
        """:meth:`take_all` of ``asked``, then :meth:`open_stream`, in one round trip where the
        keys share a node (else one after the other): ``Limited`` as each refuses."""
        if not self.streams.one_node:
            self.take_all(asked)
            return self.open_stream(player_id, address, per_player, per_address)
        gates = list(self.limiter.gates(asked))
        try:
            return self.streams.open_gated(gates, _stream_ceilings(player_id, address, per_player, per_address))
        except TokensShort as short:
            raise limited(self.limiter.empty_bucket(gates), short.wait) from None

    def _announced(self, game_id: str, version: int, lines: list[bytes]) -> None:
        """Events an append published, as Redis announced them: kept (Projector.announced),
        then pushed to this process's streams of the game from the listener itself, when the
        record they continue is at hand (no read here: the listener serves every game).

        This process's own append is often heard before its reply reaches the committer (the
        reply and the announcement arrive together): then the committer's record and events
        are taken as they are, instead of parsing the events and folding them a second time."""
        flight = self._in_flight.get(lines[-1]) if lines else None
        if flight is not None and flight[0] == game_id and flight[1] + len(lines) == version:
            # Kept now, as a fold of the announcement was, for a request that reads it next.
            _, before, record, events = flight
            self.projector.remember(game_id, record)
            self.projector.remember_events(game_id, events)
            if self.watcher.pushes_to(game_id):
                self.watcher.push(game_id, before, record, events)
            return
        self.projector.announced(game_id, version, lines)
        if not lines or not self.watcher.pushes_to(game_id):
            return
        before = version - len(lines)
        events = self.projector.remembered(game_id, before, version)
        record = self.projector.cached(game_id) if events else None
        if events and record is not None and record["version"] == events[-1].seq == version:
            self.watcher.push(game_id, before, record, events)

    def watch(self, game_id: str) -> AbstractContextManager[Watch]:
        """Wake on the game's next events or messages (register it before the first read)."""
        return self.watcher.watch(game_id)

    def lobby_page(self, game: str | None, limit: int, cursor: str | None) -> Page:
        """Open games (of ``game``, or all), oldest first; raises ``BadCursor``."""
        return read_page(self.redis, self.keys, self.keys.lobby(game), limit, cursor, False, self.projector.load)

    def games_page(self, player_id: str, inbox: bool, limit: int, cursor: str | None) -> Page:
        """A player's games, newest first, or the games awaiting them, soonest deadline first."""
        key = self.keys.inbox(player_id) if inbox else self.keys.player_games(player_id)
        return read_page(self.redis, self.keys, key, limit, cursor, not inbox, self.projector.load)

    def feed_page(self, game_id: str, seat: int | None | str, after: int, cursor: str | None, base: int,
                  limit: int, watch: Watch | None = None
                  ) -> tuple[list[dict[str, Any]], int, str | None, bool, Record | None]:
        """One page of a caller's feed: events after ``after`` and messages after ``cursor``, merged.

        Returns the items, the new event and message cursors, whether a page limit was hit
        (more may follow at once), and the record the items were redacted with (None when
        nothing was read). Hidden events and messages move the cursors all the same. With a
        ``watch`` that was woken by notifications, only what they announced is read: events
        (often from memory, see Projector.read) and the chat only if a message was posted.
        """
        return self.page_items(self.read_page(game_id, after, cursor, base, limit, watch), seat, after, cursor)

    def read_page(self, game_id: str, after: int, cursor: str | None, base: int, limit: int,
                  watch: Watch | None = None) -> RawPage:
        """The reading half of :meth:`feed_page`: the events and messages, and the record they
        lead to (None when nothing was read), before any seat's redaction."""
        known = watch.known if watch is not None else None
        if known is None:  # only the store can say: events and messages in one round trip
            batch, messages = self.chat.read_with_events(game_id, after, cursor, base, limit)
            self.projector.remember_events(game_id, batch)
        else:
            batch = self.projector.read(game_id, after, known=known, count=limit)
            messages = self.chat.read(game_id, cursor, from_version=base, count=limit) if watch.chat else []  # type: ignore[union-attr]
        full = len(batch) == limit or len(messages) == limit
        if len(batch) == limit:  # keep the order: no message from beyond the last event read
            messages = [m for m in messages if m["version"] <= batch[-1].seq]
        if len(messages) == limit:
            batch = [e for e in batch if e.seq <= messages[-1]["version"]]
        if not batch and not messages:
            return RawPage(batch, messages, full, None)
        record = (self.projector.load_after(game_id, batch) if batch else None) or self.load(game_id)
        return RawPage(batch, messages, full, record)

    def page_items(self, page: RawPage, seat: int | None | str, after: int, cursor: str | None
                   ) -> tuple[list[dict[str, Any]], int, str | None, bool, Record | None]:
        """The redacting half of :meth:`feed_page`: ``page`` as ``seat`` may see it."""
        record = page.record
        if record is None:
            return [], after, cursor, page.full, None
        event_items = [(e.seq, item) for e in page.events if (item := feed_item(record, e, seat)) is not None]
        shown = [m for m in page.messages if visible(record, m, seat)]
        after = page.events[-1].seq if page.events else after
        cursor = page.messages[-1]["id"] if page.messages else cursor
        return merge(event_items, shown), after, cursor, page.full, record

    # ------------------------------------------------------------------- chat
    def post_message(self, player: Player, game_id: str, to: int | None, text: str) -> dict[str, Any]:
        """A seated player's message to the table (``to`` None) or to one other seat."""
        record = self.load(game_id)
        seat = seat_of(record, player.id)
        if seat is None:
            raise Forbidden("not_seated", "only seated players may talk at this table")
        if record["status"] == "finished":
            raise Conflict("game_over", "the game is over; its table talk is published with the log")
        if to is not None:
            if not 0 <= to < record["seats"] or record["players"][to] is None:
                raise Invalid("bad_recipient", f"seat {to} is not a seated player of this game")
            if to == seat:
                raise Invalid("bad_recipient", "a private message goes to another seat, not your own")
        self.chat.check_rate(player.id)
        return public(self.chat.post(game_id, seat, to, text, between_players(record, seat, to)))

    def messages(self, game_id: str, cursor: str | None, upto_version: int | None = None,
                 count: int | None = None) -> list[dict[str, Any]]:
        """The game's messages after ``cursor`` (all of them: filter with ``engine.chat.visible``)."""
        return self.chat.read(game_id, cursor, upto_version=upto_version, count=count)

    def transcript(self, game_id: str) -> str:
        """The game as readable text, one line per decision, its table talk in place."""
        return transcript(self.store.read(game_id), self.chat.all(game_id))

    # --------------------------------------------------------------- webhooks
    def create_webhook(self, player_id: str, url: str, events: Sequence[str]) -> dict[str, Any]:
        return self.hooks.create(player_id, url, events)

    def webhooks_of(self, player_id: str) -> list[dict[str, Any]]:
        return self.hooks.listing(player_id)

    def delete_webhook(self, player_id: str, webhook_id: str) -> None:
        self.hooks.delete(player_id, webhook_id)

    def webhook_deliveries(self, player_id: str, webhook_id: str) -> list[dict[str, Any]]:
        return self.hooks.deliveries(player_id, webhook_id)

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
            self._archive(game_id, record)
            return "archived"
        if record is None or record["status"] != "active":
            return "idle"
        if not self._seed_at_hand(game_id):
            return "raced"
        rules = rules_of(record)
        waiting = awaiting(record)
        if not waiting:
            drafts = rules.resolve(record["state"], self._rng(game_id, record["version"] + 1))
            done = self._commit(game_id, record, drafts, {"kind": "system"})
            return "resolved" if done else "raced"
        now = now or datetime.now(UTC)
        due = [seat for seat in sorted(waiting) if parse_time(record["deadlines"][seat]) <= now]
        if not due:
            # Asked for twice, or the deadline moved later since it was asked for: the
            # deadline index holds the new time, and the sweep asks again then.
            return "nothing_due"
        return self._time_out(record, due[0])

    def _seed_at_hand(self, game_id: str) -> bool:
        """Fetch the game's seed for this step; False if the game was archived since it was loaded.

        Only archiving drops a seed. A worker can load a step that another one is already
        taking (the sweep asks again for steps whose time has come while a drain runs them);
        when that other step ends the game and it is archived before this one reads the seed,
        nothing is left to do. Had the seed been read, the append's version check would refuse
        this late step all the same.
        """
        try:
            self._seed(game_id)  # kept in memory for the step's draws
        except KeyError:
            if self.store.is_archived(game_id):
                return False
            raise
        return True

    def _time_out(self, record: Record, seat: int) -> str:
        rules = rules_of(record)
        game_id, version = record["id"], record["version"]
        misses = record["misses"][seat] + 1
        was_autoplay = record["autoplay"][seat]
        autoplay = was_autoplay or misses >= record["time_control"]["autoplay_after"]
        # The bot picks with its own stream: the rules' draws must not depend on its pick,
        # or an audit replaying the decision would draw different cards.
        bot_rng = self._rng(game_id, version + 1, "bot")
        if seat in resigned(record):  # no deadline was missed: the bot holds the seat for good
            action, strategy = self._takeover(record, seat, bot_rng)
            drafts = rules.decide(record["state"], seat, action, self._rng(game_id, version + 1))
            done = self._commit(game_id, record, drafts,
                                {"kind": "bot", "seat": seat, "strategy": strategy, "action": action})
            return "bot_played" if done else "raced"
        cause: dict[str, Any] = {"kind": "timeout", "seat": seat}
        if was_autoplay:
            action, strategy = self._takeover(record, seat, bot_rng)
            cause.update(kind="bot", strategy=strategy)
        else:
            action = rules.on_timeout(record["state"], seat)
        try:
            drafts = rules.decide(record["state"], seat, action, self._rng(game_id, version + 1))
        except RuleViolation:
            log.exception("default action refused in game %s for seat %s; playing a random legal one", game_id, seat)
            action = bot_rng.choice(rules.legal_actions(record["state"], seat))
            cause.update(kind="bot", strategy="random")
            drafts = rules.decide(record["state"], seat, action, self._rng(game_id, version + 1))
        missed = GameEvent("DeadlineMissed", {"seat": seat, "misses": misses, "autoplay": autoplay}, actor=seat)
        done = self._commit(game_id, record, [missed, *drafts], {**cause, "action": action})
        return "timed_out" if done else "raced"

    def bot_budget(self) -> Budget:
        """What one ISMCTS decision may spend (the settings' ``INTRIGUE_BOT_*``)."""
        return Budget(iterations=self.settings.bot_iterations, milliseconds=self.settings.bot_milliseconds)

    def _takeover(self, record: Record, seat: int, rng: Any) -> tuple[dict[str, Any], str]:
        """The strong bot's move for an absent player's seat, from that seat's own information,
        and the strategy that chose it.

        It runs within the step, so its budget bounds how long the step takes. A game with
        no sampler (a test's toy game), or a search that fails, gets a random legal move
        rather than a stalled seat.
        """
        rules = rules_of(record)
        if hasattr(rules, "prepare_sampler"):
            try:
                observation = observation_for(record, self.store.read(record["id"], upto=record["version"]), seat)
                return dict(make_bot("ismcts", self.bot_budget()).choose(observation, rng)), "ismcts"
            except Exception:
                log.exception("the takeover search failed in game %s for seat %s; playing a random legal move",
                              record["id"], seat)
        return dict(rng.choice(rules.legal_actions(record["state"], seat))), "random"

    def play_bot_seat(self, game_id: str, version: int, seat: int) -> str:
        """A bot seat's decision at ``version``: the bot worker's job. Does nothing once the game moved on.

        The bot is shown what the seat's own client could read (its view, legal actions
        and redacted feed, see ``engine.seat_bots``), and its action is decided and appended
        as any player's, expecting ``version``. If the game moved during the search, the
        action still lands when the seat's view and legal actions are unchanged; otherwise
        nothing happens, and the commit that moved the game has asked for the next decision.
        """
        record = self.projector.load(game_id)
        if record is None or record["status"] != "active" or record["version"] != version:
            return "stale"
        strategy = bot_seats(record).get(seat)
        if strategy is None:
            return "not_a_bot"
        rules = rules_of(record)
        if not rules.may_act(record["state"], seat) or not self._seed_at_hand(game_id):
            return "nothing_to_do"
        observation = observation_for(record, self.store.read(game_id, upto=version), seat)
        rng = self._rng(game_id, version + 1, f"bot:{seat}")
        action = dict(make_bot(strategy, self.bot_budget()).choose(observation, rng))
        try:
            drafts = self._decide(record, seat, action, version)
        except DomainError:  # the bot's mistake must not stall its seat: a random legal move instead
            log.exception("bot seat %s of game %s chose an action the rules refuse: %s", seat, game_id, action)
            action = dict(rng.choice(list(observation.legal_actions)))
            drafts = self._decide(record, seat, action, version)
        cause = {"kind": "bot", "seat": seat, "action": action, "strategy": strategy}
        for _ in range(MAX_RETRIES):
            if isinstance(self._commit(game_id, record, drafts, cause), Committed):
                return "played"
            # The game moved during the search. If the seat still sees the same game (a rival
            # replaced a sealed bid, say), its decision stands, as a player's posted without
            # If-Match would; otherwise the commit that moved it asked for a fresh decision.
            # Without this, a rival that keeps replacing its bid could starve the bot.
            record = self.load(game_id)
            if (record["status"] != "active" or not rules.may_act(record["state"], seat)
                    or rules.view(record["state"], seat) != observation.view
                    or rules.legal_actions(record["state"], seat) != list(observation.legal_actions)):
                return "stale"
            try:
                drafts = self._decide(record, seat, action, record["version"])
            except DomainError:
                return "stale"
        return "stale"

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
                ended = GameEvent("GameEnded", {"winners": [], "reason": "expired", "seed": self._seed(game_id)})
                if self._commit(game_id, record, [ended], {"kind": "system", "reason": "expired"}) is not None:
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
        queues = self.scheduler.queue.connection  # type: ignore[union-attr]  # the due set lives beside RQ's queues
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
            pipe.hmget(self.keys.meta(game_id), "version", "indexed", "card")
        for game_id, (version, indexed, listed) in zip(candidates, pipe.execute(), strict=True):
            if version is not None and version == indexed and listed is not None:
                self._ask_again_for_stalled_bots(game_id, listed, now)
            if version is None or version == indexed:
                continue
            if suspects.get(game_id) != version:
                lagging[game_id] = version
                continue
            record = self.projector.load(game_id)
            if record is not None:
                self._follow_up(record)
                repaired += 1
        return repaired, lagging

    def _ask_again_for_stalled_bots(self, game_id: str, listed: bytes, now: float | None) -> None:
        """Ask again for the decision of a bot seat awaited too long (its listing card says so)."""
        if self.scheduler is None or b'"bots":{"' not in listed:
            return
        found = json.loads(listed)
        if found.get("status") != "active":
            return
        if parse_time(found["updated_at"]).timestamp() > (now or time.time()) - BOT_STALL_SECONDS:
            return
        for seat in found.get("bots") or {}:
            if found["awaiting"][int(seat)] is not None:
                self._bot_request(game_id, found["version"], int(seat))()

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

    # ------------------------------------------------------------ the append
    def _rng(self, game_id: str, seq: int, purpose: str = ""):
        seed = self._seeds.get(game_id)
        if seed is None:
            seed = self._seeds[game_id] = self.store.seed(game_id)
        return derive_rng(seed, seq, purpose)

    def _commit(self, game_id: str, record: Record | None, drafts: Sequence[GameEvent], cause: Mapping[str, Any],
                idem: tuple[str, str] | None = None, gates: Sequence[Gate] = (),
                later: list[Callable[[], None]] | None = None, cap: Cap | None = None
                ) -> Committed | dict[str, Any] | None:
        """Seal, fold and append; then index and schedule. None on a version conflict; ``Limited``
        when a gate had no token (see :meth:`act`). Work owed after the answer goes to
        ``later`` when given (see :meth:`_owe`)."""
        version = record["version"] if record else 0
        prev = record["last_hash"] if record else GENESIS_HASH
        at = utc_now()
        cause = {**cause, "batch": version + 1}
        envelopes: list[Envelope] = []
        new = record
        pending = list(drafts)
        steps = 0
        settled: Record | None = None  # the record before the last system step taken here
        while pending:
            draft = pending.pop(0)
            envelope = seal(version + len(envelopes) + 1, draft.type, at, draft.actor, draft.data, cause, prev)
            new = fold(new, envelope)
            envelopes.append(envelope)
            prev = envelope.hash
            if not pending and new["status"] == "active":
                outcome = platform_outcome(new)
                if outcome is not None:
                    pending.append(GameEvent("GameEnded", {"winners": list(outcome.winners), "reason": outcome.reason,
                                                           "seed": self._seed(game_id)}))
                elif self.steps_in_commit and steps < MAX_STEPS_IN_COMMIT and not awaiting(new):
                    # Every awaited seat has acted: the system step is a batch of this commit.
                    seq = version + len(envelopes) + 1
                    pending = self._system_step(game_id, new, seq)
                    if pending:
                        steps += 1
                        settled = new
                        cause = {"kind": "system", "batch": seq, "follows": version + 1}
        assert new is not None
        if self.settings.render_check:  # a state some reader cannot read never reaches the log
            refuse_unrenderable(game_id, new, envelopes)
        record_for_key = None
        if idem is not None:
            record_for_key = (idem[0], {"fingerprint": idem[1], "first": version + 1,
                                        "last": version + len(envelopes)})
        # The index updates are written as if the append succeeds and run inside it, in the
        # same atomic step and only if it does: one command per commit. A cluster's script
        # may touch only its game's hash slot: there the updates follow the append.
        replies: list[Any] = []
        if isinstance(self.redis, RedisCluster):
            if gates:
                raise ValueError("a gate's bucket lives in another hash slot than the game on a cluster")
            result = self.store.append(game_id, version, envelopes, record_for_key)
            if result.status == "ok":
                plan = self._queue_follow_up(pipe := self.redis.pipeline(transaction=False), new, record,
                                             notify_from=settled)
                self.projector.queue_snapshot(pipe, game_id, version, new)
                replies = [None, *pipe.execute()]
        else:
            plan = self._queue_follow_up(index := IndexCommands(), new, record, notify_from=settled)
            self.projector.queue_snapshot(index, game_id, version, new)
            flight = envelopes[-1].to_json().encode()
            self._in_flight[flight] = (game_id, version, new, envelopes)
            try:
                result = self.store.append(game_id, version, envelopes, record_for_key, index, gates, cap)
            finally:  # two commits of one keyed request can spell the very same events: no KeyError
                self._in_flight.pop(flight, None)
            replies = [None, *result.replies]
        if result.status == "limited":
            assert result.empty is not None and result.wait is not None
            raise limited(result.empty.name, result.wait)
        if result.status != "ok":
            self.projector.forget(game_id)
            return result.record if result.status == "duplicate" else None
        self.projector.remember(game_id, new)
        self.projector.remember_events(game_id, envelopes)
        # This process's streams of the game take the commit from here, first of what is owed
        # once the answer is sent (see FeedWatcher.push); others hear Redis's announcement.
        self._owe(partial(self.watcher.push, game_id, version, new, envelopes), later)
        self._finish_follow_up(plan, replies, offset=1, later=later)
        return Committed(new, envelopes, gated=bool(gates), after_answer=tuple(later) if later else ())

    def _system_step(self, game_id: str, record: Record, seq: int) -> list[GameEvent]:
        """The events of the game's ``resolve`` at ``seq``, or none (then a worker takes the step).

        They are the events a worker's step (:meth:`advance`) would append next, drawn from
        the same seeded stream, so the log is the same whoever takes the step. A ``resolve``
        that fails leaves the step to the worker, which logs it: the action that completed
        the phase stands either way.
        """
        try:
            return list(rules_of(record).resolve(record["state"], self._rng(game_id, seq)))
        except Exception:
            log.exception("the system step of game %s at %s failed; a worker will take it", game_id, seq)
            return []

    def _seed(self, game_id: str) -> str:
        self._rng(game_id, 0)
        return self._seeds[game_id]

    def _follow_up(self, record: Record, before: Record | None = None) -> None:
        """Update the indexes of one game and ask a worker for its next system step.

        With ``before`` (the record the commit started from) only what changed is
        written; without it (repairs, rebuilds) everything is. A deadline needs no job of
        its own: the deadline index is the workers' timer (see ``workers.runner.Sweeper``).
        A game that ended is archived at once.
        """
        pipe = self.redis.pipeline(transaction=False)
        plan = self._queue_follow_up(pipe, record, before, defer_archive=False)
        self._finish_follow_up(plan, pipe.execute(), offset=0)

    def _queue_follow_up(self, pipe: redis.client.Pipeline | IndexCommands, record: Record, before: Record | None,
                         defer_archive: bool = True, notify_from: Record | None = None) -> _FollowUp:
        """Add the index updates of :meth:`_follow_up` to ``pipe``; what to do after it ran.

        ``notify_from`` is the record before the last system step the commit took, when it
        took one: the webhooks compare with it, as they would have for a worker's step. There
        nobody was awaited, so a seat that passed and owes the next decision too is told.
        """
        game_id = record["id"]
        start = len(pipe)
        full = before is None
        if full or before["status"] != record["status"]:  # type: ignore[index]
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
            if record["status"] == "active":
                pipe.sadd(self.keys.active(), game_id)
            else:
                pipe.srem(self.keys.active(), game_id)
        for seat, player in enumerate(record["players"]):
            if player is None or "bot" in player:  # a bot has no list of games and no inbox
                gone = None if full else before["players"][seat]  # type: ignore[index]
                if player is None and gone is not None and gone["id"] not in (record.get("invite") or ()):
                    pipe.zrem(self.keys.player_games(gone["id"]), game_id)  # a seat left: no longer theirs
                continue
            if full or before["players"][seat] is None:  # type: ignore[index]
                pipe.zadd(self.keys.player_games(player["id"]),
                          {game_id: parse_time(record["created_at"]).timestamp()})
            awaited, deadline = record["awaiting"][seat], record["deadlines"][seat]
            if not full and (before["awaiting"][seat], before["deadlines"][seat]) == (awaited, deadline):  # type: ignore[index]
                continue
            if awaited is not None and deadline is not None and seat not in resigned(record):
                pipe.zadd(self.keys.inbox(player["id"]), {game_id: parse_time(deadline).timestamp()})
            else:
                pipe.zrem(self.keys.inbox(player["id"]), game_id)
        due = earliest_deadline(record)
        previous_due = None if full else earliest_deadline(before)  # type: ignore[arg-type]
        if full or due != previous_due:
            if due is not None:
                pipe.zadd(self.keys.deadlines(), {game_id: _sweep_score(record, due)})
            else:
                pipe.zrem(self.keys.deadlines(), game_id)
        # A step is due now when nobody is awaited (a system step: ``due`` is then the
        # commit's own time) or when a deadline passed while this step was taken (seats
        # awaited together time out one step at a time). A deadline still ahead needs nothing
        # more: the workers' sweep wakes for it, reading the deadline index written above.
        now_ms = time.time() * 1000
        due_ms = int(parse_time(due).timestamp() * 1000) if due is not None else None
        plan = _FollowUp(record=record,
                         ended=record["status"] == "finished" and (full or before["status"] != "finished"))  # type: ignore[index]
        if record["status"] == "active" and self.scheduler is not None:
            plan.bot_turns = [seat for seat in bot_seats(record) if record["awaiting"][seat] is not None]
        if plan.ended and defer_archive and self.scheduler is not None:
            # Archiving reads and rewrites the whole stream: a worker does it, so the last
            # move's answer does not wait for it (it held that answer up ~100 ms under load).
            plan.archive_here = False
            due_ms = int(now_ms)
        indexed = {"indexed": record["version"], "card": card(record)}
        if due_ms is not None and due_ms <= now_ms and self.scheduler is not None:
            if self.scheduler.queue.connection is self.redis:  # the due set and drain mark ride along
                self.scheduler.mark_due(pipe, game_id)
                plan.mark_at = len(pipe) - 1 - start
            else:  # RQ's queues live in a Redis of their own (beside a cluster): asked for after
                plan.due_now = True
            # The record this process just folded, for the worker that takes the step: it
            # starts from here instead of folding every event appended since it last saw the
            # game (see Projector.load_many). A snapshot in all but name: the events decide.
            indexed.update(self.store.handoff_fields(record))
        pipe.hset(self.keys.meta(game_id), mapping=indexed)
        if full:
            pipe.zrem(self.keys.creating(), game_id)
        # Webhooks: one question in the same round trip.
        plan.notes = self.hooks.queue_check(pipe, record, notify_from or before)
        if plan.notes:
            plan.hooks_at = len(pipe) - 1 - start
        return plan

    def _finish_follow_up(self, plan: _FollowUp, replies: Sequence[Any], offset: int,
                          later: list[Callable[[], None]] | None = None) -> None:
        """What follows the index updates' round trip: the drain job if one is owed, then webhooks.

        ``replies`` are the pipe's; the follow-up's own start at ``offset``. A game that
        ended is archived here, or by the worker's step asked for (see :meth:`advance`).
        """
        if plan.mark_at is not None:
            if replies[offset + plan.mark_at]:
                self._owe(self.scheduler.enqueue_drain, later)  # type: ignore[union-attr]
        elif plan.due_now:
            self.scheduler.advance(plan.record["id"])  # type: ignore[union-attr]
        for seat in plan.bot_turns:
            self._owe(self._bot_request(plan.record["id"], plan.record["version"], seat), later)
        if plan.notes:
            try:  # the game's own steps are booked: a webhook problem must not fail the commit's reply
                self.hooks.after_commit(plan.record, plan.notes, replies[offset + plan.hooks_at])
            except Exception:
                log.exception("could not ask for the webhook notifications of game %s at version %s",
                              plan.record["id"], plan.record["version"])
        if plan.ended and plan.archive_here:
            self._archive(plan.record["id"], plan.record)
        elif plan.ended:
            self._seeds.pop(plan.record["id"], None)

    def _archive(self, game_id: str, record: Record) -> None:
        """Fold a rated game into its players' ratings, then keep it in its compact form; drop
        its seed and live-only keys. Both steps may run twice: the second changes nothing.

        Idempotency keys go too: a retry of a game's last actions is answered from the
        archived events' causes instead (see :meth:`_replay_idempotent`).
        """
        result = result_of(record, final_ranks(record))
        if result is not None:
            self.ratings.record(result)
        self.store.archive(game_id)
        self._seeds.pop(game_id, None)

    def _bot_request(self, game_id: str, version: int, seat: int) -> Callable[[], None]:
        """Asking a bot worker for a bot seat's decision; a failure is logged, never the commit's.

        If the request is lost, the seat's deadline still stands: its default is played then.
        """
        def request() -> None:
            try:
                self.scheduler.enqueue_bot(game_id, version, seat)  # type: ignore[union-attr]
            except Exception:
                log.exception("could not ask for the decision of bot seat %s in game %s at version %s",
                              seat, game_id, version)
        return request

    @staticmethod
    def _owe(work: Callable[[], None], later: list[Callable[[], None]] | None) -> None:
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

    def rebuild_indexes(self, progress: Callable[[int, int], None] | None = None) -> int:
        """Drop and rebuild every index from the streams (they are projections).

        ``progress(done, total)`` is called after each game, for a progress display.
        """
        game_ids = self.store.game_ids()
        for pattern in ("inbox", "hosting"):
            for key in self.redis.scan_iter(match=f"{self.keys.prefix}:player:*:{pattern}"):
                self.redis.delete(key)
        for key in self.redis.scan_iter(match=f"{self.keys.lobby()}:*"):
            self.redis.delete(key)
        self.redis.delete(self.keys.lobby(), self.keys.unlisted(), self.keys.active(), self.keys.deadlines())
        count = 0
        results = []
        for done, game_id in enumerate(game_ids, start=1):
            self.projector.forget(game_id)
            record = self.projector.load(game_id)
            if record is not None:
                result = result_of(record, final_ranks(record))
                if result is not None:
                    results.append(result)
                self._follow_up(record)
                if record.get("rematch_of"):  # the old game's link to its rematch, from the new one's log
                    self.redis.hset(self.keys.meta(record["rematch_of"]), "rematch", game_id)
                count += 1
            if progress is not None:
                progress(done, len(game_ids))
        self.ratings.rebuild(results)  # folded in the order of their ends, as they were live
        return count

    # ---------------------------------------------------------------- ratings
    def player_profile(self, player_id: str) -> dict[str, Any]:
        """A player's public card: name, and rating and rated games played per title."""
        name = self.redis.hget(self.keys.player(player_id), "name") if len(player_id) <= MAX_GAME_ID else None
        if name is None:
            raise NotFound("player_not_found", "there is no player with this id")
        ratings = self.ratings.of_player(player_id, registry.available())
        return {"id": player_id, "name": name.decode(), "ratings": ratings}

    def leaderboard(self, game: str, offset: int, limit: int) -> tuple[list[dict[str, Any]], int | None]:
        """The best rated players of ``game`` from ``offset``, with their names."""
        if game not in registry.GAMES:
            raise NotFound("leaderboard_not_found", f"there is no game {game[:MAX_GAME_ID]!r} to rank players in")
        entries, next_offset = self.ratings.page(game, offset, limit)
        pipe = self.redis.pipeline(transaction=False)
        for entry in entries:
            pipe.hget(self.keys.player(entry["player"]), "name")
        for entry, name in zip(entries, pipe.execute() if entries else [], strict=True):
            entry["name"] = name.decode() if name else ""
        return entries, next_offset


# KEYS: a creator's hosting set. ARGV: ceiling, game id, score. Adds the game unless the set
# is full: -1 when added, else the set's size (a cluster's creation, whose append cannot see it).
_RESERVE = """
local held = redis.call('ZCARD', KEYS[1])
if held >= tonumber(ARGV[1]) then return held end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[2])
return -1
"""


# KEYS: a player's tokens. ARGV: ceiling (0: none), token id, its record. 1 when added, else 0.
_ADD_TOKEN = """
if tonumber(ARGV[1]) > 0 and redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[2], ARGV[3])
return 1
"""
#: How long a process trusts what it learnt of a token: a revoked one works elsewhere at most this long.
TOKEN_CACHE_SECONDS = 2.0
#: How long a token is kept while its revocation would surely be heard (each refresh notes
#: when it was last used, so ``last_used_at`` is as old as this at most).
TOKEN_TRUST_SECONDS = 60.0


def token_id(hashed: str) -> str:
    """A token's public id, from its hash: names it in lists and revocations, proves nothing."""
    return hashlib.sha256(f"id:{hashed}".encode()).hexdigest()[:16]


def too_many_open_games(held: int, ceiling: int) -> Conflict:
    return Conflict("too_many_open_games",
                    f"you already host {held} games waiting for players (at most {ceiling}); "
                    "wait until they fill or expire before opening another")


def _sweep_score(record: Record, due: str) -> float:
    """When the sweep should look at the game: at a seat's deadline, or, for a system step,
    only once it is ``STALE_DUE_SECONDS`` late.

    A system step is asked for at once through the due set; a worker is taking it while the
    sweep could see it. Indexed at its own time, every sweep asked again for the steps in
    flight (one drain job and one needless step each: about a tenth of a worker's steps
    under load found nothing due). A step that is late means its job was lost.
    """
    moment = parse_time(due).timestamp()
    if all(deadline is None for deadline in record["deadlines"]):
        return moment + STALE_DUE_SECONDS
    return moment


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _stream_ceilings(player_id: str | None, address: str, per_player: int, per_address: int) -> list[tuple[str, int]]:
    """The subjects whose open streams are counted, with their ceilings: the player's first."""
    ceilings = [(f"address:{address}", per_address)]
    if player_id is not None:
        ceilings.insert(0, (f"player:{player_id}", per_player))
    return ceilings
