"""Offline audit of a game log: the hash chain, the seed commitment, and every step replayed.

Each batch of events records its cause: a seat's action, a timeout's default, the
bot's move, a system step, a join. The audit folds the log and, for every batch,
asks the rules what that cause produces with the generator derived from the
revealed seed; any difference names the first bad event. So does the first event after which
some seat or a spectator cannot read the game (``projections.renderable``).

A published log may end with the seats' ``StandingOrdersSet`` events, a hash chain of
their own (they never were in the game's stream, see ``engine.orders``). A batch whose
cause names a standing order is replayed against them: the orders the seat had set by
then must give that very answer, as the first order that matched and was legal.

It ends, when the server published it, with a ``LogSigned`` record: the server's
signature of the final hash (``engine.final_record``), checked apart by ``intrigue verify``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import groupby

from events.entropy import REVEALS_AWAITED, SECRET_REVEALED, commitment_of, is_hex64, mix_seed
from events.envelope import ChainError, Envelope, canonical_json, check_chain, parse_time, seed_commitment
from games.base import GameEvent, RuleViolation, derive_rng
from projections.orders import ORDERS_SET, first_answer
from projections.record import Record, fold, platform_outcome, rules_of
from projections.renderable import Unrenderable, check_renders
from projections.shuffles import start_events

#: The type of the signed final record a published log ends with (``engine.final_record``).
LOG_SIGNED = "LogSigned"


def game_events(events: Iterable[Envelope]) -> list[Envelope]:
    """The game's own chain: a published log without the orders' chain and the signed final record."""
    return [e for e in events if e.type not in (ORDERS_SET, LOG_SIGNED)]


@dataclass(frozen=True)
class AuditReport:
    events: int
    finished: bool
    winners: list[int] | None


class AuditError(ValueError):
    def __init__(self, seq: int, message: str) -> None:
        super().__init__(f"event {seq}: {message}")
        self.seq = seq


def audit(events: list[Envelope]) -> AuditReport:
    """Raise :class:`AuditError` at the first event the chain, the seed or the rules disown."""
    orders_log = [e for e in events if e.type == ORDERS_SET]
    events = game_events(events)
    if not events:
        raise AuditError(0, "the log is empty")
    try:
        check_chain(events)
        if orders_log:
            check_chain(orders_log)
    except ChainError as err:
        raise AuditError(err.seq, str(err).split(": ", 1)[1]) from None
    orders = _OrdersReplay(orders_log)
    first = events[0]
    if first.type != "GameCreated":
        raise AuditError(first.seq, "a log starts with GameCreated")
    ended = [e for e in events if e.type == "GameEnded"]
    if not ended:
        raise AuditError(events[-1].seq, "the game has not ended: the seed is still secret, so draws cannot be checked")
    seed = ended[0].data["seed"]
    if seed_commitment(seed) != first.data["seed_hash"]:
        raise AuditError(ended[0].seq, "the revealed seed does not match the commitment in GameCreated")
    record: Record | None = None
    for _, batch_iter in groupby(events, key=lambda e: e.cause.get("batch")):
        batch = list(batch_iter)
        try:
            _check_batch(record, batch, seed)
            if "order" in batch[0].cause:
                orders.check(record, batch[0], seed)
            for event in batch:
                record = fold(record, event)
            assert record is not None
            check_renders(record, batch)
        except Unrenderable as err:  # a log no reader can read past this event: a rules bug let it in
            raise AuditError(err.seq, f"{err.event_type}: {str(err).split(': ', 1)[1]}") from None
        except AuditError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as err:
            # The chain holds but the rules cannot even read the step: not what they wrote.
            raise AuditError(batch[0].seq, f"the rules cannot replay this step ({type(err).__name__}: {err})") from None
    assert record is not None
    return AuditReport(events=len(events), finished=record["status"] == "finished", winners=record["winners"])


#: The batches a player's absence makes: a vacation's pause, a substitute taking a seat over.
COMMUNITY_KINDS = {"vacation": ("VacationStarted", "VacationEnded"), "substitute": ("SeatSubstituted",)}


def _check_batch(record: Record | None, batch: list[Envelope], seed: str) -> None:
    head = batch[0]
    cause = head.cause
    if cause.get("batch") != head.seq:
        raise AuditError(head.seq, "the event's cause does not name the batch it starts")
    kind = cause.get("kind")
    if kind == "create":
        expected = [_as_draft(head)] if head.type == "GameCreated" and record is None else []
        _compare(batch, expected)
        return
    if record is None:
        raise AuditError(head.seq, "an event comes before GameCreated")
    rules = rules_of(record)
    rng = derive_rng(mix_seed(seed, record.get("secrets")), head.seq)
    state = record["state"]
    try:
        if kind == "join":
            expected = [_as_draft(head)]
            joined = fold(record, head)
            if None not in joined["players"] and joined.get("commitments"):  # fair shuffles: reveals awaited
                awaited = batch[1] if len(batch) > 1 and batch[1].type == REVEALS_AWAITED else None
                expected.append(_as_draft(awaited) if awaited else GameEvent(REVEALS_AWAITED, {}))
            elif len(batch) > 1 and batch[1].type == "GameStarted":
                expected.append(GameEvent("GameStarted", {}))
                expected += rules.setup(record["options"], record["seats"], rng)
        elif kind in ("reveal", "start"):
            expected = _start_batch(record, head, seed)
        elif kind == "system":
            expected = rules.resolve(state, rng)
        elif kind in ("leave", "resign"):
            want = "PlayerLeft" if kind == "leave" else "SeatResigned"
            seat = head.data.get("seat")
            if head.type != want or head.actor != seat or not isinstance(seat, int) or not 0 <= seat < record["seats"]:
                raise AuditError(head.seq, f"a {kind} batch starts with {want} by its seat")
            expected = [_as_draft(head)]
        elif kind in COMMUNITY_KINDS:  # one event of the seat's, which the log itself decided (issue 50)
            seat = head.data.get("seat")
            if (head.type not in COMMUNITY_KINDS[kind] or head.actor != seat or not isinstance(seat, int)
                    or not 0 <= seat < record["seats"]):
                raise AuditError(head.seq, f"a {kind} batch starts with one of {', '.join(COMMUNITY_KINDS[kind])}")
            expected = [_as_draft(head)]
        elif kind in ("player", "timeout", "bot"):
            seat = _acting_seat(batch)
            action = cause.get("action")
            if seat is None or not isinstance(action, dict):
                raise AuditError(head.seq, "an action's batch must name its seat and action")
            expected = [_as_draft(head)] if head.type == "DeadlineMissed" else []
            if not rules.may_act(state, seat):
                raise AuditError(head.seq, f"seat {seat} had no decision to make")
            if kind == "timeout" and canonical_json(rules.on_timeout(state, seat)) != canonical_json(action):
                raise AuditError(head.seq, "the timeout did not play the rules' default action")
            # A bot's move (a bot seat's, or the takeover of an absent player's seat) comes
            # from a search bounded in time, which no replay can repeat: like a player's, it
            # is checked by the rules accepting it, below.
            expected += rules.decide(state, seat, action, rng)
        else:
            raise AuditError(head.seq, f"unknown cause {kind!r}")
    except RuleViolation as err:
        raise AuditError(head.seq, f"the rules refuse this step: {err.message}") from None
    after = record
    for event in batch:
        if event.type != "GameEnded":
            after = fold(after, event)
    outcome = platform_outcome(after) if after["status"] == "active" else None
    if outcome is not None:
        expected.append(GameEvent("GameEnded", {"winners": list(outcome.winners), "reason": outcome.reason,
                                                "seed": seed}))
    _compare(batch, expected)


class _OrdersReplay:
    """The seats' standing orders as they stood at each commit, replayed from their own log."""

    def __init__(self, log: list[Envelope]) -> None:
        self.log = log
        self.applied = 0
        self.held: dict[int, list[dict]] = {}
        self.commit: int | None = None
        self.spent: set[tuple[int, int]] = set()

    def check(self, record: Record | None, head: Envelope, seed: str) -> None:
        """The orders held when ``head``'s commit began must answer as ``head`` records."""
        cause = head.cause
        named, follows = cause.get("order"), cause.get("follows")
        if record is None or not isinstance(named, dict) or not isinstance(follows, int):
            raise AuditError(head.seq, "an order's answer must name its order and the commit it answered in")
        if follows != self.commit:  # a new commit: the once orders spent before are gone, later changes apply
            for seat, index in sorted(self.spent, reverse=True):
                del self.held[seat][index]
            self.commit, self.spent = follows, set()
            while self.applied < len(self.log) and self.log[self.applied].data.get("version", 0) <= follows - 1:
                change = self.log[self.applied].data
                self.held[change["seat"]] = [dict(order) for order in change["orders"]]
                self.applied += 1
        found = first_answer(record, self.held, lambda: derive_rng(mix_seed(seed, record.get("secrets")), head.seq),
                             self.spent)
        recorded = {k: v for k, v in named.items() if k != "index"}
        if (found is None or found.seat != cause.get("seat") or found.index != named.get("index")
                or canonical_json(found.order) != canonical_json(recorded)):
            raise AuditError(head.seq, "the seat's standing orders at that moment do not give this answer")
        if found.order["once"]:
            self.spent.add((found.seat, found.index))


