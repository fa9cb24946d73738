"""The contract every game module fulfils.

A game is a pure module: no I/O, no clock, no global randomness. The platform
(events, projections, workers, service) talks to a game only through the
functions named in :class:`GameRules`, so a new game is one new package in
``games/`` plus one line in :mod:`games.registry`.

State is plain JSON-compatible data (dicts, lists, str, int, bool, None) so it
can be snapshotted, diffed and compared after a replay. ``evolve`` must never
mutate the state it is given; it returns a new one.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

State = dict[str, Any]
Action = dict[str, Any]
Seat = int


class RuleViolation(Exception):
    """An action the rules forbid. ``code`` is stable, ``message`` is for people.

    The message is written from what the acting seat can already see: it must
    never mention another seat's hidden cards or bids, the deck order, or the seed.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class InvalidOptions(RuleViolation):
    """The options or seat count given at game creation do not make a legal game."""


#: The codes the helpers of this module refuse with on a game's behalf (``check_seat``,
#: ``require_fields``, ``require_present``): a game that calls them lists them in its own
#: ``RULE_CODES`` too, with any code of its own it hands ``require_present``.
HELPER_RULE_CODES: dict[str, str] = {
    "bad_target": "the target is not a seat of this game",
    "unknown_field": "a key the action does not take",
    "missing_field": "a field the action's type requires is missing",
}


@dataclass(frozen=True)
class GameEvent:
    """A fact produced by ``setup``/``decide``/``resolve``, before the store wraps it.

    ``actor`` is the seat whose decision caused it, or ``None`` for the system
    (the table itself: deals, reveals, scoring). ``type`` must not be one the platform
    folds itself (GameCreated, PlayerJoined, GameStarted, DeadlineMissed, GameEnded):
    the conformance suite checks it.
    """

    type: str
    data: Mapping[str, Any] = field(default_factory=dict)
    actor: Seat | None = None


@dataclass(frozen=True)
class OrderCondition:
    """One condition a standing order may put in its ``when``: a fact of the moment an order
    is asked about, which the order's value must match for it to answer.

    ``values`` says what the value may be: ``"boolean"``, ``"seat"`` (a seat number) or the
    tuple of strings allowed. ``test(state, seat, value)`` says whether it holds for ``seat``.
    A test reads public facts, or the seat's own (its hand): never another seat's secrets.
    """

    description: str
    values: str | tuple[str, ...]
    test: Callable[[State, Seat, Any], bool]

    def accepts(self, value: Any, seats: int) -> bool:
        """Whether ``value`` is one this condition can be asked about (in a game of ``seats``)."""
        if self.values == "boolean":
            return isinstance(value, bool)
        if self.values == "seat":
            return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < seats
        return isinstance(value, str) and value in self.values

    def schema(self) -> dict[str, Any]:
        """The JSON Schema of its value (the API reference lists every game's conditions)."""
        if self.values == "boolean":
            return {"type": "boolean", "description": self.description}
        if self.values == "seat":
            return {"type": "integer", "minimum": 0, "description": self.description}
        return {"type": "string", "enum": list(self.values), "description": self.description}


class EventLike(Protocol):
    """What ``evolve`` and ``redact`` read: a stored event or a :class:`GameEvent`.

    Read-only, so the frozen dataclasses that carry events (this module's, the store's
    envelopes, the bots' observations) all answer it."""

    @property
    def type(self) -> str: ...
    @property
    def data(self) -> Mapping[str, Any]: ...
    @property
    def actor(self) -> Seat | None: ...


@dataclass(frozen=True)
class Outcome:
    """The end of a game as a value: who won and why."""

    winners: tuple[Seat, ...]
    reason: str


