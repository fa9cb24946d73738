"""Fair shuffles: the players' committed secrets and how they are mixed into a game's seed (issue 52, item 1).

A player may join with the SHA-256 of a secret of 32 random bytes. Once every seat is
taken (every commitment fixed, and the server's seed fixed since the game's creation by
``seed_hash``) the committed seats reveal their secrets, and every draw of the game comes
from :func:`mix_seed` of the server's seed and the secrets revealed, in seat order. The
server cannot choose the deal without knowing an honest seat's secret before it fixed its
seed; the players cannot, not knowing the server's seed until the end (docs/transparency.md).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from typing import TypeGuard

#: The join batch's last event when the game filled with committed seats: reveals are awaited until ``until``.
REVEALS_AWAITED = "RevealsAwaited"
#: A committed seat's secret, revealed (shown in feeds without the secret until the end).
SECRET_REVEALED = "SecretRevealed"
#: What the mix hashes first: a label that no other hash of the project starts with.
MIX_LABEL = "intrigue/fair-shuffle/v1"

_HEX64 = re.compile(r"[0-9a-f]{64}")


def is_hex64(value: object) -> TypeGuard[str]:
    """Whether ``value`` is 64 lowercase hex digits: a commitment or a secret as the API takes them."""
    return isinstance(value, str) and _HEX64.fullmatch(value) is not None


def commitment_of(secret: str) -> str:
    """The commitment to ``secret`` (64 hex digits): SHA-256 of its 32 bytes, in hex."""
    return hashlib.sha256(bytes.fromhex(secret)).hexdigest()


def mix_seed(seed: str, secrets: Mapping[str, str] | None) -> str:
    """The seed every draw of the game comes from: the server's ``seed`` alone when no secret
    was revealed, else the hex SHA-256 of the UTF-8 text ``MIX_LABEL``, a newline, the
    server's seed, a newline, then ``<seat>:<secret>`` and a newline for each revealed
    secret in increasing seat order."""
    if not secrets:
        return seed
    lines = [MIX_LABEL, seed, *(f"{seat}:{secrets[seat]}" for seat in sorted(secrets, key=int))]
    return hashlib.sha256(("\n".join(lines) + "\n").encode()).hexdigest()
