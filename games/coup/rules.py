"""Coup (Rikki Tahta; La Mame Games 2012) as pure rules, for 2 to 6 seats.

A turn is one action. Character actions (tax, assassinate, steal, exchange) claim a
card the actor may not hold; the other seats answer together in a *reaction window*:
any of them may challenge the claim, the seat an action can be blocked by may block
it, and everyone else passes. The first challenge or block settles the window; a
block opens a window of its own in which anyone may challenge the blocker. When every
awaited seat has passed, nobody is awaited and :func:`resolve` (a worker on the
server) closes the window.

Challenges are settled at once from the hidden cards: a proven claim sends the card to
the court deck, which is shuffled, and the claimant draws a replacement; the loser of
the challenge loses an influence. Losing influence with two cards left is a decision
of that seat (which card to reveal); with one card left it happens by itself.

What happens after a decision is kept as a short queue of *steps* in the state (lose
an influence, offer the target a block, apply the action, end the turn); ``decide``
and ``resolve`` run the queue until some seat owes a decision again, producing one
event per step. ``evolve`` (in :mod:`.fold`) folds events and never checks a rule.

Scenario games (``options.deck``) fix the court deck: the deck is never shuffled,
returned cards go to its bottom and draws come from its top, so a tutorial or a
rulebook example plays out the same way every time.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from games.base import (
    Action,
    GameEvent,
    InvalidOptions,
    Outcome,
    RuleViolation,
    Seat,
    State,
    check_seat,
    require_fields,
)
from games.coup.components import (
    ACTION_WINDOW,
    ACTIONS,
    BLOCK_OFFER,
    BLOCK_WINDOW,
    BLOCKABLE_BY_ANYONE,
    BLOCKERS,
    CARD_NAMES,  # noqa: F401  (re-exported for bots)
    CHARACTERS,
    CLAIM,
    COPIES,
    COST,
    EXCHANGE_DRAW,
    FORCED_COUP_AT,
    FULL_DECK,
    GAIN,
    STARTING_COINS,
    STARTING_INFLUENCE,
    TARGETED,
    TREASURY,
)
from games.coup.fold import evolve
from games.coup.schema import CHECK, OPTIONS_CHECK, REQUIRED_FIELDS  # noqa: F401  (REQUIRED_FIELDS: the package's)

NAME = "coup"
MIN_SEATS = 2
MAX_SEATS = 6
#: A scenario's deck order shows every hand, so only the operator may see it.
SECRET_OPTIONS = ("deck",)

# --- Options and setup ----------------------------------------------------------------------

def validate_options(options: Mapping[str, Any], seats: int) -> dict[str, Any]:
    """Coup has one option, ``deck``: a fixed court order (top first) for scenarios."""
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise InvalidOptions("bad_seat_count", f"Coup is played by {MIN_SEATS} to {MAX_SEATS} seats")
    unknown = sorted(set(options) - {"deck"})
    if unknown:
        raise InvalidOptions("unknown_option", f"Coup has no option(s) {', '.join(unknown)}; the only one is 'deck'")
    OPTIONS_CHECK(options)
    deck = options.get("deck")
    if deck is None:
        return {"deck": None}
    if not isinstance(deck, list) or not all(isinstance(card, str) for card in deck):
        raise InvalidOptions("bad_deck", "deck must be a list of card names, top of the deck first")
    unknown_cards = sorted(set(deck) - set(CHARACTERS))
    if unknown_cards:
        raise InvalidOptions("bad_deck", f"unknown card(s) {', '.join(unknown_cards)}; "
                                         f"cards are {', '.join(CHARACTERS)}")
    if Counter(deck) != Counter(FULL_DECK):
        raise InvalidOptions("bad_deck", f"deck must hold all {len(FULL_DECK)} cards, {COPIES} of each character")
    return {"deck": list(deck)}


def setup(options: Mapping[str, Any], seats: int, rng: random.Random) -> list[GameEvent]:
    """Deal two cards and two coins to each seat; seat 0 plays first."""
    scenario = options.get("deck") is not None
    deck = list(options["deck"]) if scenario else rng.sample(FULL_DECK, len(FULL_DECK))
    hands = [deck[STARTING_INFLUENCE * seat:STARTING_INFLUENCE * (seat + 1)] for seat in range(seats)]
    rest = deck[STARTING_INFLUENCE * seats:]
    return [GameEvent("CardsDealt", {
        "hands": hands, "deck": rest, "coins": STARTING_COINS, "treasury": TREASURY - STARTING_COINS * seats,
        "first": 0, "scenario": scenario,
    })]



# --- Reading the state ----------------------------------------------------------------------

def alive(state: State, seat: Seat) -> bool:
    return bool(state["seats"][seat]["hidden"])


def alive_seats(state: State) -> list[Seat]:
    return [seat for seat in range(len(state["seats"])) if alive(state, seat)]


def next_alive(state: State, seat: Seat) -> Seat:
    """The next seat clockwise (by seat number) that still has influence."""
    count = len(state["seats"])
    for step in range(1, count + 1):
        candidate = (seat + step) % count
        if alive(state, candidate):
            return candidate
    return seat


def awaiting(state: State) -> dict[Seat, str]:
    """Who owes a decision: the turn's seat, the window's responders, a revealer, an exchanger."""
    if state["winner"] is not None:
        return {}
    if state["exchange"] is not None:
        return {state["exchange"]["seat"]: "keep"}
    window = state["window"]
    if window is not None:
        return {seat: "react" for seat in window["waiting"]}
    if state["steps"]:
        head = state["steps"][0]
        if head["step"] == "lose" and len(state["seats"][head["seat"]]["hidden"]) > 1:
            return {head["seat"]: "reveal"}
        return {}
    return {state["turn"]: "turn"}


def may_act(state: State, seat: Seat) -> bool:
    return seat in awaiting(state)


def outcome(state: State) -> Outcome | None:
    if state["winner"] is None:
        return None
    return Outcome((state["winner"],), "last_standing")


# --- Deciding -------------------------------------------------------------------------------

def decide(state: State, seat: Seat, action: Action, rng: random.Random) -> list[GameEvent]:
    """Check ``action`` against the rules and return what it causes, up to the next decision."""
    kind = awaiting(state).get(seat)
    if kind is None:
        raise RuleViolation("not_your_turn", "you have no decision to make now")
    if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
        raise RuleViolation("unknown_action", "an action is an object with a string 'type'")
    CHECK(action)
    handler = _HANDLERS[kind]
    events = handler(state, seat, action, rng)
    return _run(state, events, rng)


def resolve(state: State, rng: random.Random) -> list[GameEvent]:
    """Close a window everyone passed, then run the steps that follow it."""
    events: list[GameEvent] = []
    if state["window"] is not None and not state["window"]["waiting"]:
        events.append(GameEvent("WindowClosed", {"kind": state["window"]["kind"]}))
    return _run(state, events, rng)


def _run(state: State, events: list[GameEvent], rng: random.Random) -> list[GameEvent]:
    """Fold ``events``, then produce the system steps that follow until a seat is awaited."""
    current = state
    for event in events:
        current = evolve(current, event)
    produced = list(events)
    while current["winner"] is None and not awaiting(current):
        if current["window"] is not None:
            break  # everyone passed: closing the window is resolve's (a worker's) job
        if not current["steps"]:
            break  # unreachable: with no steps the turn's seat is awaited
        event = _step_event(current, current["steps"][0], rng)
        current = evolve(current, event)
        produced.append(event)
    return produced


def _step_event(state: State, step: Mapping[str, Any], rng: random.Random) -> GameEvent:
    """The event that carries out the head step of the queue (no seat decision needed)."""
    name = step["step"]
    if name == "lose":  # only one card left: no choice to make
        seat = step["seat"]
        card = state["seats"][seat]["hidden"][0]
        return _influence_lost(state, seat, card, forced=True)
    if name == "offer_block":
        return GameEvent("BlockOffered", {"seat": step["seat"], "type": state["action"]["type"]})
    if name == "effect":
        return _effect(state)
    if name == "end":
        return GameEvent("TurnEnded", {"seat": state["turn"], "next": next_alive(state, state["turn"])})
    raise AssertionError(f"unknown step {name!r}")


def _influence_lost(state: State, seat: Seat, card: str, forced: bool) -> GameEvent:
    player = state["seats"][seat]
    exiled = len(player["hidden"]) == 1
    data: dict[str, Any] = {"seat": seat, "card": card, "chosen": not forced, "exiled": exiled}
    if exiled:
        data["coins_returned"] = player["coins"]
    return GameEvent("InfluenceLost", data, actor=None if forced else seat)


def _effect(state: State) -> GameEvent:
    action = state["action"]
    seat, kind = action["seat"], action["type"]
    data: dict[str, Any] = {"seat": seat, "type": kind}
    if kind in ("income", "foreign_aid", "tax"):
        data["amount"] = min(GAIN[kind], state["treasury"])
    elif kind == "steal":
        data["target"] = action["target"]
        data["amount"] = min(GAIN[kind], state["seats"][action["target"]]["coins"])
    elif kind == "assassinate":
        data["target"] = action["target"]
    elif kind == "exchange":
        data["drawn"] = state["deck"][:EXCHANGE_DRAW]
    return GameEvent("ActionSucceeded", data)


def _turn(state: State, seat: Seat, action: Action, rng: random.Random) -> list[GameEvent]:
    kind = action["type"]
    if kind not in ACTIONS:
        raise RuleViolation("unknown_action", f"unknown action {kind!r}; on your turn: {', '.join(ACTIONS)}")
    require_fields(action, ["target"] if kind in TARGETED else [])
    coins = state["seats"][seat]["coins"]
    if coins >= FORCED_COUP_AT and kind != "coup":
        raise RuleViolation("must_coup", f"you start your turn with {coins} coins: you must launch a coup")
    target = None
    if kind in TARGETED:
        if "target" not in action:
            raise RuleViolation("missing_target", f"{kind} needs a 'target' seat")
        target = check_seat(len(state["seats"]), action["target"])
        if target == seat:
            raise RuleViolation("bad_target", "you cannot target yourself")
        if not alive(state, target):
            raise RuleViolation("target_eliminated", f"seat {target} has been exiled and cannot be targeted")
    if coins < COST[kind]:
        raise RuleViolation("not_enough_coins", f"{kind} costs {COST[kind]} coins and you have {coins}")
    data: dict[str, Any] = {"seat": seat, "type": kind, "paid": COST[kind]}
    if target is not None:
        data["target"] = target
    if kind in CLAIM:
        data["claim"] = CLAIM[kind]
    if kind not in ("income", "coup"):
        data["responders"] = [other for other in _clockwise_from(state, seat) if alive(state, other)]
    return [GameEvent("ActionDeclared", data, actor=seat)]


def _clockwise_from(state: State, seat: Seat) -> list[Seat]:
    count = len(state["seats"])
    return [(seat + step) % count for step in range(1, count)]


def _may_block(state: State, seat: Seat) -> tuple[str, ...]:
    """The cards ``seat`` may claim to block the current action in the open window."""
    window, action = state["window"], state["action"]
    if window["kind"] not in (ACTION_WINDOW, BLOCK_OFFER):
        return ()
    kind = action["type"]
    if kind in BLOCKABLE_BY_ANYONE or action["target"] == seat:
        return BLOCKERS[kind]
    return ()


def _may_challenge(state: State) -> bool:
    window = state["window"]
    if window["kind"] == ACTION_WINDOW:
        return state["action"]["claim"] is not None
    return window["kind"] == BLOCK_WINDOW


def _react(state: State, seat: Seat, action: Action, rng: random.Random) -> list[GameEvent]:
    kind = action["type"]
    window = state["window"]
    if kind == "pass":
        require_fields(action, [])
        return [GameEvent("Passed", {"seat": seat, "kind": window["kind"]}, actor=seat)]
    if kind == "challenge":
        require_fields(action, [])
        if not _may_challenge(state):
            raise RuleViolation("cannot_challenge", "there is no claimed character to challenge now")
        return [_settle_challenge(state, seat, rng)]
    if kind == "block":
        require_fields(action, ["card"])
        allowed = _may_block(state, seat)
        if not allowed:
            raise RuleViolation("cannot_block", "you cannot block now: "
                                + ("this action cannot be blocked" if not BLOCKERS[state["action"]["type"]]
                                   else "only its target may block it" if window["kind"] != BLOCK_WINDOW
                                   else "a block is already declared"))
        card = action.get("card")
        if card not in allowed:
            raise RuleViolation("cannot_block", f"{state['action']['type']} is blocked by "
                                                f"{' or '.join(allowed)}, not {card!r}")
        responders = [other for other in _clockwise_from(state, seat) if alive(state, other)]
        return [GameEvent("BlockDeclared", {"seat": seat, "card": card, "responders": responders}, actor=seat)]
    if kind in ACTIONS:
        raise RuleViolation("not_your_turn", "a reaction window is open: challenge, block or pass")
    raise RuleViolation("unknown_action", f"unknown action {kind!r}; in a window: challenge, block or pass")


def _settle_challenge(state: State, challenger: Seat, rng: random.Random) -> GameEvent:
    """Look at the claimant's hidden cards: the one fact the rules let a challenge reveal."""
    about = state["window"]["kind"]
    if about == BLOCK_WINDOW:
        claimant, card = state["block"]["seat"], state["block"]["card"]
    else:
        claimant, card = state["action"]["seat"], state["action"]["claim"]
    proven = card in state["seats"][claimant]["hidden"]
    data: dict[str, Any] = {"challenger": challenger, "claimant": claimant, "card": card, "about": about,
                            "proven": proven}
    if proven:
        deck = [*state["deck"], card]
        if not state["scenario"]:
            rng.shuffle(deck)
        data["drawn"] = deck.pop(0)
        data["deck"] = deck
    elif about == ACTION_WINDOW:
        data["refund"] = state["action"]["paid"]
    return GameEvent("ChallengeSettled", data, actor=challenger)


