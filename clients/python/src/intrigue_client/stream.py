"""The event stream: ``GET /v1/games/<id>/events/stream`` as an iterator that outlives dropped connections.

Each frame the server sends has an id (the event's version, with the chat position once
table talk has passed); the iterator remembers the last one and, when the connection
drops, opens the stream again with ``Last-Event-ID`` so that nothing is lost and nothing
comes twice. It stops once the game is over and the server has sent everything.
"""

from __future__ import annotations

import json
from collections.abc import Generator, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import requests
from sseclient import SSEClient

from intrigue_client.errors import ConnectionFailed

if TYPE_CHECKING:
    from intrigue_client.client import Client

#: The frame type that carries the caller's game view (with ``view=true``).
VIEW = "game"


@dataclass(frozen=True)
class StreamEvent:
    """One frame: ``type`` is the event's type (``TurnStarted``, ``ChatMessage``...) or ``game``."""

    id: str | None
    type: str
    data: dict[str, Any]

    @property
    def is_view(self) -> bool:
        """True for a ``game`` frame: ``data`` is then a :class:`~intrigue_client.types.GameView`."""
        return self.type == VIEW

    @property
    def ends_game(self) -> bool:
        return self.type == "GameEnded" or (self.is_view and self.data.get("status") == "finished")


class EventStream(Iterator[StreamEvent]):
    """Iterate to receive frames; ``close()`` (or leaving a ``with`` block) hangs up.

    ``reconnects`` counts the times the stream was opened again; ``last_event_id`` is
    where it would resume. Consecutive failed reconnections are bounded by the
    client's ``retries``; a frame received resets the count.
    """

    def __init__(self, client: Client, game_id: str, *, view: bool = True, after: int = 0,
                 messages_after: str | None = None, last_event_id: str | None = None,
                 read_timeout: float = 45.0) -> None:
        self.client = client
        self.game_id = game_id
        self.view = view
        self.after = after
        self.messages_after = messages_after
        self.last_event_id = last_event_id
        self.read_timeout = read_timeout
        self.reconnects = 0
        self._response: requests.Response | None = None
        self._closed = False
        self._frames = self._run()

    def __iter__(self) -> EventStream:
        return self

    def __next__(self) -> StreamEvent:
        return next(self._frames)

    def __enter__(self) -> EventStream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._closed = True
        if self._response is not None:
            self._response.close()
        try:
            self._frames.close()
        except ValueError:  # closed from another thread while it reads: the closed response ends it
            pass

    def _open(self) -> requests.Response:
        headers = {"Accept": "text/event-stream", "Cache-Control": "no-cache"}
        if self.last_event_id is not None:
            headers["Last-Event-ID"] = self.last_event_id
        params: dict[str, Any] = {"view": "true"} if self.view else {}
        if self.after:
            params["after"] = self.after
        if self.messages_after is not None:
            params["messages_after"] = self.messages_after
        return self.client.request("GET", f"/v1/games/{self.game_id}/events/stream", params=params, headers=headers,
                                   retry=True, stream=True, timeout=(10.0, self.read_timeout))

    def _run(self) -> Generator[StreamEvent, None, None]:
        failures = 0
        ended = False
        while not self._closed:
            self._response = self._open()
            received = False
            dropped = True  # until the server ends the stream cleanly
            try:
                for frame in SSEClient(self._response.iter_content(chunk_size=None)).events():
                    try:
                        data = json.loads(frame.data)
                    except ValueError:  # a frame cut short by a connection that ended cleanly
                        break
                    if frame.id:
                        self.last_event_id = frame.id
                    event = StreamEvent(frame.id or None, frame.event, data)
                    received, failures = True, 0
                    ended = ended or event.ends_game
                    yield event
                else:
                    dropped = False
            except requests.RequestException:  # reset, truncated chunk, read timeout: the connection is gone
                pass
            finally:
                self._response.close()
            if ended or self._closed:
                return
            if not dropped and not received and self.client.game(self.game_id)["status"] == "finished":
                return  # a clean end with nothing new: the server had sent everything already
            if not received:
                failures += 1
                if failures > self.client.retries:
                    raise ConnectionFailed(f"the event stream of game {self.game_id} kept failing")
                self.client.sleep(self.client.backoff_delay(failures))
            self.reconnects += 1
