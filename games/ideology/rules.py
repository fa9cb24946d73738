"""Ideology: The War of Ideas (Andrew Parks; Z-Man Games 2003) as pure rules, for 2 to 5 seats.

A turn has eight phases: Resources (simultaneous: every hand is drawn, or discarded,
to the seat's Global Influence), Exchange and Development (one seat after another in
turn order), Foreign Affairs and Conflict (round-robin, one action or a pass at a time,
until every seat passes in a row; a conflict is a reply loop between attacker and
defender), Diplomacy (simultaneous sealed offers, the most critical status of each pair
wins), Consolidation (a system step: development levels, control kept or lost, control
taken) and the New Turn Order. A seat holding 12 or more Global Influence at the end of
a turn ends the game.

``decide`` and ``resolve`` check the rules and return events; ``evolve`` folds one event
into a new state and never checks a rule, so a rule fix never breaks an old stream.
Every draw and shuffle happens in ``setup``, ``decide`` or ``resolve`` and is stored in
an event. The rules summary and every interpretation are in this package's README.md.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from games.base import (
    Action,
    EventLike,
    GameEvent,
    InvalidOptions,
    Outcome,
    RuleViolation,
    Seat,
    State,
    check_seat,
    clone_json,
    require_fields,
    require_present,
)
from games.ideology.components import (
    DEFAULT_MAP,
    INFLUENCE_TYPES,
    START_CARDS_PER_TYPE,
    resolve_map,
)

NAME = "ideology"
MIN_SEATS = 2
MAX_SEATS = 5
#: A scenario's fixed decks and region pile show every hand and every draw: operator only.
SECRET_OPTIONS = ("decks", "regions")

#: What keeps a random playout of the conformance suite short: uniform random play ends
#: by the rules alone, but a five-seat game may take thousands of turns (README, "Ending").
PLAYOUT_OPTIONS: dict[str, Any] = {"max_turns": 6}
WINNING_INFLUENCE = 12
CONTROL_MARKERS = 10
#: One marker of each ideology sits on the Turn Order Chart, so at most nine regions.
MAX_CONTROLLED = CONTROL_MARKERS - 1
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
LETTER = {"military": "m", "economic": "e", "cultural": "c"}
TYPE_OF_LETTER = {letter: kind for kind, letter in LETTER.items()}
STATUSES = ("peace", "neutral", "war")
#: Which conflict types each diplomatic status allows against the other ideology.
ALLOWED_CONFLICTS = {
    "peace": ("cultural",),
    "neutral": ("economic", "cultural"),
    "war": ("military", "economic", "cultural"),
}

RESOURCES, EXCHANGE, DEVELOPMENT = "resources", "exchange", "development"
FOREIGN, CONFLICT, DIPLOMACY = "foreign_affairs", "conflict", "diplomacy"
CONSOLIDATION, TURN_ORDER, TURN_END, OVER = "consolidation", "turn_order", "turn_end", "over"
PHASES = (RESOURCES, EXCHANGE, DEVELOPMENT, FOREIGN, CONFLICT, DIPLOMACY, CONSOLIDATION, TURN_ORDER)
DEFEND, PRESS = "defend", "press"


# --- Small helpers ----------------------------------------------------------------------------

def card_type(card: str) -> str:
    """``"fascism:m7"`` -> ``"military"``."""
    return TYPE_OF_LETTER[card[card.index(":") + 1]]


def card_owner(state: State, card: str) -> Seat:
    return state["seat_of"][card[:card.index(":")]]


def count_types(cards: Iterable[str]) -> dict[str, int]:
    counts = dict.fromkeys(INFLUENCE_TYPES, 0)
    for card in cards:
        counts[card_type(card)] += 1
    return counts


def _pick(hand: list[str], counts: Mapping[str, int]) -> list[str]:
    """The first cards of ``hand`` of each type, ``counts[type]`` of them (hand order)."""
    need = dict(counts)
    picked = []
    for card in hand:
        kind = card_type(card)
        if need.get(kind, 0) > 0:
            picked.append(card)
            need[kind] -= 1
    return picked


def region_info(state: State, rid: str) -> dict[str, Any]:
    return state["board"]["regions"][rid]


def max_influence(state: State, rid: str) -> int:
    """Cards allowed per area: twice the printed level when controlled, else the current level."""
    region = state["regions"][rid]
    if region["controller"] is not None:
        return 2 * region_info(state, rid)["level"]
    return region["level"]


def controlled_by(state: State, seat: Seat) -> list[str]:
    return [rid for rid, region in state["regions"].items() if region["controller"] == seat]


def advancement_effect_total(state: State, seat: Seat, key: str, value: Any = None) -> int:
    total = 0
    for aid, count in state["advancements"][seat].items():
        effect = state["board"]["advancements"][aid]["effect"]
        if key in effect and (value is None or effect[key] == value):
            total += count * (effect[key] if value is None else 1)
    return total


def global_influence(state: State, seat: Seat) -> int:
    """Development levels of the seat's regions, plus what its advancements add (WMD: +1)."""
    levels = sum(region["level"] for region in state["regions"].values() if region["controller"] == seat)
    return levels + advancement_effect_total(state, seat, "global_influence")


def trade_power(state: State, seat: Seat) -> int:
    """Regions where the seat has at least one influence card, controlled or not."""
    prefix = state["ideology"][seat] + ":"
    return sum(1 for region in state["regions"].values() if region["status"] != "deck"
               and any(card.startswith(prefix) for cards in region["cards"].values() for card in cards))


