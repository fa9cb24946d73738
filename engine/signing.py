"""The server's Ed25519 key: what signs the transparency log's checkpoints, in C2SP's note format.

Where it comes from, first found wins:

1. ``INTRIGUE_SIGNING_KEY``: the 32-byte private key in base64, or a PKCS#8 PEM.
2. ``intrigue serve``: ``signing_key.pem`` in the data folder, made once (mode 0600).
3. Otherwise (the image's gunicorn without either): a key made once and kept in Redis, so
   every API process signs with the same key. Set ``INTRIGUE_SIGNING_KEY`` in production:
   whoever reads that Redis could sign in the server's name.

A signed note (c2sp.org/signed-note) is its text, a blank line, and one line per signature
``— <name> <base64(key id || signature)>``; the key id is the first four bytes of
SHA-256 over the name, a newline, the byte 0x01 (Ed25519) and the public key.
"""

from __future__ import annotations

import base64
import hashlib
import os
from pathlib import Path

import redis
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

KEY_FILE = "signing_key.pem"
ED25519_TYPE = b"\x01"


class SigningKeyError(ValueError):
    """``INTRIGUE_SIGNING_KEY`` or the key file holds no Ed25519 private key."""


def parse_private_key(text: str | bytes) -> Ed25519PrivateKey:
    """An Ed25519 private key from a PKCS#8 PEM or the base64 of its 32 raw bytes."""
    raw = text.encode() if isinstance(text, str) else text
    try:
        if raw.lstrip().startswith(b"-----BEGIN"):
            key = serialization.load_pem_private_key(raw, password=None)
            if not isinstance(key, Ed25519PrivateKey):
                raise SigningKeyError("the PEM holds a key that is not Ed25519")
            return key
        seed = base64.b64decode(raw.strip(), validate=True)
        return Ed25519PrivateKey.from_private_bytes(seed)
    except SigningKeyError:
        raise
    except ValueError as err:
        raise SigningKeyError(f"not an Ed25519 private key (a PKCS#8 PEM or 32 bytes in base64): {err}") from None


def pem(key: Ed25519PrivateKey) -> bytes:
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption())


def key_in_folder(folder: str | os.PathLike[str]) -> Ed25519PrivateKey:
    """The key in ``folder``'s ``signing_key.pem``, made there (owner-only) when there is none."""
    path = Path(folder) / KEY_FILE
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return parse_private_key(path.read_bytes())
    key = Ed25519PrivateKey.generate()
    with os.fdopen(fd, "wb") as out:
        out.write(pem(key))
    return key


def key_in_redis(client: redis.Redis, name: str) -> Ed25519PrivateKey:
    """The key kept at ``name``, made by whichever process asks first."""
    client.set(name, pem(Ed25519PrivateKey.generate()), nx=True)
    return parse_private_key(bytes(client.get(name) or b""))


