"""Fair shuffles over HTTP (issue 52, item 1), against ``intrigue serve`` and real Redis.

Two seats of a three-seat Coup join with commitments and one without: the game waits
(``starting``) for the two secrets, refuses a secret that does not match its commitment
and the calls that make no sense, then deals from the server's seed mixed with the two
secrets. After the end the log holds both, ``intrigue verify`` recomputes the mix and
replays the deal, and a log whose secret was changed (its chain sealed anew) fails.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from pathlib import Path

import pytest

from events.entropy import mix_seed
from events.envelope import GENESIS_HASH, Envelope, seal
from games.base import derive_rng
from games.registry import load
from projections.audit import AuditError, audit, game_events, read_log
from service.cli import main
from tests.integration.test_api_reference import finish
from tests.support.client import Client


def committed() -> tuple[str, str]:
    """A secret of 32 random bytes and its commitment, in hex."""
    secret = secrets.token_bytes(32)
    return secret.hex(), hashlib.sha256(secret).hexdigest()


def test_two_committed_seats_and_one_not_deal_from_the_mixed_seed(server: str, tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    players = [Client.register(server, f"fair{i}") for i in range(3)]
    stranger = Client.register(server, "fair-stranger")
    game_id = players[0].create_game("coup", 3)
    (secret0, commitment0), (secret1, commitment1) = committed(), committed()
    # Revealing before every seat is taken: refused (the commitments are not all fixed yet).
    players[0].post(f"/v1/games/{game_id}/join", {"commitment": commitment0})
    early = players[0].request("POST", f"/v1/games/{game_id}/reveal", {"secret": secret0})
    assert early.status_code == 409 and early.json()["code"] == "game_not_starting"
    players[1].post(f"/v1/games/{game_id}/join", {"commitment": commitment1})
    joined = players[2].post(f"/v1/games/{game_id}/join")
    view = joined["game"]
    assert view["status"] == "starting" and view["entropy"] == {"0": "committed", "1": "committed"}
    assert view["legal_actions"] == [] and view["deadline"] is not None
    version = view["version"]

    def refused(client: Client, body: object, status: int, code: str) -> None:
        response = client.request("POST", f"/v1/games/{game_id}/reveal", body)
        assert response.status_code == status and response.json()["code"] == code, response.text
        assert players[0].game(game_id)["version"] == version  # nothing changed

    refused(players[0], {"secret": secret1}, 422, "bad_reveal")  # another seat's secret
    refused(players[0], {"secret": "zz" * 32}, 422, "bad_reveal")
    refused(players[2], {"secret": secret0}, 409, "nothing_to_reveal")
    refused(stranger, {"secret": secret0}, 403, "not_seated")
    refused(players[0], {}, 400, "invalid_body")
    moved = players[0].request("POST", f"/v1/games/{game_id}/actions", {"type": "income"})
    assert moved.status_code == 409 and moved.json()["code"] == "game_not_started"

    first = players[1].post(f"/v1/games/{game_id}/reveal", {"secret": secret1})["game"]
    assert first["status"] == "starting" and first["entropy"] == {"0": "committed", "1": "revealed"}
    assert players[1].post(f"/v1/games/{game_id}/reveal", {"secret": secret1})["game"]["version"] == first["version"]
    # A spectator's feed says who revealed, not the secret.
    feed = Client(server).events(game_id)["events"]
    shown = [e for e in feed if e["type"] == "SecretRevealed"]
    assert shown == [{**shown[0], "data": {"seat": 1}}]
    started = players[0].post(f"/v1/games/{game_id}/reveal", {"secret": secret0})["game"]
    assert started["status"] == "active" and started["entropy"] == {"0": "revealed", "1": "revealed"}
    again = players[0].request("POST", f"/v1/games/{game_id}/reveal", {"secret": secret1})
    assert again.status_code == 409 and again.json()["code"] == "game_not_starting"

    finish(server, game_id, players)
    text = players[0].request("GET", f"/v1/games/{game_id}/log").text
    events = game_events(read_log(text.splitlines()))
    ended = next(e for e in events if e.type == "GameEnded")
    revealed = {str(e.data["seat"]): e.data["secret"] for e in events if e.type == "SecretRevealed"}
    assert revealed == {"0": secret0, "1": secret1}
    # The deal is the rules' setup drawn from the mix, at the seq of the batch that started the game.
    mixed = mix_seed(ended.data["seed"], revealed)
    assert mixed != ended.data["seed"]
    start = next(e for e in events if e.type == "GameStarted")
    assert start.data == {"entropy": {"0": "revealed", "1": "revealed"}, "dropped": []}
    batch = [e for e in events if e.cause.get("batch") == start.cause["batch"]]
    after_start = batch[batch.index(start) + 1:]
    setup = load("coup").setup({"deck": None}, 3, derive_rng(mixed, start.cause["batch"]))
    assert [(e.type, dict(e.data)) for e in after_start] == [(d.type, json.loads(json.dumps(d.data))) for d in setup]
    transcript = players[0].request("GET", f"/v1/games/{game_id}/transcript").text
    assert "reveals its secret for the shuffle" in transcript and "Every seat is taken" in transcript
    log = tmp_path / "fair.ndjson"
    log.write_text(text)
    assert main(["verify", str(log), "--url", server]) == 0
    capsys.readouterr()

    # One secret changed, the chain sealed anew: the audit names the reveal.
    forged: list[Envelope] = []
    prev = GENESIS_HASH
    for event in events:
        data = dict(event.data)
        if event.type == "SecretRevealed" and data["seat"] == 0:
            data["secret"] = secret1
        forged.append(seal(event.seq, event.type, event.at, event.actor, data, event.cause, prev))
        prev = forged[-1].hash
    with pytest.raises(AuditError, match="does not match its commitment"):
        audit(forged)
    assert audit(events).finished


def test_a_malformed_commitment_is_refused(server: str) -> None:
    host = Client.register(server, "fair-host")
    game_id = host.create_game("coup", 2)
    for body in ({"commitment": "ABC"}, {"commitment": "g" * 64}, {"commitment": "A" * 64}):
        response = host.request("POST", f"/v1/games/{game_id}/join", body)
        assert response.status_code == 422 and response.json()["code"] == "bad_commitment", response.text
    response = host.request("POST", f"/v1/games/{game_id}/join", {"commitment": 12})
    assert response.status_code == 400 and response.json()["code"] == "invalid_body"
    assert host.game(game_id)["players"] == [None, None]  # nothing changed
