"""A sealed envelope's stored JSON is its canonical JSON, whatever its data or cause hold."""

from __future__ import annotations

from datetime import UTC

from hypothesis import given
from hypothesis import strategies as st

from events import archive
from events.envelope import (
    GENESIS_HASH,
    ChainError,
    Envelope,
    body_without_prev,
    canonical_json,
    chain_hash,
    check_chain,
    format_at,
    parse_time,
    seal,
    utc_now,
)

#: JSON values as clients and games send them: floats in every notation, any text (keys
#: named like the envelope's own included), nesting. Integers fit 64 bits, as the API's
#: JSON parser requires.
KEYS = st.sampled_from(["prev", "hash", "seq", "type", "data", ',"prev":"', "é", "a\n\"b"]) | st.text(max_size=6)
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(KEYS, inner, max_size=3), max_leaves=8)
TYPES = st.sampled_from(["CardPlayed", "GameEnded", "Noted"]) | st.text(max_size=8)


@given(type_=TYPES, actor=st.none() | st.integers(0, 5), data=st.dictionaries(KEYS, VALUES, max_size=4),
       cause=st.dictionaries(KEYS, VALUES, max_size=3))
def test_the_stored_json_of_a_sealed_envelope_is_its_canonical_json(type_: str, actor: int | None, data: dict,
                                                                     cause: dict) -> None:
    first = seal(1, type_, "2026-11-23T00:00:00.000Z", actor, data, cause, GENESIS_HASH)
    second = seal(2, type_, "2026-11-23T00:00:01.000Z", actor, data, cause, first.hash)
    for event in (first, second):
        assert event.to_json() == canonical_json(event.to_dict())
        assert event.hash == chain_hash(event.prev, event.body())
        assert Envelope.from_json(event.to_json()) == event
    check_chain([Envelope.from_json(first.to_json()), Envelope.from_json(second.to_json())])


@given(type_=TYPES, actor=st.none() | st.integers(0, 5), data=st.dictionaries(KEYS, VALUES, max_size=4),
       cause=st.dictionaries(KEYS, VALUES, max_size=3))
def test_an_archive_line_is_the_canonical_json_of_the_body_without_prev(type_: str, actor: int | None, data: dict,
                                                                         cause: dict) -> None:
    first = seal(1, type_, "2026-11-23T00:00:00.000Z", actor, data, cause, GENESIS_HASH)
    # The second event's data holds its prev as a nested "prev" key: a decoy for the cut.
    decoy = {**data, "nested": {"a": 0, "prev": first.hash}, "prev": first.hash}
    second = seal(2, type_, "2026-11-23T00:00:01.000Z", actor, decoy, cause, first.hash)
    events = [Envelope.from_json(first.to_json()), Envelope.from_json(second.to_json())]
    bodies: list[str] = []
    check_chain(events, bodies)
    for body, event in zip(bodies, events, strict=True):
        spelled = event.body()
        del spelled["prev"]
        assert body_without_prev(body, event) == canonical_json(spelled)
    assert archive.unpack(archive.pack(events)) == events


def test_a_sealed_envelope_holds_its_data_and_cause_as_the_log_gives_them_back() -> None:
    """Every process must fold what the log holds, dict order included: a fold of the draft's
    insertion order once let a worker resolve from a state no replay of the log reaches."""
    import orjson

    data = {"zeta": 1, "alpha": {"y": [1, {"b": 2, "a": 1}], "x": (1, 2)}, "mid": None}
    cause = {"kind": "player", "seat": 1, "action": {"type": "t", "b": 1, "a": 2}}
    sealed = seal(1, "Noted", "2026-11-23T00:00:00.000Z", 1, data, cause, GENESIS_HASH)
    stored = Envelope.from_json(sealed.to_json())
    assert orjson.dumps(sealed.data) == orjson.dumps(stored.data)  # orjson keeps the order it is given
    assert orjson.dumps(sealed.cause) == orjson.dumps(stored.cause)
    assert sealed == stored


