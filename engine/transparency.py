"""Every finished game as a leaf of the public transparency log (issue 52; docs/transparency.md).

The leaf's data is the canonical JSON (sorted keys, no spaces) of the game's id, the last
hash of its chained log, the commitment to its seed and when it ended: enough for anyone
holding the game's log to recompute the leaf and check its inclusion proof against a
signed checkpoint, and nothing a player's view would not show after the end.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import redis

from events.envelope import Envelope, canonical_json
from events.transparency_log import TransparencyLog


def leaf_of(record: Mapping[str, Any]) -> dict[str, str]:
    """What a finished game's leaf says, from its record."""
    return {"game": record["id"], "final_hash": record["last_hash"], "seed_hash": record.get("seed_hash") or "",
            "ended_at": record["updated_at"]}


def leaf_of_log(events: Sequence[Envelope]) -> dict[str, str]:
    """The same leaf, recomputed by anyone from the game's published log."""
    first, last = events[0], events[-1]
    return {"game": first.data["id"], "final_hash": last.hash, "seed_hash": first.data.get("seed_hash") or "",
            "ended_at": last.at}


def leaf_bytes(leaf: Mapping[str, str]) -> bytes:
    return canonical_json(dict(leaf)).encode()


#: Witnesses whose latest cosignature the log keeps (each replaces its own earlier one).
MAX_WITNESSES = 32


class GamesLog:
    """The log of finished games: one leaf each, added when a game is archived."""

    def __init__(self, client: redis.Redis, prefix: str) -> None:
        self.tree = TransparencyLog(client, prefix)
        self.redis = client
        self.cosignatures_key = f"{self.tree.base}:cosignatures"

    def cosign(self, witness: str, size: int, line: str) -> bool:
        """Keep ``witness``'s latest cosignature (of the checkpoint of ``size``); False when the log
        already keeps :data:`MAX_WITNESSES` others."""
        known = self.redis.hexists(self.cosignatures_key, witness)
        if not known and self.redis.hlen(self.cosignatures_key) >= MAX_WITNESSES:
            return False
        self.redis.hset(self.cosignatures_key, witness, json.dumps({"size": size, "line": line}))
        return True

    def cosignatures(self, size: int) -> list[str]:
        """The signature lines of witnesses who cosigned the checkpoint of ``size``, by witness."""
        kept = self.redis.hgetall(self.cosignatures_key)
        found = sorted((bytes(witness), json.loads(raw)) for witness, raw in kept.items())
        return [entry["line"] for _, entry in found if entry["size"] == size]

    def add(self, record: Mapping[str, Any]) -> int:
        """Add a finished game's leaf (once: a second call gives back the first index)."""
        return self.tree.append(record["id"], leaf_bytes(leaf_of(record)))

    def leaf(self, game_id: str) -> tuple[int, dict[str, str]] | None:
        found = self.tree.leaf(game_id)
        return None if found is None else (found[0], json.loads(found[1]))
