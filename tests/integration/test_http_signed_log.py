"""The signed final record of a finished game's log (issue 52, item 2), against ``intrigue serve``.

The log a player downloads ends with ``LogSigned``: the server's Ed25519 signature of the
final hash. ``intrigue verify`` checks it with the key given (``--key``: inline or a file,
base64, PEM or the JSON of ``GET /v1/keys``) or published at ``--url``; a tampered
signature, a wrong key or a record cut off fail with a message saying so.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest
import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from engine.final_record import signed_message
from engine.signing import public_bytes
from events.envelope import seal
from service.cli import main
from tests.integration.test_http_transparency import finished_game, public_key


def test_the_log_ends_with_the_servers_signature_of_its_final_hash(server: str) -> None:
    game_id = finished_game(server, "signA")
    lines = requests.get(f"{server}/v1/games/{game_id}/log", timeout=10).text.splitlines()
    last, signed = json.loads(lines[-2]), json.loads(lines[-1])
    assert last["type"] == "GameEnded"
    assert signed["type"] == "LogSigned" and signed["prev"] == last["hash"] and signed["seq"] == last["seq"] + 1
    (key,) = requests.get(f"{server}/v1/keys", timeout=10).json()["keys"]
    assert signed["data"]["key_id"] == key["id"] and signed["data"]["alg"] == "Ed25519"
    assert signed["data"]["final_hash"] == last["hash"] and signed["data"]["game"] == game_id
    Ed25519PublicKey.from_public_bytes(public_key(server)).verify(
        base64.b64decode(signed["data"]["signature"]), signed_message(game_id, last["hash"]))
    # Served again, the record is the same (Ed25519 signs deterministically).
    assert requests.get(f"{server}/v1/games/{game_id}/log", timeout=10).text.splitlines()[-1] == lines[-1]


def test_intrigue_verify_checks_the_signature_with_the_key_given_or_published(
        server: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game_id = finished_game(server, "signB")
    log = tmp_path / "game.ndjson"
    text = requests.get(f"{server}/v1/games/{game_id}/log", timeout=10).text
    log.write_text(text)
    raw = public_key(server)
    b64 = base64.b64encode(raw).decode()
    key_file = tmp_path / "key.txt"
    key_file.write_text(b64 + "\n")
    keys_json = tmp_path / "keys.json"
    keys_json.write_text(requests.get(f"{server}/v1/keys", timeout=10).text)
    pem_file = tmp_path / "key.pem"
    pem_file.write_bytes(Ed25519PublicKey.from_public_bytes(raw).public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))
    capsys.readouterr()

    for given in (["--key", b64], ["--key", str(key_file)], ["--key", str(keys_json)], ["--key", str(pem_file)],
                  ["--url", server]):
        assert main(["verify", str(log), *given]) == 0, given
        key_id = json.loads(text.splitlines()[-1])["data"]["key_id"]
        assert f"is signed by key {key_id}" in capsys.readouterr().out
    # No key: the chain and the record's link are checked, the signature is said to be unchecked.
    assert main(["verify", str(log)]) == 0
    assert "not checked" in capsys.readouterr().out

    # Another server's key: refused, saying why.
    other = base64.b64encode(public_bytes(Ed25519PrivateKey.generate().public_key())).decode()
    assert main(["verify", str(log), "--key", other]) == 1
    assert "does not hold with the key given" in capsys.readouterr().err

    lines = text.splitlines()
    signed = json.loads(lines[-1])
    # A tampered signature (the record re-hashed so that its link still holds): refused.
    sig = bytearray(base64.b64decode(signed["data"]["signature"]))
    sig[0] ^= 1
    data = {**signed["data"], "signature": base64.b64encode(bytes(sig)).decode()}
    forged = seal(signed["seq"], "LogSigned", signed["at"], None, data, signed["cause"], signed["prev"])
    log.write_text("\n".join([*lines[:-1], forged.to_json()]) + "\n")
    assert main(["verify", str(log), "--key", b64]) == 1
    assert "signature" in capsys.readouterr().err
    # The record edited without re-hashing: its link to the log breaks, key or not.
    log.write_text("\n".join([*lines[:-1], json.dumps({**signed, "data": data})]) + "\n")
    assert main(["verify", str(log)]) == 1
    assert "not chained" in capsys.readouterr().err
    # The record cut off: with a key, the missing signature is a failure.
    log.write_text("\n".join(lines[:-1]) + "\n")
    assert main(["verify", str(log)]) == 0
    assert main(["verify", str(log), "--key", b64]) == 1
    assert "no signed final record" in capsys.readouterr().err
    # A key that is not one: unusable input.
    assert main(["verify", str(log), "--key", "not-a-key"]) == 2
    capsys.readouterr()
