"""A base class for bots: write :meth:`Bot.choose`, call :meth:`Bot.play`."""

from __future__ import annotations

from intrigue_client.client import Client
from intrigue_client.errors import GameOver, StaleView
from intrigue_client.stream import StreamEvent
from intrigue_client.types import Action, GameView


class Bot:
    """Plays one seat: follows the game's stream and acts once for each decision the seat owes.

    A subclass writes :meth:`choose`; it may also override :meth:`on_event` to watch the
    table (every event the seat may see, table talk included). The bot needs no rules of
    its own: the view it is given lists every legal action, complete and ready to post.
    """

    def __init__(self, client: Client) -> None:
        self.client = client

    def choose(self, view: GameView, legal_actions: list[Action]) -> Action:
        """The action to play now: one of ``legal_actions`` (``view["view"]`` is what the seat sees)."""
        raise NotImplementedError

    def on_event(self, event: StreamEvent) -> None:
        """Called with each event of the game's feed, in order."""

    def play(self, game_id: str) -> GameView:
        """Play the seat this player holds in ``game_id`` until the game ends; return the final view.

        The bot sees the game's history (``on_event``) before its first decision. Each
        decision is posted once with ``If-Match`` (the version it was made on) and
        its own ``Idempotency-Key``, retried with that key while its outcome is unknown. If
        someone moved first, the bot decides again on the fresh view the error carries.
        """
        latest: GameView | None = None
        decided_on: int | None = None
        history_seen = False
        with self.client.stream(game_id, view=True) as stream:
            for event in stream:
                if not event.is_view:
                    history_seen = True
                    self.on_event(event)
                    continue
                if not history_seen:
                    # The stream's opening view: the game's history follows, then the same view
                    # again. Deciding after the history lets on_event see it all first.
                    continue
                view: GameView = self.client.reveal_if_due(event.data)  # type: ignore[arg-type]  # a view event carries a GameView
                if latest is not None and view["version"] < latest["version"]:
                    continue  # the stream is behind what an action's answer already told us
                latest = view
                while owes_decision(latest) and latest["version"] != decided_on:
                    decided_on = latest["version"]
                    action = self.choose(latest, latest["legal_actions"])
                    try:
                        latest = self.client.act(game_id, action, if_match=decided_on)["game"]
                    except StaleView as err:
                        if err.game is None:
                            break  # the stream will bring the fresh view
                        latest = err.game
                    except GameOver:
                        return self.client.game(game_id)
                if latest["status"] == "finished":
                    return latest
        return self.client.game(game_id)


def owes_decision(view: GameView) -> bool:
    """Whether the seat owes an answer now: the game is on, awaits this seat, and offers it actions.

    A seat that may revise a choice it already sealed has legal actions too, but is not
    awaited: its decision is answered.
    """
    return (view["status"] == "active" and bool(view["legal_actions"])
            and view["seat"] is not None and view["seat"] in view["awaiting"])
