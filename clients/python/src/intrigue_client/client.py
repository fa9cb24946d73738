"""The HTTP client: one player's session, a typed method per API call, retries done right.

Which requests are retried, and how:

- A ``429`` changed nothing on the server: any request waits its ``Retry-After`` (the
  body's exact ``retry_after`` when there is one) and goes again.
- A ``500``, ``502``, ``503``, ``504``, a ``409 busy`` or a dropped connection leaves the
  outcome of a write unknown. Reads, ``join`` (joining twice keeps the seat) and actions
  are retried, with exponential backoff and a bounded number of attempts; an action keeps
  its ``Idempotency-Key`` on every attempt, so the server answers a retry of an action it
  already recorded with that first answer instead of applying it twice. Other writes
  (registering, creating a game or a webhook, posting a message) are not retried on an
  unknown outcome: the error says so and the caller decides.

The client also paces itself: every answer under a limit says what is left of it
(``RateLimit: "player";r=42;t=1``, kept in ``rate_limit``), and when a policy has nothing
left the next request waits its ``t`` seconds first instead of meeting the 429
(``pace=False`` turns that off).
"""

from __future__ import annotations

import hashlib
import json
import random
import secrets
import time
import uuid
from collections.abc import Callable, Iterator, Mapping
from typing import Any, cast

import requests

from intrigue_client.errors import (
    ConnectionFailed,
    GameNotStarting,
    IntrigueError,
    StaleView,
    TooManyRequests,
    error_from_problem,
)
from intrigue_client.stream import EventStream
from intrigue_client.types import (
    Account,
    Action,
    ActionResult,
    Cosigned,
    Delivery,
    EventPage,
    ExportedGame,
    GamePage,
    GameSummary,
    GameView,
    InclusionProof,
    JoinResult,
    Leaderboard,
    Message,
    MessagePage,
    MyGame,
    MyGamesPage,
    Player,
    PlayerMatch,
    PlayerMatches,
    PlayerProfile,
    Replay,
    ResignResult,
    Scope,
    SigningKey,
    StandingOrder,
    TimeControl,
    Token,
    Webhook,
    WebhookCreated,
    WebhookEvent,
)

#: Statuses after which a retry-safe request goes again (with backoff).
RETRY_STATUSES = frozenset({500, 502, 503, 504})

USER_AGENT = "intrigue-client/0.1 (python-requests)"


def new_idempotency_key() -> str:
    """A fresh key for one decision: random, so two clients never collide."""
    return uuid.uuid4().hex


#: How a client waits between tries unless given another pause (tests record theirs).
DEFAULT_PAUSE: Callable[[float], None] = time.sleep


