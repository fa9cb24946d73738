"""Revolution! (Philip duBarry; Steve Jackson Games 2009, Pegasus Spiele 2010) as pure rules.

A round has four phases, all simultaneous: Spying (every hand of tokens is public),
Bidding (each seat seals a bid placing all its tokens on the characters of the bid
board), Resolution (the twelve characters in board order; the strongest bid wins each
one and takes its reward; the Spy's and the Apothecary's rewards are choices of their
winners) and Patronage (Gold tops every hand up to five tokens). The game ends when the
43 spaces of the city are full after a Resolution.

``decide`` and ``resolve`` check the rules and return events; ``evolve`` (in :mod:`.fold`) folds one
event into a new state and never checks a rule, so a rule fix never breaks an old
stream. The game has no chance at all: no step draws from the rng it is handed.
The rules summary and every interpretation are in this package's README.md.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping, Sequence
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
from games.revolution.components import (
    ALLOWED_KINDS,
    AREA_BY_ID,
    AREA_IDS,
    AREAS,
    BIDDING,
    BOARD,
    CHARACTER_BY_ID,
    CHARACTER_IDS,
    CHARACTERS,
    CONTROL_BONUS,
    CUBES_PER_SEAT,
    HAND_SIZE,
    KIND_NAMES,
    KINDS,
    MAX_CHARACTERS,
    MAX_ROUND_CAP,
    MIN_ROUND_CAP,
    OPTION_DEFAULTS,
    OVER,
    PATRONAGE,
    RESOLUTION,
    TOKEN_SUPPORT,
    no_tokens,
    token_counts,
)
from games.revolution.fold import evolve
from games.revolution.schema import CHECK, OPTIONS_CHECK, REQUIRED_FIELDS  # noqa: F401  (REQUIRED_FIELDS: the package's)

NAME = "revolution"
MIN_SEATS = 3
MAX_SEATS = 4


def bid_strength(tokens: Mapping[str, int]) -> tuple[int, int, int]:
    """The strength of one bid on one character, as a tuple compared left to right.

    Force beats any amount of Blackmail or Gold and Blackmail beats any amount of
    Gold; equal counts of a stronger kind defer to the next kind. That is exactly the
    lexicographic order of (Force, Blackmail, Gold).
    """
    return (tokens.get("force", 0), tokens.get("blackmail", 0), tokens.get("gold", 0))


def strongest_bidder(offers: Sequence[Mapping[str, int]]) -> Seat | None:
    """The seat whose bid is strictly strongest, or None when nobody bid or the best tie."""
    strengths = [bid_strength(offer) for offer in offers]
    best = max(strengths, default=(0, 0, 0))
    if best == (0, 0, 0):
        return None
    holders = [seat for seat, strength in enumerate(strengths) if strength == best]
    return holders[0] if len(holders) == 1 else None


def area_is_full(state: State, area: str) -> bool:
    return sum(state["areas"][area]) >= AREA_BY_ID[area]["spaces"]


def board_is_full(state: State) -> bool:
    return all(area_is_full(state, area) for area in AREA_IDS)


def controller(state: State, area: str) -> Seat | None:
    """The seat holding every space of ``area`` (the area control option), else None."""
    counts = state["areas"][area]
    spaces = AREA_BY_ID[area]["spaces"]
    for seat, count in enumerate(counts):
        if count == spaces:
            return seat
    return None


def is_locked(state: State, area: str) -> bool:
    """With area control, the cubes of a fully controlled area cannot be replaced or swapped."""
    return bool(state["options"]["area_control_bonus"]) and controller(state, area) is not None


def spy_targets(state: State, seat: Seat) -> list[tuple[str, Seat]]:
    """Rival cubes the Spy's winner may replace, in board order; none without a cube in supply."""
    if state["supply"][seat] <= 0:
        return []
    return [(area, owner) for area in AREA_IDS if not is_locked(state, area)
            for owner, count in enumerate(state["areas"][area]) if owner != seat and count > 0]


