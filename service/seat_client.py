"""``intrigue bot``: one of our bots plays a seat from outside, through the Python SDK.

The bot is a client like any other: it reads its seat's view, legal actions and feed over
HTTP with ``intrigue_client`` and turns them into the :class:`bots.Observation` the
in-process bots are given, so the very same strategy plays either side of the API. The
server's install does not need the SDK: it is imported only when this command runs.
"""

from __future__ import annotations

import random
import sys
from typing import Any

from bots import Bot as Strategy
from bots import Observation, ObservedEvent
from bots.ismcts import Budget
from engine.seat_bots import make_bot
from events.envelope import PLATFORM_EVENTS

#: What ``intrigue bot`` says when the SDK is missing (one line, then exit 2).
NO_SDK = "the Python SDK is needed: pip install -e clients/python (the intrigue-client distribution)"


class SeatHistory:
    """The seat's own feed as a bot's history: the game's events as redacted for the seat.

    Platform events (joins, missed deadlines) and table talk say nothing of the game and
    are left out, as in the history a bot worker builds from the stored events.
    """

    def __init__(self) -> None:
        self.events: list[ObservedEvent] = []
        self.version = 0

    def add(self, item: dict[str, Any]) -> None:
        """One feed item (``GET .../events`` or a stream frame); items already seen are skipped."""
        seq = item.get("seq")
        if seq is None or seq <= self.version:
            return
        self.version = seq
        if item["type"] not in PLATFORM_EVENTS:
            self.events.append(ObservedEvent(item["type"], item["data"], item["actor"]))


def observation_from_feed(view: dict[str, Any], history: SeatHistory) -> Observation:
    """A bots.Observation from what the SDK gives a seat: its game view and its feed."""
    return Observation(game=view["game"], seat=view["seat"], view=view["view"],
                       legal_actions=list(view["legal_actions"]), history=tuple(history.events))


def play_seat(url: str, token: str, game_id: str, strategy: str, budget: Budget, seed: int | None = None) -> int:
    """Sit ``strategy`` in the token's seat of ``game_id`` (joining an open game) and play to the end.

    Returns the exit status: 0 once the game is over, 1 when the server refused or could not
    be reached (one line on stderr), 2 when the SDK is not installed.
    """
    try:
        import intrigue_client
    except ImportError:
        print(f"intrigue bot: {NO_SDK}", file=sys.stderr)
        return 2
    client = intrigue_client.Client(url, token)
    bot = make_bot(strategy, budget)
    try:
        seated = client.game(game_id)
        if seated["seat"] is None:
            seated = client.join(game_id)["game"]
        seat_bot = _seat_bot_class(intrigue_client.Bot)(client, game_id, bot, random.Random(seed))
        final = seat_bot.play(game_id)
    except intrigue_client.IntrigueError as err:
        print(f"intrigue bot: {type(err).__name__}: {err}", file=sys.stderr)
        return 1
    won = seated["seat"] in (final.get("winners") or [])
    print(f"game {game_id} over: seat {seated['seat']} ({strategy}) {'won' if won else 'did not win'}; "
          f"winners {final.get('winners')}", flush=True)
    return 0


def _seat_bot_class(base: type) -> type:
    """The SDK's ``Bot`` made to play a :mod:`bots` strategy (built here: the SDK is imported late)."""

    class SeatBot(base):  # type: ignore[misc, valid-type]
        def __init__(self, client: Any, game_id: str, strategy: Strategy, rng: random.Random) -> None:
            super().__init__(client)
            self.game_id = game_id
            self.strategy = strategy
            self.rng = rng
            self.history = SeatHistory()

        def on_event(self, event: Any) -> None:
            self.history.add(event.data)

        def choose(self, view: Any, legal_actions: list[dict[str, Any]]) -> dict[str, Any]:
            # An action's answer can bring a view ahead of the stream: read the feed up to it first.
            after = self.history.version
            while after < view["version"]:
                page = self.client.events(self.game_id, after=after)
                for item in page["events"]:
                    self.history.add(item)
                if page["version"] <= after:
                    break
                after = page["version"]
            return dict(self.strategy.choose(observation_from_feed(view, self.history), self.rng))

    return SeatBot