class GameRules(Protocol):
    """The module-level functions and constants of a game package (``games/<name>``)."""

    NAME: str
    MIN_SEATS: int
    MAX_SEATS: int
    #: Every code the game's rules and options refuse with, and its meaning in one line.
    RULE_CODES: Mapping[str, str]
    #: Option keys that must not be shown to seats (a scenario's fixed deck reveals every hand).
    #: Optional: a module without it has no secret options.
    SECRET_OPTIONS: tuple[str, ...]
    #: Every action the game takes, as JSON Schema built with :mod:`games.action_schema`: the API
    #: reference shows it, and ``decide`` runs its strict check (``ActionCheck``) first.
    ACTION_SCHEMA: dict[str, Any]
    #: Options the conformance suite adds to its random playouts, for a game whose uniform
    #: random play is legal but very long (a turn limit, say). Optional; documented by the game.
    PLAYOUT_OPTIONS: dict[str, Any]
    #: The decision kinds (as ``awaiting`` names them) a standing order may answer, and the
    #: conditions its ``when`` may name. Optional: a game without them takes no orders (its
    #: README says why).
    ORDER_DECISIONS: tuple[str, ...]
    ORDER_CONDITIONS: Mapping[str, OrderCondition]

    def validate_options(self, options: Mapping[str, Any], seats: int) -> dict[str, Any]:
        """Return the options completed with defaults, or raise :class:`InvalidOptions`."""

    def setup(self, options: Mapping[str, Any], seats: int, rng: random.Random) -> list[GameEvent]:
        """Opening events (deal, board, turn order). The first one creates the state."""

    def evolve(self, state: State | None, event: EventLike) -> State:
        """Fold one event. Total and deterministic; trusts the event (no rule checks)."""

    def decide(self, state: State, seat: Seat, action: Action, rng: random.Random) -> list[GameEvent]:
        """Validate ``action`` by ``seat`` and return the events it causes.

        Raises :class:`RuleViolation` for an illegal action. Never mutates ``state``.
        The platform only calls it for a game in progress and a seat in ``awaiting``
        (or, for games that allow it, a seat that may revise a simultaneous choice:
        see ``may_act``).
        """

    def awaiting(self, state: State) -> dict[Seat, str]:
        """Seats that owe a decision now, with its kind ("turn", "react", "reveal", "bid"...).

        Empty while the game is on means the system owes a step: :func:`resolve`.
        """

    def may_act(self, state: State, seat: Seat) -> bool:
        """True when ``seat`` may post an action now (awaited, or revising a sealed bid)."""

    def legal_actions(self, state: State, seat: Seat) -> list[Action]:
        """Complete actions ``seat`` may post as they are, sorted; [] when it may not act."""

    def resolve(self, state: State, rng: random.Random) -> list[GameEvent]:
        """The system step once nobody is awaited (close a window, reveal and score bids)."""

    def on_timeout(self, state: State, seat: Seat) -> Action:
        """The default action for an awaited ``seat`` whose deadline passed."""

    def outcome(self, state: State) -> Outcome | None:
        """The result once the game has ended, else ``None``."""

    def view(self, state: State, seat: Seat | None) -> dict[str, Any]:
        """What ``seat`` (or a spectator, ``None``) sees now. Built by inclusion."""

    def redact(self, event: EventLike, seat: Seat | None) -> dict[str, Any] | None:
        """The event's ``data`` as ``seat`` may see it, or ``None`` to hide it entirely."""

    def determinize(self, view: Mapping[str, Any], history: Sequence[EventLike], seat: Seat,
                    rng: random.Random) -> State:
        """A complete state ``seat`` could be in, drawn with ``rng`` from what it knows.

        ``history`` is every event of the game as ``redact`` shows it to ``seat`` (hidden
        ones left out), ``view`` its current view. The function never sees the real state:
        cards and bids the seat has not been shown are dealt at random among the
        possibilities, so ``view(result, seat) == view``. Bots search over such samples
        (information-set Monte Carlo tree search). Lives in ``games/<name>/sample.py``.
        """

    def prepare_sampler(self, view: Mapping[str, Any], history: Sequence[EventLike], seat: Seat) -> Any:
        """The work of :meth:`determinize` done once: an object whose ``sample(rng)`` returns
        a fresh determinized state each call (a search draws thousands per decision)."""

    def describe(self, before: State | None, event: EventLike, after: State) -> str | None:
        """One readable English line about ``event`` for the transcript of a finished game.

        ``before`` is the state the event was folded into (None for the first event),
        ``after`` the state it produced. Everything is public by the time a transcript
        is read, so the line may name any card or bid. None for events not worth a line
        (bookkeeping, steps that only follow from the line before).
        """