def defence(state: State, seat: Seat, kind: str) -> int:
    """Copies of the Level-1 advancement that protects against ``kind`` conflicts.

    With ``level2_defends`` a Level-2 card counts as each Level-1 card it was paid with.
    """
    advancements = state["board"]["advancements"]
    total = 0
    for aid, count in state["advancements"][seat].items():
        card = advancements[aid]
        if card["effect"].get("defends") == kind:
            total += count
        elif state["options"]["level2_defends"] and card["level"] == 2:
            paid = card["cost"].get("advancements", [])
            total += count * sum(1 for p in paid if advancements[p]["effect"].get("defends") == kind)
    return total


def is_adjacent_to_own(state: State, seat: Seat, rid: str) -> bool:
    regions = state["regions"]
    return any(regions[other]["controller"] == seat for other in region_info(state, rid)["neighbours"])


def waives_distance(state: State, seat: Seat, kind: str) -> bool:
    return advancement_effect_total(state, seat, "no_distance_penalty", kind) > 0


def placement_penalty(state: State, seat: Seat, rid: str, kind: str) -> int:
    """Extra cards of ``kind`` to place influence on independent ``rid`` (the distance penalty)."""
    if is_adjacent_to_own(state, seat, rid) or waives_distance(state, seat, kind):
        return 0
    abilities = state["board"]["ideologies"][state["ideology"][seat]]["abilities"]
    if "global_colonization" in abilities and state["regions"][rid]["level"] == 1:
        return 0
    return 1


def conflict_penalty(state: State, attacker: Seat, defender: Seat, rid: str, kind: str) -> dict[str, int]:
    """The distance and advancement penalties of a conflict, in cards of its type."""
    distance = 0
    if (state["regions"][rid]["controller"] != attacker and not is_adjacent_to_own(state, attacker, rid)
            and not waives_distance(state, attacker, kind)):
        distance = 1
    gap = max(0, defence(state, defender, kind) - defence(state, attacker, kind))
    return {"distance": distance, "advancement": gap}


def relation(state: State, a: Seat, b: Seat) -> str:
    return state["relations"][a][b]


def cards_of(state: State, rid: str, seat: Seat, kind: str) -> list[str]:
    prefix = state["ideology"][seat] + ":"
    return [card for card in state["regions"][rid]["cards"][kind] if card.startswith(prefix)]


def seat_card_counts(state: State, rid: str) -> list[int]:
    counts = [0] * state["seats"]
    for cards in state["regions"][rid]["cards"].values():
        for card in cards:
            counts[card_owner(state, card)] += 1
    return counts


def strict_leader(counts: list[int]) -> Seat | None:
    """The seat with more cards than any other single seat, else None."""
    best = max(counts)
    if best == 0 or counts.count(best) > 1:
        return None
    return counts.index(best)


def tie_break_points(state: State, seat: Seat) -> int:
    board = state["board"]["advancements"]
    return sum(board[aid]["points"] * count for aid, count in state["advancements"][seat].items())


def in_play(state: State, rid: str) -> bool:
    return state["regions"][rid]["status"] != "deck"


# --- Options and setup ----------------------------------------------------------------------

def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


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
    if not _is_int(seats) or not MIN_SEATS <= seats <= MAX_SEATS:
        raise InvalidOptions("bad_seats", f"Ideology is played by {MIN_SEATS} to {MAX_SEATS} seats")
    unknown = sorted(str(key) for key in options if key not in OPTION_DEFAULTS)
    if unknown:
        raise InvalidOptions("unknown_option",
                             f"unknown option(s): {', '.join(unknown)}; known: {', '.join(OPTION_DEFAULTS)}")
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
        if value is not None and (not _is_int(value) or not 1 <= value <= high):
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


# --- The fold: one small handler per event type ----------------------------------------------

def _fold_table_set(data: Mapping[str, Any]) -> State:
    seats = data["seats"]
    return {
        "seats": seats,
        "options": clone_json(data["options"]),
        "board": clone_json(data["board"]),
        "scenario": data["scenario"],
        "ideology": list(data["ideologies"]),
        "seat_of": {iid: seat for seat, iid in enumerate(data["ideologies"])},
        "turn": 0,
        "phase": TURN_END,
        "order": list(data["order"]),
        "cursor": 0,
        "passes": 0,
        "hands": [[] for _ in range(seats)],
        "decks": [list(deck) for deck in data["decks"]],
        "discards": [[] for _ in range(seats)],
        "advancements": [dict(held) for held in data["advancements"]],
        "supply": dict(data["supply"]),
        "regions": clone_json(data["regions"]),
        "region_pile": list(data["region_pile"]),
        "relations": [[None if a == b else "neutral" for b in range(seats)] for a in range(seats)],
        "owed": [0] * seats,
        "offers": [None] * seats,
        "revealed_offers": None,
        "conflict": None,
        "standing": None,
        "quiet_turns": 0,
        "result": None,
    }


def _draw(state: State, seat: Seat, cards: list[str], deck: list[str] | None) -> None:
    """Fold a draw: ``deck`` is the new deck when the discards were shuffled into it."""
    if deck is not None:
        state["discards"][seat] = []
        state["decks"][seat] = list(deck)
    state["decks"][seat] = state["decks"][seat][len(cards):]
    state["hands"][seat] = state["hands"][seat] + list(cards)


def _apply_draws(state: State, draws: list[dict[str, Any]]) -> None:
    """Each draw is ``{"cards": [...], "reshuffled": [new deck] | None, "after": [...]}``.

    A draw that ran the deck out takes the cards before the shuffle, then the rest from
    the shuffled discards: ``cards`` holds them all, ``reshuffled`` the whole new deck.
    """
    for seat, draw in enumerate(draws):
        if draw is None:
            continue
        before = draw["cards"][:len(draw["cards"]) - len(draw.get("after", []))]
        _draw(state, seat, before, None)
        if draw.get("reshuffled") is not None:
            _draw(state, seat, draw.get("after", []), draw["reshuffled"])


