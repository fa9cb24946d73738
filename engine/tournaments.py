"""Swiss tournaments: a stream of their own, commands on it, and the games of its rounds.

A tournament's events are sealed and chained as a game's (``events.envelope``) and
appended with a version check by the same store script, under keys of their own
(``{t:<id>}``); its state is a pure fold (``engine.tournament_state``) and each round's
pairing a pure function of the standings before it (``engine.pairing``).

A round's tables are ordinary games, created through ``Tables.create_game`` (unlisted,
for the paired players only, linked by ``tournament`` and ``round``) and filled by their
players' joins in seat order. The end of one of them is told here by the commit's
follow-up (``FollowUps.on_game_end``): ``TableFinished``, and after the round's last table
``RoundEnded`` and the next ``RoundPaired`` (or ``TournamentFinished``) in the same append.
The workers' sweep (:meth:`Tournaments.sweep`) starts tournaments at ``starts_at`` (or
cancels them), has the takeover bot play out every game still running at a round's
deadline (:meth:`Tournaments.play_out`), and repairs what a process that died left undone.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import redis
from rq.exceptions import DuplicateJobError

from engine.bot_turns import BotTurns
from engine.commit import MAX_RETRIES, CommitPath
from engine.errors import Conflict, Forbidden, Invalid, NotFound
from engine.outcomes import Player
from engine.pairing import PairingImpossible
from engine.ratings import Ratings
from engine.scheduling import JobScheduler
from engine.seeds import Seeds
from engine.tables import Tables
from engine.tournament_hooks import notify
from engine.tournament_state import (
    State,
    current_round,
    fold_drafts,
    next_pairing,
    present,
    replay,
    round_complete,
    summary,
)
from engine.webhooks import Webhooks
from events.envelope import Envelope, format_at, parse_time, seal, utc_now
from events.store import EventStore, IndexCommands, Keys
from games import registry
from games.base import GameEvent, InvalidOptions
from projections.listing import Page, index_page
from projections.record import Record, awaiting, final_ranks, rules_of

log = logging.getLogger(__name__)

#: The RQ job that plays out one game at its round's deadline.
PLAY_OUT = "workers.jobs.play_out"
#: A running round is looked at again this long after its deadline was handled (repairs).
RECHECK_SECONDS = 60.0
STATUSES = ("open", "running", "finished")
MAX_TOURNAMENT_ID = 64


class TournamentKeys(Keys):
    """A tournament's own keys: its stream, meta (version) and the rest under ``{t:<id>}``."""

    def events(self, game_id: str) -> str:
        return f"{self.prefix}:{{t:{game_id}}}:events"

    def meta(self, game_id: str) -> str:
        return f"{self.prefix}:{{t:{game_id}}}:meta"

    def idempotency(self, game_id: str) -> str:
        return f"{self.prefix}:{{t:{game_id}}}:idem"

    def feed(self, game_id: str) -> str:
        return f"{self.prefix}:{{t:{game_id}}}:feed"

    def archive(self, game_id: str) -> str:
        return f"{self.prefix}:{{t:{game_id}}}:archive"

    def listing(self, status: str) -> str:
        """Tournaments by creation time, one set per status."""
        return f"{self.prefix}:tournaments:{status}"

    def due(self) -> str:
        """Tournaments by the time the sweep looks at them next: the start, a round's deadline."""
        return f"{self.prefix}:tournaments:due"

    def told(self, tournament_id: str, version: int) -> str:
        """Set once the webhooks of a version were asked for, so a repair does not ask twice."""
        return f"{self.prefix}:{{t:{tournament_id}}}:told:{version}"