def _start_batch(record: Record, head: Envelope, seed: str) -> list[GameEvent]:
    """What a fair shuffle's batch must hold: a committed seat's secret (and the start, if it was the
    last one missing), or the start without the seats that had not revealed when the wait ended."""
    if record["status"] != "starting":
        raise AuditError(head.seq, "secrets are revealed, and a game starts, only while it is starting")
    secrets = dict(record.get("secrets") or {})
    expected: list[GameEvent] = []
    if head.cause.get("kind") == "reveal":
        seat, secret = head.cause.get("seat"), head.data.get("secret")
        commitment = (record.get("commitments") or {}).get(str(seat))
        if head.type != SECRET_REVEALED or head.actor != seat or head.data.get("seat") != seat:
            raise AuditError(head.seq, "a reveal's batch starts with SecretRevealed by its seat")
        if commitment is None or not is_hex64(secret) or commitment_of(secret) != commitment:
            raise AuditError(head.seq, f"seat {seat}'s revealed secret does not match its commitment")
        expected.append(_as_draft(head))
        secrets[str(seat)] = secret
        if not set(record["commitments"]) <= set(secrets):
            return expected
    elif parse_time(head.at) < parse_time(record["reveal_by"]):
        raise AuditError(head.seq, "the game started without every secret before its wait for them ended")
    return expected + start_events(record, secrets, derive_rng(mix_seed(seed, secrets), head.seq))