def _fold_turn_started(state: State, data: Mapping[str, Any]) -> None:
    state["turn"] = data["turn"]
    state["phase"] = RESOURCES
    state["offers"] = [None] * state["seats"]
    _apply_draws(state, data["draws"])
    state["owed"] = list(data["owed"])


def _discard_from_hand(state: State, seat: Seat, cards: Iterable[str]) -> None:
    cards = list(cards)
    hand = list(state["hands"][seat])
    for card in cards:
        hand.remove(card)
    state["hands"][seat] = hand
    state["discards"][seat] = state["discards"][seat] + cards


def _fold_cards_discarded(state: State, data: Mapping[str, Any]) -> None:
    _discard_from_hand(state, data["seat"], data["cards"])
    state["owed"][data["seat"]] = 0


def _fold_phase_started(state: State, data: Mapping[str, Any]) -> None:
    state["phase"] = data["phase"]
    state["cursor"] = 0
    state["passes"] = 0
    region = data.get("region")
    if region is not None:
        state["region_pile"] = state["region_pile"][1:]
        _region(state, region)["status"] = "independent"


def _fold_cards_exchanged(state: State, data: Mapping[str, Any]) -> None:
    seat = data["seat"]
    _discard_from_hand(state, seat, data["discarded"])
    _apply_draws(state, [data["draw"] if s == seat else None for s in range(state["seats"])])
    state["cursor"] += 1


def _region(state: State, rid: str) -> dict[str, Any]:
    """The region's entry, copied so the fold may change it (the old state keeps its own)."""
    region = state["regions"][rid]
    copied = {"status": region["status"], "controller": region["controller"], "level": region["level"],
              "cards": {kind: list(cards) for kind, cards in region["cards"].items()}}
    state["regions"][rid] = copied
    return copied


def _fold_region_developed(state: State, data: Mapping[str, Any]) -> None:
    seat, card = data["seat"], data["card"]
    hand = list(state["hands"][seat])
    hand.remove(card)
    state["hands"][seat] = hand
    _region(state, data["region"])["cards"][card_type(card)].append(card)


def _fold_advancement_bought(state: State, data: Mapping[str, Any]) -> None:
    seat = data["seat"]
    _discard_from_hand(state, seat, data["cards"])
    held = dict(state["advancements"][seat])
    for paid in data["advancements"]:
        held[paid] -= 1
        if held[paid] == 0:
            del held[paid]
        state["supply"][paid] += 1
    held[data["advancement"]] = held.get(data["advancement"], 0) + 1
    state["supply"][data["advancement"]] -= 1
    state["advancements"][seat] = held


def _fold_development_done(state: State, data: Mapping[str, Any]) -> None:
    state["cursor"] += 1


def _next_in_round(state: State, passed: bool) -> None:
    state["cursor"] = (state["cursor"] + 1) % state["seats"]
    state["passes"] = state["passes"] + 1 if passed else 0


def _fold_influence_placed(state: State, data: Mapping[str, Any]) -> None:
    seat, card = data["seat"], data["card"]
    _discard_from_hand(state, seat, data["penalty"])
    hand = list(state["hands"][seat])
    hand.remove(card)
    state["hands"][seat] = hand
    _region(state, data["region"])["cards"][card_type(card)].append(card)
    _next_in_round(state, False)


def _fold_influence_removed(state: State, data: Mapping[str, Any]) -> None:
    seat, card = data["seat"], data["card"]
    _region(state, data["region"])["cards"][card_type(card)].remove(card)
    state["discards"][seat] = state["discards"][seat] + [card]
    _next_in_round(state, False)


def _fold_passed(state: State, data: Mapping[str, Any]) -> None:
    _next_in_round(state, True)


def _fold_conflict_declared(state: State, data: Mapping[str, Any]) -> None:
    attacker = data["attacker"]
    _discard_from_hand(state, attacker, data["penalty"])
    hand = list(state["hands"][attacker])
    hand.remove(data["card"])
    state["hands"][attacker] = hand
    state["conflict"] = {"attacker": attacker, "defender": data["defender"], "region": data["region"],
                         "influence": data["influence"], "card": data["card"], "stage": DEFEND,
                         "cancelled": 0}


def _fold_attack_cancelled(state: State, data: Mapping[str, Any]) -> None:
    conflict = dict(state["conflict"])
    _discard_from_hand(state, conflict["defender"], [data["card"]])
    state["discards"][conflict["attacker"]] = state["discards"][conflict["attacker"]] + [conflict["card"]]
    conflict["card"] = None
    conflict["stage"] = PRESS
    conflict["cancelled"] += 1
    state["conflict"] = conflict


def _fold_attack_renewed(state: State, data: Mapping[str, Any]) -> None:
    conflict = dict(state["conflict"])
    hand = list(state["hands"][conflict["attacker"]])
    hand.remove(data["card"])
    state["hands"][conflict["attacker"]] = hand
    conflict["card"] = data["card"]
    conflict["stage"] = DEFEND
    state["conflict"] = conflict


def _fold_conflict_won(state: State, data: Mapping[str, Any]) -> None:
    conflict = state["conflict"]
    region = _region(state, conflict["region"])
    pile = region["cards"][conflict["influence"]]
    pile[pile.index(data["replaced"])] = data["card"]
    defender = conflict["defender"]
    state["discards"][defender] = state["discards"][defender] + [data["replaced"]]
    state["conflict"] = None
    _next_in_round(state, False)


def _fold_conflict_abandoned(state: State, data: Mapping[str, Any]) -> None:
    state["conflict"] = None
    _next_in_round(state, False)


def _fold_wmd_used(state: State, data: Mapping[str, Any]) -> None:
    seat, target = data["seat"], data["target"]
    held = dict(state["advancements"][seat])
    held[data["advancement"]] -= 1
    if held[data["advancement"]] == 0:
        del held[data["advancement"]]
    state["advancements"][seat] = held
    state["supply"][data["advancement"]] += 1
    region = _region(state, data["region"])
    destroyed = set(data["destroyed"])
    for kind in INFLUENCE_TYPES:
        region["cards"][kind] = [card for card in region["cards"][kind] if card not in destroyed]
    state["discards"][target] = state["discards"][target] + list(data["destroyed"])
    _next_in_round(state, False)