def _reveal(state: State, seat: Seat, action: Action, rng: random.Random) -> list[GameEvent]:
    if action["type"] != "reveal":
        raise RuleViolation("must_reveal" if action["type"] in (*ACTIONS, "pass", "challenge", "block")
                            else "unknown_action", "you are losing an influence: reveal one of your cards")
    require_fields(action, ["card"])
    card = action["card"]
    if card not in state["seats"][seat]["hidden"]:
        raise RuleViolation("card_not_in_hand", f"you hold no hidden {card!r}")
    return [_influence_lost(state, seat, card, forced=False)]


def _keep(state: State, seat: Seat, action: Action, rng: random.Random) -> list[GameEvent]:
    if action["type"] != "keep":
        raise RuleViolation("must_keep" if action["type"] in (*ACTIONS, "pass", "challenge", "block", "reveal")
                            else "unknown_action", "you are exchanging: choose the cards to keep")
    require_fields(action, ["cards"])
    exchange = state["exchange"]
    pool = Counter(exchange["hand"] + exchange["drawn"])
    cards = action.get("cards")
    size = len(exchange["hand"])
    if not isinstance(cards, list) or len(cards) != size or not all(isinstance(c, str) for c in cards):
        raise RuleViolation("bad_keep", f"keep exactly {size} card(s), as a list of card names")
    if Counter(cards) - pool:
        raise RuleViolation("card_not_in_hand", "you can only keep cards from your hand and the two you drew")
    returned = list((pool - Counter(cards)).elements())
    # Return the unkept cards in the order they were offered, so the choice shows nothing.
    offered = exchange["hand"] + exchange["drawn"]
    left = Counter(returned)
    ordered = []
    for card in offered:
        if left[card]:
            ordered.append(card)
            left[card] -= 1
    deck = [*state["deck"], *ordered]
    if not state["scenario"]:
        rng.shuffle(deck)
    return [GameEvent("ExchangeCompleted", {"seat": seat, "kept": list(cards), "returned": ordered, "deck": deck},
                      actor=seat)]


