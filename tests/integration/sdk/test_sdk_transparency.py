"""The SDK's transparency calls against the real server: the key, checkpoints and both proofs."""

from __future__ import annotations

import base64

import pytest
from intrigue_client import BadRange, BeyondLog, Client, NotInLog

from engine.signing import verify_note
from engine.transparency import leaf_bytes
from events import merkle
from tests.support.polling import wait_until


def resigned_game(server: str, tag: str) -> str:
    """A two-seat Coup ended by a resignation, once its leaf is in the log."""
    host, guest = (Client.register(server, f"{tag}-{n}") for n in ("host", "guest"))
    game_id = host.create_game("coup", 2)["id"]
    host.join(game_id)
    guest.join(game_id)
    host.game(game_id)  # both committed: the host's client reveals too, which starts the game
    guest.resign(game_id)

    def in_log() -> bool:
        try:
            host.inclusion_proof(game_id, 2**40)
        except NotInLog:
            return False
        except BeyondLog:
            return True
        raise AssertionError("a size past the log was accepted")

    wait_until(in_log, f"game {game_id}'s leaf")
    return game_id


def signed_head(client: Client) -> tuple[int, bytes]:
    (key,) = client.keys()
    text = verify_note(client.checkpoint(), "intrigue/transparency", base64.b64decode(key["public_key"]))
    _, size, root = text.splitlines()
    return int(size), base64.b64decode(root)


def test_a_resigned_game_is_proved_and_the_log_only_grows(server: str) -> None:
    client = Client(server)
    game_id = resigned_game(server, "sdk-tlog-a")
    size, root = signed_head(client)
    proof = client.inclusion_proof(game_id, size)
    assert proof["leaf"]["game"] == game_id
    assert merkle.verify_inclusion(merkle.leaf_hash(leaf_bytes(proof["leaf"])), proof["index"], size,
                                   [base64.b64decode(h) for h in proof["hashes"]], root)
    resigned_game(server, "sdk-tlog-b")
    later_size, later_root = signed_head(client)
    hashes = [base64.b64decode(h) for h in client.consistency_proof(size, later_size)]
    assert merkle.verify_consistency(size, later_size, root, later_root, hashes)
    with pytest.raises(NotInLog):
        client.inclusion_proof("no-such-game", later_size)
    with pytest.raises(BeyondLog):
        client.consistency_proof(1, 2**40)
    with pytest.raises(BadRange):
        client.consistency_proof(later_size, size)
