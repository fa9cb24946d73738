"""The transparency log's tree against RFC 9162's definitions, written out plainly here.

The reference below is section 2.1's recursion over the list of leaves, nothing stored;
the module under test answers from stored complete subtrees (events.merkle over
events.transparency_log). Hypothesis draws the tree sizes, leaves and pairs of sizes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from events import merkle
from events.store import connect
from events.transparency_log import TransparencyLog
from service.embedded import EmbeddedRedis

STORED = 300  # leaves in the stored tree every property reads prefixes of


def ref_mth(leaves: list[bytes]) -> bytes:
    n = len(leaves)
    if n == 0:
        return hashlib.sha256(b"").digest()
    if n == 1:
        return hashlib.sha256(b"\x00" + leaves[0]).digest()
    k = 1
    while k * 2 < n:
        k *= 2
    return hashlib.sha256(b"\x01" + ref_mth(leaves[:k]) + ref_mth(leaves[k:])).digest()


def ref_path(m: int, leaves: list[bytes]) -> list[bytes]:
    n = len(leaves)
    if n == 1:
        return []
    k = 1
    while k * 2 < n:
        k *= 2
    if m < k:
        return ref_path(m, leaves[:k]) + [ref_mth(leaves[k:])]
    return ref_path(m - k, leaves[k:]) + [ref_mth(leaves[:k])]


def ref_subproof(m: int, leaves: list[bytes], whole: bool) -> list[bytes]:
    n = len(leaves)
    if m == n:
        return [] if whole else [ref_mth(leaves)]
    k = 1
    while k * 2 < n:
        k *= 2
    if m <= k:
        return ref_subproof(m, leaves[:k], whole) + [ref_mth(leaves[k:])]
    return ref_subproof(m - k, leaves[k:], False) + [ref_mth(leaves[:k])]


def leaf_data(i: int) -> bytes:
    return f'{{"game":"g{i}"}}'.encode()


LEAVES = [leaf_data(i) for i in range(STORED)]


@pytest.fixture(scope="module")
def stored(platform_redis: EmbeddedRedis) -> Iterator[TransparencyLog]:
    client = connect(platform_redis.url)
    log = TransparencyLog(client, prefix="merkle-test")
    for key in client.scan_iter("merkle-test:*"):
        client.delete(key)
    for i, data in enumerate(LEAVES):
        assert log.append(f"g{i}", data) == i
    yield log


def test_known_hashes_of_the_empty_tree_and_the_empty_leaf() -> None:
    assert merkle.root_hash(0, lambda level, index: b"").hex() == (
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    assert merkle.leaf_hash(b"").hex() == "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d"


settings.register_profile("merkle", max_examples=150, deadline=None,
                          suppress_health_check=[HealthCheck.function_scoped_fixture])
sizes = st.integers(min_value=1, max_value=STORED)


@settings(settings.get_profile("merkle"))
@given(size=sizes)
def test_the_stored_root_is_the_mth_of_every_prefix(stored: TransparencyLog, size: int) -> None:
    assert stored.root(size) == ref_mth(LEAVES[:size])


@settings(settings.get_profile("merkle"))
@given(data=st.data())
def test_inclusion_paths_are_rfc_9162s_and_verify(stored: TransparencyLog, data: st.DataObject) -> None:
    size = data.draw(sizes)
    index = data.draw(st.integers(min_value=0, max_value=size - 1))
    path = stored.inclusion(index, size)
    assert path == ref_path(index, LEAVES[:size])
    root = ref_mth(LEAVES[:size])
    leaf = merkle.leaf_hash(LEAVES[index])
    assert merkle.verify_inclusion(leaf, index, size, path, root)
    # Any other leaf, position, size or path fails.
    assert not merkle.verify_inclusion(merkle.leaf_hash(b"forged"), index, size, path, root)
    if size > 1:
        assert not merkle.verify_inclusion(leaf, (index + 1) % size, size, path, root)
        flipped = data.draw(st.integers(min_value=0, max_value=len(path) - 1))
        forged = [bytes([h[0] ^ 1]) + h[1:] if i == flipped else h for i, h in enumerate(path)]
        assert not merkle.verify_inclusion(leaf, index, size, forged, root)
        assert not merkle.verify_inclusion(leaf, index, size, path[:-1], root)
    assert not merkle.verify_inclusion(leaf, size, size, path, root)
    assert not merkle.verify_inclusion(leaf, index, size, [*path, root], root)


@settings(settings.get_profile("merkle"))
@given(data=st.data())
def test_consistency_proofs_are_rfc_9162s_and_verify(stored: TransparencyLog, data: st.DataObject) -> None:
    second = data.draw(sizes)
    first = data.draw(st.integers(min_value=1, max_value=second))
    path = stored.consistency(first, second)
    assert path == ref_subproof(first, LEAVES[:second], True)
    first_root, second_root = ref_mth(LEAVES[:first]), ref_mth(LEAVES[:second])
    assert merkle.verify_consistency(first, second, first_root, second_root, path)
    other = ref_mth([b"forged", *LEAVES[1:first]])
    assert not merkle.verify_consistency(first, second, other, second_root, path)
    assert not merkle.verify_consistency(first, second, first_root, merkle.leaf_hash(b"x"), path)
    if path:
        flipped = data.draw(st.integers(min_value=0, max_value=len(path) - 1))
        forged = [bytes([h[0] ^ 1]) + h[1:] if i == flipped else h for i, h in enumerate(path)]
        assert not merkle.verify_consistency(first, second, first_root, second_root, forged)
        assert not merkle.verify_consistency(first, second, first_root, second_root, path[:-1])


@given(leaves=st.lists(st.binary(max_size=8), min_size=1, max_size=70), data=st.data())
@settings(max_examples=100, deadline=None)
def test_the_pure_proofs_match_the_reference_on_any_leaves(leaves: list[bytes], data: st.DataObject) -> None:
    """Any leaf data, not only the stored tree's: complete subtrees taken from the reference."""
    def node(level: int, index: int) -> bytes:
        return ref_mth(leaves[index << level:(index + 1) << level])

    size = len(leaves)
    index = data.draw(st.integers(min_value=0, max_value=size - 1))
    first = data.draw(st.integers(min_value=1, max_value=size))
    assert merkle.root_hash(size, node) == ref_mth(leaves)
    assert merkle.inclusion_path(index, size, node) == ref_path(index, leaves)
    assert merkle.consistency_path(first, size, node) == ref_subproof(first, leaves, True)


def test_a_proof_reads_a_logarithmic_number_of_stored_hashes() -> None:
    size = 10_000_000
    for index in (0, 4_999_999, size - 1):
        assert len(merkle.needed_nodes(lambda node, i=index: merkle.inclusion_path(i, size, node))) <= 2 * 24
    assert len(merkle.needed_nodes(lambda node: merkle.consistency_path(3_333_333, size, node))) <= 2 * 24


def test_a_key_appended_twice_keeps_its_first_leaf(stored: TransparencyLog) -> None:
    size = stored.size()
    assert stored.append("g7", b"something else") == 7
    assert stored.size() == size
    assert stored.leaf("g7") == (7, LEAVES[7])
    assert stored.leaf("nobody") is None
