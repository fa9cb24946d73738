"""Bot turns: a bot seat's decision (the bot worker's job) and the takeover bot's move for a
seat whose player resigned or stopped playing. A bot sees what its seat's own client could
read, and its action is decided and appended as any player's.
"""

from __future__ import annotations

import logging
from typing import Any

from bots.ismcts import Budget
from engine.commit import MAX_RETRIES, CommitPath
from engine.errors import DomainError
from engine.moves import Moves
from engine.seat_bots import bot_seats, make_bot, observation_for
from engine.seeds import Seeds
from engine.settings import Settings
from events.store import EventStore
from projections.projector import Projector
from projections.record import Record, rules_of

log = logging.getLogger(__name__)


class BotTurns:
    def __init__(self, store: EventStore, projector: Projector, seeds: Seeds, commits: CommitPath, moves: Moves,
                 settings: Settings) -> None:
        self.store = store
        self.projector = projector
        self.seeds = seeds
        self.commits = commits
        self.moves = moves
        self.settings = settings

    def bot_budget(self) -> Budget:
        """What one ISMCTS decision may spend (the settings' ``INTRIGUE_BOT_*``)."""
        return Budget(iterations=self.settings.bot_iterations, milliseconds=self.settings.bot_milliseconds)

    def takeover(self, record: Record, seat: int, rng: Any) -> tuple[dict[str, Any], str]:
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

    def play_bot_seat(self, game_id: str, version: int | None, seat: int, budget: Budget | None = None) -> str:
        """A bot seat's decision at ``version`` (None: the game's version now), within ``budget``
        (None: the settings'): the bot worker's job. Does nothing once the game moved on, or
        when the seat is not awaited (a sealed bid is not revised by a bot).

        The bot is shown what the seat's own client could read (its view, legal actions
        and redacted feed, see ``engine.seat_bots``), and its action is decided and appended
        as any player's, expecting ``version``. If the game moved during the search, the
        action still lands when the seat's view and legal actions are unchanged; otherwise
        nothing happens, and the commit that moved the game has asked for the next decision.
        """
        record = self.projector.load(game_id)
        if record is None or record["status"] != "active" or version not in (None, record["version"]):
            return "stale"
        version = record["version"]
        strategy = bot_seats(record).get(seat)
        if strategy is None:
            return "not_a_bot"
        rules = rules_of(record)
        if record["awaiting"][seat] is None or not self.seeds.at_hand(game_id):
            return "nothing_to_do"
        observation = observation_for(record, self.store.read(game_id, upto=version), seat)
        rng = self.seeds.rng(record, version + 1, f"bot:{seat}")
        action = dict(make_bot(strategy, budget or self.bot_budget()).choose(observation, rng))
        try:
            drafts = self.moves.decide(record, seat, action, version)
        except DomainError:  # the bot's mistake must not stall its seat: a random legal move instead
            log.exception("bot seat %s of game %s chose an action the rules refuse: %s", seat, game_id, action)
            action = dict(rng.choice(list(observation.legal_actions)))
            drafts = self.moves.decide(record, seat, action, version)
        cause = {"kind": "bot", "seat": seat, "action": action, "strategy": strategy}
        for _ in range(MAX_RETRIES):
            if self.commits.commit(game_id, record, drafts, cause) is not None:
                return "played"
            # The game moved during the search. If the seat still sees the same game (a rival
            # replaced a sealed bid, say), its decision stands, as a player's posted without
            # If-Match would; otherwise the commit that moved it asked for a fresh decision.
            # Without this, a rival that keeps replacing its bid could starve the bot.
            record = self.commits.load(game_id)
            if (record["status"] != "active" or not rules.may_act(record["state"], seat)
                    or rules.view(record["state"], seat) != observation.view
                    or rules.legal_actions(record["state"], seat) != list(observation.legal_actions)):
                return "stale"
            try:
                drafts = self.moves.decide(record, seat, action, record["version"])
            except DomainError:
                return "stale"
        return "stale"

