"""The server's Ed25519 key: where it comes from, and the C2SP signed notes it makes."""

from __future__ import annotations

import base64
import hashlib
import stat
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.settings import Settings, SettingsError
from engine.signing import (
    KEY_FILE,
    NoteSigner,
    SigningKeyError,
    cosignature_line,
    key_in_folder,
    key_in_redis,
    parse_private_key,
    pem,
    public_bytes,
    verify_cosignature,
    verify_note,
)
from events.store import connect
from service.embedded import EmbeddedRedis


def raw(key: Ed25519PrivateKey) -> bytes:
    return public_bytes(key.public_key())


def test_the_key_is_made_once_in_the_data_folder_readable_by_its_owner_only(tmp_path: Path) -> None:
    made = key_in_folder(tmp_path)
    assert stat.S_IMODE((tmp_path / KEY_FILE).stat().st_mode) == 0o600
    assert raw(key_in_folder(tmp_path)) == raw(made)  # read back, not made again


def test_the_variable_takes_a_pem_or_32_bytes_in_base64_and_refuses_anything_else() -> None:
    key = Ed25519PrivateKey.generate()
    seed = base64.b64encode(key.private_bytes_raw()).decode()
    assert raw(parse_private_key(seed)) == raw(key)
    assert raw(parse_private_key(pem(key).decode())) == raw(key)
    assert Settings.from_env({"INTRIGUE_SIGNING_KEY": seed}).signing_key == seed
    for bad in ("not base64!", base64.b64encode(b"short").decode()):
        with pytest.raises(SigningKeyError):
            parse_private_key(bad)
    with pytest.raises(SettingsError) as refused:
        Settings.from_env({"INTRIGUE_SIGNING_KEY": seed[:-4] + "@@@@"})
    assert "INTRIGUE_SIGNING_KEY=(hidden)" in str(refused.value) and seed[:20] not in str(refused.value)


def test_without_a_key_every_process_sharing_a_redis_gets_the_same_one(platform_redis: EmbeddedRedis) -> None:
    client = connect(platform_redis.url)
    client.delete("signing-test:key")
    assert raw(key_in_redis(client, "signing-test:key")) == raw(key_in_redis(client, "signing-test:key"))


def test_a_signed_note_follows_c2sp_and_verifies_only_unchanged() -> None:
    key = Ed25519PrivateKey.generate()
    signer = NoteSigner(key, "example.org/log")
    text = "example.org/log\n3\nAAAA\n"
    note = signer.sign(text)
    body, signature_line = note.split("\n\n")
    assert body + "\n" == text
    dash, name, blob = signature_line.rstrip("\n").split(" ")
    assert dash == "\u2014" and name == "example.org/log"
    decoded = base64.b64decode(blob)
    assert decoded[:4] == hashlib.sha256(b"example.org/log\n\x01" + raw(key)).digest()[:4]
    assert len(decoded) == 4 + 64
    assert verify_note(note, "example.org/log", raw(key)) == text
    assert signer.described() == {"id": f"example.org/log+{decoded[:4].hex()}", "alg": "Ed25519",
                                  "public_key": base64.b64encode(raw(key)).decode()}
    with pytest.raises(ValueError):
        verify_note(note.replace("\n3\n", "\n4\n"), "example.org/log", raw(key))
    with pytest.raises(ValueError):
        verify_note(note, "example.org/log", raw(Ed25519PrivateKey.generate()))


def test_a_cosignature_follows_c2sp_and_holds_only_for_its_checkpoint_and_key() -> None:
    witness = Ed25519PrivateKey.generate()
    text = "example.org/log\n3\nAAAA\n"
    line = cosignature_line(witness, "w.example", text, 1_795_939_200)
    blob = base64.b64decode(line.split(" ")[2])
    assert blob[:4] == hashlib.sha256(b"w.example\n\x04" + raw(witness)).digest()[:4]
    assert int.from_bytes(blob[4:12], "big") == 1_795_939_200 and len(blob) == 4 + 8 + 64
    assert verify_cosignature(line, text, raw(witness)) == "w.example"
    for other_text, key in ((text.replace("3", "4"), raw(witness)), (text, raw(Ed25519PrivateKey.generate()))):
        with pytest.raises(ValueError):
            verify_cosignature(line, other_text, key)
