"""The engine's facade: one object that wires the engine's parts and hands out their commands.

Both the HTTP API and the workers hold one ``Engine`` and call its commands; each command is
a method of the part that does it, named here so callers need not know which:

- the commit path (``engine.commit``): load, seal and fold, append, then the follow-up
  (``engine.follow_up``: indexes, workers asked for the next step, webhooks, the archive);
- accounts and tokens (``engine.accounts``);
- tables (``engine.tables``): create, join, leave, cancel, resign, rematch;
- moves (``engine.moves``): a seat's action, its idempotency key;
- reading (``engine.reading``): records, events, pages, streams, messages, transcripts,
  profiles and leaderboards;
- upkeep (``engine.upkeep``): the workers' steps, deadlines, sweeps, expiry, the drain,
  reconciling and rebuilding indexes;
- bot turns (``engine.bot_turns``);
- the seats' standing orders (``engine.orders``), which the commit path consults;
- Swiss tournaments (``engine.tournaments``): a stream of their own, whose rounds are games.

The parts share one store, projector, seed keeper and rate-limit gating, made here.
"""

from __future__ import annotations

import redis

from engine.accounts import Accounts
from engine.active_games import ActiveGames
from engine.bot_turns import BotTurns
from engine.chat import Chat
from engine.commit import CommitPath
from engine.export import Exports
from engine.fair_shuffle import Reveals
from engine.follow_up import STALE_DUE_SECONDS, FollowUps
from engine.gating import Gating
from engine.moves import Moves
from engine.orders import StandingOrders
from engine.outcomes import Committed, Joined, Player, RawPage
from engine.ratelimit import RateLimiter
from engine.ratings import Ratings
from engine.reading import Reading
from engine.scheduling import JobScheduler, make_queue
from engine.seeds import Seeds
from engine.settings import Settings
from engine.streams import StreamLeases
from engine.substitutes import Substitutes
from engine.tables import Tables
from engine.tournaments import Tournaments
from engine.upkeep import BOT_STALL_SECONDS, Upkeep
from engine.vacations import Vacations
from engine.webhooks import QUEUE_NAME as WEBHOOK_QUEUE
from engine.webhooks import Webhooks
from events.store import EventStore, Keys
from games.pax import cards as pax_cards
from projections.projector import Projector

#: What callers import from here, beside the facade: the outcomes of its commands and the
#: upkeep's clocks (tests set the clock past them).
__all__ = ["BOT_STALL_SECONDS", "STALE_DUE_SECONDS", "Committed", "Engine", "Joined", "Player", "RawPage"]


