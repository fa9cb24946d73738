"""The SDK commits and reveals by itself, and streams a player's export (issue 52, items 1 and 4)."""

from __future__ import annotations

import hashlib

import pytest
from intrigue_client import BadReveal, Client, GameNotStarting

from events.entropy import mix_seed


def test_the_sdk_commits_on_join_and_reveals_when_the_game_starts(server: str) -> None:
    host, guest, plain = (Client.register(server, f"sdk-fair-{n}") for n in ("host", "guest", "plain"))
    game_id = host.create_game("coup", 3)["id"]
    host.join(game_id)
    plain.join(game_id, commit=False)
    joined = guest.join(game_id)  # the last seat: the game waits for the two secrets; the guest's goes at once
    assert joined["game"]["status"] == "starting"
    assert joined["game"]["entropy"] == {"0": "committed", "2": "revealed"}
    with pytest.raises(ValueError):
        plain.reveal(game_id)  # it kept no secret
    view = host.game(game_id)  # the host's client sees the game starting and reveals
    assert view["status"] == "active" and view["entropy"] == {"0": "revealed", "2": "revealed"}
    with pytest.raises(GameNotStarting):
        host.request("POST", f"/v1/games/{game_id}/reveal", body={"secret": "00" * 32})
    host.resign(game_id)
    guest.resign(game_id)  # one seat left in: the game ends
    # The log holds both secrets, each matching its commitment, and the mix is what the seed became.
    log = host.log(game_id)
    commitments = {str(e["data"]["seat"]): e["data"]["commitment"] for e in log
                   if e["type"] == "PlayerJoined" and "commitment" in e["data"]}
    secrets = {str(e["data"]["seat"]): e["data"]["secret"] for e in log if e["type"] == "SecretRevealed"}
    assert set(commitments) == set(secrets) == {"0", "2"}
    assert all(hashlib.sha256(bytes.fromhex(secrets[s])).hexdigest() == commitments[s] for s in secrets)
    seed = next(e["data"]["seed"] for e in log if e["type"] == "GameEnded")
    assert mix_seed(seed, secrets) != seed

    # The export streams the game, with its log on demand.
    assert host.player is not None
    (exported,) = [g for g in host.export_games(host.player["id"], logs=True) if g["id"] == game_id]
    assert exported["final_hash"] == exported["log"][-2]["hash"] and exported["log"][-1]["type"] == "LogSigned"


def test_a_wrong_secret_is_refused(server: str) -> None:
    host, guest = (Client.register(server, f"sdk-fair-bad-{n}") for n in ("host", "guest"))
    game_id = host.create_game("coup", 2)["id"]
    host.join(game_id)
    guest.join(game_id, commit=False)
    host._secrets[game_id] = "11" * 32  # not the secret its commitment hashes
    with pytest.raises(BadReveal):
        host.reveal(game_id)
    assert host.request("GET", f"/v1/games/{game_id}").json()["entropy"] == {"0": "committed"}
