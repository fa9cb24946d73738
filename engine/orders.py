"""Standing orders: a seat's decisions made in advance, answered inside the commit that opens them.

A seated player keeps up to :data:`MAX_ORDERS` orders per game, each
``{"decision", "when", "answer", "once"}``. When a commit leaves a seat awaited for a
``decision`` whose ``when`` holds, the first such order whose ``answer`` the rules accept
is played there and then, as that seat's own action, its batch naming the order in its
cause (``cause.order``). An answer the rules refuse is skipped; a ``once`` order is spent.

Secrecy. The orders never enter the game's stream: they live in keys of the game's own
(``Keys.orders``), and each change is a ``StandingOrdersSet`` event in a stream of its own
(``Keys.orders_log``), hash-chained like the game's, published with the log when the game
ends and replayed by the audit. So setting orders moves no version or sequence number any
other seat can read, and an answer an order made is an ordinary batch of the seat's action
in every feed, view and webhook (a cause is shown to nobody while the game is on). Clocks
follow from the fold: an answer lands at the instant its decision opened, so the seat's
clock never runs and its reserve is untouched.

Round trips. A commit's round trips to Redis must not depend on whether anyone has orders,
or on whether they changed: the mover would time them. Each process keeps the orders of the
games it commits to with the revision it read them at; the append script checks that
revision (one ``GET`` inside it, the guard). A process reads a game's orders before its
first commit there, whether or not any are set (so that read tells nothing), and every
change after that is announced to every process on :attr:`StandingOrders.channel`, with
the orders themselves, by the very script that makes it (a ``PUT``, or a commit spending a
``once`` order): the listener brings the process's copy up to date with no read. An append
still refused (``stale``) lost a race with a change being announced, as an append that
loses the version check lost one with another writer: it reads the orders and is made
again (``engine.commit``).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import orjson
import redis

from engine.errors import Conflict, Forbidden, Invalid
from events.envelope import GENESIS_HASH, Envelope, seal, utc_now
from events.lean import LeanScript
from events.store import IndexCommands, Keys
from games.action_schema import ActionCheck
from games.base import GameRules, RuleViolation
from projections.orders import ORDERS_SET, OrderAnswer, first_answer
from projections.record import Record, rules_of, seat_of

#: The most orders one seat keeps in one game.
MAX_ORDERS = 20
#: The most answers orders give inside one commit (a table of orders answering each other's
#: decisions ends there; its next decision waits for the seat as usual).
MAX_ANSWERS_IN_COMMIT = 32
#: The keys an order may have.
ORDER_FIELDS = ("decision", "when", "answer", "once")
#: The longest answer (its JSON) an order may hold.
MAX_ANSWER_BYTES = 2048
#: Games whose orders one process keeps at hand (a game dropped is read again when needed).
KNOWN_GAMES = 10_000
#: Attempts to record an order change while the game or its orders keep moving.
MAX_RETRIES = 5
#: Each game's strict check of actions, compiled once (an order's answer passes it at PUT).
_CHECKS: dict[str, ActionCheck] = {}

# KEYS: orders hash, revision, orders log, the game's meta hash. ARGV: seat, the seat's orders
# (JSON; "" clears them), the log's length and the game's version the event was written for,
# the event's stored JSON, the announcements' channel, the game's id. Refuses (0) when the log
# or the game moved since they were read; otherwise bumps the revision (so every commit
# decided with the old orders is refused), announces the game's orders to every process and
# returns the revision.
_SET = """
if redis.call('XLEN', KEYS[3]) ~= tonumber(ARGV[3]) then return 0 end
if tonumber(redis.call('HGET', KEYS[4], 'version') or '0') ~= tonumber(ARGV[4]) then return 0 end
if ARGV[2] == '' then redis.call('HDEL', KEYS[1], ARGV[1]) else redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end
redis.call('XADD', KEYS[3], '0-' .. (tonumber(ARGV[3]) + 1), 'e', ARGV[5])
local revision = redis.call('INCR', KEYS[2])
local held = redis.call('HGETALL', KEYS[1])
local flat = '[]'
if #held > 0 then flat = cjson.encode(held) end
redis.call('PUBLISH', ARGV[6], ARGV[7] .. '\\n' .. revision .. '\\n' .. flat)
return revision
"""


@dataclass
class _Known:
    revision: str
    by_seat: dict[int, list[dict[str, Any]]]

    @classmethod
    def of(cls, revision: str, pairs: Any) -> _Known:
        """What a process holds at ``revision`` from the stored ``(seat, orders JSON)`` pairs (seats
        with none left out)."""
        orders = {int(seat): orjson.loads(raw) for seat, raw in pairs}
        return cls(revision, {seat: mine for seat, mine in orders.items() if mine})


def check_orders(rules: GameRules, seats: int, orders: Any) -> list[dict[str, Any]]:
    """The orders completed with their defaults, or ``Invalid("bad_order")`` naming the order and field."""
    if not isinstance(orders, list):
        raise _bad(None, "orders", "orders must be a list of orders")
    if len(orders) > MAX_ORDERS:
        raise _bad(MAX_ORDERS, "orders", f"at most {MAX_ORDERS} orders per seat, not {len(orders)}")
    decisions = tuple(getattr(rules, "ORDER_DECISIONS", ()))
    conditions = dict(getattr(rules, "ORDER_CONDITIONS", {}))
    check = _action_check(rules)
    templates = tuple(getattr(rules, "ORDER_ANSWER_TYPES", ()))
    return [_check_order(index, order, decisions, conditions, seats, check, templates)
            for index, order in enumerate(orders)]


def _action_check(rules: GameRules) -> ActionCheck | None:
    """The game's strict check of actions (None: it declares no ``ACTION_SCHEMA``)."""
    schema = getattr(rules, "ACTION_SCHEMA", None)
    if schema is None:
        return None
    name = getattr(rules, "NAME", "")
    if name not in _CHECKS:
        _CHECKS[name] = ActionCheck(schema)
    return _CHECKS[name]