class Client:
    """One player's session against an Intrigue server.

    ``retries`` bounds the attempts after the first for a retry-safe request (and the
    waits on ``429``); ``backoff`` is the first pause, doubled each time up to
    ``max_backoff``, with jitter so a crowd of clients does not retry in step.
    ``timeout`` is the read timeout of a plain request; long polls add their ``wait``.
    """

    def __init__(self, base_url: str, token: str | None = None, *, session: requests.Session | None = None,
                 timeout: float = 40.0, retries: int = 6, backoff: float = 0.2, max_backoff: float = 8.0,
                 max_retry_after: float = 120.0, sleep: Callable[[float], None] = DEFAULT_PAUSE,
                 pace: bool = True) -> None:
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.session = session or requests.Session()
        self.session.headers.setdefault("User-Agent", USER_AGENT)
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.max_retry_after = max_retry_after
        self.sleep = sleep
        self.pace = pace
        #: The last ``RateLimit`` header the server sent: policy name -> (remaining, seconds to reset).
        self.rate_limit: dict[str, tuple[int, float]] = {}
        self._paced_until = 0.0
        #: The registered player, when this client came from :meth:`register`.
        self.player: Player | None = None
        #: Fair shuffles: the secret of each game this client joined with a commitment, until it starts.
        self._secrets: dict[str, str] = {}

    def close(self) -> None:
        """Close the session's pooled connections (the client may not be used afterwards)."""
        self.session.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        who = self.player["name"] if self.player else ("a token" if self.token else "anonymous")
        return f"<Client {self.base_url} as {who}>"

    # ------------------------------------------------------------------ plumbing
    def backoff_delay(self, attempt: int) -> float:
        """The pause before retry number ``attempt`` (from 1): exponential, capped, jittered."""
        ceiling = min(self.max_backoff, self.backoff * 2.0 ** (attempt - 1))
        return ceiling / 2 + random.random() * ceiling / 2

    def request(self, method: str, path: str, *, body: Any = None, params: Mapping[str, Any] | None = None,
                headers: Mapping[str, str] | None = None, retry: bool = False, stream: bool = False,
                timeout: float | tuple[float, float] | None = None) -> requests.Response:
        """Send one API request and return its successful answer, or raise the problem as an exception.

        ``retry`` says the request may be sent again when its outcome is unknown (see the
        module's docstring); a ``429`` is waited out whatever ``retry`` says.
        """
        all_headers = {"Accept": "application/json"}
        if self.token is not None:
            all_headers["Authorization"] = f"Bearer {self.token}"
        all_headers.update(headers or {})
        url = self.base_url + path
        unknown_outcomes = rate_waits = 0
        while True:
            early = self._paced_until - time.monotonic()
            if self.pace and early > 0:
                self.sleep(min(early, self.max_retry_after))
            try:
                response = self.session.request(method, url, json=body, params=params, headers=all_headers,
                                                stream=stream, timeout=timeout or self.timeout)
            except requests.RequestException as err:
                if not retry or unknown_outcomes >= self.retries:
                    raise ConnectionFailed(f"{method} {path}: {err}") from err
                unknown_outcomes += 1
                self.sleep(self.backoff_delay(unknown_outcomes))
                continue
            self._note_rate_limit(response)
            if response.status_code < 400:
                return response
            problem = _problem_of(response)
            response.close()
            error = error_from_problem(response.status_code, problem, response.reason or "")
            wait = _retry_after(response, problem)
            if isinstance(error, TooManyRequests) and rate_waits < self.retries and wait <= self.max_retry_after:
                rate_waits += 1
                self.sleep(wait)
                continue
            retriable = response.status_code in RETRY_STATUSES or error.code == "busy"
            if retry and retriable and unknown_outcomes < self.retries:
                unknown_outcomes += 1
                self.sleep(max(self.backoff_delay(unknown_outcomes), min(wait, self.max_retry_after)))
                continue
            raise error

    def _note_rate_limit(self, response: requests.Response) -> None:
        """Keep what the answer says of its limits; a policy with nothing left paces the next request."""
        header = response.headers.get("RateLimit")
        if not header:
            return
        self.rate_limit = parse_rate_limit(header)
        waits = [reset for remaining, reset in self.rate_limit.values() if remaining <= 0]
        if waits:
            self._paced_until = time.monotonic() + max(waits)

    def _json(self, method: str, path: str, **kwargs: Any) -> Any:
        return self.request(method, path, **kwargs).json()

    # ------------------------------------------------------------------ players
    @classmethod
    def register(cls, base_url: str, name: str, *, bot: bool = False, **options: Any) -> Client:
        """Register a player called ``name`` (``bot``: a bot account) and return a client holding its
        token (shown only once)."""
        client = cls(base_url, **options)
        player = client.create_player(name, bot=bot)
        client.token, client.player = player["token"], player
        return client

    def create_player(self, name: str, *, bot: bool = False) -> Player:
        """``POST /v1/players``: a new player and its bearer token; ``bot`` registers a bot account."""
        body: dict[str, Any] = {"name": name, "bot": True} if bot else {"name": name}
        return cast(Player, self._json("POST", "/v1/players", body=body))

    # ------------------------------------------------------------------ games
    def create_game(self, game: str, seats: int, options: Mapping[str, Any] | None = None,
                    time_control: TimeControl | None = None, bots: Mapping[int, str] | None = None, *,
                    unlisted: bool = False, invite: list[str] | None = None, rated: bool | None = None,
                    humans_only: bool = False, min_reliability: int | None = None,
                    substitutes: bool = True) -> GameView:
        """``POST /v1/games``: open a game of ``game`` (``coup``, ``revolution``, ...) for ``seats``.

        ``bots`` seats the server's bots at once, by seat number: ``{2: "ismcts"}`` or ``"random"``.
        ``unlisted`` keeps it out of the lobby, ``invite`` (player ids) lets only those join;
        ``rated`` (default: true unless a seat is a bot's) says whether it moves ratings;
        ``humans_only`` keeps bot accounts out; ``min_reliability`` (percent) keeps out players below
        it, and ``substitutes=False`` offers no seat left to the bot to a substitute.
        """
        body: dict[str, Any] = {"game": game, "seats": seats, "options": dict(options or {}),
                                "unlisted": unlisted, "invite": list(invite or []), "substitutes": substitutes}
        if min_reliability is not None:
            body["min_reliability"] = min_reliability
        if rated is not None:
            body["rated"] = rated
        if humans_only:
            body["humans_only"] = True
        if time_control is not None:
            body["time_control"] = dict(time_control)
        if bots:
            body["bots"] = {str(seat): strategy for seat, strategy in bots.items()}
        return cast(GameView, self._json("POST", "/v1/games", body=body))

    def lobby(self, game: str | None = None, *, limit: int | None = None, cursor: str | None = None) -> GamePage:
        """``GET /v1/games``: one page of open games, oldest first."""
        params = _params(game=game, limit=limit, cursor=cursor)
        return cast(GamePage, self._json("GET", "/v1/games", params=params, retry=True))

    def iter_lobby(self, game: str | None = None, *, page_size: int | None = None) -> Iterator[GameSummary]:
        """Every open game, page after page."""
        cursor: str | None = None
        while True:
            page = self.lobby(game, limit=page_size, cursor=cursor)
            yield from page["games"]
            cursor = page["next_cursor"]
            if cursor is None:
                return

    def join(self, game_id: str, *, commit: bool = True) -> JoinResult:
        """``POST /v1/games/<id>/join``: the first free seat (joining twice keeps the seat, so it is retried).

        With ``commit`` (the default) the seat joins with the commitment to a secret of 32
        random bytes that this client keeps and reveals once every seat is taken (fair
        shuffles: the deal then mixes it in, so the server cannot choose it alone). The
        client reveals it by itself whenever it sees the game ``starting``: here, in
        :meth:`game` and in :meth:`Bot.play <intrigue_client.Bot.play>`; :meth:`reveal` does it at once.
        """
        body = None
        if commit:
            secret = self._secrets.setdefault(game_id, secrets.token_bytes(32).hex())
            body = {"commitment": hashlib.sha256(bytes.fromhex(secret)).hexdigest()}
        joined = cast(JoinResult, self._json("POST", f"/v1/games/{game_id}/join", body=body, retry=True))
        joined["game"] = self.reveal_if_due(joined["game"])
        return joined

    def reveal(self, game_id: str) -> GameView:
        """``POST /v1/games/<id>/reveal``: this seat's secret, kept since it joined with its commitment."""
        secret = self._secrets.get(game_id)
        if secret is None:
            raise ValueError(f"this client holds no secret for game {game_id}: it joined without a commitment")
        return cast(GameView, self._json("POST", f"/v1/games/{game_id}/reveal", body={"secret": secret},
                                         retry=True)["game"])

    def reveal_if_due(self, view: GameView) -> GameView:
        """``view``, or the view after revealing this seat's secret when the game awaits it; the secret
        is forgotten once the game has started."""
        game_id, seat = view["id"], view.get("seat")
        if view["status"] not in ("open", "starting"):
            self._secrets.pop(game_id, None)
            return view
        if (view["status"] == "starting" and game_id in self._secrets and seat is not None
                and view.get("entropy", {}).get(str(seat)) == "committed"):
            try:
                return self.reveal(game_id)
            except GameNotStarting:  # the wait ended meanwhile: the game started without it
                self._secrets.pop(game_id, None)
        return view

    def seeking_substitute(self, *, limit: int | None = None, cursor: str | None = None) -> GamePage:
        """``GET /v1/games?seeking_substitute=true``: running games offering seats (``seats_offered``)."""
        params = _params(seeking_substitute="true", limit=limit, cursor=cursor)
        return cast(GamePage, self._json("GET", "/v1/games", params=params, retry=True))

    def substitute(self, game_id: str, seat: int) -> JoinResult:
        """``POST /v1/games/<id>/join`` ``{"seat": N}``: take over a seat a running game offers.

        Not retried: a lost answer may have seated you (read the game to find out)."""
        return cast(JoinResult, self._json("POST", f"/v1/games/{game_id}/join", body={"seat": seat}))

    # ------------------------------------------------------------------ your account
    def me(self) -> Account:
        """``GET /v1/me``: who you are, your time zone and your vacation."""
        return cast(Account, self._json("GET", "/v1/me", retry=True))

    def set_timezone(self, timezone: str) -> Account:
        """``PATCH /v1/me``: your IANA time zone, whose weekends pause games with ``pause_weekends``."""
        return cast(Account, self._json("PATCH", "/v1/me", body={"timezone": timezone}, retry=True))

    def start_vacation(self, days: int) -> Account:
        """``POST /v1/me/vacation``: ``days`` away from now; your clocks stop where the games allow it."""
        return cast(Account, self._json("POST", "/v1/me/vacation", body={"days": days}))

    def end_vacation(self) -> Account:
        """``DELETE /v1/me/vacation``: back early; the whole days not used come back."""
        return cast(Account, self._json("DELETE", "/v1/me/vacation"))

    def leave(self, game_id: str) -> GameView:
        """``POST /v1/games/<id>/leave``: free your seat in a game that has not started."""
        return cast(GameView, self._json("POST", f"/v1/games/{game_id}/leave"))

    def cancel(self, game_id: str) -> None:
        """``DELETE /v1/games/<id>``: cancel a game you created that has not started (again: no change)."""
        self.request("DELETE", f"/v1/games/{game_id}", retry=True).close()

    def resign(self, game_id: str) -> ResignResult:
        """``POST /v1/games/<id>/resign``: give up; the bot plays your seat and you watch as a spectator."""
        return cast(ResignResult, self._json("POST", f"/v1/games/{game_id}/resign"))

    def rematch(self, game_id: str) -> JoinResult:
        """``POST /v1/games/<id>/rematch``: the finished game's rematch, you seated (asking twice is harmless)."""
        return cast(JoinResult, self._json("POST", f"/v1/games/{game_id}/rematch", retry=True))

    def find_players(self, name: str, *, limit: int | None = None) -> list[PlayerMatch]:
        """``GET /v1/players?name=<prefix>``: players whose name starts with ``name`` (any case), to invite by name."""
        params = _params(name=name, limit=limit)
        return cast(PlayerMatches, self._json("GET", "/v1/players", params=params, retry=True))["players"]

    def player_profile(self, player_id: str) -> PlayerProfile:
        """``GET /v1/players/<id>``: a player's ratings and rated games per title."""
        return cast(PlayerProfile, self._json("GET", f"/v1/players/{player_id}", retry=True))

    def leaderboard(self, game: str, *, limit: int | None = None, cursor: str | None = None,
                    bots: bool = False) -> Leaderboard:
        """``GET /v1/leaderboards/<game>``: one page of the title's best rated players (``bots``: bot accounts too)."""
        params = _params(limit=limit, cursor=cursor, bots="true" if bots else None)
        return cast(Leaderboard, self._json("GET", f"/v1/leaderboards/{game}", params=params, retry=True))

    def game(self, game_id: str) -> GameView:
        """``GET /v1/games/<id>``: the game as this player sees it, legal actions included (revealing
        this seat's secret first when the game is starting; see :meth:`join`)."""
        return self.reveal_if_due(cast(GameView, self._json("GET", f"/v1/games/{game_id}", retry=True)))

    def act(self, game_id: str, action: Action, *, if_match: int | None = None, idempotency_key: str | None = None,
            minimal: bool = False) -> ActionResult:
        """``POST /v1/games/<id>/actions``: one decision, sent until its outcome is known.

        ``if_match`` is the version the decision was made on (``If-Match``): if the game
        has moved on, nothing changes and :class:`~intrigue_client.errors.VersionConflict`
        is raised with the fresh view in ``game`` (as is
        :class:`~intrigue_client.errors.NotYourTurn`). One ``Idempotency-Key`` (new unless
        given) is sent on every attempt; any error raised here carries it as
        ``idempotency_key``, so a caller may send the same decision again later.
        ``minimal`` asks for ``Prefer: return=minimal`` (the answer then has no ``game``).
        """
        key = idempotency_key or new_idempotency_key()
        headers = {"Idempotency-Key": key}
        if if_match is not None:
            headers["If-Match"] = str(if_match)
        if minimal:
            headers["Prefer"] = "return=minimal"
        try:
            return cast(ActionResult, self._json("POST", f"/v1/games/{game_id}/actions", body=action,
                                                 headers=headers, retry=True))
        except IntrigueError as err:
            err.idempotency_key = key
            if isinstance(err, StaleView):
                try:
                    err.game = self.game(game_id)
                except IntrigueError:
                    err.game = None
            raise

    def events(self, game_id: str, *, after: int = 0, wait: int = 0, view: bool = False, limit: int | None = None,
               messages_after: str | None = None) -> EventPage:
        """``GET /v1/games/<id>/events``: the feed after ``after``, long-polling up to ``wait`` seconds."""
        params = _params(after=after, wait=wait, view="true" if view else None, limit=limit,
                         messages_after=messages_after)
        return cast(EventPage, self._json("GET", f"/v1/games/{game_id}/events", params=params, retry=True,
                                          timeout=self.timeout + wait))

    def stream(self, game_id: str, *, view: bool = True, after: int = 0, messages_after: str | None = None,
               last_event_id: str | None = None, read_timeout: float = 45.0) -> EventStream:
        """``GET /v1/games/<id>/events/stream``: an iterator of events that reconnects by itself.

        With ``view`` (the default) the stream opens with this player's game view and
        sends it again after each page of events (frames of type ``game``).
        """
        return EventStream(self, game_id, view=view, after=after, messages_after=messages_after,
                           last_event_id=last_event_id, read_timeout=read_timeout)

    def replay(self, game_id: str, version: int | None = None) -> Replay:
        """``GET /v1/games/<id>/replay``: the game as this player saw it at ``version`` (default: now)."""
        return cast(Replay, self._json("GET", f"/v1/games/{game_id}/replay", params=_params(version=version),
                                       retry=True))

    def log_ndjson(self, game_id: str) -> bytes:
        """``GET /v1/games/<id>/log``: the hash-chained log as NDJSON bytes, as ``intrigue verify`` reads it."""
        return self.request("GET", f"/v1/games/{game_id}/log", headers={"Accept": "application/x-ndjson"},
                            retry=True).content

    def log(self, game_id: str) -> list[dict[str, Any]]:
        """The finished game's log, one envelope per event."""
        return _ndjson(self.log_ndjson(game_id))

    def transcript(self, game_id: str) -> str:
        """``GET /v1/games/<id>/transcript``: a finished game as text, the table talk in place."""
        return self.request("GET", f"/v1/games/{game_id}/transcript", headers={"Accept": "text/plain"},
                            retry=True).text

    # ------------------------------------------------------------------ table talk
    def send_message(self, game_id: str, text: str, to: int | None = None) -> Message:
        """``POST /v1/games/<id>/messages``: to the whole table, or privately to seat ``to``."""
        return cast(Message, self._json("POST", f"/v1/games/{game_id}/messages", body={"text": text, "to": to}))

    def messages(self, game_id: str, *, after: str | None = None) -> MessagePage:
        """``GET /v1/games/<id>/messages``: the messages this player may read, after the id ``after``."""
        return cast(MessagePage, self._json("GET", f"/v1/games/{game_id}/messages", params=_params(after=after),
                                            retry=True))

    # ------------------------------------------------------------------ standing orders
    def set_orders(self, game_id: str, orders: list[StandingOrder]) -> list[StandingOrder]:
        """``PUT /v1/games/<id>/orders``: replace this seat's standing orders (at most 20); the
        answer is them with their defaults. Replacing is safe to repeat, so it is retried."""
        return cast(list[StandingOrder], self._json("PUT", f"/v1/games/{game_id}/orders", body={"orders": orders},
                                                    retry=True)["orders"])

    def orders(self, game_id: str) -> list[StandingOrder]:
        """``GET /v1/games/<id>/orders``: this seat's standing orders (nobody else can read them)."""
        return cast(list[StandingOrder], self._json("GET", f"/v1/games/{game_id}/orders", retry=True)["orders"])

    def clear_orders(self, game_id: str) -> None:
        """``DELETE /v1/games/<id>/orders``: this seat keeps no standing orders in the game."""
        self.request("DELETE", f"/v1/games/{game_id}/orders", retry=True).close()

    # ------------------------------------------------------------------ me
    def my_games(self, *, awaiting_me: bool = False, limit: int | None = None,
                 cursor: str | None = None) -> MyGamesPage:
        """``GET /v1/me/games``: newest first; ``awaiting_me`` gives the inbox, soonest deadline first."""
        params = _params(awaiting="me" if awaiting_me else None, limit=limit, cursor=cursor)
        return cast(MyGamesPage, self._json("GET", "/v1/me/games", params=params, retry=True))

    def iter_my_games(self, *, awaiting_me: bool = False, page_size: int | None = None) -> Iterator[MyGame]:
        """Every game of this player's (or every one awaiting it), page after page."""
        cursor: str | None = None
        while True:
            page = self.my_games(awaiting_me=awaiting_me, limit=page_size, cursor=cursor)
            yield from page["games"]
            cursor = page["next_cursor"]
            if cursor is None:
                return

    def create_webhook(self, url: str, events: list[WebhookEvent]) -> WebhookCreated:
        """``POST /v1/me/webhooks``: the answer holds the signing ``secret``, shown only this once."""
        return cast(WebhookCreated, self._json("POST", "/v1/me/webhooks", body={"url": url, "events": events}))

    def webhooks(self) -> list[Webhook]:
        """``GET /v1/me/webhooks``: this player's webhooks (never their secrets)."""
        return cast(list[Webhook], self._json("GET", "/v1/me/webhooks", retry=True)["webhooks"])

    def delete_webhook(self, webhook_id: str) -> None:
        """``DELETE /v1/me/webhooks/<id>``."""
        self.request("DELETE", f"/v1/me/webhooks/{webhook_id}", retry=True).close()

    def deliveries(self, webhook_id: str) -> list[Delivery]:
        """``GET /v1/me/webhooks/<id>/deliveries``: the recent deliveries, their status and next retry."""
        return cast(list[Delivery], self._json("GET", f"/v1/me/webhooks/{webhook_id}/deliveries",
                                               retry=True)["deliveries"])

    def tokens(self) -> list[Token]:
        """``GET /v1/me/tokens``: this player's tokens (ids, dates and scopes; never a token)."""
        return cast(list[Token], self._json("GET", "/v1/me/tokens", retry=True)["tokens"])

    def create_token(self, scopes: list[Scope] | None = None) -> Token:
        """``POST /v1/me/tokens``: another token, shown once (in ``token``); ``scopes`` limits it."""
        body = {"scopes": list(scopes)} if scopes is not None else None
        return cast(Token, self._json("POST", "/v1/me/tokens", body=body))

    def revoke_token(self, token_id: str) -> None:
        """``DELETE /v1/me/tokens/<id>``: the token stops working within seconds."""
        self.request("DELETE", f"/v1/me/tokens/{token_id}", retry=True).close()

    # ------------------------------------------------------------------ tournaments
    def create_tournament(self, game: str, seats_per_table: int, rounds: int, starts_at: str, min_players: int, *,
                          max_players: int | None = None, time_control: TimeControl | None = None,
                          options: Mapping[str, Any] | None = None, rated: bool = True,
                          round_seconds: int | None = None, name: str | None = None) -> dict[str, Any]:
        """``POST /v1/tournaments``: a Swiss tournament of ``game`` (``starts_at`` in ISO 8601, UTC)."""
        body: dict[str, Any] = {"game": game, "seats_per_table": seats_per_table, "rounds": rounds,
                                "starts_at": starts_at, "min_players": min_players, "max_players": max_players,
                                "options": dict(options or {}), "rated": rated}
        if time_control is not None:
            body["time_control"] = dict(time_control)
        if round_seconds is not None:
            body["round_seconds"] = round_seconds
        if name is not None:
            body["name"] = name
        return cast(dict[str, Any], self._json("POST", "/v1/tournaments", body=body))

    def tournaments(self, status: str = "open", *, limit: int | None = None,
                    cursor: str | None = None) -> dict[str, Any]:
        """``GET /v1/tournaments?status=open|running|finished``: one page, oldest first."""
        params = _params(status=status, limit=limit, cursor=cursor)
        return cast(dict[str, Any], self._json("GET", "/v1/tournaments", params=params, retry=True))

    def tournament(self, tournament_id: str) -> dict[str, Any]:
        """``GET /v1/tournaments/<id>``: settings, standings, every round's tables and results."""
        return cast(dict[str, Any], self._json("GET", f"/v1/tournaments/{tournament_id}", retry=True))

    def join_tournament(self, tournament_id: str) -> dict[str, Any]:
        """``POST /v1/tournaments/<id>/join`` before the start (joining twice is harmless, so it is retried)."""
        return cast(dict[str, Any], self._json("POST", f"/v1/tournaments/{tournament_id}/join", retry=True))

    def leave_tournament(self, tournament_id: str) -> dict[str, Any]:
        """``POST /v1/tournaments/<id>/leave`` before the start."""
        return cast(dict[str, Any], self._json("POST", f"/v1/tournaments/{tournament_id}/leave"))

    def start_tournament(self, tournament_id: str) -> dict[str, Any]:
        """``POST /v1/tournaments/<id>/start``: its creator starts it early, once ``min_players`` joined."""
        return cast(dict[str, Any], self._json("POST", f"/v1/tournaments/{tournament_id}/start"))

    def withdraw_from_tournament(self, tournament_id: str) -> dict[str, Any]:
        """``POST /v1/tournaments/<id>/withdraw``: never paired again; your running games there are resigned."""
        return cast(dict[str, Any], self._json("POST", f"/v1/tournaments/{tournament_id}/withdraw"))

    def tournament_log_ndjson(self, tournament_id: str) -> bytes:
        """``GET /v1/tournaments/<id>/log``: the hash-chained stream as NDJSON, as ``intrigue verify`` reads it."""
        return self.request("GET", f"/v1/tournaments/{tournament_id}/log",
                            headers={"Accept": "application/x-ndjson"}, retry=True).content

    def tournament_log(self, tournament_id: str) -> list[dict[str, Any]]:
        """The tournament's stream (public at any time), one envelope per event."""
        return _ndjson(self.tournament_log_ndjson(tournament_id))

    # ------------------------------------------------------------------ transparency log

    def keys(self) -> list[SigningKey]:
        """``GET /v1/keys``: the server's signing keys (one Ed25519 key)."""
        return cast(list[SigningKey], self._json("GET", "/v1/keys", retry=True)["keys"])

    def checkpoint(self) -> str:
        """``GET /v1/transparency/checkpoint``: the log's signed head, a C2SP signed note."""
        return self.request("GET", "/v1/transparency/checkpoint", headers={"Accept": "text/plain"}, retry=True).text

    def inclusion_proof(self, game_id: str, size: int) -> InclusionProof:
        """``GET /v1/transparency/inclusion``: the proof that a finished game is in the tree of ``size`` leaves."""
        return cast(InclusionProof, self._json("GET", "/v1/transparency/inclusion",
                                               params={"game": game_id, "size": size}, retry=True))

    def consistency_proof(self, first: int, second: int) -> list[str]:
        """``GET /v1/transparency/consistency``: the proof that the tree of ``second`` extends that of ``first``."""
        return cast(list[str], self._json("GET", "/v1/transparency/consistency",
                                          params={"from": first, "to": second}, retry=True)["hashes"])

    def cosign(self, checkpoint: str, cosignature: str, public_key: str) -> Cosigned:
        """``POST /v1/transparency/cosignatures``: a witness's C2SP cosignature line of ``checkpoint``
        (as :meth:`checkpoint` gave it), by the Ed25519 key ``public_key`` (base64); ``intrigue witness``
        sends it after checking the log grew honestly. Later checkpoints of that size carry it."""
        body = {"checkpoint": checkpoint, "cosignature": cosignature, "public_key": public_key}
        return cast(Cosigned, self._json("POST", "/v1/transparency/cosignatures", body=body))

    def export_games(self, player_id: str, *, since: str | int | None = None,
                     logs: bool = False) -> Iterator[ExportedGame]:
        """``GET /v1/players/<id>/games/export``: the player's finished games, oldest end first, as they stream.

        ``since`` (a line's ``ended_at``, or Unix milliseconds) resumes an export: the games
        that ended at that moment come again, so keep the ids you have. ``logs`` puts each
        game's whole published log in its line (``log``). Each export spends one token of the
        caller's export bucket: a ``429`` is waited out as for any request.
        """
        params = _params(since=since, logs="true" if logs else None)
        response = self.request("GET", f"/v1/players/{player_id}/games/export", params=params,
                                headers={"Accept": "application/x-ndjson"}, retry=True, stream=True)
        with response:
            for line in response.iter_lines():
                if line.strip():
                    yield cast(ExportedGame, json.loads(line))

    def openapi(self) -> dict[str, Any]:
        """``GET /v1/openapi.json``: the API's own description."""
        return cast(dict[str, Any], self._json("GET", "/v1/openapi.json", retry=True))