def derive_rng(seed: str, seq: int, purpose: str = "") -> random.Random:
    """The generator for the step that will append event ``seq``.

    Derived from the game's secret seed and the sequence number, so a game can be
    replayed and audited, and no seat can predict a draw without the seed. A
    ``purpose`` gives an independent stream for a choice made outside the rules (the
    bot's move), so that choice never shifts the draws the rules make after it.
    """
    label = f"{seed}:{seq}:{purpose}" if purpose else f"{seed}:{seq}"
    digest = hashlib.sha256(label.encode()).digest()
    return SeededOnFirstDraw(int.from_bytes(digest, "big"))


class SeededOnFirstDraw(random.Random):
    """``random.Random(seed)``, seeded at its first draw instead of when it is made.

    Every decision gets a generator, and most draw nothing from it (a Coup income, a pass):
    seeding the Mersenne Twister from a 256-bit seed cost a few microseconds a move, about
    a hundredth of the API's CPU. Every draw is the one the eagerly seeded generator gives:
    all of ``random.Random``'s methods draw through the four overridden here.
    """

    def __init__(self, seed: int) -> None:
        self._pending: int | None = seed
        self.gauss_next = None

    def _start(self) -> None:
        pending = self._pending
        if pending is not None:
            self._pending = None
            super().seed(pending)

    def random(self) -> float:
        self._start()
        return super().random()

    def getrandbits(self, k: int) -> int:
        self._start()
        return super().getrandbits(k)

    def randbytes(self, n: int) -> bytes:
        self._start()
        return super().randbytes(n)

    def getstate(self) -> tuple[Any, ...]:
        self._start()
        return super().getstate()

    def setstate(self, state: tuple[Any, ...]) -> None:
        self._pending = None
        super().setstate(state)

    def seed(self, a: Any = None, version: int = 2) -> None:
        self._pending = None
        super().seed(a, version)


def clone_json(value: Any) -> Any:
    """A deep copy of plain JSON data: cheaper than copy.deepcopy in a fold, and a view
    built from it leaves no caller a way into the state."""
    if isinstance(value, dict):
        return {k: clone_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [clone_json(v) for v in value]
    return value


def viewer_seat(seat: Any, seats: int) -> Seat | None:
    """``seat`` when it names a seat of a ``seats``-seat game; anything else (None, a
    bool, a string, an out-of-range number) sees as a spectator."""
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < seats:
        return seat
    return None


def check_seat(state_seats: int, seat: Any) -> Seat:
    """Validate a seat number coming from an action's ``target`` field."""
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state_seats:
        raise RuleViolation("bad_target", f"target must be a seat number from 0 to {state_seats - 1}")
    return seat


def require_fields(action: Action, allowed: Sequence[str]) -> None:
    """Refuse unknown keys so a typo in a client never silently changes an action."""
    extra = sorted(set(action) - set(allowed) - {"type"})
    if extra:
        raise RuleViolation("unknown_field", f"unexpected field(s) for {action.get('type')!r}: {', '.join(extra)}")


def require_present(action: Any, required: Mapping[str, Sequence[str]],
                    codes: Mapping[str, str] | None = None) -> None:
    """Refuse an action that lacks a field its type requires, naming the field.

    ``required`` maps each action type to the fields the API reference marks required: a
    missing field is never read as a default choice (an exchange without ``discard`` is
    not "keep the hand"). ``codes`` gives a field a game's own problem code; the rest are
    ``missing_field``. An action that is not an object with a string ``type`` is left to
    the game's own checks.
    """
    if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
        return
    kind = action["type"]
    for name in required.get(kind, ()):
        if name not in action:
            code = (codes or {}).get(name, "missing_field")
            raise RuleViolation(code, f"{kind!r} needs the field {name!r}")