class Tournaments:
    def __init__(self, client: redis.Redis, keys: Keys, seeds: Seeds, commits: CommitPath, tables: Tables,
                 bots: BotTurns, ratings: Ratings, hooks: Webhooks, scheduler: JobScheduler | None) -> None:
        self.redis = client
        self.keys = TournamentKeys(keys.prefix)
        self.store = EventStore(client, self.keys)
        self.seeds = seeds
        self.commits = commits
        self.tables = tables
        self.bots = bots
        self.ratings = ratings
        self.hooks = hooks
        self.scheduler = scheduler

    # ------------------------------------------------------------ reading
    def events(self, tournament_id: str) -> list[Envelope]:
        if not tournament_id or len(tournament_id) > MAX_TOURNAMENT_ID:
            return []
        return self.store.read(tournament_id)

    def load(self, tournament_id: str) -> State:
        state = replay(self.events(tournament_id))
        if state is None:
            raise NotFound("tournament_not_found", "no tournament has this id")
        return state

    def view(self, tournament_id: str) -> dict[str, Any]:
        """The tournament as the API shows it: settings, players, standings, rounds and results."""
        return present(self.load(tournament_id))

    def page(self, status: str, limit: int, cursor: str | None) -> Page:
        members, next_cursor = index_page(self.redis, self.keys.listing(status), limit, cursor)
        cards = []
        for tournament_id, _ in members:
            state = replay(self.events(tournament_id))
            if state is not None:
                cards.append(summary(state))
        return Page(cards, next_cursor)

    # ------------------------------------------------------------ commands
    def create(self, creator: Player, fields: Mapping[str, Any]) -> dict[str, Any]:
        """Open a tournament: 201's body. ``fields`` passed the schema; the rest is checked here."""
        game = fields["game"]
        if game not in registry.GAMES:
            raise Invalid("unknown_game", f"unknown game {game!r}; available: {', '.join(registry.available())}")
        rules = registry.load(game)
        seats = fields["seats_per_table"]
        if not rules.MIN_SEATS <= seats <= rules.MAX_SEATS:
            raise Invalid("bad_seat_count", f"{game} is played by {rules.MIN_SEATS} to {rules.MAX_SEATS} seats, "
                                            f"not {seats}")
        try:
            options = rules.validate_options(dict(fields["options"]), seats)
        except InvalidOptions as err:
            raise Invalid(err.code, err.message) from None
        low, high = fields["min_players"], fields["max_players"]
        if low < seats or (high is not None and high < low):
            raise Invalid("bad_player_bounds", f"min_players must be at least seats_per_table ({seats}) and "
                                               "max_players at least min_players")
        starts = fields["starts_at"]
        if starts.tzinfo is None:
            starts = starts.replace(tzinfo=UTC)
        if starts.timestamp() <= time.time():
            raise Invalid("bad_starts_at", "starts_at must be in the future")
        tournament_id = secrets.token_hex(6)
        created = GameEvent("TournamentCreated", {
            "id": tournament_id, "game": game, "seats_per_table": seats, "rounds": fields["rounds"],
            "time_control": dict(fields["time_control"]), "options": options,
            "starts_at": format_at(starts.astimezone(UTC)), "min_players": low, "max_players": high,
            "rated": fields["rated"], "round_seconds": fields["round_seconds"], "created_by": creator.id,
            "name": fields.get("name") or f"{game} Swiss"})
        index = IndexCommands()
        index.zadd(self.keys.listing("open"), {tournament_id: time.time()})
        index.zadd(self.keys.due(), {tournament_id: starts.timestamp()})
        self._append(tournament_id, None, [created], {"kind": "create", "player": creator.id}, index)
        return self.view(tournament_id)

    def join(self, player: Player, tournament_id: str) -> dict[str, Any]:
        for _ in range(MAX_RETRIES):
            state = self.load(tournament_id)
            if any(p["id"] == player.id for p in state["players"]):
                return present(state)
            self._still_open(state, "join")
            if state["max_players"] is not None and len(state["players"]) >= state["max_players"]:
                raise Conflict("tournament_full", f"the tournament takes at most {state['max_players']} players")
            rating = self.ratings.of_player(player.id, [state["game"]]).get(state["game"], {}).get("rating", 0.0)
            event = GameEvent("PlayerJoinedTournament", {"player": {"id": player.id, "name": player.name},
                                                          "rating": rating, "order": state["version"] + 1})
            if self._append(tournament_id, state, [event], {"kind": "join", "player": player.id}):
                return self.view(tournament_id)
        raise Conflict("busy", "the tournament changed too often; try again")

    def leave(self, player: Player, tournament_id: str) -> dict[str, Any]:
        for _ in range(MAX_RETRIES):
            state = self.load(tournament_id)
            self._still_open(state, "leave")
            if not any(p["id"] == player.id for p in state["players"]):
                raise Forbidden("not_entered", "you have not joined this tournament")
            event = GameEvent("PlayerLeftTournament", {"player": player.id})
            if self._append(tournament_id, state, [event], {"kind": "leave", "player": player.id}):
                return self.view(tournament_id)
        raise Conflict("busy", "the tournament changed too often; try again")

    def start(self, player: Player, tournament_id: str) -> dict[str, Any]:
        """The creator starts early, once ``min_players`` have joined: round 1 is paired at once."""
        for _ in range(MAX_RETRIES):
            state = self.load(tournament_id)
            if state["created_by"] != player.id:
                raise Forbidden("not_creator", "only the tournament's creator may start it")
            self._still_open(state, "start")
            if len(state["players"]) < state["min_players"]:
                raise Conflict("too_few_players", f"{len(state['players'])} players have joined; the tournament "
                                                  f"needs {state['min_players']}")
            if self._begin(state, {"kind": "start", "player": player.id}):
                return self.view(tournament_id)
        raise Conflict("busy", "the tournament changed too often; try again")

    def withdraw(self, player: Player, tournament_id: str) -> dict[str, Any]:
        """Never paired again; every running game of the player's in the tournament is resigned."""
        for _ in range(MAX_RETRIES):
            state = self.load(tournament_id)
            entry = next((p for p in state["players"] if p["id"] == player.id), None)
            if entry is None:
                raise Forbidden("not_entered", "you have not joined this tournament")
            if state["status"] == "open":
                raise Conflict("tournament_not_started", "the tournament has not started: leave it instead")
            if state["status"] != "running":
                raise Conflict("tournament_over", "the tournament is over")
            if entry["withdrawn"]:
                raise Conflict("already_withdrawn", "you have already withdrawn from this tournament")
            event = GameEvent("PlayerWithdrew", {"player": player.id})
            if self._append(tournament_id, state, [event], {"kind": "withdraw", "player": player.id}):
                break
        else:
            raise Conflict("busy", "the tournament changed too often; try again")
        for round_ in state["rounds"]:
            for table in round_["tables"]:
                if player.id in table["players"] and table["ranks"] is None:
                    self._resign(player, table["game"])
        return self.view(tournament_id)

    def _resign(self, player: Player, game_id: str) -> None:
        try:
            self.tables.resign(player, game_id)
        except (Conflict, NotFound, Forbidden):  # over already, or never created: nothing to resign
            pass

    @staticmethod
    def _still_open(state: State, what: str) -> None:
        if state["status"] == "cancelled":
            raise Conflict("tournament_cancelled", "this tournament was cancelled")
        if state["status"] != "open":
            raise Conflict("tournament_started", f"the tournament has started: too late to {what}")

    # ------------------------------------------------------------ rounds
    def _begin(self, state: State, cause: Mapping[str, Any]) -> bool:
        """Start: ``TournamentStarted`` and round 1 in one append; the round's games then."""
        started = GameEvent("TournamentStarted", {"at": utc_now()})
        after = fold_drafts(state, [started])
        drafts = [started, *self._next_round(after)]
        done = self._append(state["id"], state, drafts, cause, self._index(state, drafts))
        if done:
            self._after_append(state["id"])
        return done

    def _next_round(self, state: State) -> list[GameEvent]:
        """What comes after the last round ended: the next pairing, or the end."""
        number = len(state["rounds"]) + 1
        if number > state["rounds_total"]:
            return [GameEvent("TournamentFinished", {"reason": "rounds_played"})]
        try:
            pairing = next_pairing(state)
        except PairingImpossible as err:
            return [GameEvent("TournamentFinished", {"reason": "no_pairing", "detail": str(err)})]
        deadline = datetime.now(UTC) + timedelta(seconds=state["round_seconds"])
        tables = [{"table": index, "game": secrets.token_hex(6), "players": players}
                  for index, players in enumerate(pairing.tables)]
        return [GameEvent("RoundPaired", {"round": number, "tables": tables, "byes": pairing.byes,
                                          "deadline": format_at(deadline)})]

    def _index(self, before: State, drafts: Sequence[GameEvent]) -> IndexCommands:
        """The listing and due sets after ``drafts``, written in their append."""
        after = fold_drafts(before, drafts)
        index = IndexCommands()
        tournament_id = before["id"]
        if after["status"] != before["status"]:
            created = parse_time(before["created_at"]).timestamp()
            index.zrem(self.keys.listing(before["status"]), tournament_id)
            if after["status"] in STATUSES:
                index.zadd(self.keys.listing(after["status"]), {tournament_id: created})
        latest = current_round(after)
        if after["status"] == "running" and latest is not None and not latest["ended"]:
            index.zadd(self.keys.due(), {tournament_id: parse_time(latest["deadline"]).timestamp()})
        elif after["status"] != "open":
            index.zrem(self.keys.due(), tournament_id)
        return index

    def _after_append(self, tournament_id: str) -> None:
        """Create and fill the current round's games (repairs too); tell the players."""
        state = self.load(tournament_id)
        latest = current_round(state)
        if state["status"] == "running" and latest is not None and not latest["ended"]:
            self._open_tables(state, latest)
        if state["status"] in ("running", "finished") and latest is not None:
            self._tell(state)

    def _open_tables(self, state: State, round_: Mapping[str, Any]) -> None:
        names = {p["id"]: p["name"] for p in state["players"]}
        creator = Player(state["created_by"], "")
        for table in round_["tables"]:
            if table["ranks"] is not None:
                continue
            game_id = table["game"]
            try:
                if not self.commits.store.exists(game_id):
                    self._create_table(creator, state, round_["round"], table)
                for player_id in table["players"]:
                    record = self.commits.load(game_id)
                    if record["status"] != "open":
                        break
                    self.tables.join(Player(player_id, names.get(player_id, "")), game_id)
            except Exception:  # the sweep repairs it on its next pass
                log.exception("could not open table %s of tournament %s", table["table"], state["id"])

    def _create_table(self, creator: Player, state: State, number: int, table: Mapping[str, Any]) -> None:
        """A table's game, with the tournament's options; a smaller table whose seat count they do
        not fit (a scenario's deck for a full table, say) gets the game's defaults instead."""
        seats = len(table["players"])
        try:
            options = registry.load(state["game"]).validate_options(dict(state["options"]), seats)
        except InvalidOptions:
            options = {}
        self.tables.create_game(creator, state["game"], seats, options, state["time_control"], unlisted=True,
                                invite=table["players"], game_id=table["game"], rated=state["rated"],
                                tournament=state["id"], round_=number)

    def _tell(self, state: State) -> None:
        """``tournament_round`` to each player of the round just paired; ``tournament_over`` at the end."""
        latest = current_round(state)
        assert latest is not None
        if not self.redis.set(self.keys.told(state["id"], state["version"]), 1, nx=True, ex=86400):
            return
        try:
            if state["status"] == "finished":
                players = [p["id"] for p in state["players"]]
                notify(self.hooks, players, "tournament_over", state["id"], latest["round"], state["version"])
            elif latest["tables"] and all(t["ranks"] is None for t in latest["tables"]):
                players = [pid for t in latest["tables"] for pid in t["players"]] + list(latest["byes"])
                notify(self.hooks, players, "tournament_round", state["id"], latest["round"], state["version"])
        except Exception:
            log.exception("could not ask for the webhooks of tournament %s", state["id"])

    def game_ended(self, record: Record) -> None:
        """A game of a round ended: its table's result, and the round's end with what follows."""
        tournament_id, number = record.get("tournament"), record.get("round")
        if not tournament_id or not number:
            return
        for _ in range(MAX_RETRIES):
            state = self.load(tournament_id)
            if state["status"] != "running" or number > len(state["rounds"]):
                return
            round_ = state["rounds"][number - 1]
            table = next((t for t in round_["tables"] if t["game"] == record["id"]), None)
            if table is None or table["ranks"] is not None:
                return
            finished = GameEvent("TableFinished", {"round": number, "table": table["table"], "game": record["id"],
                                                   "ranks": final_ranks(record), "reason": record.get("reason")})
            drafts = [finished]
            after = fold_drafts(state, drafts)
            if round_complete(after["rounds"][number - 1]):
                ended = GameEvent("RoundEnded", {"round": number})
                drafts.append(ended)
                drafts += self._next_round(fold_drafts(after, [ended]))
            if self._append(tournament_id, state, drafts, {"kind": "game", "game": record["id"]},
                            self._index(state, drafts)):
                self._after_append(tournament_id)
                return

    # ------------------------------------------------------------ the clock
    def sweep(self, now: datetime | None = None, limit: int = 50) -> int:
        """Start (or cancel) tournaments at ``starts_at``; play out rounds at their deadline; repair."""
        now = now or datetime.now(UTC)
        due = self.redis.zrangebyscore(self.keys.due(), "-inf", now.timestamp(), start=0, num=limit)
        for raw in due:
            try:
                self.step(raw.decode(), now)
            except Exception:
                log.exception("tournament %s: step failed; retrying on the next sweep", raw.decode())
        return len(due)

    def step(self, tournament_id: str, now: datetime) -> str:
        state = self.load(tournament_id)
        if state["status"] == "open":
            if parse_time(state["starts_at"]) > now:
                return "waiting"
            if len(state["players"]) >= state["min_players"]:
                return "started" if self._begin(state, {"kind": "system", "reason": "starts_at"}) else "raced"
            cancelled = [GameEvent("TournamentCancelled", {"reason": "too_few_players"})]
            self._append(tournament_id, state, cancelled, {"kind": "system", "reason": "starts_at"},
                         self._index(state, cancelled))
            return "cancelled"
        latest = current_round(state)
        if state["status"] != "running" or latest is None or latest["ended"]:
            self.redis.zrem(self.keys.due(), tournament_id)
            return "idle"
        self._open_tables(state, latest)  # a process that died between pairing and the games
        capped = parse_time(latest["deadline"]) <= now
        for table in latest["tables"]:
            if table["ranks"] is not None or not self.commits.store.exists(table["game"]):
                continue
            record = self.commits.load(table["game"])
            if record["status"] in ("finished", "cancelled"):
                self.game_ended(record)  # its end was not told (the process died)
            elif capped:
                self._ask_play_out(table["game"])
        fresh = current_round(self.load(tournament_id))
        if fresh is not None and fresh["round"] == latest["round"] and not fresh["ended"]:
            self.redis.zadd(self.keys.due(), {tournament_id: now.timestamp() + RECHECK_SECONDS}, xx=True)
        return "capped" if capped else "checked"

    def _ask_play_out(self, game_id: str) -> None:
        """A bot worker plays the game out (its searches never hold up a game's step); without
        workers (a test's engine), here and now."""
        if self.scheduler is None:
            self.play_out(game_id)
            return
        try:
            self.scheduler.bots.enqueue(PLAY_OUT, game_id, job_id=f"play-out-{game_id}", unique=True, result_ttl=0,
                                        failure_ttl=3600, job_timeout=1800)
        except DuplicateJobError:  # asked for already, and still waiting
            pass

    def rebuild_indexes(self) -> int:
        """Drop and rebuild the listings and the due set from the streams (``intrigue reindex``)."""
        found = sorted({key.decode().split("{t:", 1)[1].split("}", 1)[0]
                        for key in self.redis.scan_iter(match=f"{self.keys.prefix}:{{t:*}}:events", count=500)})
        self.redis.delete(self.keys.due(), *(self.keys.listing(status) for status in STATUSES))
        for tournament_id in found:
            state = replay(self.events(tournament_id))
            if state is None:
                continue
            pipe = self.redis.pipeline(transaction=False)
            if state["status"] in STATUSES:
                created = parse_time(state["created_at"]).timestamp()
                pipe.zadd(self.keys.listing(state["status"]), {tournament_id: created})
            latest = current_round(state)
            if state["status"] == "open":
                pipe.zadd(self.keys.due(), {tournament_id: parse_time(state["starts_at"]).timestamp()})
            elif state["status"] == "running" and latest is not None and not latest["ended"]:
                pipe.zadd(self.keys.due(), {tournament_id: parse_time(latest["deadline"]).timestamp()})
            pipe.execute()
        return len(found)

    def play_out(self, game_id: str) -> str:
        """At its round's deadline: the takeover bot plays every seat still owing decisions, to the end."""
        for _ in range(10_000):
            record = self.commits.load(game_id)
            if record["status"] != "active":
                return "over"
            if not self.seeds.at_hand(game_id):
                return "raced"
            rules = rules_of(record)
            waiting = awaiting(record)
            version = record["version"]
            if not waiting:
                drafts = rules.resolve(record["state"], self.seeds.rng(record, version + 1))
                self.commits.commit(game_id, record, drafts, {"kind": "system"})
                continue
            seat = sorted(waiting)[0]
            action, strategy = self.bots.takeover(record, seat, self.seeds.rng(record, version + 1, "bot"))
            drafts = rules.decide(record["state"], seat, action, self.seeds.rng(record, version + 1))
            self.commits.commit(game_id, record, drafts, {"kind": "bot", "seat": seat, "strategy": strategy,
                                                          "action": action, "reason": "round_deadline"})
        return "unfinished"

    # ------------------------------------------------------------ the stream
    def _append(self, tournament_id: str, state: State | None, drafts: Sequence[GameEvent],
                cause: Mapping[str, Any], index: IndexCommands | None = None) -> bool:
        """Seal ``drafts`` after ``state`` and append them if the stream is still at its version.

        The ``index`` commands ride in the append; on a Redis Cluster, whose listings live in other
        hash slots than the stream, they follow it (``intrigue reindex`` rebuilds them if lost)."""
        version = 0 if state is None else state["version"]
        prev = "0" * 64 if state is None else state["last_hash"]
        at = utc_now()
        sealed = []
        for offset, draft in enumerate(drafts, start=1):
            event = seal(version + offset, draft.type, at, None, draft.data, {**cause, "batch": version + 1}, prev)
            sealed.append(event)
            prev = event.hash
        apart = index if self.commits.cluster else None
        if self.store.append(tournament_id, version, sealed, index=None if apart else index).status != "ok":
            return False
        for command in apart.commands if apart else ():
            self.redis.execute_command(*command)
        return True