def apothecary_pairs(state: State) -> list[tuple[tuple[str, Seat], tuple[str, Seat]]]:
    """Pairs of cubes the Apothecary may swap: different areas and different owners.

    Any other swap changes nothing on the board, so it is not offered.
    """
    spots = [(area, owner) for area in AREA_IDS if not is_locked(state, area)
             for owner, count in enumerate(state["areas"][area]) if count > 0]
    return [(a, b) for i, a in enumerate(spots) for b in spots[i + 1:] if a[0] != b[0] and a[1] != b[1]]


def bid_limits(state: State, seat: Seat) -> dict[str, Any]:
    """The limits of a bid as data: what a client needs to build any legal bid itself."""
    return {
        "tokens": token_counts(state["hands"][seat]),
        "must_place_all": True,
        "max_characters": MAX_CHARACTERS,
        "characters": [{"id": cid, "allowed": list(ALLOWED_KINDS[cid])} for cid in CHARACTER_IDS],
    }


# --- Options and setup ----------------------------------------------------------------------

def validate_options(options: Mapping[str, Any], seats: int) -> dict[str, Any]:
    """Complete ``options`` with defaults; refuse unknown keys, bad values and seat counts."""
    if not isinstance(seats, int) or isinstance(seats, bool) or not MIN_SEATS <= seats <= MAX_SEATS:
        raise InvalidOptions("bad_seats", f"Revolution! is played by {MIN_SEATS} or {MAX_SEATS} seats")
    unknown = sorted(str(key) for key in options if key not in OPTION_DEFAULTS)
    if unknown:
        raise InvalidOptions("unknown_option",
                             f"unknown option(s): {', '.join(unknown)}; known: {', '.join(OPTION_DEFAULTS)}")
    OPTIONS_CHECK(options)
    result = dict(OPTION_DEFAULTS)
    for key, value in options.items():
        if key == "max_rounds":
            if (not isinstance(value, int) or isinstance(value, bool)
                    or not MIN_ROUND_CAP <= value <= MAX_ROUND_CAP):
                raise InvalidOptions("bad_option",
                                     f"max_rounds must be a whole number from {MIN_ROUND_CAP} to {MAX_ROUND_CAP}")
        elif not isinstance(value, bool):
            raise InvalidOptions("bad_option", f"{key} must be true or false")
        result[key] = value
    return result


def setup(options: Mapping[str, Any], seats: int, rng: random.Random) -> list[GameEvent]:
    """Fill the bank, hand every seat its starting tokens and cubes, open round 1."""
    opts = validate_options(options, seats)
    bank = token_counts(BOARD["bank"])
    if opts["german_edition"]:
        bank["gold"] = BOARD["german_edition_gold"]
    start = token_counts(BOARD["starting_hand"])
    for kind in KINDS:
        bank[kind] -= start[kind] * seats
    hands = [dict(start) for _ in range(seats)]
    started = {
        "seats": seats,
        "options": opts,
        "bank": bank,
        "hands": hands,
        "supply": [CUBES_PER_SEAT] * seats,
        "areas": {area: [0] * seats for area in AREA_IDS},
    }
    return [GameEvent("BoardPrepared", started), GameEvent("RoundStarted", {"round": 1, "hands": clone_json(hands)})]


# --- Who acts now ---------------------------------------------------------------------------

def awaiting(state: State) -> dict[Seat, str]:
    """During bidding, every seat still without a sealed bid; else the Spy/Apothecary winner."""
    if state["phase"] == BIDDING:
        return {seat: "bid" for seat, sealed in enumerate(state["sealed"]) if sealed is None}
    decision = state["decision"]
    if decision is not None and state["phase"] == RESOLUTION:
        return {decision["seat"]: decision["kind"]}
    return {}


def may_act(state: State, seat: Seat) -> bool:
    """Any seat may bid, or replace its sealed bid, until the last seat has bid."""
    if state["phase"] == BIDDING:
        return any(sealed is None for sealed in state["sealed"])
    return seat in awaiting(state)


# --- Decisions of the seats -----------------------------------------------------------------

