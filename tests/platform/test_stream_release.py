"""An event stream handed to the server as bytes still ends its watch when the response closes."""

from __future__ import annotations

from engine.core import Engine
from engine.settings import Limits
from service.app import create_app
from tests.platform.test_front import toy_game


def test_a_closed_stream_leaves_no_watch_behind(engine: Engine) -> None:
    client = create_app(engine, limits=Limits.off()).test_client()
    game_id, auth = toy_game(client)
    response = client.get(f"/v1/games/{game_id}/events/stream?view=true", headers=auth[0], buffered=False)
    assert response.status_code == 200
    assert response.mimetype == "text/event-stream"
    frames = iter(response.response)
    opening = next(frames)
    assert isinstance(opening, bytes) and opening.startswith(b": intrigue event stream\n\nevent: game\ndata: {")
    page = next(frames)  # the events so far, then the seat's view
    assert b"event: GameCreated\n" in page and page.endswith(b"\n\n")
    assert engine.watcher.watching() == 1
    response.close()
    assert engine.watcher.watching() == 0
