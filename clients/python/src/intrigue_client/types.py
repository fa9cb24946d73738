"""The API's JSON shapes as typed dictionaries (the OpenAPI document's schemas, by name).

Answers stay the plain dictionaries the server sent, so nothing is lost when the
server adds a field; these types tell an editor and a type checker what is there.
``total=False`` marks shapes whose fields depend on the call (a view with or without
the operator's ``state``, an action answer with or without ``game``).
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

#: An action object: ``{"type": ...}`` plus that action's own fields, as ``legal_actions`` lists it.
Action = dict[str, Any]

GameStatus = Literal["open", "starting", "active", "finished", "cancelled"]


class Player(TypedDict):
    id: str
    name: str
    token: NotRequired[str]
    #: Present and true for a bot account.
    bot: NotRequired[bool]


class PlayerRef(TypedDict):
    id: str
    name: str
    #: On a seat a bot holds: its strategy (``ismcts`` or ``random``).
    bot: NotRequired[str]
    #: In the lobby and your games: the player's reliability (null until 20 decisions).
    reliability: NotRequired[float | None]
    #: Present and true for a bot account.
    bot_account: NotRequired[bool]


class TimeControl(TypedDict, total=False):
    seconds_per_move: int
    autoplay_after: int
    autoplay_seconds: int
    reserve_seconds: int
    #: Whether clocks stop for vacations (default: true with a day or more per move).
    vacation: bool
    max_vacation_days: int
    #: Deadlines do not run on Saturdays and Sundays in each seat's time zone.
    pause_weekends: bool


class GameSummary(TypedDict):
    """A lobby card: the public facts of one game."""

    id: str
    game: str
    status: GameStatus
    version: int
    seats: int
    players: list[PlayerRef | None]
    options: dict[str, Any]
    time_control: TimeControl
    created_at: str
    updated_at: str
    seed_hash: str
    resigned: NotRequired[list[int]]
    unlisted: NotRequired[bool]
    invite: NotRequired[list[str]]
    rematch_of: NotRequired[str | None]
    rated: NotRequired[bool]
    #: The seats bots hold, by seat number (as a string), with their strategy.
    bots: NotRequired[dict[str, str]]
    #: The reliability (percent) a player needs to join; null: anyone.
    min_reliability: NotRequired[int | None]
    #: Whether a seat left to the bot is offered to a substitute.
    substitutes: NotRequired[bool]
    #: In ``seeking_substitute`` listings: the seats a substitute may take over.
    seats_offered: NotRequired[list[int]]
    #: Fair shuffles: each seat that joined with a commitment, and where its secret stands.
    entropy: NotRequired[dict[str, Literal["committed", "revealed", "dropped"]]]
    #: On a table of a tournament's round: the tournament's id, and the round it belongs to.
    tournament: NotRequired[str]
    round: NotRequired[int]


class GameView(GameSummary):
    """``GET /v1/games/<id>``: the game as one caller sees it, with that seat's legal actions."""

    awaiting: list[int]
    awaiting_kinds: dict[str, str]
    phase: str | None
    deadline: str | None
    deadlines: dict[str, str]
    autoplay: list[int]
    reserve: list[float]
    move_deadlines: dict[str, str]
    seat: int | None
    view: dict[str, Any] | None
    legal_actions: list[Action]
    winners: list[int] | None
    reason: str | None
    seed: str | None
    state: NotRequired[dict[str, Any]]
    rematch: NotRequired[str | None]


class MyGame(GameSummary):
    """An entry of ``GET /v1/me/games``: a game of yours, your seat and whether it awaits you."""

    seat: int | None
    awaiting_me: bool
    deadline: str | None
    invited: NotRequired[bool]


class GamePage(TypedDict):
    games: list[GameSummary]
    next_cursor: str | None


class MyGamesPage(TypedDict):
    games: list[MyGame]
    next_cursor: str | None


class JoinResult(TypedDict):
    seat: int
    game: GameView


class ResignResult(TypedDict):
    version: int
    game: GameView


class Rating(TypedDict):
    rating: float
    mu: float
    sigma: float
    games: int


class PlayerMatch(TypedDict):
    """A player found by name (``GET /v1/players?name=``)."""

    id: str
    name: str
    bot_account: NotRequired[bool]


class PlayerMatches(TypedDict):
    players: list[PlayerMatch]


class PlayerProfile(TypedDict):
    id: str
    name: str
    ratings: dict[str, Rating]
    bot_account: NotRequired[bool]
    #: Percent of decisions made before the deadline in the last 100 games ended (null until 20 decisions).
    reliability: float | None
    decisions: int
    timeouts: int
    abandoned: int