_HANDLERS = {"turn": _turn, "react": _react, "reveal": _reveal, "keep": _keep}


# --- Choices offered to clients and bots ----------------------------------------------------

def legal_actions(state: State, seat: Seat) -> list[Action]:
    """Every action ``seat`` may post now, complete, in a stable order."""
    kind = awaiting(state).get(seat)
    if kind is None:
        return []
    if kind == "turn":
        return _turn_actions(state, seat)
    if kind == "react":
        actions: list[Action] = [{"type": "pass"}]
        if _may_challenge(state):
            actions.append({"type": "challenge"})
        actions += [{"type": "block", "card": card} for card in _may_block(state, seat)]
        return actions
    if kind == "reveal":
        return [{"type": "reveal", "card": card} for card in sorted(set(state["seats"][seat]["hidden"]))]
    exchange = state["exchange"]
    pool = sorted(exchange["hand"] + exchange["drawn"])
    combos = sorted(set(itertools.combinations(pool, len(exchange["hand"]))))
    return [{"type": "keep", "cards": list(combo)} for combo in combos]


def _turn_actions(state: State, seat: Seat) -> list[Action]:
    coins = state["seats"][seat]["coins"]
    targets = [other for other in _clockwise_from(state, seat) if alive(state, other)]
    if coins >= FORCED_COUP_AT:
        return [{"type": "coup", "target": target} for target in targets]
    actions: list[Action] = [{"type": "income"}, {"type": "foreign_aid"}, {"type": "tax"}, {"type": "exchange"}]
    actions += [{"type": "steal", "target": target} for target in targets]
    if coins >= COST["assassinate"]:
        actions += [{"type": "assassinate", "target": target} for target in targets]
    if coins >= COST["coup"]:
        actions += [{"type": "coup", "target": target} for target in targets]
    return actions


def on_timeout(state: State, seat: Seat) -> Action:
    """The cautious default: pass, take income, reveal the first card, keep the old hand.

    A forced coup targets the next seat clockwise. With the treasury empty, income gains
    nothing, so a seat that can afford a coup launches one instead: that keeps a game
    played only by timeouts moving to its end.
    """
    kind = awaiting(state)[seat]
    if kind == "react":
        return {"type": "pass"}
    if kind == "reveal":
        return {"type": "reveal", "card": state["seats"][seat]["hidden"][0]}
    if kind == "keep":
        return {"type": "keep", "cards": list(state["exchange"]["hand"])}
    coins = state["seats"][seat]["coins"]
    if coins >= FORCED_COUP_AT or (state["treasury"] == 0 and coins >= COST["coup"]):
        return {"type": "coup", "target": next_alive(state, seat)}
    return {"type": "income"}
