"""``GET /v1/players/<id>/games/export`` over HTTP (issue 52, item 4), against ``intrigue serve``.

A player's finished games stream as NDJSON, one a line, oldest end first; ``since``
resumes, ``logs=true`` carries each game's whole log (which ``intrigue verify`` accepts as
published); a game still in play is not there; each caller has an export bucket of its
own; bad queries and unknown players get problems.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import requests

from engine.export import EXPORT_BURST
from events.envelope import parse_time
from service.cli import main
from tests.support.client import Client


def resigned_game(host: Client, guest: Client) -> str:
    """A two-seat Coup that ends at once: the guest resigns."""
    game_id = host.create_game("coup", 2)
    host.join(game_id)
    guest.join(game_id)
    guest.post(f"/v1/games/{game_id}/resign")
    return game_id


def export(server: str, player_id: str, token: str | None = None, **params: str) -> requests.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return requests.get(f"{server}/v1/players/{player_id}/games/export", params=params, headers=headers, timeout=30)


def lines_of(response: requests.Response) -> list[dict]:
    assert response.status_code == 200, response.text
    assert response.headers["Content-Type"].startswith("application/x-ndjson")
    return [json.loads(line) for line in response.text.splitlines() if line]


def test_finished_games_stream_oldest_first_and_resume_with_since(server: str, tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    host, guest = Client.register(server, "exportA-host"), Client.register(server, "exportA-guest")
    first, second = resigned_game(host, guest), resigned_game(host, guest)
    playing = host.create_game("coup", 2)
    host.join(playing)
    guest.join(playing)  # started, not finished: not exported

    games = lines_of(export(server, host.player_id, host.token))
    assert [g["id"] for g in games] == [first, second]
    line = games[0]
    assert set(line) == {"id", "title", "players", "result", "rated", "final_hash", "seed_hash", "created_at",
                         "ended_at"}
    assert line["title"] == "coup" and line["rated"] is True
    assert [p["id"] for p in line["players"]] == [host.player_id, guest.player_id]
    assert line["result"]["winners"] == [0] and isinstance(line["result"]["reason"], str)
    log = requests.get(f"{server}/v1/games/{first}/log", timeout=10).text.splitlines()
    assert line["final_hash"] == json.loads(log[-2])["hash"] and line["ended_at"] == json.loads(log[-2])["at"]
    assert games[0]["ended_at"] <= games[1]["ended_at"]

    # Resuming from the second game's end gives it (and what follows) only; so do Unix milliseconds.
    assert [g["id"] for g in lines_of(export(server, guest.player_id, guest.token, since=games[1]["ended_at"]))] \
        == [second]
    ms = str(int(parse_time(games[1]["ended_at"]).timestamp() * 1000))
    assert [g["id"] for g in lines_of(export(server, guest.player_id, since=ms))] == [second]

    # With logs: each line holds the whole published log, which intrigue verify accepts.
    with_logs = lines_of(export(server, host.player_id, host.token, logs="true", since=games[1]["ended_at"]))
    assert [g["id"] for g in with_logs] == [second]
    published = [json.dumps(event, separators=(",", ":"), ensure_ascii=False) for event in with_logs[0]["log"]]
    assert with_logs[0]["log"][-1]["type"] == "LogSigned"
    assert with_logs[0]["log"] == [json.loads(e) for e in
                                   requests.get(f"{server}/v1/games/{second}/log", timeout=10).text.splitlines()]
    kept = tmp_path / "second.ndjson"
    kept.write_text("\n".join(published) + "\n")
    assert main(["verify", str(kept), "--url", server]) == 0
    capsys.readouterr()


def test_each_caller_has_an_export_bucket_of_its_own(server: str) -> None:
    reader, other = Client.register(server, "exportB-reader"), Client.register(server, "exportB-other")
    answers = [export(server, reader.player_id, reader.token) for _ in range(EXPORT_BURST + 1)]
    assert [a.status_code for a in answers[:EXPORT_BURST]] == [200] * EXPORT_BURST
    limited = answers[-1]
    assert limited.status_code == 429 and limited.json()["code"] == "rate_limited"
    assert "export" in limited.json()["detail"] and int(limited.headers["Retry-After"]) >= 1
    assert export(server, reader.player_id, other.token).status_code == 200  # another caller's bucket is full


@pytest.mark.parametrize("params", [{"since": "yesterday"}, {"since": "2026-11-29T10:00:00"}, {"logs": "maybe"},
                                    {"since": "9" * 16}])
def test_bad_queries_are_problems(server: str, params: dict[str, str]) -> None:
    player = Client.register(server, "exportC")
    response = export(server, player.player_id, player.token, **params)
    assert response.status_code == 400 and response.json()["code"] == "bad_query"


def test_an_unknown_player_is_404(server: str) -> None:
    player = Client.register(server, "exportD")
    response = export(server, "no-such-player", player.token)
    assert response.status_code == 404 and response.json()["code"] == "player_not_found"