class Account(TypedDict):
    """``GET /v1/me``: who you are, your time zone and your vacation."""

    id: str
    name: str
    timezone: str
    vacation_until: str | None
    vacation_days_left: int
    vacation_days_per_year: int


class LeaderboardEntry(Rating):
    rank: int
    player: str
    name: str
    bot_account: NotRequired[bool]


class Leaderboard(TypedDict):
    game: str
    min_games: int
    players: list[LeaderboardEntry]
    next_cursor: str | None


class SigningKey(TypedDict):
    id: str
    alg: str
    public_key: str


class Cosigned(TypedDict):
    """The answer to a witness's cosignature: who cosigned (``<name>+<key hash in hex>``) which tree size."""

    witness: str
    size: int


class LogLeaf(TypedDict):
    game: str
    final_hash: str
    seed_hash: str
    ended_at: str


class InclusionProof(TypedDict):
    index: int
    size: int
    leaf: LogLeaf
    hashes: list[str]


class ExportResult(TypedDict):
    winners: list[int] | None
    reason: str | None


class ExportedGame(TypedDict, total=False):
    """One line of ``GET /v1/players/<id>/games/export``; ``log`` only with ``logs=true``."""

    id: str
    title: str
    players: list[dict[str, str] | None]
    result: ExportResult
    rated: bool
    final_hash: str
    seed_hash: str
    created_at: str
    ended_at: str
    log: list[dict[str, Any]]


class FeedEvent(TypedDict):
    """One item of a feed: an event as the caller may see it, or a ``ChatMessage`` (``seq`` null)."""

    seq: int | None
    type: str
    at: str
    actor: int | None
    data: dict[str, Any]
    id: NotRequired[str]
    version: NotRequired[int]


class ActionResult(TypedDict):
    version: int
    events: list[FeedEvent]
    game: NotRequired[GameView]


class EventPage(TypedDict):
    events: list[FeedEvent]
    version: int
    messages_after: str | None
    status: GameStatus
    game: NotRequired[GameView]


#: A table-talk message (``from`` is a keyword in Python, hence the functional form).
Message = TypedDict("Message", {"id": str, "version": int, "at": str, "from": int, "to": int | None, "text": str})


class Replay(TypedDict):
    version: int
    game: GameView
    state: dict[str, Any] | None
    messages: list[Message]


class MessagePage(TypedDict):
    messages: list[Message]
    messages_after: str | None


WebhookEvent = Literal["your_turn", "deadline_soon", "game_over", "invited", "tournament_round", "tournament_over"]


class WebhookCreated(TypedDict):
    id: str
    url: str
    events: list[WebhookEvent]
    secret: str


class StandingOrder(TypedDict, total=False):
    """A decision made in advance: when the game awaits this seat for ``decision`` and every
    condition of ``when`` holds, ``answer`` is played at once; ``once`` orders are then spent."""

    decision: str
    when: dict[str, Any]
    answer: Action
    once: bool


#: What a token may do (``POST /v1/me/tokens``'s ``scopes``).
Scope = Literal["read", "play", "chat", "create", "webhooks", "account"]


class Token(TypedDict):
    id: str
    created_at: str
    last_used_at: str | None
    current: NotRequired[bool]
    scopes: list[Scope]
    token: NotRequired[str]  # only in the answer that issued it


class Webhook(TypedDict):
    id: str
    url: str
    events: list[WebhookEvent]
    created_at: str
    disabled: bool
    disabled_at: str | None
    disabled_reason: str | None
    failing_since: str | None


class Delivery(TypedDict):
    id: str
    type: WebhookEvent
    #: The game it is about; null for ``tournament_round`` and ``tournament_over``, which name the ``tournament``.
    game: str | None
    tournament: NotRequired[str]
    version: int
    status: Literal["pending", "delivered", "failed", "cancelled"]
    attempts: int
    created_at: str
    last_attempt_at: str | None
    last_status: str | None
    next_retry: str | None
    delivered_at: str | None


class WebhookPayload(TypedDict):
    """The JSON body of a webhook delivery: a game and a version, never a card; ``tournament_round``
    and ``tournament_over`` name a ``tournament`` and its ``round`` instead of a game and a deadline."""

    id: str
    type: WebhookEvent
    game: NotRequired[str]
    deadline: NotRequired[str | None]
    tournament: NotRequired[str]
    round: NotRequired[int]
    version: int
    created_at: str
