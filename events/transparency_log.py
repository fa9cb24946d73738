"""The public transparency log's tree in Redis: append-only, every proof from O(log n) hashes.

Every complete subtree's hash is kept once, by level: the 32-byte hash of subtree
``(level, index)`` sits at byte ``32 * (index % CHUNK)`` of the string key
``…:tlog:node:<level>:<index // CHUNK>``. A leaf adds its own hash and, on average, one
more node above it: 64 bytes of hashes per leaf, in strings of at most 2 MiB (Redis caps
a string at 512 MiB; chunks keep every key small and the tree unbounded). The leaf's data
and its index sit in one hash keyed by game id, which the inclusion proof starts from.

Appending reads the few left siblings it joins (one per trailing 1-bit of the size)
under ``WATCH`` on the size, so two servers ending games at once never interleave;
ending a game is rare, so a retry costs nothing worth a Lua script (which has no
SHA-256). Proofs first list the hashes they read (events.merkle.needed_nodes), fetch
them in one pipeline, then compute.

Every key carries the hash tag ``{tlog}``, so on a Redis Cluster the tree lives on one
shard and the append's transaction is legal.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import redis

from events import merkle

CHUNK = 1 << 16  # hashes per string key: 2 MiB


class TransparencyLog:
    """One append-only Merkle tree of finished games."""

    def __init__(self, client: redis.Redis, prefix: str = "intrigue") -> None:
        self.redis = client
        self.base = f"{prefix}:{{tlog}}"
        self.size_key = f"{self.base}:size"
        self.leaves_key = f"{self.base}:leaves"

    def node_key(self, level: int, index: int) -> tuple[str, int]:
        """The string key holding node ``(level, index)`` and the byte offset of its hash there."""
        return f"{self.base}:node:{level}:{index // CHUNK}", (index % CHUNK) * merkle.HASH_SIZE

    # ------------------------------------------------------------ writing
    def append(self, key: str, data: bytes) -> int:
        """Add a leaf for ``key`` (a game id) with ``data``; its index. Adding a key twice adds nothing."""
        with self.redis.pipeline() as pipe:
            while True:
                try:
                    pipe.watch(self.size_key)
                    known = pipe.hget(self.leaves_key, key)
                    if known is not None:
                        return int(known.split(b" ", 1)[0])
                    size = int(pipe.get(self.size_key) or 0)
                    joins = [(level, (size >> level) - 1) for level in range((size ^ (size + 1)).bit_length() - 1)]
                    siblings = [bytes(pipe.getrange(*self._span(level, index))) for level, index in joins]
                    current = merkle.leaf_hash(data)
                    writes = [(0, size, current)]
                    for level, left in enumerate(siblings):
                        current = merkle.node_hash(left, current)
                        writes.append((level + 1, size >> (level + 1), current))
                    pipe.multi()
                    for level, index, digest in writes:
                        pipe.setrange(*self.node_key(level, index), digest)
                    pipe.hset(self.leaves_key, key, f"{size} ".encode() + data)
                    pipe.set(self.size_key, size + 1)
                    pipe.execute()
                    return size
                except redis.WatchError:
                    continue

    def _span(self, level: int, index: int) -> tuple[str, int, int]:
        """GETRANGE's arguments for node ``(level, index)``."""
        name, offset = self.node_key(level, index)
        return name, offset, offset + merkle.HASH_SIZE - 1

    # ------------------------------------------------------------ reading
    def size(self) -> int:
        return int(self.redis.get(self.size_key) or 0)

    def leaf(self, key: str) -> tuple[int, bytes] | None:
        """The index and data of ``key``'s leaf, or None when it has none."""
        raw = self.redis.hget(self.leaves_key, key)
        if raw is None:
            return None
        index, data = bytes(raw).split(b" ", 1)
        return int(index), data

    def _run(self, proof: Callable[[merkle.NodeSource], bytes | list[bytes]]) -> bytes | list[bytes]:
        """Run ``proof`` over the stored nodes, fetched in one round trip."""
        wanted = sorted(merkle.needed_nodes(proof))
        found = self._fetch(wanted)
        return proof(lambda level, index: found[level, index])

    def _fetch(self, nodes: Iterable[tuple[int, int]]) -> dict[tuple[int, int], bytes]:
        nodes = list(nodes)
        pipe = self.redis.pipeline(transaction=False)
        for level, index in nodes:
            pipe.getrange(*self._span(level, index))
        return {node: bytes(raw) for node, raw in zip(nodes, pipe.execute(), strict=True)}

    def root(self, size: int) -> bytes:
        """The root hash of the tree's first ``size`` leaves (``size`` no more than :meth:`size`)."""
        result = self._run(lambda node: merkle.root_hash(size, node))
        assert isinstance(result, bytes)
        return result

    def inclusion(self, index: int, size: int) -> list[bytes]:
        result = self._run(lambda node: merkle.inclusion_path(index, size, node))
        assert isinstance(result, list)
        return result

    def consistency(self, first: int, second: int) -> list[bytes]:
        result = self._run(lambda node: merkle.consistency_path(first, second, node))
        assert isinstance(result, list)
        return result