def check_bid(bids: Any, hand: Mapping[str, int]) -> dict[str, dict[str, int]]:
    """Validate a bid against the rules of the bid board; return it in canonical form.

    Canonical: characters in board order, kinds in Force/Blackmail/Gold order, zero
    counts dropped (a character with no tokens is not bid on and not counted).
    """
    if not isinstance(bids, dict):
        raise RuleViolation("bad_bid", "bids must be an object mapping character ids to token counts")
    placed: dict[str, dict[str, int]] = {}
    for cid, tokens in bids.items():
        character = CHARACTER_BY_ID.get(cid) if isinstance(cid, str) else None
        if character is None:
            raise RuleViolation("unknown_character",
                                f"{cid!r} is not on the bid board; the characters are {', '.join(CHARACTER_IDS)}")
        name = character["name"]
        if not isinstance(tokens, dict):
            raise RuleViolation("bad_bid", f"the bid on the {name} must be an object of token counts")
        for kind, count in tokens.items():
            if kind not in KINDS:
                raise RuleViolation("unknown_token_kind",
                                    f"{kind!r} is not a token kind; the kinds are {', '.join(KINDS)}")
            if not isinstance(count, int) or isinstance(count, bool):
                raise RuleViolation("bad_count",
                                    f"the count of {KIND_NAMES[kind]} on the {name} must be a whole number")
            if count < 0:
                raise RuleViolation("negative_count", f"the count of {KIND_NAMES[kind]} on the {name} is negative")
            if count and kind in character["immune"]:
                only = " (Gold only)" if len(character["immune"]) == 2 else ""
                raise RuleViolation(f"immune_to_{kind}",
                                    f"the {name} is immune to {KIND_NAMES[kind]}{only}: it may not be bid there")
        nonzero = {kind: tokens[kind] for kind in KINDS if tokens.get(kind, 0) > 0}
        if nonzero:
            placed[cid] = nonzero
    if len(placed) > MAX_CHARACTERS:
        raise RuleViolation("too_many_characters", f"a bid may persuade at most {MAX_CHARACTERS} characters "
                                                   f"a round; this one names {len(placed)}")
    for kind in KINDS:
        total = sum(tokens.get(kind, 0) for tokens in placed.values())
        if total > hand[kind]:
            raise RuleViolation("not_enough_tokens",
                                f"you hold {hand[kind]} {KIND_NAMES[kind]} but this bid places {total}")
        if total < hand[kind]:
            raise RuleViolation("must_bid_all_tokens",
                                f"every token in hand must be bid: you hold {hand[kind]} {KIND_NAMES[kind]} "
                                f"but this bid places {total}")
    return {cid: placed[cid] for cid in CHARACTER_IDS if cid in placed}


def _require_bidding(state: State) -> None:
    if not (state["phase"] == BIDDING and any(sealed is None for sealed in state["sealed"])):
        raise RuleViolation("not_bidding", "bids are placed only during the bidding phase")


def _decide_bid(state: State, seat: Seat, action: Action) -> list[GameEvent]:
    _require_bidding(state)
    require_fields(action, ("bids",))
    if "bids" not in action:
        raise RuleViolation("bad_bid", "a bid needs a 'bids' object mapping character ids to token counts")
    bids = check_bid(action["bids"], state["hands"][seat])
    return [GameEvent("BidPlaced", {"seat": seat, "bids": bids, "forfeit": False}, actor=seat)]


def _decide_forfeit(state: State, seat: Seat, action: Action) -> list[GameEvent]:
    """Sit the round out: the timeout default. The hand goes to the bank at the reveal."""
    _require_bidding(state)
    require_fields(action, ())
    return [GameEvent("BidPlaced", {"seat": seat, "bids": {}, "forfeit": True}, actor=seat)]


def _require_decision(state: State, seat: Seat, kind: str | None) -> str:
    decision = state["decision"]
    if state["phase"] != RESOLUTION or decision is None or decision["seat"] != seat:
        raise RuleViolation("not_your_decision", "you have no Spy or Apothecary reward to use now")
    if kind is not None and decision["kind"] != kind:
        raise RuleViolation("wrong_decision", f"the reward to use now is the {decision['kind'].capitalize()}'s")
    return decision["kind"]


