"""The SDK's transparency calls against the real server: the key, checkpoints, both proofs and a cosignature."""

from __future__ import annotations

import base64
import time

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from intrigue_client import BadCosignature, BadRange, BeyondLog, Client, NotInLog

from engine.signing import cosignature_line, public_bytes, verify_note
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


def test_a_witness_cosigns_through_the_sdk_and_later_checkpoints_carry_it(server: str) -> None:
    client = Client(server)
    resigned_game(server, "sdk-tlog-w")
    (key,) = client.keys()
    note = client.checkpoint()
    text = verify_note(note, "intrigue/transparency", base64.b64decode(key["public_key"]))
    witness_key = Ed25519PrivateKey.generate()
    line = cosignature_line(witness_key, "witness.sdk", text, int(time.time()))
    public_key = base64.b64encode(public_bytes(witness_key.public_key())).decode()
    answer = client.cosign(note, line, public_key)
    assert answer["witness"].startswith("witness.sdk+") and answer["size"] == int(text.splitlines()[1])
    assert line.rstrip("\n") in client.checkpoint().splitlines()
    with pytest.raises(BadCosignature):  # the same line for another key does not hold
        client.cosign(note, line, base64.b64encode(public_bytes(Ed25519PrivateKey.generate().public_key())).decode())