def _fold_offer_made(state: State, data: Mapping[str, Any]) -> None:
    state["offers"][data["seat"]] = dict(data["offers"])


def _fold_offers_revealed(state: State, data: Mapping[str, Any]) -> None:
    relations = [list(row) for row in data["relations"]]
    state["relations"] = relations
    state["revealed_offers"] = clone_json(data["offers"])
    state["offers"] = [None] * state["seats"]
    state["phase"] = CONSOLIDATION


def _fold_regions_consolidated(state: State, data: Mapping[str, Any]) -> None:
    for rid, level in data["levels"].items():
        _region(state, rid)["level"] = level
    for rid in data["lost"]:
        region = _region(state, rid)
        region["controller"] = None
        region["status"] = "independent"
    for rid, seat in data["gained"].items():
        region = _region(state, rid)
        region["controller"] = seat
        region["status"] = "controlled"
    state["phase"] = TURN_ORDER


def _standing(state: State) -> dict[str, Any]:
    """What a turn must change not to count as quiet: each seat's Global Influence and the
    controller of each region."""
    return {"influence": [global_influence(state, seat) for seat in range(state["seats"])],
            "control": {rid: region["controller"] for rid, region in state["regions"].items()
                        if region["controller"] is not None}}


def _fold_turn_order_set(state: State, data: Mapping[str, Any]) -> None:
    state["order"] = list(data["order"])
    standing = _standing(state)
    state["quiet_turns"] = state["quiet_turns"] + 1 if standing == state["standing"] else 0
    state["standing"] = standing
    state["phase"] = TURN_END


def _fold_game_scored(state: State, data: Mapping[str, Any]) -> None:
    state["phase"] = OVER
    state["result"] = {"reason": data["reason"], "winners": list(data["winners"]),
                       "influence": list(data["influence"]), "points": list(data["points"])}


_FOLD: dict[str, Callable[[State, Mapping[str, Any]], None]] = {
    "TurnStarted": _fold_turn_started,
    "CardsDiscarded": _fold_cards_discarded,
    "PhaseStarted": _fold_phase_started,
    "CardsExchanged": _fold_cards_exchanged,
    "RegionDeveloped": _fold_region_developed,
    "AdvancementBought": _fold_advancement_bought,
    "DevelopmentDone": _fold_development_done,
    "InfluencePlaced": _fold_influence_placed,
    "InfluenceRemoved": _fold_influence_removed,
    "Passed": _fold_passed,
    "ConflictDeclared": _fold_conflict_declared,
    "AttackCancelled": _fold_attack_cancelled,
    "AttackRenewed": _fold_attack_renewed,
    "ConflictWon": _fold_conflict_won,
    "ConflictAbandoned": _fold_conflict_abandoned,
    "WmdUsed": _fold_wmd_used,
    "OfferMade": _fold_offer_made,
    "OffersRevealed": _fold_offers_revealed,
    "RegionsConsolidated": _fold_regions_consolidated,
    "TurnOrderSet": _fold_turn_order_set,
    "GameScored": _fold_game_scored,
}
EVENT_TYPES: tuple[str, ...] = ("TableSet", *_FOLD)


def _next_state(state: State) -> State:
    """A copy whose containers a handler may change: lists of seats and the region map are
    new; each region, hand or pile a handler changes is replaced, never edited in place.

    The board (static components) is shared between states: nothing ever changes it.
    """
    new = dict(state)
    for key in ("hands", "decks", "discards", "advancements", "owed", "offers", "order"):
        new[key] = list(state[key])
    new["supply"] = dict(state["supply"])
    new["regions"] = dict(state["regions"])
    return new


def evolve(state: State | None, event: EventLike) -> State:
    """Fold one event into a new state (the input is left untouched)."""
    if event.type == "TableSet":
        return _fold_table_set(event.data)
    if state is None:
        raise ValueError("the first Ideology event must be TableSet")
    handler = _FOLD.get(event.type)
    if handler is None:
        raise ValueError(f"unknown Ideology event {event.type!r}")
    new = _next_state(state)
    handler(new, event.data)
    return new


# --- Who acts -----------------------------------------------------------------------------

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


# --- Decisions -------------------------------------------------------------------------------

def _counts_field(action: Action, field: str) -> dict[str, int]:
    value = action.get(field, {})
    if not isinstance(value, Mapping):
        raise RuleViolation("bad_counts", f"{field} must map influence types to counts")
    counts = dict.fromkeys(INFLUENCE_TYPES, 0)
    for kind, count in value.items():
        if kind not in INFLUENCE_TYPES:
            raise RuleViolation("unknown_influence", f"{kind!r} is not an influence type; the types are "
                                                     f"{', '.join(INFLUENCE_TYPES)}")
        if not _is_int(count) or count < 0:
            raise RuleViolation("bad_counts", f"the count of {kind} cards must be a whole number of at least 0")
        counts[kind] = count
    return counts


def _check_in_hand(state: State, seat: Seat, counts: Mapping[str, int]) -> None:
    held = count_types(state["hands"][seat])
    for kind in INFLUENCE_TYPES:
        if counts[kind] > held[kind]:
            raise RuleViolation("not_enough_cards", f"you hold {held[kind]} {kind} card(s), not {counts[kind]}")


def _influence_field(action: Action) -> str:
    kind = action.get("influence")
    if kind not in INFLUENCE_TYPES:
        raise RuleViolation("unknown_influence", f"influence must be one of {', '.join(INFLUENCE_TYPES)}")
    return kind