def _cube_ref(state: State, value: Any, label: str) -> tuple[str, Seat]:
    """Read an {area, owner} cube reference and check that such a cube is on the board."""
    if isinstance(value, dict):
        extra = sorted(str(key) for key in set(value) - {"area", "owner"})
        if extra:
            raise RuleViolation("unknown_field", f"unexpected field(s) in {label}: {', '.join(extra)}")
    area = value.get("area") if isinstance(value, dict) else None
    owner = value.get("owner") if isinstance(value, dict) else None
    if area not in AREA_BY_ID:
        raise RuleViolation("unknown_area", f"{label}: the areas are {', '.join(AREA_IDS)}")
    seats = state["seats"]
    if not isinstance(owner, int) or isinstance(owner, bool) or not 0 <= owner < seats:
        raise RuleViolation("bad_owner", f"{label}: owner must be a seat number from 0 to {seats - 1}")
    if state["areas"][area][owner] <= 0:
        raise RuleViolation("no_such_cube", f"{label}: seat {owner} has no cube in the {AREA_BY_ID[area]['name']}")
    if is_locked(state, area):
        raise RuleViolation("area_controlled",
                            f"{label}: the {AREA_BY_ID[area]['name']} is fully controlled; its cubes cannot be moved")
    return area, owner


def _decide_spy(state: State, seat: Seat, action: Action) -> list[GameEvent]:
    _require_decision(state, seat, "spy")
    require_fields(action, ("area", "owner"))
    if state["supply"][seat] <= 0:
        raise RuleViolation("no_cubes_left", "you have no cube left to put in place of the one removed")
    area, owner = _cube_ref(state, {"area": action.get("area"), "owner": action.get("owner")}, "spy target")
    if owner == seat:
        raise RuleViolation("own_cube", "the Spy replaces a rival's cube, not one of your own")
    return [GameEvent("SpyReplacedCube", {"seat": seat, "area": area, "owner": owner}, actor=seat)]


def _decide_apothecary(state: State, seat: Seat, action: Action) -> list[GameEvent]:
    _require_decision(state, seat, "apothecary")
    require_fields(action, ("first", "second"))
    first = _cube_ref(state, action.get("first"), "first")
    second = _cube_ref(state, action.get("second"), "second")
    if first[0] == second[0]:
        raise RuleViolation("same_area", "the Apothecary swaps two cubes in different areas")
    if first[1] == second[1]:
        raise RuleViolation("same_owner", "the Apothecary swaps cubes of two different owners")
    order = {area: index for index, area in enumerate(AREA_IDS)}
    first, second = sorted((first, second), key=lambda ref: (order[ref[0]], ref[1]))
    data = {"seat": seat, "first": {"area": first[0], "owner": first[1]},
            "second": {"area": second[0], "owner": second[1]}}
    return [GameEvent("ApothecarySwappedCubes", data, actor=seat)]


def _decide_skip(state: State, seat: Seat, action: Action) -> list[GameEvent]:
    kind = _require_decision(state, seat, None)
    require_fields(action, ())
    return [GameEvent("RewardSkipped", {"seat": seat, "character": kind}, actor=seat)]


_ACTIONS: dict[str, Callable[[State, Seat, Action], list[GameEvent]]] = {
    "bid": _decide_bid,
    "forfeit": _decide_forfeit,
    "spy": _decide_spy,
    "apothecary": _decide_apothecary,
    "skip": _decide_skip,
}


def decide(state: State, seat: Seat, action: Action, rng: random.Random) -> list[GameEvent]:
    """Validate one action of ``seat`` and return its events; raises RuleViolation."""
    if not isinstance(action, Mapping):
        raise RuleViolation("bad_action", "an action is an object with a 'type'")
    kind = action.get("type")
    handler = _ACTIONS.get(kind) if isinstance(kind, str) else None
    if handler is None:
        raise RuleViolation("unknown_action", f"unknown action type; the types are {', '.join(_ACTIONS)}")
    CHECK(action)
    if state["phase"] == OVER:
        raise RuleViolation("game_over", "the game is over")
    return handler(state, seat, dict(action))


# --- System steps: reveal, resolve characters, patronage, the end ---------------------------

