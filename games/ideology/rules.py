"""Ideology: The War of Ideas (Andrew Parks; Z-Man Games 2003) as pure rules, for 2 to 5 seats.

A turn has eight phases: Resources (simultaneous: every hand is drawn, or discarded,
to the seat's Global Influence), Exchange and Development (one seat after another in
turn order), Foreign Affairs and Conflict (round-robin, one action or a pass at a time,
until every seat passes in a row; a conflict is a reply loop between attacker and
defender), Diplomacy (simultaneous sealed offers, the most critical status of each pair
wins), Consolidation (a system step: development levels, control kept or lost, control
taken) and the New Turn Order. A seat holding 12 or more Global Influence at the end of
a turn ends the game.

``decide`` and ``resolve`` check the rules and return events; ``evolve`` (in :mod:`.fold`)
folds one event into a new state and never checks a rule, so a rule fix never breaks an
old stream. This module holds the protocol's entry points and the order of the phases;
each phase's decisions and system steps live in :mod:`.phases` under the rulebook's name
for it, and the readings of the state they share in :mod:`.board`.
Every draw and shuffle happens in ``setup``, ``decide`` or ``resolve`` and is stored in
an event. The rules summary and every interpretation are in this package's README.md.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from games.base import (
    Action,
    GameEvent,
    InvalidOptions,
    Outcome,
    RuleViolation,
    Seat,
    State,
    clone_json,
    require_fields,
)
from games.ideology.board import (  # noqa: F401  (re-exported for bots)
    CONFLICT,
    CONSOLIDATION,
    DEFEND,
    DEVELOPMENT,
    DIPLOMACY,
    EXCHANGE,
    FOREIGN,
    LETTER,
    OVER,
    RESOURCES,
    STATUSES,
    TURN_END,
    TURN_ORDER,
    controlled_by,
    count_types,
    global_influence,
    max_influence,
    tie_break_points,
    trade_power,
)
from games.ideology.components import DEFAULT_MAP, INFLUENCE_TYPES, START_CARDS_PER_TYPE, resolve_map
from games.ideology.fold import evolve
from games.ideology.phases.checks import is_int
from games.ideology.phases.conflict import (
    conflict_actions,
    decide_attack,
    decide_cancel,
    decide_concede,
    decide_continue,
    decide_stop,
    decide_wmd,
)
from games.ideology.phases.consolidation import consolidate
from games.ideology.phases.development import buy_payment, decide_buy, decide_develop, decide_done
from games.ideology.phases.diplomacy import decide_offer, reveal_offers
from games.ideology.phases.exchange import decide_exchange
from games.ideology.phases.foreign_affairs import decide_place, decide_remove, foreign_actions
from games.ideology.phases.resources import decide_discard
from games.ideology.phases.turn_order import end_of_turn, new_turn_order
from games.ideology.schema import CHECK, OPTIONS_CHECK, REQUIRED_FIELDS  # noqa: F401  (REQUIRED_FIELDS: the package's)

NAME = "ideology"
MIN_SEATS = 2
MAX_SEATS = 5
#: A scenario's fixed decks and region pile show every hand and every draw: operator only.
SECRET_OPTIONS = ("decks", "regions")
#: What keeps a random playout of the conformance suite short: uniform random play ends
#: by the rules alone, but a five-seat game may take thousands of turns (README, "Ending").
PLAYOUT_OPTIONS: dict[str, Any] = {"max_turns": 6}
MAX_TURN_CAP = 500
MAX_STALL = 20
OPTION_DEFAULTS: dict[str, Any] = {
    "map": DEFAULT_MAP,
    "ideologies": None,
    "decks": None,
    "regions": None,
    "level2_defends": False,
    "max_turns": None,
    "stall_turns": 10,
}


def _in_game_ideologies(components: Mapping[str, Any], seats: int, chosen: Any) -> list[str] | None:
    """The ideologies seated, in seat order, when the options fix them (else None: dealt at random)."""
    known = [i["id"] for i in components["ideologies"]]
    if chosen is None:
        if seats == 2:
            return None
        if seats > len(known):
            raise InvalidOptions("bad_seats", f"this map has only {len(known)} ideologies")
        return None
    if not isinstance(chosen, list) or len(chosen) != seats or not all(isinstance(i, str) for i in chosen):
        raise InvalidOptions("bad_ideologies", f"ideologies must list {seats} ideology ids, one per seat in seat order")
    for iid in chosen:
        if iid not in known:
            raise InvalidOptions("bad_ideologies", f"unknown ideology {iid!r}; known: {', '.join(known)}")
    if len(set(chosen)) != seats:
        raise InvalidOptions("bad_ideologies", "ideologies must name each ideology at most once")
    if seats == 2:
        opponents = components["two_seat_opponents"]
        if opponents[chosen[0]] != chosen[1] and opponents[chosen[1]] != chosen[0]:
            raise InvalidOptions("bad_ideologies", "a two-seat game pairs ideologies by the rulebook's opponent "
                                                   f"table; {chosen[0]} plays {opponents[chosen[0]]}")
    return list(chosen)


def _fixed_ideologies(components: Mapping[str, Any], seats: int, chosen: Any) -> list[str] | None:
    """The set of ideologies in play when known before setup (seat order aside)."""
    fixed = _in_game_ideologies(components, seats, chosen)
    if fixed is not None:
        return fixed
    if seats == 2:
        return None
    return [i["id"] for i in components["ideologies"][:seats]]


def validate_options(options: Mapping[str, Any], seats: int) -> dict[str, Any]:
    """Complete ``options`` with defaults; refuse unknown keys, bad values and bad data files."""
    if not is_int(seats) or not MIN_SEATS <= seats <= MAX_SEATS:
        raise InvalidOptions("bad_seats", f"Ideology is played by {MIN_SEATS} to {MAX_SEATS} seats")
    unknown = sorted(str(key) for key in options if key not in OPTION_DEFAULTS)
    if unknown:
        raise InvalidOptions("unknown_option",
                             f"unknown option(s): {', '.join(unknown)}; known: {', '.join(OPTION_DEFAULTS)}")
    OPTIONS_CHECK(options)
    result = {**OPTION_DEFAULTS, **options}
    components = resolve_map(result["map"])
    if result["map"] is None:
        result["map"] = DEFAULT_MAP
    elif not isinstance(result["map"], str):
        result["map"] = clone_json(dict(result["map"]))
    fixed = _fixed_ideologies(components, seats, result["ideologies"])
    if result["ideologies"] is not None:
        result["ideologies"] = list(result["ideologies"])
    if not isinstance(result["level2_defends"], bool):
        raise InvalidOptions("bad_option", "level2_defends must be true or false")
    for key, high in (("max_turns", MAX_TURN_CAP), ("stall_turns", MAX_STALL)):
        value = result[key]
        if value is not None and (not is_int(value) or not 1 <= value <= high):
            raise InvalidOptions("bad_option", f"{key} must be null or a whole number from 1 to {high}")
    by_id = {i["id"]: i for i in components["ideologies"]}
    decks = result["decks"]
    if decks is not None:
        if not isinstance(decks, Mapping):
            raise InvalidOptions("bad_decks", "decks must map ideology ids to lists of influence types, top first")
        for iid, deck in decks.items():
            if iid not in by_id or (fixed is not None and iid not in fixed):
                raise InvalidOptions("bad_decks", f"decks: {iid!r} is not an ideology in this game")
            need = {kind: by_id[iid]["deck"][kind] - START_CARDS_PER_TYPE for kind in INFLUENCE_TYPES}
            if not isinstance(deck, list) or not all(kind in INFLUENCE_TYPES for kind in deck):
                raise InvalidOptions("bad_decks", f"decks.{iid} must be a list of {', '.join(INFLUENCE_TYPES)}")
            if Counter(deck) != Counter({k: n for k, n in need.items() if n}):
                raise InvalidOptions("bad_decks", f"decks.{iid} must hold the deck left after setup: "
                                                  + ", ".join(f"{n} {k}" for k, n in need.items()))
        result["decks"] = {iid: list(deck) for iid, deck in decks.items()}
    pile = result["regions"]
    if pile is not None:
        if fixed is None:
            raise InvalidOptions("bad_regions", "a fixed region pile in a two-seat game needs options.ideologies")
        starts = {by_id[iid]["start_region"] for iid in fixed}
        expected = {r["id"] for r in components["regions"]} - starts
        if not isinstance(pile, list) or not all(isinstance(r, str) for r in pile):
            raise InvalidOptions("bad_regions", "regions must be a list of region ids, top of the pile first")
        unknown_regions = sorted(set(pile) - expected)
        if unknown_regions:
            raise InvalidOptions("bad_regions", f"regions: {unknown_regions[0]!r} is not in the region pile "
                                                "(unknown, or a start region in play)")
        if len(pile) != len(expected) or set(pile) != expected:
            missing = sorted(expected - set(pile))
            raise InvalidOptions("bad_regions", "regions must list every tile of the pile once"
                                                + (f"; missing {missing[0]!r}" if missing else ""))
        result["regions"] = list(pile)
    return result


def _board(components: Mapping[str, Any]) -> dict[str, Any]:
    """The static part of the state: components keyed by id (never changed by a fold)."""
    components = clone_json(components)
    return {
        "name": components["name"],
        "reconstructed": components["reconstructed"],
        "notes": components["notes"],
        "regions": {r["id"]: r for r in components["regions"]},
        "ideologies": {i["id"]: i for i in components["ideologies"]},
        "two_seat_opponents": dict(components["two_seat_opponents"]),
        "advancements": {a["id"]: a for a in components["advancements"]},
    }


def setup(options: Mapping[str, Any], seats: int, rng: random.Random) -> list[GameEvent]:
    """Deal the ideologies, lay out the start regions and piles, then open turn 1."""
    opts = validate_options(options, seats)
    components = resolve_map(opts["map"])
    board = _board(components)
    ideologies = _in_game_ideologies(components, seats, opts["ideologies"])
    if ideologies is None:
        if seats == 2:
            first = rng.choice([i["id"] for i in components["ideologies"]])
            ideologies = [first, components["two_seat_opponents"][first]]
        else:
            ideologies = [i["id"] for i in components["ideologies"][:seats]]
            rng.shuffle(ideologies)
    order = sorted(range(seats), key=lambda s: board["ideologies"][ideologies[s]]["turn_order"])
    starts = {board["ideologies"][iid]["start_region"]: seat for seat, iid in enumerate(ideologies)}
    decks: list[list[str]] = []
    start_cards: dict[str, dict[str, list[str]]] = {}
    for iid in ideologies:
        composition = board["ideologies"][iid]["deck"]
        start_cards[board["ideologies"][iid]["start_region"]] = {
            kind: [f"{iid}:{LETTER[kind]}{n}" for n in range(1, START_CARDS_PER_TYPE + 1)] for kind in INFLUENCE_TYPES}
        fixed = (opts["decks"] or {}).get(iid)
        if fixed is not None:
            numbers = dict.fromkeys(INFLUENCE_TYPES, START_CARDS_PER_TYPE)
            deck = []
            for kind in fixed:
                numbers[kind] += 1
                deck.append(f"{iid}:{LETTER[kind]}{numbers[kind]}")
        else:
            deck = [f"{iid}:{LETTER[kind]}{n}" for kind in INFLUENCE_TYPES
                    for n in range(START_CARDS_PER_TYPE + 1, composition[kind] + 1)]
            rng.shuffle(deck)
        decks.append(deck)
    regions = {}
    for rid, info in board["regions"].items():
        seat = starts.get(rid)
        regions[rid] = {
            "status": "deck" if seat is None else "controlled",
            "controller": seat,
            "level": info["level"],
            "cards": start_cards.get(rid, {kind: [] for kind in INFLUENCE_TYPES}),
        }
    pile = opts["regions"]
    if pile is None:
        pile = [rid for rid in board["regions"] if rid not in starts]
        rng.shuffle(pile)
    advancements: list[dict[str, int]] = []
    supply = {aid: card["copies"] for aid, card in board["advancements"].items()}
    for iid in ideologies:
        start = board["ideologies"][iid]["start_advancement"]
        held = {}
        if start is not None and supply[start] > 0:
            held[start] = 1
            supply[start] -= 1
        advancements.append(held)
    table = {
        "seats": seats, "options": opts, "board": board, "ideologies": ideologies, "order": order,
        "regions": regions, "region_pile": list(pile), "decks": decks, "advancements": advancements,
        "supply": supply, "scenario": opts["decks"] is not None or opts["regions"] is not None,
    }
    first = GameEvent("TableSet", table)
    return [first, *_steps(evolve(None, first), rng)]


def awaiting(state: State) -> dict[Seat, str]:
    """Seats owing a decision now, with its kind; {} when the system owes the next step."""
    phase = state["phase"]
    seats = state["seats"]
    if phase == RESOURCES:
        return {seat: "discard" for seat in range(seats) if state["owed"][seat] > 0}
    if phase == EXCHANGE:
        return {state["order"][state["cursor"]]: "exchange"} if state["cursor"] < seats else {}
    if phase == DEVELOPMENT:
        return {state["order"][state["cursor"]]: "develop"} if state["cursor"] < seats else {}
    if phase == FOREIGN:
        return {state["order"][state["cursor"]]: "foreign_affairs"} if state["passes"] < seats else {}
    if phase == CONFLICT:
        conflict = state["conflict"]
        if conflict is not None:
            return ({conflict["defender"]: "defend"} if conflict["stage"] == DEFEND
                    else {conflict["attacker"]: "press"})
        return {state["order"][state["cursor"]]: "conflict"} if state["passes"] < seats else {}
    if phase == DIPLOMACY:
        return {seat: "offer" for seat in range(seats) if state["offers"][seat] is None}
    return {}


def may_act(state: State, seat: Seat) -> bool:
    """Awaited seats, and during Diplomacy any seat until the last offer (offers may be revised)."""
    if state["phase"] == DIPLOMACY:
        return any(offer is None for offer in state["offers"]) and 0 <= seat < state["seats"]
    return seat in awaiting(state)


def why(state: State) -> str:
    """One sentence for the view: what the game waits for and why."""
    phase = state["phase"]
    if phase == RESOURCES:
        return "seats holding more influence cards than their Global Influence discard down to it"
    if phase == EXCHANGE:
        return "in turn order, each seat may discard up to its Trade Power and draw as many"
    if phase == DEVELOPMENT:
        return "in turn order, each seat develops its regions and buys advancements, then is done"
    if phase == FOREIGN:
        return "round-robin: place or remove one influence card, or pass; ends when every seat passes in a row"
    if phase == CONFLICT:
        conflict = state["conflict"]
        if conflict is not None and conflict["stage"] == DEFEND:
            return "the defender concedes the conflict or cancels the attack with a card of its type"
        if conflict is not None:
            return "the attack was cancelled: the attacker continues with another card or stops"
        return "round-robin: start one conflict, or pass; ends when every seat passes in a row"
    if phase == DIPLOMACY:
        return "every seat seals its offers of peace, neutrality or war; the most critical of each pair holds"
    if phase == OVER:
        return "the game is over"
    return "the system is consolidating the turn"


def _decide_pass(state: State, seat: Seat, action: Action) -> list[GameEvent]:
    if state["phase"] not in (FOREIGN, CONFLICT) or state["conflict"] is not None:
        raise RuleViolation("wrong_phase", "pass is an action of the foreign affairs and conflict phases")
    require_fields(action, ())
    return [GameEvent("Passed", {"seat": seat, "phase": state["phase"]}, actor=seat)]


_ACTIONS: dict[str, Callable[..., list[GameEvent]]] = {
    "discard": decide_discard,
    "exchange": decide_exchange,
    "develop": decide_develop,
    "buy": decide_buy,
    "done": decide_done,
    "place": decide_place,
    "remove": decide_remove,
    "pass": _decide_pass,
    "attack": decide_attack,
    "wmd": decide_wmd,
    "concede": decide_concede,
    "cancel": decide_cancel,
    "continue": decide_continue,
    "stop": decide_stop,
    "offer": decide_offer,
}
#: Which awaited kind each action answers (diplomacy offers may also revise a sealed offer).
_KIND_OF_ACTION = {
    "discard": "discard", "exchange": "exchange", "develop": "develop", "buy": "develop", "done": "develop",
    "place": "foreign_affairs", "remove": "foreign_affairs", "attack": "conflict", "wmd": "conflict",
    "concede": "defend", "cancel": "defend", "continue": "press", "stop": "press", "offer": "offer",
}


def decide(state: State, seat: Seat, action: Action, rng: random.Random) -> list[GameEvent]:
    """Validate one action of ``seat`` and return its events; raises RuleViolation."""
    if not isinstance(action, Mapping):
        raise RuleViolation("bad_action", "an action is an object with a 'type'")
    kind = action.get("type")
    handler = _ACTIONS.get(kind) if isinstance(kind, str) else None
    if handler is None or not isinstance(kind, str):
        raise RuleViolation("unknown_action", f"unknown action type; the types are {', '.join(_ACTIONS)}")
    CHECK(action)
    if state["phase"] == OVER:
        raise RuleViolation("game_over", "the game is over")
    owed = awaiting(state).get(seat)
    if kind != "pass" and _KIND_OF_ACTION[kind] != owed and not (kind == "offer" and may_act(state, seat)):
        if owed is None:
            raise RuleViolation("not_your_turn", "you have no decision to make now")
        raise RuleViolation("wrong_action", f"the decision you owe now is '{owed}'; {kind} does not answer it")
    if kind == "pass" and owed not in ("foreign_affairs", "conflict"):
        raise RuleViolation("wrong_action", f"the decision you owe now is '{owed}'; pass does not answer it")
    if kind == "exchange":
        return decide_exchange(state, seat, dict(action), rng)
    return handler(state, seat, dict(action))


def _phase_started(state: State, phase: str) -> GameEvent:
    data: dict[str, Any] = {"turn": state["turn"], "phase": phase}
    if phase == FOREIGN:
        data["region"] = state["region_pile"][0] if state["region_pile"] else None
    return GameEvent("PhaseStarted", data)


_NEXT_PHASE = {RESOURCES: EXCHANGE, EXCHANGE: DEVELOPMENT, DEVELOPMENT: FOREIGN, FOREIGN: CONFLICT,
               CONFLICT: DIPLOMACY}


def _next_step(state: State, rng: random.Random) -> GameEvent:
    phase = state["phase"]
    if phase in _NEXT_PHASE:
        return _phase_started(state, _NEXT_PHASE[phase])
    if phase == DIPLOMACY:
        return reveal_offers(state)
    if phase == CONSOLIDATION:
        return consolidate(state)
    if phase == TURN_ORDER:
        return new_turn_order(state)
    if phase == TURN_END:
        return end_of_turn(state, rng)
    raise RuleViolation("game_over", "the game is over")


def resolve(state: State, rng: random.Random) -> list[GameEvent]:
    """Run system steps until a seat owes a decision or the game ends."""
    if awaiting(state):
        raise RuleViolation("awaiting_seats", "the system steps only when no seat owes a decision")
    return _steps(state, rng)


def _steps(state: State, rng: random.Random) -> list[GameEvent]:
    events: list[GameEvent] = []
    current = state
    while True:
        event = _next_step(current, rng)
        events.append(event)
        current = evolve(current, event)
        if current["phase"] == OVER or awaiting(current):
            return events


def on_timeout(state: State, seat: Seat) -> Action:
    """Defaults: discard the newest cards, exchange nothing, be done, pass, concede, stop, neutrality."""
    kind = awaiting(state).get(seat)
    if kind == "discard":
        owed = state["owed"][seat]
        return {"type": "discard", "discard": count_types(state["hands"][seat][-owed:])}
    if kind == "exchange":
        return {"type": "exchange", "discard": {}}
    if kind == "develop":
        return {"type": "done"}
    if kind == "defend":
        return {"type": "concede"}
    if kind == "press":
        return {"type": "stop"}
    if kind == "offer" or state["phase"] == DIPLOMACY:
        return {"type": "offer", "offers": {}}
    return {"type": "pass"}


def outcome(state: State) -> Outcome | None:
    result = state["result"]
    if result is None:
        return None
    return Outcome(tuple(result["winners"]), result["reason"])


def _count_choices(held: Mapping[str, int], low: int, high: int) -> list[dict[str, int]]:
    """Every {type: n} within ``held`` whose total lies in [low, high], sorted."""
    choices = []
    for m in range(held["military"] + 1):
        for e in range(held["economic"] + 1):
            for c in range(held["cultural"] + 1):
                if low <= m + e + c <= high:
                    choices.append({"military": m, "economic": e, "cultural": c})
    return choices


def legal_actions(state: State, seat: Seat) -> list[Action]:
    """Every legal action of ``seat`` now, as complete objects ready to post."""
    if state["phase"] == OVER or not may_act(state, seat):
        return []
    kind = awaiting(state).get(seat)
    hand = count_types(state["hands"][seat])
    if kind == "discard":
        owed = state["owed"][seat]
        return [{"type": "discard", "discard": c} for c in _count_choices(hand, owed, owed)]
    if kind == "exchange":
        return [{"type": "exchange", "discard": c} for c in _count_choices(hand, 0, trade_power(state, seat))]
    if kind == "develop":
        actions: list[Action] = []
        for rid in controlled_by(state, seat):
            limit = max_influence(state, rid)
            for influence in INFLUENCE_TYPES:
                if hand[influence] and len(state["regions"][rid]["cards"][influence]) < limit:
                    actions.append({"type": "develop", "region": rid, "influence": influence})
        actions += [{"type": "buy", "advancement": aid} for aid in state["board"]["advancements"]
                    if buy_payment(state, seat, aid) is not None]
        return [*actions, {"type": "done"}]
    if kind == "foreign_affairs":
        return [*foreign_actions(state, seat, hand), {"type": "pass"}]
    if kind == "conflict":
        return [*conflict_actions(state, seat, hand), {"type": "pass"}]
    if kind == "defend":
        influence = state["conflict"]["influence"]
        return ([{"type": "cancel"}] if hand[influence] else []) + [{"type": "concede"}]
    if kind == "press":
        influence = state["conflict"]["influence"]
        return ([{"type": "continue"}] if hand[influence] else []) + [{"type": "stop"}]
    # Diplomacy: every combination of offers to the other ideologies.
    others = [state["ideology"][s] for s in range(state["seats"]) if s != seat]
    return [{"type": "offer", "offers": dict(zip(others, combo, strict=True))}
            for combo in itertools.product(STATUSES, repeat=len(others))]