def _check_answer(index: int, answer: dict[str, Any], check: ActionCheck, templates: tuple[str, ...]) -> None:
    """Refuse an answer no action of the game's schema has the shape of (its type, its fields),
    naming the field: whether it is legal is the rules' to say when it is played. An answer
    type of the game's own templates (``ORDER_ANSWER_TYPES``) stands for an action itself."""
    kind = answer["type"]
    if kind in templates:
        return
    if kind not in check.kinds:
        raise _bad(index, "answer.type", f"no action {kind[:64]!r}; this game's are {', '.join(check.kinds)}")
    try:
        check(answer)
    except RuleViolation as refused:
        takes = next(branch["properties"] for branch in check.schema["oneOf"] if branch["title"] == kind)
        needed = [name for name in check.required[kind] if name not in answer]
        unknown = [name for name in answer if name not in takes]
        named = [name for name in answer if name != "type" and repr(name) in refused.message]
        field = (needed or unknown or named or [""])[0]
        raise _bad(index, f"answer.{field[:64]}" if field else "answer", f"answer: {refused.message}") from None


def _check_order(index: int, order: Any, decisions: tuple[str, ...], conditions: Mapping[str, Any],
                 seats: int, check: ActionCheck | None = None, templates: tuple[str, ...] = ()) -> dict[str, Any]:
    if not isinstance(order, dict):
        raise _bad(index, "order", "an order is an object with decision, when, answer and once")
    unknown = sorted(set(order) - set(ORDER_FIELDS))
    if unknown:
        raise _bad(index, unknown[0][:64], f"an order has no field {unknown[0][:64]!r}; its fields are "
                                      f"{', '.join(ORDER_FIELDS)}")
    decision = order.get("decision")
    if not decisions:
        raise _bad(index, "decision", "this game takes no standing orders (its README says why)")
    if decision not in decisions:
        raise _bad(index, "decision", f"decision must be one of {', '.join(decisions)}")
    when = order.get("when", {})
    if not isinstance(when, dict):
        raise _bad(index, "when", "when must be an object of conditions")
    for name, value in when.items():
        condition = conditions.get(name)
        if condition is None:
            raise _bad(index, f"when.{name[:64]}", f"no condition {name[:64]!r}; this game's are "
                                                  f"{', '.join(sorted(conditions)) or 'none'}")
        if not condition.accepts(value, seats):
            allowed = (condition.values if isinstance(condition.values, str)
                       else "one of " + ", ".join(condition.values))
            raise _bad(index, f"when.{name}", f"{name} takes {allowed}")
    answer = order.get("answer")
    if not isinstance(answer, dict) or not isinstance(answer.get("type"), str) or not 1 <= len(answer["type"]) <= 64:
        raise _bad(index, "answer", "answer must be an action object with a string type")
    try:
        size = len(orjson.dumps(answer))
    except TypeError:  # a number past 64 bits: no action of any game takes one
        raise _bad(index, "answer", "answer holds a number too large for an action") from None
    if size > MAX_ANSWER_BYTES:
        raise _bad(index, "answer", f"an answer is at most {MAX_ANSWER_BYTES} bytes of JSON")
    if check is not None:
        _check_answer(index, answer, check, templates)
    once = order.get("once", False)
    if not isinstance(once, bool):
        raise _bad(index, "once", "once must be true or false")
    return {"decision": decision, "when": dict(when), "answer": dict(answer), "once": once}


