"""Players and their tokens: registration, issuing, listing, revoking, and who a token is.

A token is shown once; only its hash is kept. Every API process keeps the players of the
tokens it has seen for a moment, and drops one at once when any process announces that it
was revoked (the feed listener hears the announcement).
"""

from __future__ import annotations

import hashlib
import secrets
import time
from typing import Any

import orjson
import redis

from engine.commit import MAX_GAME_ID
from engine.directory import index_player
from engine.errors import Conflict, NotFound
from engine.outcomes import Player
from events.envelope import canonical_json, utc_now
from events.lean import LeanScript
from events.store import Keys
from events.watch import FeedWatcher


class Accounts:
    def __init__(self, client: redis.Redis, keys: Keys, watcher: FeedWatcher, operator_token: str | None) -> None:
        self.redis = client
        self.keys = keys
        self.watcher = watcher
        self.operator_token = operator_token
        #: token hash -> player, until when to trust it, and the listener's epoch it relies on
        #: (None: trusted until then whatever the listener does)
        self.players: dict[str, tuple[Player, float, int | None]] = {}
        self.revoked_channel = f"{keys.prefix}:tokens:revoked"
        #: Revoked tokens are announced to every process (see :meth:`player_for_token`).
        watcher.hear(self.revoked_channel, self.token_revoked)
        self._revocations = 0  # revocations heard so far
        self._add_token = LeanScript(client, _ADD_TOKEN)

    def create_player(self, name: str, bot: bool = False) -> tuple[Player, str]:
        """Register a player (``bot``: a bot account); the token is returned once and only its hash is kept."""
        player = Player(id=secrets.token_hex(8), name=name, bot=bot)
        token = secrets.token_urlsafe(32)
        hashed = token_hash(token)
        pipe = self.redis.pipeline()
        pipe.hset(self.keys.player(player.id), mapping={"name": name, "created_at": utc_now(),
                                                        **({"bot": "1"} if bot else {})})
        if bot:
            pipe.sadd(bot_accounts_key(self.keys), player.id)
        pipe.hset(self.keys.player_tokens(player.id), token_id(hashed),
                  canonical_json({"hash": hashed, "created_at": utc_now()}))
        pipe.hset(self.keys.tokens(), hashed, player.id)
        index_player(pipe, self.keys, player.id, name)  # found by name (GET /v1/players?name=)
        pipe.execute()
        return player, token

    def issue_token(self, player: Player, ceiling: int = 0, scopes: list[str] | None = None) -> dict[str, Any]:
        """Another token for ``player`` (to rotate one: issue, then revoke the old). Shown once.

        ``ceiling`` (0: none) bounds the tokens a player holds, counted and added in one step.
        ``scopes`` limits what the token may do (None: everything its player may).
        """
        token = secrets.token_urlsafe(32)
        hashed = token_hash(token)
        issued: dict[str, Any] = {"id": token_id(hashed), "created_at": utc_now()}
        kept: dict[str, Any] = {"hash": hashed, "created_at": issued["created_at"]}
        if scopes is not None:
            kept["scopes"] = sorted(set(scopes))
        added = self._add_token(keys=[self.keys.player_tokens(player.id)],
                                args=[ceiling, issued["id"], canonical_json(kept)])
        if not added:
            raise Conflict("too_many_tokens", f"you already hold {ceiling} tokens (at most {ceiling}); "
                                              "revoke one with DELETE /v1/me/tokens/<id> first")
        self.redis.hset(self.keys.tokens(), hashed, player.id)
        return {**issued, "token": token, "last_used_at": None, "scopes": kept.get("scopes")}

    def tokens_of(self, player: Player, current: str | None = None) -> list[dict[str, Any]]:
        """The player's tokens, oldest first: ids and dates, never a token or its hash."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.hgetall(self.keys.player_tokens(player.id))
        pipe.hgetall(self.keys.tokens_used(player.id))
        held, used = pipe.execute()
        current_id = token_id(token_hash(current)) if current else None
        listed = []
        for raw_id, raw in held.items():
            found = orjson.loads(raw)
            ident = raw_id.decode()
            last = used.get(raw_id)
            listed.append({"id": ident, "created_at": found["created_at"],
                           "last_used_at": last.decode() if last else None, "current": ident == current_id,
                           "scopes": found.get("scopes")})
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
        self.players.pop(hashed, None)
        self.redis.publish(self.revoked_channel, hashed)  # every other process drops it now

    def token_revoked(self, hashed: bytes) -> None:
        """The listener heard that a token was revoked (on any process)."""
        self._revocations += 1
        self.players.pop(hashed.decode(), None)

    def player_for_token(self, token: str) -> Player | None:
        """The token's player, kept in this process, each refresh noting when it was last used.

        A revocation is announced to every process, whose listener drops the token at once;
        while that listener is subscribed, a token is kept :data:`TOKEN_TRUST_SECONDS`. When
        it is not (not started, or reconnecting: an announcement may be missed), or when a
        revocation was heard while the token was looked up, the token is kept only
        :data:`TOKEN_CACHE_SECONDS`, the longest a revoked token may still work anywhere.
        """
        hashed = token_hash(token)
        cached = self.players.get(hashed)
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
            self.players.pop(hashed, None)
            return None
        player_id = player_id.decode()
        pipe = self.redis.pipeline(transaction=False)
        pipe.hmget(self.keys.player(player_id), "name", "bot")
        pipe.hset(self.keys.tokens_used(player_id), token_id(hashed), utc_now())
        pipe.hget(self.keys.player_tokens(player_id), token_id(hashed))
        # A token issued before tokens were listed joins its player's list when first seen.
        pipe.hsetnx(self.keys.player_tokens(player_id), token_id(hashed),
                    canonical_json({"hash": hashed, "created_at": utc_now()}))
        (name, bot), _, kept, _ = pipe.execute()
        scopes = orjson.loads(kept).get("scopes") if kept else None
        player = Player(player_id, name.decode() if name else "", frozenset(scopes) if scopes is not None else None,
                        bot=bool(bot))
        if len(self.players) > 100_000:
            self.players.clear()
        if epoch is not None and watcher.live and watcher.epoch == epoch and self._revocations == heard:
            self.players[hashed] = (player, now + TOKEN_TRUST_SECONDS, epoch)
        else:
            self.players[hashed] = (player, now + TOKEN_CACHE_SECONDS, None)
        return player



    def is_operator(self, token: str) -> bool:
        # Bytes, not str: compare_digest refuses str with non-ASCII characters (a TypeError).
        return bool(self.operator_token) and secrets.compare_digest(
            token.encode("utf-8", "surrogateescape"), (self.operator_token or "").encode("utf-8", "surrogateescape"))

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



def bot_accounts_key(keys: Keys) -> str:
    """The set of bot accounts' ids: the leaderboards leave them out."""
    return f"{keys.prefix}:bot_accounts"


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()

