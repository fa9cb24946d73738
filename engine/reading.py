"""Reading games: records and events, the lobby's and a player's pages, the feed's pages and
streams, table talk, transcripts, profiles and leaderboards. Nothing here appends to a log.

A feed page is read once and redacted per seat (:meth:`Reading.read_page`, then
:meth:`Reading.page_items`), so a stream that serves several seats of one game reads once.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Any

import redis

from engine.accounts import bot_accounts_key
from engine.chat import Chat, between_players, merge, public, visible
from engine.commit import MAX_GAME_ID, CommitPath
from engine.errors import Conflict, Forbidden, Invalid, NotFound
from engine.gating import Gating
from engine.outcomes import Player, RawPage
from engine.ratelimit import limited
from engine.ratings import Ratings
from engine.settings import Bucket
from engine.streams import Lease, StreamLeases, TokensShort
from events.envelope import Envelope
from events.store import EventStore, Keys
from events.watch import FeedWatcher, Watch
from games import registry
from projections.listing import Page, read_page
from projections.projector import Projector
from projections.record import Record, seat_of
from projections.transcript import transcript
from projections.views import feed_item


class Reading:
    def __init__(self, client: redis.Redis, keys: Keys, store: EventStore, projector: Projector, commits: CommitPath,
                 chat: Chat, ratings: Ratings, streams: StreamLeases, gating: Gating) -> None:
        self.redis = client
        self.keys = keys
        self.store = store
        self.projector = projector
        self.commits = commits
        self.watcher: FeedWatcher = commits.watcher
        self.chat = chat
        self.ratings = ratings
        self.streams = streams
        self.gating = gating

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
        """``Gating.take_all`` of ``asked``, then :meth:`open_stream`, in one round trip where the
        keys share a node (else one after the other): ``Limited`` as each refuses."""
        if not self.streams.one_node:
            self.gating.take_all(asked)
            return self.open_stream(player_id, address, per_player, per_address)
        gates = list(self.gating.limiter.gates(asked))
        try:
            return self.streams.open_gated(gates, _stream_ceilings(player_id, address, per_player, per_address))
        except TokensShort as short:
            raise limited(self.gating.limiter.empty_bucket(gates), short.wait) from None

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
        if watch is None or known is None:  # only the store can say: events and messages in one round trip
            batch, messages = self.chat.read_with_events(game_id, after, cursor, base, limit)
            self.projector.remember_events(game_id, batch)
        else:
            batch = self.projector.read(game_id, after, known=known, count=limit)
            messages = self.chat.read(game_id, cursor, from_version=base, count=limit) if watch.chat else []
        full = len(batch) == limit or len(messages) == limit
        if len(batch) == limit:  # keep the order: no message from beyond the last event read
            messages = [m for m in messages if m["version"] <= batch[-1].seq]
        if len(messages) == limit:
            batch = [e for e in batch if e.seq <= messages[-1]["version"]]
        if not batch and not messages:
            return RawPage(batch, messages, full, None)
        record = (self.projector.load_after(game_id, batch) if batch else None) or self.commits.load(game_id)
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

    # ------------------------------------------------------------------ messages
    def post_message(self, player: Player, game_id: str, to: int | None, text: str) -> dict[str, Any]:
        """A seated player's message to the table (``to`` None) or to one other seat."""
        record = self.commits.load(game_id)
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

    # ---------------------------------------------------------------- ratings
    def player_profile(self, player_id: str) -> dict[str, Any]:
        """A player's public card: name, and rating and rated games played per title."""
        name, bot = (self.redis.hmget(self.keys.player(player_id), "name", "bot") if len(player_id) <= MAX_GAME_ID
                     else (None, None))
        if name is None:
            raise NotFound("player_not_found", "there is no player with this id")
        ratings = self.ratings.of_player(player_id, registry.available())
        return {"id": player_id, "name": name.decode(), "ratings": ratings, **({"bot_account": True} if bot else {})}

    def leaderboard(self, game: str, offset: int, limit: int, bots: bool = False
                    ) -> tuple[list[dict[str, Any]], int | None]:
        """The best rated players of ``game`` from ``offset``, with their names; bot accounts only with ``bots``."""
        if game not in registry.GAMES:
            raise NotFound("leaderboard_not_found", f"there is no game {game[:MAX_GAME_ID]!r} to rank players in")
        if bots:
            entries, next_offset = self.ratings.page(game, offset, limit)
        else:
            entries, next_offset = humans_page(self.redis, self.ratings, bot_accounts_key(self.keys), game, offset,
                                               limit)
        pipe = self.redis.pipeline(transaction=False)
        for entry in entries:
            pipe.hmget(self.keys.player(entry["player"]), "name", "bot")
        for entry, (name, bot) in zip(entries, pipe.execute() if entries else [], strict=True):
            entry["name"] = name.decode() if name else ""
            if bot:
                entry["bot_account"] = True
        return entries, next_offset


def humans_page(client: redis.Redis, ratings: Ratings, bots_key: str, game: str, offset: int, limit: int
                ) -> tuple[list[dict[str, Any]], int | None]:
    """A page of the leaderboard without bot accounts; ``offset`` counts humans only.

    The bot accounts are few: the humans before ``offset`` are the ranks there less the bot
    accounts ranked above, so a page reads the whole board's ranks of the bots, then whole
    pages of the board until ``limit`` humans (and one more, to know another page follows).
    """
    bot_ids = sorted(raw.decode() for raw in client.smembers(bots_key))
    board = ratings.leaderboard_key(game)
    pipe = client.pipeline(transaction=False)
    for bot_id in bot_ids:
        pipe.zrevrank(board, bot_id)
    bot_ranks = sorted(rank for rank in (pipe.execute() if bot_ids else []) if rank is not None)
    skipped = set(bot_ids)
    # The raw rank of the human at ``offset``: past every bot ranked before it.
    start = offset
    for rank in bot_ranks:
        if rank <= start:
            start += 1
    entries: list[dict[str, Any]] = []
    more = False
    while True:
        page, following = ratings.page(game, start, limit + 1)
        for entry in page:
            if entry["player"] in skipped:
                continue
            if len(entries) == limit:
                more = True
                break
            entries.append({**entry, "rank": offset + len(entries) + 1})
        if more or following is None:
            break
        start = following
    return entries, (offset + limit if more else None)


def _stream_ceilings(player_id: str | None, address: str, per_player: int, per_address: int) -> list[tuple[str, int]]:
    """The subjects whose open streams are counted, with their ceilings: the player's first."""
    ceilings = [(f"address:{address}", per_address)]
    if player_id is not None:
        ceilings.insert(0, (f"player:{player_id}", per_player))
    return ceilings
