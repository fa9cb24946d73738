"""RFC 9162's Merkle tree hash, its inclusion and consistency proofs, and their checks.

Leaves hash as ``SHA-256(0x00 || data)``, interior nodes as ``SHA-256(0x01 || left ||
right)``, and a tree of ``n`` leaves splits at ``k``, the largest power of two below
``n`` (RFC 9162, section 2.1.1). So every node the definitions ever hash is either a
*complete* subtree (``2**level`` leaves starting at a multiple of ``2**level``) or a
right edge made of a few complete ones. The proofs here are written over a
:data:`NodeSource` that yields complete subtrees by ``(level, index)``: a store that
keeps those (events.transparency_log) answers any proof from O(log n) stored hashes.

:func:`needed_nodes` runs a proof against a recording source first, so a store can
fetch every hash the proof needs in one round trip and then run it for real.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

LEAF_PREFIX = b"\x00"
NODE_PREFIX = b"\x01"
HASH_SIZE = 32

#: The hash of the complete subtree at ``(level, index)``: leaves ``index * 2**level``
#: up to (not including) ``(index + 1) * 2**level``.
NodeSource = Callable[[int, int], bytes]


def leaf_hash(data: bytes) -> bytes:
    return hashlib.sha256(LEAF_PREFIX + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(NODE_PREFIX + left + right).digest()


EMPTY_ROOT = hashlib.sha256(b"").digest()  # MTH({}) is the hash of the empty string


def split_point(n: int) -> int:
    """The largest power of two smaller than ``n`` (``n`` >= 2): where RFC 9162 splits a tree."""
    return 1 << ((n - 1).bit_length() - 1)


def range_hash(start: int, end: int, node: NodeSource) -> bytes:
    """MTH of leaves ``start`` up to ``end``, ``start`` being aligned as the tree's splits make it."""
    size = end - start
    if size <= 0:
        return EMPTY_ROOT
    if size & (size - 1) == 0 and start % size == 0:
        level = size.bit_length() - 1
        return node(level, start >> level)
    k = split_point(size)
    return node_hash(range_hash(start, start + k, node), range_hash(start + k, end, node))


def root_hash(size: int, node: NodeSource) -> bytes:
    return range_hash(0, size, node)


def inclusion_path(index: int, size: int, node: NodeSource) -> list[bytes]:
    """PATH(index, D[0:size]) of RFC 9162 section 2.1.3.1; ``0 <= index < size``."""
    if not 0 <= index < size:
        raise ValueError(f"leaf {index} is not in a tree of {size}")

    def path(m: int, start: int, end: int) -> list[bytes]:
        n = end - start
        if n == 1:
            return []
        k = split_point(n)
        if m < k:
            return [*path(m, start, start + k), range_hash(start + k, end, node)]
        return [*path(m - k, start + k, end), range_hash(start, start + k, node)]

    return path(index, 0, size)


def consistency_path(first: int, second: int, node: NodeSource) -> list[bytes]:
    """PROOF(first, D[0:second]) of RFC 9162 section 2.1.4.1; empty when the sizes are equal."""
    if not 0 < first <= second:
        raise ValueError(f"no consistency proof from {first} to {second}")

    def subproof(m: int, start: int, end: int, whole: bool) -> list[bytes]:
        n = end - start
        if m == n:
            return [] if whole else [range_hash(start, end, node)]
        k = split_point(n)
        if m <= k:
            return [*subproof(m, start, start + k, whole), range_hash(start + k, end, node)]
        return [*subproof(m - k, start + k, end, False), range_hash(start, start + k, node)]

    return subproof(first, 0, second, True)


def needed_nodes(proof: Callable[[NodeSource], object]) -> set[tuple[int, int]]:
    """The ``(level, index)`` of every stored hash ``proof`` reads, found by a dry run."""
    seen: set[tuple[int, int]] = set()

    def record(level: int, index: int) -> bytes:
        seen.add((level, index))
        return bytes(HASH_SIZE)

    proof(record)
    return seen


def verify_inclusion(leaf: bytes, index: int, size: int, path: list[bytes], root: bytes) -> bool:
    """RFC 9162 section 2.1.3.2: does ``path`` prove that ``leaf`` (its hash) is leaf ``index`` under ``root``?"""
    if not 0 <= index < size:
        return False
    fn, sn, r = index, size - 1, leaf
    for p in path:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            if not fn & 1:
                while fn and not fn & 1:
                    fn >>= 1
                    sn >>= 1
        else:
            r = node_hash(r, p)
        fn >>= 1
        sn >>= 1
    return sn == 0 and r == root


def verify_consistency(first: int, second: int, first_root: bytes, second_root: bytes, path: list[bytes]) -> bool:
    """RFC 9162 section 2.1.4.2: does ``path`` prove the tree of ``second`` extends that of ``first``?"""
    if not 0 < first <= second:
        return False
    if first == second:
        return not path and first_root == second_root
    if not path:
        return False
    if first & (first - 1) == 0:
        path = [first_root, *path]
    fn, sn = first - 1, second - 1
    while fn & 1:
        fn >>= 1
        sn >>= 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr = node_hash(c, fr)
            sr = node_hash(c, sr)
            if not fn & 1:
                while fn and not fn & 1:
                    fn >>= 1
                    sn >>= 1
        else:
            sr = node_hash(sr, c)
        fn >>= 1
        sn >>= 1
    return fr == first_root and sr == second_root and sn == 0