def _region_field(state: State, action: Action) -> str:
    rid = action.get("region")
    if not isinstance(rid, str) or rid not in state["regions"]:
        raise RuleViolation("unknown_region", "region must be the id of a region on the map")
    if not in_play(state, rid):
        raise RuleViolation("region_not_in_play", "that region is still face down in the region pile")
    return rid


def _require_phase(state: State, phase: str, kind: str) -> None:
    if state["phase"] != phase:
        raise RuleViolation("wrong_phase", f"{kind} is not an action of the {state['phase'].replace('_', ' ')} phase")


def _decide_discard(state: State, seat: Seat, action: Action) -> list[GameEvent]:
    _require_phase(state, RESOURCES, "discard")
    require_fields(action, ("discard",))
    counts = _counts_field(action, "discard")
    owed = state["owed"][seat]
    if sum(counts.values()) != owed:
        raise RuleViolation("wrong_discard_count", f"you must discard exactly {owed} card(s) to match your "
                                                   "Global Influence")
    _check_in_hand(state, seat, counts)
    cards = _pick(state["hands"][seat], counts)
    return [GameEvent("CardsDiscarded", {"seat": seat, "cards": cards}, actor=seat)]


def _draw_cards(state: State, seat: Seat, count: int, rng: random.Random,
                extra_discards: list[str] | None = None) -> dict[str, Any]:
    """Draw ``count`` cards; an empty deck takes the shuffled discards (scenario: in discard order)."""
    deck = state["decks"][seat]
    cards = deck[:count]
    if len(cards) == count:
        return {"cards": cards, "reshuffled": None, "after": []}
    pile = list(state["discards"][seat]) + list(extra_discards or [])
    if not pile:
        return {"cards": cards, "reshuffled": None, "after": []}
    if not (state["scenario"] and state["options"]["decks"] and state["ideology"][seat] in state["options"]["decks"]):
        rng.shuffle(pile)
    after = pile[:count - len(cards)]
    return {"cards": cards + after, "reshuffled": pile, "after": after}


def _decide_exchange(state: State, seat: Seat, action: Action, rng: random.Random) -> list[GameEvent]:
    _require_phase(state, EXCHANGE, "exchange")
    require_fields(action, ("discard",))
    counts = _counts_field(action, "discard")
    total = sum(counts.values())
    power = trade_power(state, seat)
    if total > power:
        raise RuleViolation("over_trade_power",
                            f"your Trade Power is {power}: you may exchange at most {power} card(s)")
    _check_in_hand(state, seat, counts)
    discarded = _pick(state["hands"][seat], counts)
    draw = _draw_cards(state, seat, total, rng, discarded)
    return [GameEvent("CardsExchanged", {"seat": seat, "discarded": discarded, "draw": draw}, actor=seat)]


def _decide_develop(state: State, seat: Seat, action: Action) -> list[GameEvent]:
    _require_phase(state, DEVELOPMENT, "develop")
    require_fields(action, ("region", "influence"))
    rid, kind = _region_field(state, action), _influence_field(action)
    if state["regions"][rid]["controller"] != seat:
        raise RuleViolation("not_your_region", "you develop only regions you control")
    limit = max_influence(state, rid)
    if len(state["regions"][rid]["cards"][kind]) >= limit:
        raise RuleViolation("area_full", f"that region holds its maximum of {limit} {kind} card(s)")
    (card,) = _pick(state["hands"][seat], {kind: 1}) or [None]
    if card is None:
        raise RuleViolation("not_enough_cards", f"you hold no {kind} card")
    return [GameEvent("RegionDeveloped", {"seat": seat, "region": rid, "card": card}, actor=seat)]


def buy_payment(state: State, seat: Seat, aid: str) -> dict[str, Any] | None:
    """What buying ``aid`` costs the seat now (cards and advancements), or None if it cannot."""
    card = state["board"]["advancements"].get(aid)
    if card is None or state["supply"][aid] <= 0:
        return None
    cost = card["cost"]
    if "cards" in cost:
        need = {kind: cost["cards"].get(kind, 0) for kind in INFLUENCE_TYPES}
        held = count_types(state["hands"][seat])
        if any(held[k] < need[k] for k in INFLUENCE_TYPES):
            return None
        return {"cards": _pick(state["hands"][seat], need), "advancements": []}
    need_adv = Counter(cost["advancements"])
    held_adv = state["advancements"][seat]
    if any(held_adv.get(a, 0) < n for a, n in need_adv.items()):
        return None
    return {"cards": [], "advancements": list(cost["advancements"])}


def _decide_buy(state: State, seat: Seat, action: Action) -> list[GameEvent]:
    _require_phase(state, DEVELOPMENT, "buy")
    require_fields(action, ("advancement",))
    aid = action.get("advancement")
    board = state["board"]["advancements"]
    if not isinstance(aid, str) or aid not in board:
        raise RuleViolation("unknown_advancement", f"advancement must be one of {', '.join(board)}")
    if state["supply"][aid] <= 0:
        raise RuleViolation("sold_out", f"no {board[aid]['name']} card is left in the supply")
    payment = buy_payment(state, seat, aid)
    if payment is None:
        cost = board[aid]["cost"]
        what = (", ".join(f"{n} {k}" for k, n in cost["cards"].items()) + " card(s)" if "cards" in cost
                else " + ".join(board[a]["name"] for a in cost["advancements"]))
        raise RuleViolation("cannot_afford", f"{board[aid]['name']} costs {what}")
    return [GameEvent("AdvancementBought", {"seat": seat, "advancement": aid, **payment}, actor=seat)]


def _decide_done(state: State, seat: Seat, action: Action) -> list[GameEvent]:
    _require_phase(state, DEVELOPMENT, "done")
    require_fields(action, ())
    return [GameEvent("DevelopmentDone", {"seat": seat}, actor=seat)]