def _acting_seat(batch: list[Envelope]) -> int | None:
    """The seat whose decision caused ``batch``: the cause names it.

    Logs written before causes named the seat give it as the actor of the batch's events:
    the first that names one (a step's first event may be a consequence no seat performs,
    as when a Pax hacendado's cubes go back to the supply before its manifesto). Either way
    the rules then replay that seat's decision and every event must match what they produce,
    actors included, so the seat read here is checked, not trusted.
    """
    named = batch[0].cause.get("seat")
    if "seat" in batch[0].cause:
        return named if isinstance(named, int) and not isinstance(named, bool) else None
    return next((event.actor for event in batch if event.actor is not None), None)


def _as_draft(event: Envelope) -> GameEvent:
    return GameEvent(event.type, event.data, event.actor)


def _compare(batch: list[Envelope], expected: list[GameEvent]) -> None:
    for index, event in enumerate(batch):
        if index >= len(expected):
            raise AuditError(event.seq, "the rules do not produce this event")
        want = expected[index]
        if (event.type, event.actor) != (want.type, want.actor) or canonical_json(event.data) != canonical_json(
                dict(want.data)):
            raise AuditError(event.seq, f"recorded {event.type} differs from what the rules produce ({want.type})")
    if len(expected) > len(batch):
        raise AuditError(batch[-1].seq, "the rules produce more events than were recorded")


class UnusableLog(ValueError):
    """The input is not a game log at all (empty, not text, not JSON, not envelopes).

    Kept apart from :class:`AuditError`, which says a log is one but was tampered with,
    so ``intrigue verify`` can tell "wrong file" (exit 2) from "forged log" (exit 1).
    """


#: The fields of a stored envelope and the JSON types each must have.
_ENVELOPE_FIELDS: dict[str, tuple[type, ...]] = {
    "seq": (int,), "type": (str,), "at": (str,), "actor": (int, type(None)), "data": (dict,),
    "cause": (dict,), "prev": (str,), "hash": (str,),
}


def read_log(lines: Iterable[str]) -> list[Envelope]:
    """The envelopes of an NDJSON log, one per non-blank line; :class:`UnusableLog` when a
    line is not one or there are none."""
    events = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
        except ValueError as err:
            raise UnusableLog(f"line {number} is not JSON: {err}") from None
        if not isinstance(raw, dict):
            raise UnusableLog(f"line {number} is JSON but not an event: an event is an object")
        for name, types in _ENVELOPE_FIELDS.items():
            value = raw.get(name)
            if name not in raw or not isinstance(value, types) or isinstance(value, bool):
                raise UnusableLog(f"line {number} is JSON but not an event: "
                                  f"{name!r} is {'missing' if name not in raw else 'of the wrong type'}")
        events.append(Envelope.from_dict(raw))
    if not events:
        raise UnusableLog("there are no events in it: a game log has one JSON event per line")
    return events
