"""The stored form of an event, its canonical JSON and the tamper-evident hash chain.

An envelope is immutable once appended. Its ``hash`` is SHA-256 over the previous
event's hash and the canonical JSON of this envelope without the hash, so editing,
dropping or reordering any stored event breaks every hash after it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import orjson

GENESIS_HASH = "0" * 64

#: Event types written by the platform rather than by a game's rules.
PLATFORM_EVENTS = frozenset({"GameCreated", "PlayerJoined", "GameStarted", "DeadlineMissed", "PlayerLeft",
                             "GameCancelled", "SeatResigned", "GameEnded", "VacationStarted", "VacationEnded",
                             "SeatSubstituted", "RevealsAwaited", "SecretRevealed"})  # fair shuffles: events.entropy


def canonical_json(value: Any) -> str:
    """One spelling per value: sorted keys, no spaces, UTF-8 kept as is; what the standard
    library's ``json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)``
    writes, to the byte.

    orjson writes that same text, five times faster, for the values events hold: strings,
    integers, booleans, null, and lists and string-keyed objects of them. It spells some
    floats otherwise (``1e-05`` as ``0.00001``), so a value holding anything else, a float
    from a client's action say, is spelt by the standard library. So does one orjson refuses
    (an integer beyond 64 bits, a lone surrogate): the standard library says what it always did.
    """
    if _plain(value):
        try:
            return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()
        except orjson.JSONEncodeError:
            pass
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


_PLAIN_LEAVES = frozenset({str, int, bool, type(None)})


def _plain(value: Any) -> bool:
    """Whether ``value`` holds only strings, integers (not their subclasses but ``bool``),
    null, lists, tuples and dicts keyed by strings: what orjson spells as the standard library does."""
    pending = [value]
    leaves = _PLAIN_LEAVES
    while pending:
        item = pending.pop()
        kind = type(item)
        if kind in leaves:
            continue
        if kind is dict:
            for key in item:
                if type(key) is not str:
                    return False
            pending.extend(item.values())
        elif kind is list or kind is tuple:
            pending.extend(item)
        else:
            return False
    return True


def utc_now() -> str:
    """ISO-8601 UTC with milliseconds: the ``at`` of new events."""
    return format_at(datetime.now(UTC))


def format_at(moment: datetime) -> str:
    """``moment`` (in UTC) spelt as an event's ``at``: what ``isoformat(timespec="milliseconds")``
    spells, with ``Z`` for the offset, at a fifth of its cost (every commit stamps its events)."""
    return (f"{moment.year:04d}-{moment.month:02d}-{moment.day:02d}T{moment.hour:02d}:{moment.minute:02d}:"
            f"{moment.second:02d}.{moment.microsecond // 1000:03d}Z")


def parse_time(text: str) -> datetime:
    """An event's ``at`` (or a deadline) as an aware UTC datetime (Python 3.11 reads the ``Z``)."""
    return datetime.fromisoformat(text)


def seed_commitment(seed: str) -> str:
    """What ``GameCreated`` publishes about the secret seed: its SHA-256."""
    return hashlib.sha256(seed.encode()).hexdigest()


@dataclass(frozen=True)
class Envelope:
    """One stored event: the game's fact plus where, when, why and its chain link."""

    seq: int
    type: str
    at: str
    actor: int | None
    data: Mapping[str, Any]
    cause: Mapping[str, Any] = field(default_factory=dict)
    prev: str = GENESIS_HASH
    hash: str = ""
    #: The stored JSON, when :func:`seal` already spelled it (not part of the event's value).
    stored_json: str | None = field(default=None, compare=False, repr=False)

    def body(self) -> dict[str, Any]:
        """Every field but ``hash``: what the hash covers."""
        return _body(self.seq, self.type, self.at, self.actor, self.data, self.cause, self.prev)

    def to_dict(self) -> dict[str, Any]:
        return {**self.body(), "hash": self.hash}

    def to_json(self) -> str:
        return self.stored_json or canonical_json(self.to_dict())

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any], stored_json: str | None = None) -> Envelope:
        return cls(seq=raw["seq"], type=raw["type"], at=raw["at"], actor=raw["actor"], data=raw["data"],
                   cause=raw.get("cause") or {}, prev=raw["prev"], hash=raw["hash"], stored_json=stored_json)

    @classmethod
    def from_json(cls, text: str | bytes) -> Envelope:
        return cls.from_dict(orjson.loads(text))

    @classmethod
    def from_stored(cls, text: str | bytes) -> Envelope:
        """The envelope of a stored line, keeping the line: :func:`check_chain` can then hash
        the body cut out of it instead of spelling it again (an archive checks every event)."""
        raw = text.decode() if isinstance(text, bytes) else text
        return cls.from_dict(orjson.loads(raw), stored_json=raw)


def _body(seq: int, type_: str, at: str, actor: int | None, data: Mapping[str, Any],
          cause: Mapping[str, Any], prev: str) -> dict[str, Any]:
    """The fields the chain's hash covers: one spelling for an envelope and for :func:`seal`."""
    return {"seq": seq, "type": type_, "at": at, "actor": actor, "data": data, "cause": cause, "prev": prev}