def _reveal(state: State) -> GameEvent:
    bids, forfeited = [], []
    for seat, sealed in enumerate(state["sealed"]):
        bids.append(clone_json(sealed["bids"]))
        forfeited.append(token_counts(state["hands"][seat]) if sealed["forfeit"] else no_tokens())
    return GameEvent("BidsRevealed", {"round": state["round"], "bids": bids, "forfeited": forfeited})


def _resolve_character(state: State, index: int) -> GameEvent:
    """Award one character to the strongest bid, then clear the tokens bid on it.

    The reward is taken from the bank before that character's tokens return to it,
    and only as far as the bank holds the tokens.
    """
    character = CHARACTERS[index]
    cid = character["id"]
    offers = [token_counts(bids.get(cid, {})) for bids in state["revealed"]]
    winner = strongest_bidder(offers)
    data: dict[str, Any] = {"round": state["round"], "character": cid, "winner": winner,
                            "support": 0, "tokens": {}, "cube": None, "decision": None, "no_target": False}
    if winner is not None:
        data["support"] = character["support"]
        data["tokens"] = {kind: min(count, state["bank"][kind]) for kind, count in character["tokens"].items()}
        area = character["area"]
        if area is not None and not area_is_full(state, area) and state["supply"][winner] > 0:
            data["cube"] = area
        special = character["special"]
        if special == "spy":
            has_choice = bool(spy_targets(state, winner))
        elif special == "apothecary":
            has_choice = bool(apothecary_pairs(state))
        else:
            has_choice = None
        if has_choice is not None:
            data["decision"] = special if has_choice else None
            data["no_target"] = not has_choice
    to_bank, refunds = no_tokens(), [no_tokens() for _ in offers]
    refund = bool(state["options"]["refund_losing_bids"])
    for seat, offer in enumerate(offers):
        pile = refunds[seat] if refund and seat != winner else to_bank
        for kind in KINDS:
            pile[kind] += offer[kind]
    data["to_bank"] = to_bank
    data["refunds"] = refunds
    return GameEvent("CharacterResolved", data)


def _patronage(state: State) -> GameEvent:
    """Top every hand up to five tokens with Gold; a short bank pays one coin at a time in seat order."""
    need = [max(0, HAND_SIZE - sum(hand.values())) for hand in state["hands"]]
    gold = [0] * state["seats"]
    left = state["bank"]["gold"]
    while left > 0 and any(g < n for g, n in zip(gold, need, strict=True)):
        for seat in range(state["seats"]):
            if left > 0 and gold[seat] < need[seat]:
                gold[seat] += 1
                left -= 1
    return GameEvent("PatronagePaid", {"round": state["round"], "gold": gold})


def final_scores(state: State) -> dict[str, Any]:
    """Support from tokens in hand and from area majorities (plus the control bonus)."""
    seats = state["seats"]
    token_support = [sum(hand[k] * TOKEN_SUPPORT[k] for k in KINDS) for hand in state["hands"]]
    area_support = [0] * seats
    areas: dict[str, Any] = {}
    for area in AREAS:
        counts = state["areas"][area["id"]]
        top = max(counts)
        holders = [seat for seat, count in enumerate(counts) if count == top]
        winner = holders[0] if top > 0 and len(holders) == 1 else None
        bonus = 0
        if winner is not None and state["options"]["area_control_bonus"] and top == area["spaces"]:
            bonus = CONTROL_BONUS
        gained = area["support"] + bonus if winner is not None else 0
        if winner is not None:
            area_support[winner] += gained
        areas[area["id"]] = {"winner": winner, "support": gained, "bonus": bonus}
    support = [state["support"][s] + token_support[s] + area_support[s] for s in range(seats)]
    best = max(support)
    return {"token_support": token_support, "area_support": area_support, "areas": areas,
            "support": support, "winners": [s for s in range(seats) if support[s] == best]}


def _after_resolution(state: State) -> GameEvent:
    if board_is_full(state):
        return GameEvent("GameScored", {"reason": "board_full", **final_scores(state)})
    if state["round"] >= state["options"]["max_rounds"]:
        return GameEvent("GameScored", {"reason": "round_limit", **final_scores(state)})
    return _patronage(state)