def parse_rate_limit(header: str) -> dict[str, tuple[int, float]]:
    """``"player";r=42;t=1, "address";r=9;t=0`` (draft-ietf-httpapi-ratelimit-headers) as
    ``{"player": (42, 1.0), "address": (9, 0.0)}``; an item it cannot read is left out."""
    found: dict[str, tuple[int, float]] = {}
    for item in header.split(","):
        name, *params = item.strip().split(";")
        values = dict(param.strip().partition("=")[::2] for param in params)
        try:
            found[name.strip().strip('"')] = (int(values["r"]), float(values["t"]))
        except (KeyError, ValueError):
            continue
    return found


def _ndjson(content: bytes) -> list[dict[str, Any]]:
    """NDJSON bytes as their objects, blank lines skipped."""
    return [json.loads(line) for line in content.splitlines() if line.strip()]


def _params(**values: Any) -> dict[str, Any]:
    return {name: value for name, value in values.items() if value is not None}


def _problem_of(response: requests.Response) -> dict[str, Any]:
    try:
        body = response.json()
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


def _retry_after(response: requests.Response, problem: Mapping[str, Any]) -> float:
    """Seconds to wait: the body's exact ``retry_after``, else the ``Retry-After`` header, else 0."""
    exact = problem.get("retry_after")
    if isinstance(exact, int | float) and exact >= 0:
        return float(exact)
    try:
        return max(0.0, float(response.headers.get("Retry-After", "0")))
    except ValueError:  # an HTTP date: rare from this server; back off normally instead
        return 0.0