def public_bytes(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


class NoteSigner:
    """Signs notes as ``name`` with an Ed25519 key."""

    def __init__(self, key: Ed25519PrivateKey, name: str) -> None:
        if not name or any(c.isspace() for c in name) or "+" in name:
            raise ValueError(f"a note's key name has no spaces and no '+': {name!r}")
        self.key = key
        self.name = name
        self.public_key = public_bytes(key.public_key())
        self.key_hash = hashlib.sha256(name.encode() + b"\n" + ED25519_TYPE + self.public_key).digest()[:4]

    @property
    def key_id(self) -> str:
        """``<name>+<key hash in hex>``: how a verifier tells this key from another of the same name."""
        return f"{self.name}+{self.key_hash.hex()}"

    @property
    def verifier_key(self) -> str:
        """The note verifier key: ``<name>+<hash>+base64(0x01 || public key)``."""
        return f"{self.key_id}+{base64.b64encode(ED25519_TYPE + self.public_key).decode()}"

    def described(self) -> dict[str, str]:
        """This key as ``GET /v1/keys`` lists it."""
        return {"id": self.key_id, "alg": "Ed25519", "public_key": base64.b64encode(self.public_key).decode()}

    def signature_line(self, text: str) -> str:
        signature = self.key.sign(text.encode())
        return f"\u2014 {self.name} {base64.b64encode(self.key_hash + signature).decode()}\n"

    def sign(self, text: str, extra_lines: tuple[str, ...] = ()) -> str:
        """The signed note: ``text`` (ending in a newline), a blank line, this signature, then ``extra_lines``."""
        if not text.endswith("\n"):
            raise ValueError("a note's text ends with a newline")
        return text + "\n" + self.signature_line(text) + "".join(extra_lines)


def verify_note(note: str, name: str, public_key: bytes) -> str:
    """The text of ``note`` if ``name``'s key (``public_key``, raw) signed it; else ValueError."""
    text, sep, signatures = note.rpartition("\n\n")
    if not sep:
        raise ValueError("not a signed note: no blank line before the signatures")
    text += "\n"
    key_hash = hashlib.sha256(name.encode() + b"\n" + ED25519_TYPE + public_key).digest()[:4]
    verifier = Ed25519PublicKey.from_public_bytes(public_key)
    for line in signatures.splitlines():
        parts = line.split(" ")
        if len(parts) != 3 or parts[0] != "\u2014" or parts[1] != name:
            continue
        blob = base64.b64decode(parts[2])
        if blob[:4] != key_hash:
            continue
        try:
            verifier.verify(blob[4:], text.encode())
        except InvalidSignature:
            raise ValueError(f"{name}'s signature does not match the note") from None
        return text
    raise ValueError(f"the note carries no signature by {name}")


# ------------------------------------------------------------ witnesses' cosignatures
COSIGNATURE_TYPE = b"\x04"  # C2SP tlog-cosignature: a timestamped Ed25519 cosignature


def cosignature_key_hash(name: str, public_key: bytes) -> bytes:
    return hashlib.sha256(name.encode() + b"\n" + COSIGNATURE_TYPE + public_key).digest()[:4]


def cosigned_message(checkpoint_text: str, timestamp: int) -> bytes:
    """What a witness signs (c2sp.org/tlog-cosignature): a header, the time, then the checkpoint's text."""
    return f"cosignature/v1\ntime {timestamp}\n".encode() + checkpoint_text.encode()


def cosignature_line(key: Ed25519PrivateKey, name: str, checkpoint_text: str, timestamp: int) -> str:
    """A witness's signature line for ``checkpoint_text`` at ``timestamp`` (seconds since the epoch)."""
    blob = (cosignature_key_hash(name, public_bytes(key.public_key())) + timestamp.to_bytes(8, "big")
            + key.sign(cosigned_message(checkpoint_text, timestamp)))
    return f"\u2014 {name} {base64.b64encode(blob).decode()}\n"


def verify_cosignature(line: str, checkpoint_text: str, public_key: bytes) -> str:
    """The witness's name if ``line`` cosigns ``checkpoint_text`` with ``public_key``; else ValueError."""
    parts = line.rstrip("\n").split(" ")
    if len(parts) != 3 or parts[0] != "\u2014" or not parts[1] or "+" in parts[1]:
        raise ValueError("a cosignature line is '\u2014 <name> <base64>'")
    try:
        blob = base64.b64decode(parts[2], validate=True)
    except ValueError:
        raise ValueError("the cosignature is not base64") from None
    if len(blob) != 4 + 8 + 64 or blob[:4] != cosignature_key_hash(parts[1], public_key):
        raise ValueError("the cosignature is not by this witness key")
    try:
        Ed25519PublicKey.from_public_bytes(public_key).verify(
            blob[12:], cosigned_message(checkpoint_text, int.from_bytes(blob[4:12], "big")))
    except InvalidSignature:
        raise ValueError("the cosignature does not match the checkpoint") from None
    return parts[1]
