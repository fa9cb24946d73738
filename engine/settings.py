"""Every setting an operator can give, read from the environment once, when a process starts.

``Settings.from_env`` is the only reader of the environment in the project: the app
factory, the worker and the ``intrigue`` command build one at start and hand it (or the
part that concerns them) to what needs it. A value that cannot be used stops the process
at once with one line naming the variable (:class:`SettingsError`), never a traceback
at the first request that needs it. ``VARIABLES`` is the table the README's
configuration section lists, one row a variable (a test holds them to each other).
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any


@dataclass(frozen=True)
class Bucket:
    """``rate`` tokens a second up to ``burst``; a rate of 0 means no limit."""

    name: str
    rate: float
    burst: float

    @classmethod
    def per_hour(cls, name: str, count: float) -> Bucket:
        """``count`` an hour, all of which may be spent at once."""
        return cls(name, count / 3600, count)


@dataclass(frozen=True)
class Limits:
    """The request limits an operator sets (the README's configuration table); 0 turns a limit off."""

    #: Requests per second per player (``INTRIGUE_RATE_LIMIT``); bursts of twice that.
    player_rate: float = 50
    #: Requests per second per client address for calls without a known token.
    anonymous_rate: float = 20
    #: Registrations (``POST /v1/players``) per client address per hour.
    registrations_per_hour: float = 30
    #: Games one player may create per hour.
    games_per_hour: float = 120
    #: Games one player has created that still wait for players.
    open_games: int = 10
    #: Proxies in front of the API that append the client to ``X-Forwarded-For``.
    trusted_proxies: int = 0
    #: Requests per second per client address over all its players' tokens; bursts of twice that.
    address_rate: float = 100
    #: Event streams one player holds open at once, over all its tokens and addresses.
    streams_per_player: int = 50
    #: Event streams one client address holds open at once, anonymous ones included.
    streams_per_address: int = 500
    #: Connections one client address holds open at once to one API process.
    connections_per_address: int = 1000
    #: Seconds a client has to send a request's headers (and an idle keep-alive connection lives).
    header_timeout: float = 10.0
    #: Seconds a client has to send a request's whole body, once its headers are read.
    body_timeout: float = 10.0
    #: Tokens one player may hold at once (``POST /v1/me/tokens`` issues more).
    tokens_per_player: int = 10

    @classmethod
    def off(cls) -> Limits:
        """No limits at all (benchmarks measure clients rather than police them)."""
        return cls(player_rate=0, anonymous_rate=0, registrations_per_hour=0, games_per_hour=0, open_games=0,
                   address_rate=0, tokens_per_player=0, streams_per_player=0, streams_per_address=0)

    def player(self) -> Bucket:
        return Bucket("player", self.player_rate, 2 * self.player_rate)

    def anonymous(self) -> Bucket:
        return Bucket("anonymous", self.anonymous_rate, 2 * self.anonymous_rate)

    def address(self) -> Bucket:
        return Bucket("address", self.address_rate, 2 * self.address_rate)

    def registrations(self) -> Bucket:
        return Bucket.per_hour("register", self.registrations_per_hour)

    def game_creations(self) -> Bucket:
        return Bucket.per_hour("create", self.games_per_hour)


@dataclass(frozen=True)
class RetryPolicy:
    """Exponential backoff: ``base`` seconds, doubling, at most ``cap``; retried while the
    delivery is younger than ``retry_for``; a webhook failing for ``disable_after`` is disabled.

    ``INTRIGUE_WEBHOOK_RETRY_*`` may shorten them (tests do); the defaults keep retrying for a day.
    """

    base: float = 30.0
    cap: float = 6 * 3600.0
    retry_for: float = 24 * 3600.0
    disable_after: float = 3 * 86400.0

    def delay(self, attempts: int) -> float:
        """Seconds to wait after the ``attempts``-th failed attempt."""
        return min(self.cap, self.base * 2 ** max(0, attempts - 1))


#: The Redis the API and a worker use when ``REDIS_URL`` names none (``intrigue serve`` embeds one instead).
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"


class SettingsError(ValueError):
    """A variable whose value cannot be used; the message is one line that names it."""


@dataclass(frozen=True)
class Settings:
    """What the environment said, parsed; the defaults are those of an unset environment."""

    #: The Redis of the event store (None: ``intrigue serve`` embeds one; the others require it).
    redis_url: str | None = None
    #: A plain Redis for RQ's queues (None: the store's Redis).
    queue_url: str | None = None
    #: Whether ``redis_url`` names a node of a Redis Cluster.
    redis_cluster: bool = False
    #: The bearer token that may audit live games (None or empty: no operator).
    operator_token: str | None = None
    limits: Limits = field(default_factory=Limits)
    #: Chat messages per minute per player (0: no limit).
    chat_rate: int = 20
    #: Messages one game keeps (0: no ceiling).
    messages_per_game: int = 1000
    #: Seconds an open game waits for players before it expires (0: never).
    open_game_ttl: float = 7 * 86400.0
    #: Whether webhooks may point at loopback, private and link-local addresses.
    webhooks_allow_private: bool = False
    #: Whether the API serves plain HTTP/1.1 requests itself, not through gunicorn's request
    #: objects (service/http1.py).
    plain_requests: bool = True
    webhook_retry: RetryPolicy = field(default_factory=RetryPolicy)
    log_level: str = "INFO"
    #: A folder of the operator's own Pax Porfiriana card sets (``<name>.json``).
    pax_card_sets: str | None = None
    #: Where gunicorn listens when it runs the image's command.
    bind: str = "0.0.0.0:8000"
    #: API processes under gunicorn (None: one per usable core but one).
    web_concurrency: int | None = None
    #: Most search iterations of one ISMCTS decision (a bot seat's or a takeover's).
    bot_iterations: int = 5000
    #: Most milliseconds of one ISMCTS decision, whichever of the two ends first.
    bot_milliseconds: float = 450.0
    #: Rated games a player must have finished in a title to appear on its leaderboard.
    leaderboard_min_games: int = 5
    #: Whether a commit is refused unless every seat's and a spectator's view of the state it
    #: leads to renders (engine.commit_check). Off by default: it costs up to 1.6 ms of CPU a
    #: move (bench/render_check.py); the test suites run with it on.
    render_check: bool = False
    #: Times a seat may replace one sealed decision (or a player leave one open game); 0: no bound.
    revisions_per_decision: int = 20
    #: Seats one player may hold in games not over, bot seats aside (0: no ceiling).
    active_games_per_player: int = 50
    #: Vacation days each player has a calendar year (POST /v1/me/vacation).
    vacation_days_per_year: int = 30
    #: Seconds a game whose seats filled waits for its committed seats' secrets (fair shuffles).
    reveal_seconds: float = 120.0
    #: The Ed25519 key that signs transparency checkpoints: PKCS#8 PEM or 32 bytes in base64
    #: (None: ``intrigue serve`` makes one in its data folder; see engine/signing.py).
    signing_key: str | None = field(default=None, repr=False)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """Parse every variable in ``environ`` (the process's environment when None).

        Raises :class:`SettingsError` for the first value that cannot be used.
        """
        environ = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for variable in VARIABLES:
            raw = environ.get(variable.name)
            if raw is None or (raw == "" and variable.empty_is_unset):
                continue
            try:
                values[variable.field] = variable.parse(raw)
            except (ValueError, OverflowError) as err:
                shown = "(hidden)" if variable.secret else repr(raw)
                raise SettingsError(f"{variable.name}={shown} cannot be used: {err}") from None
        nested = {"limits": Limits, "webhook_retry": RetryPolicy}
        built: dict[str, Any] = {}
        for name, kind in nested.items():
            parts = {key.split(".", 1)[1]: value for key, value in values.items() if key.startswith(name + ".")}
            built[name] = kind(**parts)
        built.update({key: value for key, value in values.items() if "." not in key})
        settings = cls(**built)
        if settings.redis_cluster and not settings.queue_url:
            raise SettingsError("INTRIGUE_QUEUE_URL must name a plain Redis for the queues when "
                                "INTRIGUE_REDIS_CLUSTER is set")
        return settings

    @classmethod
    def at_start(cls, program: str, exit_status: int = 2) -> Settings:
        """The process's settings; an unusable value ends it here, with one line on stderr."""
        try:
            return cls.from_env()
        except SettingsError as err:
            print(f"{program}: {err}", file=sys.stderr, flush=True)
            raise SystemExit(exit_status) from None

    def with_limits(self, **changes: Any) -> Settings:
        return replace(self, limits=replace(self.limits, **changes))


def environment_with(**values: str) -> dict[str, str]:
    """This process's environment with ``values`` set: what a child process it starts is given."""
    return {**os.environ, **values}


def gunicorn_script_name() -> str:
    """gunicorn's own ``SCRIPT_NAME`` variable (the prefix it strips from every path), which
    the API does not set; read here, where the environment is read."""
    return os.environ.get("SCRIPT_NAME", "")


# ------------------------------------------------------------------ parsing
def _number(raw: str) -> float:
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not value >= 0 or value == float("inf"):
        raise ValueError("a number of at least 0 is needed")
    return value


def _positive_number(raw: str) -> float:
    value = _number(raw)
    if value <= 0:
        raise ValueError("a number above 0 is needed")
    return value


def _count(raw: str) -> int:
    if not raw.strip().isascii() or not raw.strip().isdigit():
        raise ValueError("a whole number of at least 0 is needed")
    return int(raw)


def _positive_count(raw: str) -> int:
    value = _count(raw)
    if value < 1:
        raise ValueError("a whole number of at least 1 is needed")
    return value


_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off", "")


def _flag(raw: str) -> bool:
    word = raw.strip().lower()
    if word in _TRUE:
        return True
    if word in _FALSE:
        return False
    raise ValueError("say 1 (on) or 0 (off)")


def _redis_url(raw: str) -> str:
    if not raw.startswith(("redis://", "rediss://", "unix://")):
        raise ValueError("a Redis URL starts with redis://, rediss:// or unix://")
    return raw


def _log_level(raw: str) -> str:
    level = raw.strip().upper()
    if level not in logging.getLevelNamesMapping():
        raise ValueError(f"a logging level is one of {', '.join(sorted(logging.getLevelNamesMapping()))}")
    return level


def _text(raw: str) -> str:
    return raw


def _signing_key(raw: str) -> str:
    """The key's text, once it is known to hold an Ed25519 private key."""
    from engine.signing import parse_private_key

    parse_private_key(raw)  # SigningKeyError is a ValueError: the variable is named and the process stops
    return raw


def _bind(raw: str) -> str:
    host, colon, port = raw.rpartition(":")
    if raw.startswith(("unix:", "fd://")) or (colon and port.isdigit() and int(port) < 65536):
        return raw
    raise ValueError("an address is host:port (or unix:PATH)")


@dataclass(frozen=True)
class Variable:
    """One environment variable: its name, the setting it fills (``limits.<field>`` for a
    nested one), how its text is read, and whether an empty value means unset."""

    name: str
    field: str
    parse: Callable[[str], Any]
    empty_is_unset: bool = True
    #: Whether its value stays out of error messages (a private key).
    secret: bool = False


#: Every variable the project reads, in the order of the README's table.
VARIABLES = (
    Variable("REDIS_URL", "redis_url", _redis_url),
    Variable("INTRIGUE_QUEUE_URL", "queue_url", _redis_url),
    Variable("INTRIGUE_REDIS_CLUSTER", "redis_cluster", _flag),
    Variable("WEB_CONCURRENCY", "web_concurrency", _positive_count),
    Variable("INTRIGUE_BIND", "bind", _bind),
    Variable("INTRIGUE_OPERATOR_TOKEN", "operator_token", _text),
    Variable("INTRIGUE_SIGNING_KEY", "signing_key", _signing_key, secret=True),
    Variable("INTRIGUE_RATE_LIMIT", "limits.player_rate", _number),
    Variable("INTRIGUE_ANONYMOUS_RATE_LIMIT", "limits.anonymous_rate", _number),
    Variable("INTRIGUE_REGISTRATIONS_PER_HOUR", "limits.registrations_per_hour", _number),
    Variable("INTRIGUE_GAMES_PER_HOUR", "limits.games_per_hour", _number),
    Variable("INTRIGUE_OPEN_GAMES_PER_PLAYER", "limits.open_games", _count),
    Variable("INTRIGUE_TRUSTED_PROXIES", "limits.trusted_proxies", _count),
    Variable("INTRIGUE_ADDRESS_RATE_LIMIT", "limits.address_rate", _number),
    Variable("INTRIGUE_TOKENS_PER_PLAYER", "limits.tokens_per_player", _count),
    Variable("INTRIGUE_STREAMS_PER_PLAYER", "limits.streams_per_player", _count),
    Variable("INTRIGUE_STREAMS_PER_ADDRESS", "limits.streams_per_address", _count),
    Variable("INTRIGUE_CONNECTIONS_PER_ADDRESS", "limits.connections_per_address", _count),
    Variable("INTRIGUE_HEADER_TIMEOUT", "limits.header_timeout", _positive_number),
    Variable("INTRIGUE_BODY_TIMEOUT", "limits.body_timeout", _positive_number),
    Variable("INTRIGUE_OPEN_GAME_TTL", "open_game_ttl", _number),
    Variable("INTRIGUE_CHAT_RATE", "chat_rate", _count),
    Variable("INTRIGUE_LEADERBOARD_MIN_GAMES", "leaderboard_min_games", _count),
    Variable("INTRIGUE_MESSAGES_PER_GAME", "messages_per_game", _count),
    Variable("INTRIGUE_REVISIONS_PER_DECISION", "revisions_per_decision", _count),
    Variable("INTRIGUE_ACTIVE_GAMES_PER_PLAYER", "active_games_per_player", _count),
    Variable("INTRIGUE_VACATION_DAYS_PER_YEAR", "vacation_days_per_year", _count),
    Variable("INTRIGUE_REVEAL_SECONDS", "reveal_seconds", _positive_number),
    Variable("INTRIGUE_WEBHOOKS_ALLOW_PRIVATE", "webhooks_allow_private", _flag),
    Variable("INTRIGUE_PLAIN_REQUESTS", "plain_requests", _flag),
    Variable("INTRIGUE_WEBHOOK_RETRY_BASE", "webhook_retry.base", _number),
    Variable("INTRIGUE_WEBHOOK_RETRY_MAX", "webhook_retry.cap", _number),
    Variable("INTRIGUE_WEBHOOK_RETRY_FOR", "webhook_retry.retry_for", _number),
    Variable("INTRIGUE_WEBHOOK_DISABLE_AFTER", "webhook_retry.disable_after", _number),
    Variable("INTRIGUE_LOG_LEVEL", "log_level", _log_level),
    Variable("INTRIGUE_PAX_CARD_SETS", "pax_card_sets", _text),
    Variable("INTRIGUE_BOT_ITERATIONS", "bot_iterations", _positive_count),
    Variable("INTRIGUE_BOT_MILLISECONDS", "bot_milliseconds", _positive_number),
    Variable("INTRIGUE_RENDER_CHECK", "render_check", _flag),
)