def chain_hash(prev: str, body: Mapping[str, Any]) -> str:
    return _link(prev, canonical_json(body))


def _link(prev: str, body_json: str) -> str:
    """The chain's one formula: SHA-256 of the previous hash and the body's canonical JSON."""
    return hashlib.sha256((prev + body_json).encode()).hexdigest()


def seal(seq: int, type_: str, at: str, actor: int | None, data: Mapping[str, Any],
         cause: Mapping[str, Any], prev: str) -> Envelope:
    """Build the envelope for the next event in a chain, hash included (built once: a frozen
    dataclass costs more to construct than the body's JSON).

    Its ``data`` and ``cause`` are read back from the stored JSON, not the caller's objects:
    every process must fold exactly what the log holds. A draft's dicts keep their insertion
    order while the log's keys are sorted, so a fold of the draft could differ from a fold of
    the log wherever a rule walks a dict in order (the committer's cache, the record it hands
    to the workers and its snapshots would then decide from a state no replay reaches).
    """
    body = canonical_json(_body(seq, type_, at, actor, dict(data), dict(cause), prev))
    digest = _link(prev, body)
    stored = orjson.loads(body)
    return Envelope(seq, type_, at, actor, stored["data"], stored["cause"], prev, digest,
                    _with_hash(body, digest, type_))


#: How the top-level ``prev`` key starts in a body's canonical JSON (``actor`` always precedes it).
_PREV_KEY = ',"prev":"'


def _top_prev_at(text: str, type_: str) -> int:
    """Where the top-level ``,"prev":"`` starts in the canonical JSON of an event of type
    ``type_`` (its body, or the envelope), or -1 when that cannot be told from the text.

    Keys are sorted, and the three last (prev, seq, type) hold a hex hash, a number and the
    type: the last ``,"prev":"`` is the top-level key's whenever the type is a plain name.
    The cuts below (:func:`_with_hash`, :func:`_stored_body`, :func:`body_without_prev`) all
    stand on this."""
    return text.rfind(_PREV_KEY) if type_.isidentifier() else -1


def _with_hash(body: str, digest: str, type_: str) -> str | None:
    """The canonical JSON of the sealed envelope, from that of its body: ``hash`` goes in
    just before ``prev`` (keys are sorted); None where the place cannot be told (the event is
    then spelled out in full when stored)."""
    cut = _top_prev_at(body, type_)
    if cut < 0:
        return None
    return f'{body[:cut]},"hash":"{digest}"{body[cut:]}'


def _stored_body(event: Envelope) -> str | None:
    """The body's JSON cut out of the event's stored line, if it kept one: the inverse of
    :func:`_with_hash` (``hash`` just before the top-level ``prev``); else None.

    :func:`check_chain` hashes it first and spells the body again only when that fails, so
    it accepts exactly what it accepted before: a line that hashes right as it is holds the
    very text that was sealed, which is canonical, and spelling its fields again gives it back.
    """
    stored = event.stored_json
    if stored is None:
        return None
    member = f',"hash":"{event.hash}"'
    cut = _top_prev_at(stored, event.type)
    if cut < len(member) or not stored.startswith(member, cut - len(member)):
        return None
    return stored[:cut - len(member)] + stored[cut:]


def body_without_prev(body: str, event: Envelope) -> str:
    """The canonical JSON of ``event``'s body without ``prev``, cut out of ``body`` (with it).

    Cut where :func:`_top_prev_at` finds the key; where it cannot tell, spelled out again.
    """
    cut = _top_prev_at(body, event.type)
    if cut > 0:
        start = cut + len(_PREV_KEY)
        end = start + len(event.prev)
        if body[start:end] == event.prev and body[end] == '"':
            return body[:cut] + body[end + 1:]
    spelled = event.body()
    del spelled["prev"]
    return canonical_json(spelled)


class ChainError(ValueError):
    """A log whose sequence or hashes do not link up; names the first bad event."""

    def __init__(self, seq: int, message: str) -> None:
        super().__init__(f"event {seq}: {message}")
        self.seq = seq


def check_chain(events: Iterable[Envelope], bodies: list[str] | None = None) -> str:
    """Raise :class:`ChainError` at the first broken link; return the last hash.

    ``bodies``, if given, receives each event's canonical body JSON (what its hash covers).
    """
    prev = GENESIS_HASH
    expected_seq = 1
    for event in events:
        if event.seq != expected_seq:
            raise ChainError(event.seq, f"expected sequence number {expected_seq}")
        if event.prev != prev:
            raise ChainError(event.seq, "prev does not match the hash of the event before it")
        body = _stored_body(event)
        if body is None or _link(prev, body) != event.hash:
            body = canonical_json(event.body())
            if _link(prev, body) != event.hash:
                raise ChainError(event.seq, "hash does not match the event's content")
        if bodies is not None:
            bodies.append(body)
        prev = event.hash
        expected_seq += 1
    return prev