def _bad(index: int | None, name: str, detail: str) -> Invalid:
    where = f"order {index}: " if index is not None else ""
    return Invalid("bad_order", f"{where}{detail}", order=index, field=name)


class StandingOrders:
    """The standing orders of every game, as the API sets them and the commit reads them."""

    def __init__(self, client: redis.Redis, keys: Keys) -> None:
        self.redis = client
        self.keys = keys
        self._known: OrderedDict[str, _Known] = OrderedDict()
        self._set = LeanScript(client, _SET)
        #: Where every change of a game's orders is announced, with the orders (see :meth:`heard`).
        self.channel = f"{keys.prefix}:orders:changed"

    # ------------------------------------------------------------------ the API
    def of_player(self, player_id: str, record: Record) -> list[dict[str, Any]]:
        """The caller's orders in the game of ``record`` (none: an empty list)."""
        game_id = record["id"]
        seat = self._seat(record, player_id)
        raw = self.redis.hget(self.keys.orders(game_id), str(seat))
        return orjson.loads(raw) if raw else []

    def replace(self, player_id: str, record: Record, orders: Any) -> list[dict[str, Any]]:
        """Replace the caller's orders; the game's next move consults them (setting them moves nothing)."""
        seat = self._seat(record, player_id)
        self._still_on(record)
        checked = check_orders(rules_of(record), record["seats"], orders)
        self._write(record["id"], seat, checked)
        return checked

    def clear(self, player_id: str, record: Record) -> None:
        seat = self._seat(record, player_id)
        self._still_on(record)
        self._write(record["id"], seat, [])

    @staticmethod
    def _seat(record: Record, player_id: str) -> int:
        seat = seat_of(record, player_id)
        if seat is None:
            raise Forbidden("not_seated", "only a seated player keeps standing orders in a game")
        return seat

    @staticmethod
    def _still_on(record: Record) -> None:
        if record["status"] in ("finished", "cancelled"):
            raise Conflict("game_over", "the game is over: no decision is left to answer")

    def _write(self, game_id: str, seat: int, orders: list[dict[str, Any]]) -> None:
        """Record the change as a ``StandingOrdersSet`` event of the orders' own stream, with
        the game's version it takes effect after, and bump the revision; all in one step."""
        log_key = self.keys.orders_log(game_id)
        for _ in range(MAX_RETRIES):
            pipe = self.redis.pipeline(transaction=False)
            pipe.xrevrange(log_key, count=1)
            pipe.hget(self.keys.meta(game_id), "version")
            last, version = pipe.execute()
            length = int(last[0][0].decode().split("-")[1]) if last else 0
            prev = Envelope.from_json(last[0][1][b"e"]).hash if last else GENESIS_HASH
            version = int(version or 0)
            event = seal(length + 1, ORDERS_SET, utc_now(), seat,
                         {"seat": seat, "orders": orders, "version": version},
                         {"kind": "orders", "seat": seat, "batch": length + 1}, prev)
            done = self._set(keys=[self.keys.orders(game_id), self.keys.orders_revision(game_id), log_key,
                                   self.keys.meta(game_id)],
                             args=[seat, orjson.dumps(orders).decode() if orders else "", length, version,
                                   event.to_json(), self.channel, game_id])
            if done:
                self.refresh(game_id)
                return
        raise Conflict("busy", "the game changed too often while your orders were saved; try again")

    def log(self, game_id: str) -> list[Envelope]:
        """The game's ``StandingOrdersSet`` events, in order (published once the game is over)."""
        return [Envelope.from_json(fields[b"e"]) for _, fields in self.redis.xrange(self.keys.orders_log(game_id))]

    # --------------------------------------------------------------- the commit
    def guard(self, game_id: str) -> tuple[str, str]:
        """The revision key and the value this process decides with (the append checks it)."""
        known = self._known.get(game_id)
        return self.keys.orders_revision(game_id), known.revision if known is not None else "0"

    def ensure_known(self, game_id: str, record: Record | None) -> None:
        """Read the game's orders unless this process holds them: one read before its first
        commit in a game, orders or none (a game being created has none yet)."""
        if game_id in self._known:
            return
        if record is None:
            self._keep(game_id, _Known("0", {}))
        else:
            self.refresh(game_id)

    def refresh(self, game_id: str) -> None:
        """Read the game's orders (first, or again when the append found them changed)."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.get(self.keys.orders_revision(game_id))
        pipe.hgetall(self.keys.orders(game_id))
        revision, held = pipe.execute()
        self._keep(game_id, _Known.of((revision or b"0").decode(), held.items()))

    def _keep(self, game_id: str, known: _Known) -> None:
        self._known[game_id] = known
        self._known.move_to_end(game_id)
        while len(self._known) > KNOWN_GAMES:
            self._known.popitem(last=False)

    def heard(self, message: bytes) -> None:
        """A change of some game's orders, as announced (``<game>\\n<revision>\\n<flat JSON of
        seat, orders, ...>``): kept when this process holds that game's orders, at an older
        revision. A game it does not hold is read before its first commit, as any other."""
        game_id, revision, flat = message.decode().split("\n", 2)
        known = self._known.get(game_id)
        if known is None or int(known.revision) >= int(revision):
            return
        pairs = orjson.loads(flat)
        self._known[game_id] = _Known.of(revision, zip(pairs[::2], pairs[1::2], strict=True))

    def answer(self, game_id: str, record: Record, rng: Callable[[], Any],
               spent: set[tuple[int, int]]) -> OrderAnswer | None:
        """The answer an order gives to a decision ``record`` awaits, if any (see :func:`first_answer`).

        The cheap check first: a game whose orders this process holds none of answers None."""
        known = self._known.get(game_id)
        if known is None or not known.by_seat or record["status"] != "active":
            return None
        found = first_answer(record, known.by_seat, rng, spent)
        if found is not None and found.order["once"]:
            spent.add((found.seat, found.index))
        return found

    def queue_spent(self, pipe: redis.client.Pipeline | IndexCommands, game_id: str,
                    spent: set[tuple[int, int]], revision: str) -> _Known | None:
        """Drop the ``once`` orders a commit spent, in its index updates (run only if it lands):
        the orders left are written and the revision moved on. Returns what this process
        holds once the commit lands (see :meth:`landed`).

        ``revision`` is the one the commit decided with (its guard). Should this process hold
        other orders by now, the store's revision moved too and the append will be refused
        (``stale``): nothing is written."""
        known = self._known.get(game_id)
        if not spent or known is None or known.revision != revision:
            return None
        by_seat = dict(known.by_seat)
        for seat in {seat for seat, _ in spent}:
            left = [order for index, order in enumerate(by_seat[seat]) if (seat, index) not in spent]
            pipe.hset(self.keys.orders(game_id), mapping={str(seat): orjson.dumps(left).decode()})
            if left:
                by_seat[seat] = left
            else:
                del by_seat[seat]
        revision = str(int(known.revision) + 1)
        pipe.set(self.keys.orders_revision(game_id), revision)
        flat = [part for seat, mine in by_seat.items() for part in (str(seat), orjson.dumps(mine).decode())]
        pipe.publish(self.channel, f"{game_id}\n{revision}\n{orjson.dumps(flat).decode()}")
        return _Known(revision, by_seat)

    def landed(self, game_id: str, known: _Known | None) -> None:
        """The commit that spent orders landed: this process now holds what it wrote."""
        if known is not None:
            self._known[game_id] = known