def _next_step(state: State) -> GameEvent:
    phase = state["phase"]
    if phase == BIDDING:
        return _reveal(state)
    if phase == RESOLUTION:
        if state["next"] < len(CHARACTERS):
            return _resolve_character(state, state["next"])
        return _after_resolution(state)
    if phase == PATRONAGE:
        return GameEvent("RoundStarted", {"round": state["round"] + 1, "hands": clone_json(state["hands"])})
    raise RuleViolation("game_over", "the game is over")


def resolve(state: State, rng: random.Random) -> list[GameEvent]:
    """Run system steps until a seat owes a decision, a new round opens or the game ends."""
    if awaiting(state):
        raise RuleViolation("awaiting_seats", "the system steps only when no seat owes a decision")
    events: list[GameEvent] = []
    current = state
    while True:
        event = _next_step(current)
        events.append(event)
        current = evolve(current, event)
        if current["phase"] == OVER or awaiting(current):
            return events


def on_timeout(state: State, seat: Seat) -> Action:
    """A silent bidder forfeits its hand for the round; a silent Spy/Apothecary skips."""
    if state["phase"] == BIDDING:
        return {"type": "forfeit"}
    return {"type": "skip"}


def outcome(state: State) -> Outcome | None:
    result = state.get("result")
    if result is None:
        return None
    return Outcome(tuple(result["winners"]), result["reason"])


# --- Legal actions --------------------------------------------------------------------------

# Homes for the two spread example bids (one token at a time, round the list, skipping
# a character immune to the token); every kind is allowed on at least three of each.
_SPREADS = (
    ("printer", "priest", "aristocrat", "merchant", "magistrate", "general"),
    ("captain", "innkeeper", "general", "magistrate", "spy", "apothecary"),
)


def _spread(hand: Mapping[str, int], homes: Sequence[str]) -> dict[str, dict[str, int]]:
    bids: dict[str, dict[str, int]] = {}
    turn = 0
    for kind in KINDS:
        for _ in range(hand[kind]):
            while kind not in ALLOWED_KINDS[homes[turn % len(homes)]]:
                turn += 1
            tokens = bids.setdefault(homes[turn % len(homes)], {})
            tokens[kind] = tokens.get(kind, 0) + 1
            turn += 1
    return bids


def example_bids(hand: Mapping[str, int]) -> list[dict[str, Any]]:
    """A few complete legal bids for ``hand``: the bid space is far too large to list."""
    hand = token_counts(hand)
    if not any(hand.values()):
        return [{"type": "bid", "bids": {}}]
    held = {kind: count for kind, count in hand.items() if count}
    candidates: list[dict[str, dict[str, int]]] = [{"priest": dict(held)}, {"printer": dict(held)}]
    by_kind: dict[str, dict[str, int]] = {}
    homes = {"force": "spy", "blackmail": "general", "gold": "merchant"}
    for kind, count in held.items():
        by_kind.setdefault(homes[kind], {})[kind] = count
    candidates.append(by_kind)
    candidates.extend(_spread(hand, homes) for homes in _SPREADS)
    if set(held) == {"gold"}:
        half = hand["gold"] // 2
        candidates.append({"rogue": {"gold": hand["gold"] - half}, **({"mercenary": {"gold": half}} if half else {})})
    unique = {}
    for bids in candidates:
        canonical = check_bid(bids, hand)
        unique[json.dumps(canonical, sort_keys=True)] = canonical
    return [{"type": "bid", "bids": unique[key]} for key in sorted(unique)]


def legal_actions(state: State, seat: Seat) -> list[Action]:
    """Example bids while bidding; every Spy/Apothecary choice (board order) plus skip."""
    if state["phase"] == OVER or not may_act(state, seat):
        return []
    if state["phase"] == BIDDING:
        return example_bids(state["hands"][seat])
    kind = state["decision"]["kind"]
    actions: list[Action] = []
    if kind == "spy":
        actions = [{"type": "spy", "area": area, "owner": owner} for area, owner in spy_targets(state, seat)]
    elif kind == "apothecary":
        actions = [{"type": "apothecary", "first": {"area": a[0], "owner": a[1]},
                    "second": {"area": b[0], "owner": b[1]}} for a, b in apothecary_pairs(state)]
    return [*actions, {"type": "skip"}]

