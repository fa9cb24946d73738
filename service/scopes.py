"""Token scopes: which scope each call needs, in one table, and the one check both HTTP paths make.

A token may carry only some scopes (``POST /v1/me/tokens`` with ``{"scopes": [...]}``); the
token a registration returns, and one issued without ``scopes``, carries them all. A call
outside its token's scopes is ``403 missing_scope`` naming the scope it needs. Calls that
need no token at all (registering, the lobby, this document) need no scope either: a token
sent with them is not asked for one.

The table is keyed by the operation as the OpenAPI document names it (``METHOD /path`` with
``{placeholders}``), so the document states each operation's scope from it too.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Any

from service.answers import Problem

#: Every scope, in the order the reference lists them.
SCOPES = ("read", "play", "chat", "create", "webhooks", "account")
ALL_SCOPES = frozenset(SCOPES)

#: What each scope covers, for the reference.
SCOPE_WORDS = {
    "read": "views, feeds, streams, replays, logs, transcripts, table talk, your games, players and leaderboards",
    "play": "join, reveal, leave, resign, actions and standing orders; joining, leaving and withdrawing "
            "from tournaments",
    "chat": "table talk",
    "create": "games, rematches, invitations and tournaments (and starting one)",
    "webhooks": "your webhooks",
    "account": "your tokens and profile",
}

_GAME = "/v1/games/{game_id}"
#: Operation -> the scope it needs. An operation not listed needs none (it takes no token).
SCOPE_OF: dict[str, str] = {
    "GET /v1/players": "read", "GET /v1/players/{player_id}": "read", "GET /v1/leaderboards/{game}": "read",
    "GET /v1/players/{player_id}/games/export": "read",
    "POST /v1/games": "create", f"DELETE {_GAME}": "create", f"POST {_GAME}/rematch": "create",
    f"POST {_GAME}/join": "play", f"POST {_GAME}/leave": "play", f"POST {_GAME}/resign": "play",
    f"POST {_GAME}/actions": "play", f"POST {_GAME}/reveal": "play", f"PUT {_GAME}/orders": "play",
    f"GET {_GAME}/orders": "play",
    f"DELETE {_GAME}/orders": "play",
    f"GET {_GAME}": "read", f"GET {_GAME}/events": "read", f"GET {_GAME}/events/stream": "read",
    f"GET {_GAME}/replay": "read", f"GET {_GAME}/log": "read", f"GET {_GAME}/transcript": "read",
    f"GET {_GAME}/messages": "read", "GET /v1/me/games": "read",
    f"POST {_GAME}/messages": "chat",
    "POST /v1/me/webhooks": "webhooks", "GET /v1/me/webhooks": "webhooks",
    "DELETE /v1/me/webhooks/{webhook_id}": "webhooks", "GET /v1/me/webhooks/{webhook_id}/deliveries": "webhooks",
    "GET /v1/me/tokens": "account", "POST /v1/me/tokens": "account", "DELETE /v1/me/tokens/{token_id}": "account",
    "GET /v1/me": "account", "PATCH /v1/me": "account", "POST /v1/me/vacation": "account",
    "DELETE /v1/me/vacation": "account",
    "POST /v1/tournaments": "create", "POST /v1/tournaments/{tournament_id}/start": "create",
    "GET /v1/tournaments": "read", "GET /v1/tournaments/{tournament_id}": "read",
    "GET /v1/tournaments/{tournament_id}/log": "read",
    "POST /v1/tournaments/{tournament_id}/join": "play", "POST /v1/tournaments/{tournament_id}/leave": "play",
    "POST /v1/tournaments/{tournament_id}/withdraw": "play",
    "GET /v1/keys": "read", "GET /v1/transparency/checkpoint": "read", "GET /v1/transparency/inclusion": "read",
    "GET /v1/transparency/consistency": "read",
}


def _pattern(template: str) -> re.Pattern[str]:
    return re.compile(re.sub(r"\\\{[a-z_]+\\\}", "[^/]+", re.escape(template)))


#: Per method: (the path's pattern, the scope), literal paths first so /v1/me/games is not /v1/games/{id}.
_MATCHERS: dict[str, list[tuple[re.Pattern[str], str]]] = {}
for _key, _scope in sorted(SCOPE_OF.items(), key=lambda item: "{" in item[0]):
    _method, _template = _key.split(" ", 1)
    _MATCHERS.setdefault(_method, []).append((_pattern(_template), _scope))


def scope_for(method: str, path: str) -> str | None:
    """The scope a request needs (``HEAD`` as ``GET``), or None when it needs none."""
    for pattern, scope in _MATCHERS.get("GET" if method == "HEAD" else method, ()):
        if pattern.fullmatch(path):
            return scope
    return None


def check_scope(granted: Collection[str] | None, method: str, path: str) -> None:
    """Refuse (403 ``missing_scope``) a request its token's scopes do not cover; ``None`` grants all."""
    if granted is None:
        return
    needed = scope_for(method, path)
    if needed is not None and needed not in granted:
        raise Problem(403, "missing_scope", f"this token lacks the scope '{needed}' this call needs; issue one "
                                            "with it (POST /v1/me/tokens)", scope=needed)


def with_scopes(token: dict[str, Any]) -> dict[str, Any]:
    """A token as the API shows it: ``scopes`` spelt out (a token stored without them has them all)."""
    return {**token, "scopes": list(SCOPES) if token.get("scopes") is None else
            [scope for scope in SCOPES if scope in token["scopes"]]}
