"""The compact form of a finished game's stream: one compressed blob that replays and verifies.

A live game's stream keeps every envelope with its ``prev`` and ``hash``: 128 hex
characters per event that no compressor can shrink. Both are derived: ``prev`` is
the hash before, and ``hash`` is SHA-256 over ``prev`` and the event's canonical JSON.
So the archive keeps each event's body without them, plus the chain's *head* (the
last hash). Unpacking recomputes the chain and checks it ends at the head: a single
changed byte anywhere changes the head, so the archive is as tamper-evident as the
stream was, and the envelopes it gives back are byte for byte the ones appended
(``intrigue verify`` and every read see no difference).

Layout, before zlib: a header line ``{"codec":1,"count":N,"head":"<hash>"}`` and one
canonical JSON line per event (its body without ``prev``).
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Sequence

from events.envelope import (
    GENESIS_HASH,
    ChainError,
    Envelope,
    body_without_prev,
    canonical_json,
    chain_hash,
    check_chain,
)

CODEC = 1


def pack(events: Sequence[Envelope]) -> bytes:
    """The archive of a whole stream; refuses a stream whose chain is already broken."""
    if not events:
        raise ValueError("nothing to archive")
    bodies: list[str] = []
    head = check_chain(events, bodies)
    lines = [canonical_json({"codec": CODEC, "count": len(events), "head": head})]
    lines += (body_without_prev(body, event) for body, event in zip(bodies, events, strict=True))
    return zlib.compress("\n".join(lines).encode(), 9)


def unpack(blob: bytes) -> list[Envelope]:
    """The envelopes of an archive, their chain rebuilt and checked against the stored head."""
    header_line, *rows = zlib.decompress(blob).decode().split("\n")
    header = json.loads(header_line)
    if header.get("codec") != CODEC or header.get("count") != len(rows):
        raise ChainError(0, "the archive's header does not describe its content")
    events: list[Envelope] = []
    prev = GENESIS_HASH
    for row in rows:
        body = {**json.loads(row), "prev": prev}
        prev = chain_hash(prev, body)
        events.append(Envelope.from_dict({**body, "hash": prev}))
    if prev != header["head"]:
        raise ChainError(len(rows), "the archive does not hash to the head it was stored with")
    return events
