"""Whether every reader of a game can read it: the check that keeps a rules bug out of a log.

A log is immutable: a state that some seat's view cannot be built from (a float where the
view indexes a list, say) answers 500 to that reader for ever, on every API process. So a
commit is refused unless every seat's and a spectator's view of the state it leads to render
as JSON, with the legal actions of every seat that may act and every new event as each seat
would read it (``engine.commit_check``); ``intrigue verify`` runs the same check on every event
of a log it audits, so a log already poisoned is reported naming its first unreadable event.
"""

from __future__ import annotations

from collections.abc import Sequence

import orjson

from events.envelope import PLATFORM_EVENTS, Envelope
from projections.record import Record, rules_of


def _as_json(value: object) -> None:
    """Serialise ``value`` as the API does (``service.answers.dump_bytes``), or raise."""
    orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


class Unrenderable(RuntimeError):
    """The state after event ``seq`` (or that event as a seat reads it) cannot be rendered."""

    def __init__(self, seq: int, event_type: str, reader: int | None, cause: BaseException) -> None:
        who = "a spectator" if reader is None else f"seat {reader}"
        super().__init__(f"event {seq} ({event_type}): {who} cannot read the game "
                         f"({type(cause).__name__}: {cause})")
        self.seq = seq
        self.event_type = event_type


def check_renders(record: Record, events: Sequence[Envelope]) -> None:
    """Raise :class:`Unrenderable` unless every reader can read ``record`` and ``events``
    (the events that led to it, as each seat's feed shows them)."""
    state = record.get("state")
    if state is None or not events:
        return
    rules = rules_of(record)
    last = events[-1]
    readers: list[int | None] = [None, *range(record["seats"])]
    reader: int | None = None
    event = last
    try:
        for event in events:
            if event.type in PLATFORM_EVENTS:  # the projections read those, not the game's redact
                continue
            for reader in readers:
                _as_json(rules.redact(event, reader))
        event = last
        for reader in readers:
            _as_json(rules.view(state, reader))
            if reader is not None and record["status"] == "active" and rules.may_act(state, reader):
                _as_json(rules.legal_actions(state, reader))
    except Exception as err:  # noqa: BLE001 - whatever a reader would meet is what the check is for
        raise Unrenderable(event.seq, event.type, reader, err) from err