@given(moment=st.datetimes(timezones=st.just(UTC)))
def test_an_events_at_is_spelt_as_isoformat_spells_it_to_the_millisecond(moment) -> None:
    """``format_at`` is a faster spelling of the same text: any year, truncated, never rounded."""
    assert format_at(moment) == moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")
    assert parse_time(format_at(moment)) == moment.replace(microsecond=moment.microsecond // 1000 * 1000)


def test_now_is_stamped_in_utc_with_milliseconds() -> None:
    stamp = utc_now()
    assert len(stamp) == 24 and stamp.endswith("Z") and stamp[10] == "T" and stamp[19] == "."


@given(type_=TYPES, actor=st.none() | st.integers(0, 5), data=st.dictionaries(KEYS, VALUES, max_size=4),
       cause=st.dictionaries(KEYS, VALUES, max_size=3))
def test_a_chain_read_from_its_stored_lines_checks_as_one_spelt_again(type_: str, actor: int | None, data: dict,
                                                                      cause: dict) -> None:
    """check_chain hashes the body cut out of a kept line: the same head, the same canonical
    bodies, whatever the data holds (decoy ``hash`` and ``prev`` keys included)."""
    first = seal(1, type_, "2026-11-23T00:00:00.000Z", actor, data, cause, GENESIS_HASH)
    decoy = {**data, "hash": first.hash, "nested": {"hash": first.hash, "prev": first.hash}}
    second = seal(2, type_, "2026-11-23T00:00:01.000Z", actor, decoy, cause, first.hash)
    lines = [first.to_json(), second.to_json()]
    spelt, cut = [], []
    head = check_chain([Envelope.from_json(line) for line in lines], spelt)
    stored = [Envelope.from_stored(line.encode()) for line in lines]
    assert stored == [first, second] and check_chain(stored, cut) == head and cut == spelt


def test_a_stored_line_changed_after_sealing_breaks_the_chain_however_it_is_read() -> None:
    first = seal(1, "CardPlayed", "2026-11-23T00:00:00.000Z", 0, {"card": "duke", "coins": 3}, {}, GENESIS_HASH)
    forged = first.to_json().replace('"coins":3', '"coins":4')
    assert forged != first.to_json()
    for envelope in (Envelope.from_stored(forged), Envelope.from_json(forged)):
        try:
            check_chain([envelope])
        except ChainError as err:
            assert "hash does not match" in str(err)
        else:
            raise AssertionError("a forged line passed the check")


def test_a_line_spelt_otherwise_but_meaning_the_same_still_checks() -> None:
    """The cut is a shortcut: a kept line that is not the sealed spelling is spelt again."""
    import json

    first = seal(1, "CardPlayed", "2026-11-23T00:00:00.000Z", 0, {"card": "duke"}, {"kind": "action"}, GENESIS_HASH)
    loose = json.dumps(json.loads(first.to_json()), indent=1)
    bodies: list[str] = []
    assert check_chain([Envelope.from_stored(loose)], bodies) == first.hash
    assert bodies == [canonical_json(first.body())]


#: Beyond what the API's parser lets in: integers past 64 bits, NaN and the infinities, lone
#: surrogates, keys that are not strings, tuples, and the subclasses of int and str.
ANY_KEYS = KEYS | st.integers(-5, 5) | st.booleans() | st.none()
ODD_LEAVES = (st.integers() | st.floats() | st.text(alphabet=st.characters(codec=None), max_size=4)
              | st.sampled_from([True, 10**30, "\ud800", float("nan")]))


@given(value=st.recursive(VALUES | ODD_LEAVES,
                          lambda inner: st.lists(inner, max_size=3) | st.lists(inner, max_size=2).map(tuple)
                          | st.dictionaries(ANY_KEYS, inner, max_size=3), max_leaves=10))
def test_canonical_json_is_the_standard_librarys_spelling_to_the_byte(value: object) -> None:
    import enum
    import json

    class Seat(enum.IntEnum):
        FIRST = 0

    for each in (value, [value, Seat.FIRST], {"v": value}):
        try:
            expected = json.dumps(each, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        except (TypeError, ValueError) as refused:  # mixed key types cannot be sorted, say
            try:
                canonical_json(each)
            except type(refused):
                continue
            raise AssertionError(f"canonical_json spelt {each!r}, which the standard library refuses") from None
        assert canonical_json(each) == expected
