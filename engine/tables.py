"""The tables: creating a game, taking and leaving seats, calling a game off, resigning, rematches.

Each is decided on the game's current record and appended with its version through the
commit path (``engine.commit``): of racing commands the store lets one win, and the others
decide again on a fresh read.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import redis

from engine.active_games import ActiveGames
from engine.commit import MAX_RETRIES, CommitPath
from engine.errors import Conflict, Forbidden, Invalid
from engine.fair_shuffle import reveals_awaited
from engine.gating import Gating
from engine.outcomes import Committed, Joined, Player
from engine.reliability import Reliability
from engine.revisions import check_rejoin
from engine.seat_bots import check_bots
from engine.seeds import Seeds
from engine.vacations import player_timezone
from events.entropy import is_hex64
from events.envelope import seed_commitment
from events.lean import LeanScript
from events.store import Cap, EventStore, Gate, Keys
from games import registry
from games.base import GameEvent, InvalidOptions
from projections.projector import Projector
from projections.record import Record, resigned, rules_of, seat_of
from projections.views import public_options


class Tables:
    def __init__(self, client: redis.Redis, keys: Keys, store: EventStore, projector: Projector, seeds: Seeds,
                 commits: CommitPath, gating: Gating, *, revisions_per_decision: int,
                 reveal_seconds: float = 120.0, active: ActiveGames | None = None,
                 reliability: Reliability | None = None) -> None:
        self.redis = client
        self.keys = keys
        self.store = store
        self.projector = projector
        self.seeds = seeds
        self.commits = commits
        self.gating = gating
        #: How often a player may leave one open game (``engine.revisions``; 0: no bound).
        self.revisions_per_decision = revisions_per_decision
        #: The ceiling on seats in games not over (``engine.active_games``; None: none).
        self.active = active
        #: The players' reliability, which a game's ``min_reliability`` asks for (``engine.reliability``).
        self.reliability = reliability
        #: How long a game that filled with committed seats waits for their secrets (fair shuffles).
        self.reveal_seconds = reveal_seconds
        #: On a cluster the creator's hosting set lives in another hash slot than the game.
        self.cluster = commits.cluster
        self._reserve = LeanScript(client, _RESERVE)

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

    def create_game(self, creator: Player, game: str, seats: int, options: Mapping[str, Any],
                    time_control: Mapping[str, Any], bots: Mapping[str, Any] | None = None, *,
                    max_open: int = 0, unlisted: bool = False, invite: Sequence[str] = (),
                    game_id: str | None = None, rematch_of: str | None = None, rated: bool | None = None,
                    min_reliability: int | None = None, substitutes: bool = True,
                    tournament: str | None = None, round_: int | None = None, humans_only: bool = False) -> Record:
        """Open a game; ``bots`` (``{"<seat>": "<strategy>"}``) seats bots at once, the people join the rest.

        With ``max_open`` the creator's open games are counted and the game created in one
        atomic step (the append's cap, or a reservation on a cluster), so concurrent creations
        never pass the ceiling together. ``unlisted`` keeps it out of the lobby; with ``invite``
        only the players named (and its creator) may join, and each is told (``invited``).
        ``rated`` (default: whether no seat is a bot's) says whether the result moves ratings.
        ``tournament`` and ``round_`` link a table of a tournament's round (``engine.tournaments``);
        ``humans_only`` keeps bot accounts from joining."""
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
        if self.active is not None and tournament is None:  # a tournament's tables: its entry decided
            self.active.check(creator.id)
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
        self.seeds.keep(game_id, seed)
        created = GameEvent("GameCreated", {
            "id": game_id, "game": game, "seats": seats, "options": full_options,
            "time_control": dict(time_control), "created_by": creator.id, "seed_hash": seed_commitment(seed),
            **({"bots": chosen_bots} if chosen_bots else {}),
            **({"unlisted": True} if unlisted else {}), **({"invite": invite} if invite else {}),
            **({"rematch_of": rematch_of} if rematch_of else {}), **({"humans_only": True} if humans_only else {}),
            **({"tournament": tournament, "round": round_} if tournament else {}),
            "rated": (not chosen_bots) if rated is None else rated,
            **({"min_reliability": min_reliability} if min_reliability is not None else {}),
            **({} if substitutes else {"substitutes": False}),
        })
        hosting = self.keys.hosting(creator.id)
        cap = Cap(hosting, max_open) if max_open else None
        if cap is not None and self.cluster:  # the hosting set lives in another hash slot: reserve first
            held = int(self._reserve(keys=[hosting], args=[max_open, game_id, time.time()]))
            if held >= 0:
                self._abandon_creation(game_id)
                raise too_many_open_games(held, max_open)
            cap = None
        done = self.commits.commit(game_id, None, [created], {"kind": "create", "player": creator.id}, cap=cap)
        if done is None:
            if chosen:  # another caller created the same rematch first
                return self.commits.load(game_id)
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
        self.seeds.drop(game_id)

    def rematch(self, player: Player, game_id: str, answer_first: bool = False) -> Joined:
        """A new game like a finished one, offered to its players, with the caller seated in it.

        Same title, seats, options (less those that fix hidden cards: a rematch is dealt
        afresh) and time control; unlisted, and open to the same players only. The first
        request names the new game in the old one's meta hash (``HSETNX``), so every later
        one, racing or not, gets the same game.
        """
        record = self.commits.load(game_id)
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
                             invite=invite, game_id=new_id, rematch_of=game_id, rated=bool(record.get("rated")),
                             min_reliability=record.get("min_reliability"),
                             substitutes=bool(record.get("substitutes", True)),
                             humans_only=bool(record.get("humans_only")))
        return self.join(player, new_id, answer_first=answer_first)

    def rematch_link(self, record: Record) -> str | None:
        """The id of a finished game's rematch, once someone asked for one."""
        if record["status"] != "finished":
            return None
        found = self.redis.hget(self.keys.meta(record["id"]), "rematch")
        return found.decode() if found and self.store.exists(found.decode()) else None

    def join(self, player: Player, game_id: str, answer_first: bool = False, gates: Sequence[Gate] = (),
             commitment: str | None = None) -> Joined:
        """Take the first free seat; the last seat filled starts the game (setup runs here), unless
        some seat joined with a ``commitment`` (fair shuffles, ``engine.fair_shuffle``): the game is
        then ``starting`` until the committed seats reveal their secrets or the wait ends.

        With ``answer_first`` what the commit owes the workers is returned to run after the
        answer (see ``engine.follow_up.owe``); without it, it runs before this returns. The ``gates``
        spend the caller's rate-limit tokens as a move's do (``engine.moves``): inside the append that
        takes the seat, or apart when nothing is appended (a seat already held, a refusal).
        """
        if commitment is not None and not is_hex64(commitment):
            raise Invalid("bad_commitment", "commitment must be 64 lowercase hex digits: the SHA-256 of a secret "
                                            "of 32 random bytes")
        return self.gating.gated(gates, lambda held: self._join(player, game_id, answer_first, held, commitment))

    def _join(self, player: Player, game_id: str, answer_first: bool, gates: Sequence[Gate],
              commitment: str | None = None) -> tuple[Joined, bool]:
        """The join, and whether its gates were spent (by its append)."""
        later: list[Callable[[], None]] | None = [] if answer_first else None
        for attempt in range(MAX_RETRIES):
            # The first try decides on the record this process last saw, as act does: a stale
            # one only loses the append's version check (seats and status only ever move on),
            # and the next try reads the store.
            cached = self.projector.cached(game_id) if attempt == 0 else None
            record = cached or self.commits.load(game_id)
            seat = seat_of(record, player.id)
            if seat is not None:  # joining twice is harmless: you keep your seat (and see the game as it is)
                return Joined(seat, self.commits.load(game_id) if cached else record), False
            if record["status"] != "open":
                raise Conflict("game_not_open", "this game is not open for joining")
            if record.get("invite") and player.id not in record["invite"] and player.id != record["created_by"]:
                raise Forbidden("not_invited", "only the players invited to this game may join it")
            if player.bot and record.get("humans_only"):
                raise Forbidden("humans_only", "this game's creator keeps bot accounts out of it")
            check_rejoin(record, player.id, self.revisions_per_decision)
            if self.reliability is not None:
                self.reliability.check(record, player.id)
            if self.active is not None and not record.get("tournament"):  # a tournament seats its players
                self.active.check(player.id)
            seat = record["players"].index(None)
            joining = {"id": player.id, "name": player.name, **({"bot_account": True} if player.bot else {})}
            joined: dict[str, Any] = {"seat": seat, "player": joining}
            if record["time_control"].get("pause_weekends"):  # the weekends that pause this seat's clock
                joined["timezone"] = player_timezone(self.redis, self.keys, player.id)
            if commitment is not None:
                joined["commitment"] = commitment
            drafts = [GameEvent("PlayerJoined", joined, actor=seat)]
            if record["players"].count(None) == 1 and (commitment is not None or record.get("commitments")):
                drafts.append(reveals_awaited(self.reveal_seconds))
            elif record["players"].count(None) == 1:
                rules = rules_of(record)
                drafts.append(GameEvent("GameStarted", {}))
                rng = self.seeds.rng(record, record["version"] + 1)
                drafts += rules.setup(record["options"], record["seats"], rng)
            done = self.commits.commit(game_id, record, drafts, {"kind": "join", "player": player.id}, later=later,
                                       gates=gates)
            if done is not None:
                return Joined(seat, done.record, done.after_answer, done.levels), done.gated
        raise Conflict("busy", "the game changed too often while joining; try again")

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
            if record["status"] == "starting":
                raise Conflict("game_not_started", "the game starts once the committed seats reveal their secrets")
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
            record = self.commits.load(game_id)
            drafts = decide(record)
            if not drafts:
                return Committed(record, [])
            done = self.commits.commit(game_id, record, drafts, cause, later=later)
            if done is not None:
                return done
        raise Conflict("busy", "the game changed too often; try again")

# KEYS: a creator's hosting set. ARGV: ceiling, game id, score. Adds the game unless the set
# is full: -1 when added, else the set's size (a cluster's creation, whose append cannot see it).
_RESERVE = """
local held = redis.call('ZCARD', KEYS[1])
if held >= tonumber(ARGV[1]) then return held end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[2])
return -1
"""


def too_many_open_games(held: int, ceiling: int) -> Conflict:
    return Conflict("too_many_open_games",
                    f"you already host {held} games waiting for players (at most {ceiling}); "
                    "wait until they fill or expire before opening another")