class Engine:
    def __init__(self, client: redis.Redis, scheduler: JobScheduler | None = None, *,
                 keys: Keys | None = None, snapshot_every: int = 50,
                 operator_token: str | None = None, settings: Settings | None = None,
                 steps_in_commit: bool = True) -> None:
        """``settings`` (the defaults when None) configure chat, webhooks and the games;
        ``operator_token``, when given, stands for the settings' one. ``steps_in_commit``
        False leaves every system step to the workers (see ``CommitPath.system_step``): tests
        of the workers' own path, which otherwise takes only what a commit left."""
        settings = settings or Settings()
        self.settings = settings
        self.redis = client
        self.keys = keys or Keys()
        self.scheduler = scheduler
        if settings.pax_card_sets is not None:
            pax_cards.use_operator_folder(settings.pax_card_sets)

        # What the parts share.
        self.store = EventStore(client, self.keys)
        self.projector = Projector(self.store, snapshot_every=snapshot_every)
        self.chat = Chat(client, self.keys, self.store.read, rate=settings.chat_rate,
                         per_game=settings.messages_per_game)
        self.limiter = RateLimiter(client, self.keys.prefix)
        self.ratings = Ratings(client, self.keys.prefix, settings.leaderboard_min_games)
        self.hooks = Webhooks(client, self.keys,
                              make_queue(scheduler.queue.connection, WEBHOOK_QUEUE) if scheduler else None,
                              policy=settings.webhook_retry, private_ok=settings.webhooks_allow_private)
        self.streams = StreamLeases(client, self.keys.prefix)
        self.seeds = Seeds(self.store)

        # The parts, each on those below it.
        self.follow_ups = FollowUps(client, self.keys, self.store, self.seeds, scheduler, self.hooks, self.ratings)
        self.orders = StandingOrders(client, self.keys)
        self.transparency = self.follow_ups.transparency  # the public log of finished games
        self.reliability = self.follow_ups.reliability  # each player's decisions on time (issue 50)
        self.commits = CommitPath(client, self.keys, self.store, self.projector, self.seeds, self.follow_ups,
                                  self.orders, steps_in_commit=steps_in_commit,
                                  render_check=settings.render_check)
        self.watcher = self.commits.watcher
        self.cluster = self.commits.cluster
        self.gating = Gating(self.limiter, self.cluster)
        self.accounts = Accounts(client, self.keys, self.watcher, operator_token or settings.operator_token)
        revisions = settings.revisions_per_decision
        self.active_games = ActiveGames(client, self.keys, settings.active_games_per_player)
        self.tables = Tables(client, self.keys, self.store, self.projector, self.seeds, self.commits, self.gating,
                             revisions_per_decision=revisions, reveal_seconds=settings.reveal_seconds,
                             active=self.active_games, reliability=self.reliability)
        self.reveals = Reveals(self.seeds, self.commits)
        self.substitutes = Substitutes(client, self.keys, self.projector, self.commits, self.active_games,
                                       self.reliability)
        self.vacations = Vacations(client, self.keys, self.commits, settings.vacation_days_per_year)
        self.moves = Moves(self.store, self.projector, self.seeds, self.commits, self.gating,
                           revisions_per_decision=revisions)
        self.reading = Reading(client, self.keys, self.store, self.projector, self.commits, self.chat,
                               self.ratings, self.streams, self.gating)
        self.exports = Exports(client, self.keys, self.projector)
        self.bots = BotTurns(self.store, self.projector, self.seeds, self.commits, self.moves, settings)
        self.tournaments = Tournaments(client, self.keys, self.seeds, self.commits, self.tables, self.bots,
                                       self.ratings, self.hooks, scheduler)
        self.follow_ups.on_game_end = self.tournaments.game_ended
        self.upkeep = Upkeep(client, self.keys, self.store, self.projector, self.seeds, self.commits,
                             self.follow_ups, self.bots, scheduler, self.ratings, settings)

        # The commands, as the parts define them (no wrapper: a move's path is the part's own).
        accounts = self.accounts
        self.create_player = accounts.create_player
        self.issue_token = accounts.issue_token
        self.tokens_of = accounts.tokens_of
        self.revoke_token = accounts.revoke_token
        self.player_for_token = accounts.player_for_token
        self.is_operator = accounts.is_operator

        gating = self.gating
        self.gates = gating.gates
        self.take_all = gating.take_all
        self.take = gating.take
        self.spend_apart = gating.spend_apart

        tables = self.tables
        self.load = self.commits.load
        self.open_games_of = tables.open_games_of
        self.check_open_games = tables.check_open_games
        self.create_game = tables.create_game
        self.rematch = tables.rematch
        self.rematch_link = tables.rematch_link
        self.join = tables.join
        self.leave = tables.leave
        self.cancel = tables.cancel
        self.resign = tables.resign
        self.reveal = self.reveals.reveal

        self.act = self.moves.act

        reading = self.reading
        self.version = reading.version
        self.record_at = reading.record_at
        self.read_events = reading.read_events
        self.open_stream = reading.open_stream
        self.open_stream_gated = reading.open_stream_gated
        self.watch = reading.watch
        self.lobby_page = reading.lobby_page
        self.games_page = reading.games_page
        self.feed_page = reading.feed_page
        self.read_page = reading.read_page
        self.page_items = reading.page_items
        self.post_message = reading.post_message
        self.messages = reading.messages
        self.transcript = reading.transcript
        self.player_profile = reading.player_profile
        self.leaderboard = reading.leaderboard
        self.finished_games = self.exports.finished_games

        self.create_webhook = self.hooks.create
        self.webhooks_of = self.hooks.listing
        self.delete_webhook = self.hooks.delete
        self.webhook_deliveries = self.hooks.deliveries

        upkeep = self.upkeep
        self.advance = upkeep.advance
        self.sweep = upkeep.sweep
        self.expire_open_games = upkeep.expire_open_games
        self.drain_due = upkeep.drain_due
        self.seconds_to_next_deadline = upkeep.seconds_to_next_deadline
        self.reconcile = upkeep.reconcile
        self.rebuild_indexes = upkeep.rebuild_indexes

        self.play_bot_seat = self.bots.play_bot_seat
        self.bot_budget = self.bots.bot_budget

    @property
    def operator_token(self) -> str | None:
        return self.accounts.operator_token

    @property
    def steps_in_commit(self) -> bool:
        """Whether a commit takes the system steps its batch leaves due (see ``CommitPath.system_step``)."""
        return self.commits.steps_in_commit

    @steps_in_commit.setter
    def steps_in_commit(self, value: bool) -> None:
        self.commits.steps_in_commit = value