def _decide_place(state: State, seat: Seat, action: Action) -> list[GameEvent]:
    _require_phase(state, FOREIGN, "place")
    require_fields(action, ("region", "influence"))
    rid, kind = _region_field(state, action), _influence_field(action)
    if state["regions"][rid]["controller"] is not None:
        raise RuleViolation("not_independent", "influence is placed only on independent regions")
    limit = max_influence(state, rid)
    if len(state["regions"][rid]["cards"][kind]) >= limit:
        raise RuleViolation("area_full", f"that region holds its maximum of {limit} {kind} card(s)")
    penalty = placement_penalty(state, seat, rid, kind)
    cards = _pick(state["hands"][seat], {kind: penalty + 1})
    if len(cards) < penalty + 1:
        raise RuleViolation("not_enough_cards", f"placing there takes {penalty + 1} {kind} card(s)"
                                                + (" (one for the distance penalty)" if penalty else ""))
    return [GameEvent("InfluencePlaced", {"seat": seat, "region": rid, "card": cards[-1], "penalty": cards[:-1]},
                      actor=seat)]


def _decide_remove(state: State, seat: Seat, action: Action) -> list[GameEvent]:
    _require_phase(state, FOREIGN, "remove")
    require_fields(action, ("region", "influence"))
    rid, kind = _region_field(state, action), _influence_field(action)
    if state["regions"][rid]["controller"] == seat:
        raise RuleViolation("own_region", "you remove influence only from independent or rival regions")
    mine = cards_of(state, rid, seat, kind)
    if not mine:
        raise RuleViolation("no_influence_there", f"you have no {kind} card on that region")
    return [GameEvent("InfluenceRemoved", {"seat": seat, "region": rid, "card": mine[-1]}, actor=seat)]


def _decide_pass(state: State, seat: Seat, action: Action) -> list[GameEvent]:
    if state["phase"] not in (FOREIGN, CONFLICT) or state["conflict"] is not None:
        raise RuleViolation("wrong_phase", "pass is an action of the foreign affairs and conflict phases")
    require_fields(action, ())
    return [GameEvent("Passed", {"seat": seat, "phase": state["phase"]}, actor=seat)]


def _require_no_conflict(state: State, kind: str) -> None:
    _require_phase(state, CONFLICT, kind)
    if state["conflict"] is not None:
        raise RuleViolation("conflict_in_progress", "a conflict is being fought: answer it first")


def _decide_attack(state: State, seat: Seat, action: Action) -> list[GameEvent]:
    _require_no_conflict(state, "attack")
    require_fields(action, ("region", "influence", "target"))
    rid, kind = _region_field(state, action), _influence_field(action)
    target = check_seat(state["seats"], action.get("target"))
    if target == seat:
        raise RuleViolation("own_influence", "a conflict is fought against another ideology")
    status = relation(state, seat, target)
    if kind not in ALLOWED_CONFLICTS[status]:
        raise RuleViolation("not_allowed_by_diplomacy",
                            f"at {status} you may start only {' or '.join(ALLOWED_CONFLICTS[status])} conflicts")
    if not cards_of(state, rid, target, kind):
        raise RuleViolation("no_target_influence", f"that ideology has no {kind} card on that region")
    penalty = conflict_penalty(state, seat, target, rid, kind)
    need = penalty["distance"] + penalty["advancement"] + 1
    cards = _pick(state["hands"][seat], {kind: need})
    if len(cards) < need:
        raise RuleViolation("not_enough_cards", f"this conflict takes {need} {kind} card(s): "
                                                f"{penalty['distance']} for distance, {penalty['advancement']} "
                                                "for the advancement gap and 1 to attack")
    return [GameEvent("ConflictDeclared", {"attacker": seat, "defender": target, "region": rid, "influence": kind,
                                           "penalty": cards[:-1], "card": cards[-1], **penalty}, actor=seat)]


def _decide_wmd(state: State, seat: Seat, action: Action) -> list[GameEvent]:
    _require_no_conflict(state, "wmd")
    require_fields(action, ("region", "target"))
    rid = _region_field(state, action)
    target = check_seat(state["seats"], action.get("target"))
    weapon = next((aid for aid in sorted(state["advancements"][seat])
                   if state["board"]["advancements"][aid]["effect"].get("use") == "destroy_influence"), None)
    if weapon is None:
        raise RuleViolation("no_wmd", "you hold no Weapons of Mass Destruction")
    if target == seat:
        raise RuleViolation("own_influence", "weapons are used against another ideology")
    if relation(state, seat, target) != "war":
        raise RuleViolation("not_allowed_by_diplomacy", "using weapons of mass destruction is an act of war: "
                                                        "only against an ideology you are at war with")
    destroyed = [card for kind in INFLUENCE_TYPES for card in cards_of(state, rid, target, kind)]
    if not destroyed:
        raise RuleViolation("no_target_influence", "that ideology has no influence on that region")
    return [GameEvent("WmdUsed", {"seat": seat, "target": target, "region": rid, "advancement": weapon,
                                  "destroyed": destroyed}, actor=seat)]


def _require_stage(state: State, seat: Seat, stage: str, kind: str) -> dict[str, Any]:
    conflict = state["conflict"]
    if state["phase"] != CONFLICT or conflict is None or conflict["stage"] != stage:
        raise RuleViolation("no_conflict_reply", f"{kind}: there is no conflict waiting for that answer")
    who = conflict["defender"] if stage == DEFEND else conflict["attacker"]
    if who != seat:
        raise RuleViolation("not_your_reply", f"{kind}: the answer is owed by seat {who}")
    return conflict


