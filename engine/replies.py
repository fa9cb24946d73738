"""Answers remembered under a caller's Idempotency-Key, so a retried request gets the first answer.

The engine keeps them as opaque bytes: the transport says what an answer is. A key is
claimed before the request runs (one script: the first caller claims it, the others read
what it holds), then filled with the answer, or released when the answer should not be
remembered (a failure to retry). Each is kept a day.

A remembered answer may hold a secret shown once (a new player's token, a webhook's
signing secret): it is kept sealed with a keystream derived from the caller and the key
itself, and its Redis name is another digest of them, so Redis never holds the secret in
clear and only a caller who knows the key can have it back.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass
from typing import Any

import orjson
import redis

from events.lean import LeanScript

#: How long a remembered answer is kept (seconds).
KEEP_SECONDS = 24 * 3600
#: How long a claim may wait for its answer before another request may take the key over.
CLAIM_SECONDS = 60

# KEYS: the remembered answer. ARGV: the claim (JSON), its life in seconds.
# Returns nil when this call claimed the key, else what the key holds.
_CLAIM = """
local held = redis.call('GET', KEYS[1])
if held then return held end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
return false
"""


@dataclass(frozen=True)
class Remembered:
    """What a key holds: the request's fingerprint and, once answered, the answer (else pending)."""

    fingerprint: str
    answer: bytes | None


class Replies:
    """Idempotency keys and the answers they hold, one small string each."""

    def __init__(self, client: redis.Redis, prefix: str = "intrigue") -> None:
        self.redis = client
        self.prefix = prefix
        self._claim = LeanScript(client, _CLAIM)

    def _name(self, subject: str, key: str) -> str:
        digest = hashlib.sha256(f"name\0{subject}\0{key}".encode("utf-8", "surrogateescape")).hexdigest()
        return f"{self.prefix}:reply:{digest}"

    def claim(self, subject: str, key: str, fingerprint: str) -> Remembered | None:
        """Claim ``key`` for ``subject``'s request; None if claimed now, else what it already holds."""
        claim = orjson.dumps({"fingerprint": fingerprint})
        held = self._claim(keys=[self._name(subject, key)], args=[claim, CLAIM_SECONDS])
        return None if held is None else self._open(subject, key, held)

    def read(self, subject: str, key: str) -> Remembered | None:
        held = self.redis.get(self._name(subject, key))
        return None if held is None else self._open(subject, key, held)

    def remember(self, subject: str, key: str, fingerprint: str, answer: bytes) -> None:
        sealed = base64.b64encode(_xor(answer, _keystream(subject, key, len(answer)))).decode()
        self.redis.set(self._name(subject, key), orjson.dumps({"fingerprint": fingerprint, "sealed": sealed}),
                       ex=KEEP_SECONDS)

    def release(self, subject: str, key: str) -> None:
        """Forget a claim whose answer is not to be remembered: the next retry runs again."""
        self.redis.delete(self._name(subject, key))

    def _open(self, subject: str, key: str, held: bytes) -> Remembered:
        record: dict[str, Any] = orjson.loads(held)
        sealed = record.get("sealed")
        if sealed is None:
            return Remembered(record["fingerprint"], None)
        raw = base64.b64decode(sealed)
        return Remembered(record["fingerprint"], _xor(raw, _keystream(subject, key, len(raw))))


def _keystream(subject: str, key: str, size: int) -> bytes:
    return hashlib.shake_256(f"seal\0{subject}\0{key}".encode("utf-8", "surrogateescape")).digest(size)


def _xor(data: bytes, stream: bytes) -> bytes:
    return (int.from_bytes(data, "big") ^ int.from_bytes(stream, "big")).to_bytes(len(data), "big")