def _decide_concede(state: State, seat: Seat, action: Action) -> list[GameEvent]:
    conflict = _require_stage(state, seat, DEFEND, "concede")
    require_fields(action, ())
    replaced = cards_of(state, conflict["region"], seat, conflict["influence"])[-1]
    return [GameEvent("ConflictWon", {"attacker": conflict["attacker"], "defender": seat,
                                      "region": conflict["region"], "influence": conflict["influence"],
                                      "card": conflict["card"], "replaced": replaced}, actor=seat)]


def _decide_cancel(state: State, seat: Seat, action: Action) -> list[GameEvent]:
    conflict = _require_stage(state, seat, DEFEND, "cancel")
    require_fields(action, ())
    kind = conflict["influence"]
    cards = _pick(state["hands"][seat], {kind: 1})
    if not cards:
        raise RuleViolation("not_enough_cards", f"cancelling takes a {kind} card and you hold none")
    return [GameEvent("AttackCancelled", {"defender": seat, "card": cards[0],
                                          "attacker_card": conflict["card"]}, actor=seat)]


def _decide_continue(state: State, seat: Seat, action: Action) -> list[GameEvent]:
    conflict = _require_stage(state, seat, PRESS, "continue")
    require_fields(action, ())
    kind = conflict["influence"]
    cards = _pick(state["hands"][seat], {kind: 1})
    if not cards:
        raise RuleViolation("not_enough_cards", f"continuing takes a {kind} card and you hold none")
    return [GameEvent("AttackRenewed", {"attacker": seat, "card": cards[0]}, actor=seat)]


def _decide_stop(state: State, seat: Seat, action: Action) -> list[GameEvent]:
    conflict = _require_stage(state, seat, PRESS, "stop")
    require_fields(action, ())
    return [GameEvent("ConflictAbandoned", {"attacker": seat, "defender": conflict["defender"],
                                            "region": conflict["region"]}, actor=seat)]


def _decide_offer(state: State, seat: Seat, action: Action) -> list[GameEvent]:
    _require_phase(state, DIPLOMACY, "offer")
    require_fields(action, ("offers",))
    offers = action.get("offers", {})
    if not isinstance(offers, Mapping):
        raise RuleViolation("bad_offers", "offers must map ideology ids to peace, neutral or war")
    others = [state["ideology"][s] for s in range(state["seats"]) if s != seat]
    for iid, status in offers.items():
        if iid not in others:
            raise RuleViolation("unknown_ideology", f"offers are made to the other ideologies: {', '.join(others)}")
        if status not in STATUSES:
            raise RuleViolation("bad_status", f"an offer is one of {', '.join(STATUSES)}")
    complete = {iid: offers.get(iid, "neutral") for iid in others}
    return [GameEvent("OfferMade", {"seat": seat, "offers": complete}, actor=seat)]


#: The fields each action must carry (README, Part 3, "Actions"): none may be left out to
#: mean a default, so a client's slip is refused instead of taken as a decision.
REQUIRED_FIELDS: dict[str, tuple[str, ...]] = {
    "discard": ("discard",), "exchange": ("discard",), "develop": ("region", "influence"),
    "buy": ("advancement",), "place": ("region", "influence"), "remove": ("region", "influence"),
    "attack": ("region", "influence", "target"), "wmd": ("region", "target"), "offer": ("offers",),
}

_ACTIONS: dict[str, Callable[..., list[GameEvent]]] = {
    "discard": _decide_discard,
    "exchange": _decide_exchange,
    "develop": _decide_develop,
    "buy": _decide_buy,
    "done": _decide_done,
    "place": _decide_place,
    "remove": _decide_remove,
    "pass": _decide_pass,
    "attack": _decide_attack,
    "wmd": _decide_wmd,
    "concede": _decide_concede,
    "cancel": _decide_cancel,
    "continue": _decide_continue,
    "stop": _decide_stop,
    "offer": _decide_offer,
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
    if handler is None:
        raise RuleViolation("unknown_action", f"unknown action type; the types are {', '.join(_ACTIONS)}")
    require_present(action, REQUIRED_FIELDS)
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
        return _decide_exchange(state, seat, dict(action), rng)
    return handler(state, seat, dict(action))


# --- System steps ------------------------------------------------------------------------------

def _turn_started(state: State, rng: random.Random) -> GameEvent:
    """Resources: every seat draws up to its Global Influence; a seat above it owes a discard."""
    draws, owed = [], []
    for seat in range(state["seats"]):
        target = global_influence(state, seat)
        held = len(state["hands"][seat])
        draws.append(_draw_cards(state, seat, target - held, rng) if held < target else
                     {"cards": [], "reshuffled": None, "after": []})
        owed.append(max(0, held - target))
    return GameEvent("TurnStarted", {"turn": state["turn"] + 1, "draws": draws, "owed": owed})


def _phase_started(state: State, phase: str) -> GameEvent:
    data: dict[str, Any] = {"turn": state["turn"], "phase": phase}
    if phase == FOREIGN:
        data["region"] = state["region_pile"][0] if state["region_pile"] else None
    return GameEvent("PhaseStarted", data)


def _reveal_offers(state: State) -> GameEvent:
    seats = state["seats"]
    severity = {status: rank for rank, status in enumerate(STATUSES)}
    relations: list[list[str | None]] = [[None] * seats for _ in range(seats)]
    for a, b in itertools.combinations(range(seats), 2):
        mine = state["offers"][a][state["ideology"][b]]
        theirs = state["offers"][b][state["ideology"][a]]
        status = max(mine, theirs, key=severity.__getitem__)
        relations[a][b] = relations[b][a] = status
    return GameEvent("OffersRevealed", {"turn": state["turn"], "offers": clone_json(state["offers"]),
                                        "relations": relations})


def _consolidate(state: State) -> GameEvent:
    """New development levels; control kept only by a strict majority; full regions taken."""
    levels: dict[str, int] = {}
    lost: list[str] = []
    gained: dict[str, Seat] = {}
    regions = state["regions"]
    # In the order of region ids, never the map's own order: a state read back from JSON
    # (a log, a snapshot) and one folded from fresh drafts spell it differently, and which
    # region misses a last control marker must not depend on the spelling (D15).
    ordered = [(rid, regions[rid]) for rid in sorted(regions)]
    for rid, region in ordered:
        if region["controller"] is not None:
            level = max(1, min(len(region["cards"][kind]) for kind in INFLUENCE_TYPES))
            if level != region["level"]:
                levels[rid] = level
    for rid, region in ordered:
        controller = region["controller"]
        if controller is not None and strict_leader(seat_card_counts(state, rid)) != controller:
            lost.append(rid)
    held = [len(controlled_by(state, seat)) - sum(1 for rid in lost if regions[rid]["controller"] == seat)
            for seat in range(state["seats"])]
    for rid, region in ordered:
        if region["status"] == "deck" or (region["controller"] is not None and rid not in lost):
            continue
        level = levels.get(rid, region["level"])
        if any(len(region["cards"][kind]) < level for kind in INFLUENCE_TYPES):
            continue
        leader = strict_leader(seat_card_counts(state, rid))
        if leader is not None and held[leader] < MAX_CONTROLLED:
            gained[rid] = leader
            held[leader] += 1
    return GameEvent("RegionsConsolidated", {"turn": state["turn"], "levels": levels, "lost": lost,
                                             "gained": gained})


def _new_turn_order(state: State) -> GameEvent:
    influence = [global_influence(state, seat) for seat in range(state["seats"])]
    order = sorted(state["order"], key=lambda seat: -influence[seat])  # stable: ties keep their places
    return GameEvent("TurnOrderSet", {"turn": state["turn"], "order": order, "influence": influence})


def final_result(state: State, reason: str) -> dict[str, Any]:
    influence = [global_influence(state, seat) for seat in range(state["seats"])]
    points = [tie_break_points(state, seat) for seat in range(state["seats"])]
    best = max(influence)
    tied = [seat for seat in range(state["seats"]) if influence[seat] == best]
    top = max(points[seat] for seat in tied)
    winners = [seat for seat in tied if points[seat] == top]
    return {"reason": reason, "winners": winners, "influence": influence, "points": points}


def _end_of_turn(state: State, rng: random.Random) -> GameEvent:
    influence = [global_influence(state, seat) for seat in range(state["seats"])]
    opts = state["options"]
    if max(influence) >= WINNING_INFLUENCE:
        return GameEvent("GameScored", {"turn": state["turn"], **final_result(state, "global_influence")})
    if opts["stall_turns"] is not None and state["quiet_turns"] >= opts["stall_turns"]:
        return GameEvent("GameScored", {"turn": state["turn"], **final_result(state, "stalled")})
    if opts["max_turns"] is not None and state["turn"] >= opts["max_turns"]:
        return GameEvent("GameScored", {"turn": state["turn"], **final_result(state, "turn_limit")})
    return _turn_started(state, rng)


_NEXT_PHASE = {RESOURCES: EXCHANGE, EXCHANGE: DEVELOPMENT, DEVELOPMENT: FOREIGN, FOREIGN: CONFLICT,
               CONFLICT: DIPLOMACY}


def _next_step(state: State, rng: random.Random) -> GameEvent:
    phase = state["phase"]
    if phase in _NEXT_PHASE:
        return _phase_started(state, _NEXT_PHASE[phase])
    if phase == DIPLOMACY:
        return _reveal_offers(state)
    if phase == CONSOLIDATION:
        return _consolidate(state)
    if phase == TURN_ORDER:
        return _new_turn_order(state)
    if phase == TURN_END:
        return _end_of_turn(state, rng)
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


# --- Legal actions -----------------------------------------------------------------------------

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
        return [*_foreign_actions(state, seat, hand), {"type": "pass"}]
    if kind == "conflict":
        return [*_conflict_actions(state, seat, hand), {"type": "pass"}]
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


def _foreign_actions(state: State, seat: Seat, hand: Mapping[str, int]) -> list[Action]:
    actions: list[Action] = []
    prefix = state["ideology"][seat] + ":"
    for rid, region in state["regions"].items():
        if region["status"] == "deck":
            continue
        if region["controller"] is None:
            limit = region["level"]
            for influence in INFLUENCE_TYPES:
                if (hand[influence] and len(region["cards"][influence]) < limit
                        and hand[influence] > placement_penalty(state, seat, rid, influence)):
                    actions.append({"type": "place", "region": rid, "influence": influence})
        if region["controller"] != seat:
            for influence in INFLUENCE_TYPES:
                if any(card.startswith(prefix) for card in region["cards"][influence]):
                    actions.append({"type": "remove", "region": rid, "influence": influence})
    return actions


def _conflict_actions(state: State, seat: Seat, hand: Mapping[str, int]) -> list[Action]:
    actions: list[Action] = []
    has_wmd = any(state["board"]["advancements"][aid]["effect"].get("use") == "destroy_influence"
                  for aid in state["advancements"][seat])
    for rid, region in state["regions"].items():
        if region["status"] == "deck":
            continue
        for target in range(state["seats"]):
            if target == seat:
                continue
            prefix = state["ideology"][target] + ":"
            present = [influence for influence in INFLUENCE_TYPES
                       if any(card.startswith(prefix) for card in region["cards"][influence])]
            if not present:
                continue
            allowed = ALLOWED_CONFLICTS[relation(state, seat, target)]
            for influence in present:
                if influence in allowed and hand[influence]:
                    penalty = conflict_penalty(state, seat, target, rid, influence)
                    if hand[influence] >= penalty["distance"] + penalty["advancement"] + 1:
                        actions.append({"type": "attack", "region": rid, "influence": influence, "target": target})
            if has_wmd and relation(state, seat, target) == "war":
                actions.append({"type": "wmd", "region": rid, "target": target})
    return actions
