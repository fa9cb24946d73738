"""Pax Porfiriana (Phil Eklund, Matt Eklund, Jim Gutt; Sierra Madre Games 2012, living
rules of 3 July 2016) as pure rules, for 2 to 6 seats.

A turn is up to three actions (two in jail), then the headline discard, the market
restoration and the active seat's income. Cards come from a data file (:mod:`.cards`);
the package ships an original starter set, not the publisher's cards.

Decisions that interrupt a turn (a conflict's discard, the topple showdown, the order of
two headline discards, a depression's upkeep, a retreating troop's manifesto) and the
system steps between them (a card's effects in printed order, the topple's count) wait in
a *queue* in the state;
``decide`` runs the queue's system steps and the end of a turn until some seat owes a
decision again. ``evolve`` (in :mod:`.fold`) folds events and never checks a rule.
The rules summary and every decision taken where the rules are silent: README.md.
"""

from __future__ import annotations

import random
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
    require_fields,
)

from . import board as b
from . import cards as c
from . import effects as fx
from .actions import TURN_ACTIONS, Plan
from .effects import Draft
from .fold import evolve  # noqa: F401  (re-exported: the protocol's fold)
from .legal import turn_actions
from .schema import CHECK, OPTIONS_CHECK

NAME = "pax"
MIN_SEATS = 2
MAX_SEATS = 6
#: A scenario's draw pile shows every card to come: only the operator may see it.
SECRET_OPTIONS = ("deck",)
OPTION_DEFAULTS: dict[str, Any] = {"card_set": "starter", "cards": None, "deck": None, "first_seat": None,
                                   "hacendados": None, "max_turns": 300, "battle_retreat": False,
                                   "quick_setup": False}
#: Yes/no options: the optional rule of retreat from battle (G1) and the quick set-up variant (C).
FLAG_OPTIONS = ("battle_retreat", "quick_setup")
MIN_TURN_CAP, MAX_TURN_CAP = 10, 3000
#: ``max_turns`` 0: no turn cap, as in the printed rules (the default keeps a cap of 300).
NO_TURN_CAP = 0
#: What keeps the conformance suite's random playouts short: full games are this package's
#: own property tests (tests/games/pax/test_properties.py).
PLAYOUT_OPTIONS: dict[str, Any] = {"max_turns": 40}
STACKS = 6
TOPPLE_FREE_STACKS = 2
GOLD_FIRST = 4
END_REASONS = {"pax": "succession", "us_intervention": "annexation", "martial_law": "coup", "anarchy": "revolt"}


# --- Options and setup ------------------------------------------------------------------------

def _card_set(options: Mapping[str, Any]) -> dict[str, Any]:
    if options.get("cards") is not None:
        return c.validate_set(options["cards"])
    return c.load_named_set(options.get("card_set") or "starter")


def validate_options(options: Mapping[str, Any], seats: int) -> dict[str, Any]:
    """Complete ``options``; a bad card set is refused here, naming the card and field."""
    if not isinstance(seats, int) or isinstance(seats, bool) or not MIN_SEATS <= seats <= MAX_SEATS:
        raise InvalidOptions("bad_seats", f"Pax Porfiriana is played by {MIN_SEATS} to {MAX_SEATS} seats")
    unknown = sorted(str(key) for key in options if key not in OPTION_DEFAULTS)
    if unknown:
        raise InvalidOptions("unknown_option",
                             f"unknown option(s): {', '.join(unknown)}; known: {', '.join(OPTION_DEFAULTS)}")
    OPTIONS_CHECK(options)
    result = {**OPTION_DEFAULTS, **{key: value for key, value in options.items() if value is not None}}
    if options.get("cards") is not None and "card_set" in options and options["card_set"] is not None:
        raise InvalidOptions("bad_option", "give either card_set or cards, not both")
    if result["cards"] is not None:
        result["card_set"] = None
    try:
        card_set = _card_set(result)
        c.check_set_fits(card_set, seats)
    except c.CardSetError as err:
        raise InvalidOptions("bad_card_set", str(err)) from None
    by_id = {card["id"]: card for card in card_set["cards"]}
    deck = result["deck"]
    if deck is not None:
        if not isinstance(deck, list) or not all(isinstance(x, str) for x in deck):
            raise InvalidOptions("bad_deck", "deck is a list of card ids, top first")
        if len(set(deck)) != len(deck):
            raise InvalidOptions("bad_deck", "deck names a card twice")
        for card_id in deck:
            if card_id not in by_id or by_id[card_id]["category"] not in c.DECK_CATEGORIES:
                raise InvalidOptions("bad_deck", f"deck: {card_id!r} is not a deck card of this set")
        if len(deck) < b.ROWS * b.COLUMNS:
            raise InvalidOptions("bad_deck", "deck needs at least 12 cards to fill the market")
    first = result["first_seat"]
    if first is not None and (not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < seats):
        raise InvalidOptions("bad_option", f"first_seat is a seat number from 0 to {seats - 1}")
    hacendados = result["hacendados"]
    if hacendados is not None:
        if not isinstance(hacendados, list) or len(hacendados) != seats or len(set(map(str, hacendados))) != seats \
                or any(by_id.get(h, {}).get("category") != "hacendado" for h in hacendados):
            raise InvalidOptions("bad_option", f"hacendados is a list of {seats} different hacendado ids of the set")
    for flag in FLAG_OPTIONS:
        if not isinstance(result[flag], bool):
            raise InvalidOptions("bad_option", f"{flag} is true or false")
    if result["quick_setup"] and deck is not None:
        raise InvalidOptions("bad_option", "give either quick_setup or deck, not both")
    turns = result["max_turns"]
    if not isinstance(turns, int) or isinstance(turns, bool) \
            or not (turns == NO_TURN_CAP or MIN_TURN_CAP <= turns <= MAX_TURN_CAP):
        raise InvalidOptions("bad_option", f"max_turns is a whole number from {MIN_TURN_CAP} to {MAX_TURN_CAP}, "
                                           f"or {NO_TURN_CAP} for no cap (the printed rules alone)")
    return result


def _stack_deck(cards: list[str], topples: list[str], rng: random.Random) -> list[str]:
    """Six stacks of about equal size, a topple shuffled into each of the lower four, the
    two stacks without topples on top."""
    size, extra = divmod(len(cards), STACKS)
    stacks, start = [], 0
    for index in range(STACKS):
        end = start + size + (1 if index < extra else 0)
        stacks.append(cards[start:end])
        start = end
    for index, topple in enumerate(topples):
        stack = stacks[TOPPLE_FREE_STACKS + index]
        stack.insert(rng.randint(0, len(stack)), topple)
    return [card for stack in stacks for card in stack]


def _quick_deck(deckable: list[str], topples: list[str], rng: random.Random) -> tuple[list[str], list[str]]:
    """The quick set-up variant (C): 12 random cards make the market, half of the rest (the
    smaller half when odd) stays in the box, and the four topples are shuffled into the
    other half, anywhere, whatever the number of seats."""
    cards = list(deckable)
    rng.shuffle(cards)
    market, rest = cards[:12], cards[12:]
    pile = rest[: len(rest) - len(rest) // 2] + list(topples)
    rng.shuffle(pile)
    return market, pile


def _market_layout(cards: list[str]) -> list[list[str | None]]:
    """Fill the market cheapest column first, top row before bottom."""
    market: list[list[str | None]] = [[None] * b.COLUMNS for _ in range(b.ROWS)]
    for index, card in enumerate(cards):
        market[index % b.ROWS][index // b.ROWS] = card
    return market


def setup(options: Mapping[str, Any], seats: int, rng: random.Random) -> list[GameEvent]:
    opts = validate_options(options, seats)
    card_set = _card_set(opts)
    cards = card_set["cards"]
    deckable = [x["id"] for x in cards if x["category"] in c.DECK_CATEGORIES and x["category"] != "topple"]
    topples = [x["id"] for x in cards if x["category"] == "topple"]
    if opts["deck"] is not None:
        pile = list(opts["deck"])
        market, pile = pile[:12], pile[12:]
    elif opts["quick_setup"]:
        market, pile = _quick_deck(deckable, topples, rng)
    else:
        rng.shuffle(deckable)
        rng.shuffle(topples)
        count = 50 + 10 * seats
        main, rest = deckable[:count], deckable[count:]
        if seats >= 5:
            market, rest = rest[:12], rest[12:]
            pile = _stack_deck(main, topples, rng)
        else:
            pile = _stack_deck(main, topples, rng)
            market, pile = pile[:12], pile[12:]
    used = set(pile) | set(market)
    box = [x["id"] for x in cards if x["category"] in c.DECK_CATEGORIES and x["id"] not in used]
    hacendados = opts["hacendados"]
    if hacendados is None:
        hacendados = rng.sample([x["id"] for x in cards if x["category"] == "hacendado"], seats)
    first = opts["first_seat"] if opts["first_seat"] is not None else rng.randrange(seats)
    gold = [GOLD_FIRST + (seat - first) % seats for seat in range(seats)]
    by_id = {x["id"]: x for x in cards}
    set_up = {
        "seats": seats, "set": card_set["name"], "cards": cards,
        "options": {"max_turns": opts["max_turns"], "battle_retreat": opts["battle_retreat"],
                    "quick_setup": opts["quick_setup"]},
        "scenario": opts["deck"] is not None,
        "first": first, "gold": gold, "hacendados": list(hacendados),
        "hacendado_income": [by_id[h]["loyalist"]["income"] for h in hacendados],
        "deck": pile, "market": _market_layout(market), "box": box,
        "public": [x["id"] for x in cards if x["category"] == "public"],
    }
    return [GameEvent("GameSetUp", set_up), GameEvent("TurnStarted", {"turn": 1, "seat": first, "actions": 3})]


# --- Decisions owed (the queue) -----------------------------------------------------------------

def _check_conflict(state: State, seat: Seat, action: Action, item: dict[str, Any]) -> Plan:
    require_fields(action, ("faction",))
    if action.get("faction") not in item["factions"]:
        raise RuleViolation("bad_faction", f"discard one of the factions {' or '.join(item['factions'])}")
    return {}


def _do_conflict(d: Draft, seat: Seat, action: Action, item: dict[str, Any], plan: Plan) -> None:
    d.emit("DecisionDone", {"seat": seat, "kind": "conflict", "choice": action["faction"]}, seat)
    fx.discard_faction(d, seat, action["faction"])


def _turn_hacendado(d: Draft, seat: Seat, side: int) -> None:
    """A manifesto: the hacendado turns to one orientation for good and loses its cubes."""
    player = d.state["players"][seat]
    if player["hac_cubes"]:
        d.emit("HacendadoCubesChanged", {"seat": seat, "delta": -player["hac_cubes"]})
    d.emit("HacendadoTurned", {"seat": seat, "side": side}, seat)


def _check_manifesto(state: State, seat: Seat, action: Action) -> None:
    require_fields(action, ("side",))
    if not b.can_turn(state, seat):
        raise RuleViolation("already_turned", "your hacendado cannot publish a manifesto now")
    if action.get("side") not in (0, 1) or isinstance(action.get("side"), bool):
        raise RuleViolation("bad_side", "side is 0 or 1 (the orientation on the partner face)")


def _check_retreat(state: State, seat: Seat, action: Action, item: dict[str, Any]) -> Plan:
    if action["type"] == "done":
        require_fields(action, ())
    else:
        _check_manifesto(state, seat, action)
    return {}


def _do_retreat(d: Draft, seat: Seat, action: Action, item: dict[str, Any], plan: Plan) -> None:
    """A retreating troop's owner may publish a manifesto first; then the troop goes home."""
    side = action.get("side") if action["type"] == "manifesto" else None
    if side is not None:
        _turn_hacendado(d, seat, side)
    d.emit("DecisionDone", {"seat": seat, "kind": "retreat", "card": item["card"], "choice": side}, seat)
    fx.retreat_home(d, seat, item["card"], fx.zone("limbo"))


def fraud_cards(state: State, seat: Seat) -> list[dict[str, Any]]:
    """Cards in play with a 'during toppling' ability: (card, ability)."""
    out = []
    for record in state["players"][seat]["partners"]:
        definition = b.card(state, record["card"])
        abilities = definition["faces"][record["face"]]["abilities"] if definition["category"] == "public" \
            else definition["abilities"]
        for ability in abilities:
            if ability["kind"] == "topple_fraud":
                out.append({"card": record["card"], "ability": ability})
                break
    return out


def assassination_cost(state: State, victim: Seat) -> int:
    return b.ASSASSINATION_COST * (1 + len(state["players"][victim]["army"]))


def _check_topple(state: State, seat: Seat, action: Action, item: dict[str, Any]) -> Plan:
    kind = action["type"]
    if kind == "done":
        require_fields(action, ())
        return {}
    if kind == "manifesto":
        _check_manifesto(state, seat, action)
        return {}
    if kind == "fraud":
        require_fields(action, ("card", "prestige"))
        found = next((f for f in fraud_cards(state, seat) if f["card"] == action.get("card")), None)
        if found is None:
            raise RuleViolation("no_fraud_card", "name one of your cards in play that acts during toppling")
        kinds = c.PRESTIGE if found["ability"]["prestige"] == "any" else (found["ability"]["prestige"],)
        chosen = action.get("prestige", kinds[0] if len(kinds) == 1 else None)
        if chosen not in kinds:
            raise RuleViolation("bad_prestige", f"prestige is one of {', '.join(kinds)}")
        gain = found["ability"]["amount"] if chosen == state["topple"]["prestige"] else 0
        return {"prestige": chosen, "gain": gain}
    if kind == "assassinate":
        require_fields(action, ("card", "target"))
        definition = b.card(state, action["card"]) if action.get("card") in state["players"][seat]["hand"] else None
        if definition is None or not definition.get("assassination"):
            raise RuleViolation("no_assassination", "name an Assassination card in your hand")
        target = action.get("target")
        if not isinstance(target, int) or isinstance(target, bool) or not 0 <= target < state["seats"] \
                or state["players"][target]["side"] is None:
            raise RuleViolation("bad_target", "target is a seat whose hacendado is turned")
        cost = assassination_cost(state, target)
        if state["players"][seat]["gold"] < cost:
            raise RuleViolation("not_enough_gold", f"that assassination costs {cost} gold")
        return {"cost": cost}
    raise RuleViolation("wrong_decision", "during the topple: manifesto, fraud, assassinate or done")


def _do_topple(d: Draft, seat: Seat, action: Action, item: dict[str, Any], plan: Plan) -> None:
    kind = action["type"]
    if kind == "done":
        d.emit("DecisionDone", {"seat": seat, "kind": "topple"}, seat)
        return
    if kind == "manifesto":
        _turn_hacendado(d, seat, action["side"])
    elif kind == "fraud":
        fx.discard_partner(d, seat, action["card"])
        d.emit("DiazDefenceChanged", {"seat": seat, "card": action["card"], "prestige": plan["prestige"],
                                      "amount": plan["gain"]}, seat)
    elif kind == "assassinate":
        target = action["target"]
        fx.pay(d, seat, None, plan["cost"], "assassination")
        for troop in list(d.state["players"][target]["army"]):
            fx.clear_bribes(d, target, troop)
            fx.move(d, troop, {"zone": "army", "seat": target}, fx.hand(target))
        d.emit("HacendadoTurned", {"seat": target, "side": None, "loyal_forever": True, "by": seat}, seat)
        income = b.card(d.state, d.state["players"][target]["hacendado"])["loyalist"]["income"]
        count = min(income, d.state["players"][target]["supply"])
        if count:
            d.emit("HacendadoCubesChanged", {"seat": target, "delta": count})
        fx.move(d, action["card"], fx.hand(seat), {"zone": "grievances", "seat": target}, seat)


def _check_discard_order(state: State, seat: Seat, action: Action, item: dict[str, Any]) -> Plan:
    require_fields(action, ("first",))
    if action.get("first") not in item["cards"]:
        raise RuleViolation("bad_card", "first is one of the two headlines in the free column")
    return {}


def _do_discard_order(d: Draft, seat: Seat, action: Action, item: dict[str, Any], plan: Plan) -> None:
    d.emit("DecisionDone", {"seat": seat, "kind": "discard_order", "choice": action["first"]}, seat)
    first = action["first"]
    order = [first, *(x for x in item["cards"] if x != first)]
    _discard_headlines(d, order)


def default_upkeep(state: State, seat: Seat) -> list[str]:
    """Keep cards in tableau order while gold lasts; discard the rest."""
    in_play = b.cards_in_play(state, seat)
    gold = state["players"][seat]["gold"]
    return in_play[gold:] if gold < len(in_play) else []


def _check_upkeep(state: State, seat: Seat, action: Action, item: dict[str, Any]) -> Plan:
    require_fields(action, ("discard",))
    discard = action.get("discard", [])
    in_play = b.cards_in_play(state, seat)
    if not isinstance(discard, list) or len(set(map(str, discard))) != len(discard) \
            or any(x not in in_play for x in discard):
        raise RuleViolation("bad_discard", "discard is a list of your cards in play")
    keep = len(in_play) - len(discard)
    if keep > state["players"][seat]["gold"]:
        raise RuleViolation("not_enough_gold", f"keeping {keep} cards costs {keep} gold; discard more")
    return {"keep": keep}


def _do_upkeep(d: Draft, seat: Seat, action: Action, item: dict[str, Any], plan: Plan) -> None:
    d.emit("DecisionDone", {"seat": seat, "kind": "upkeep", "discard": list(action.get("discard", []))}, seat)
    fx.pay(d, seat, None, plan["keep"], "depression")
    # troops first: one standing on a discarded enterprise would otherwise retreat instead
    discards = sorted(action.get("discard", []), key=lambda x: b.card(d.state, x)["category"] != "troop")
    for card in discards:
        definition = b.card(d.state, card)
        if definition["category"] == "enterprise":
            if b.enterprise(d.state, card) is not None:
                fx.clear_enterprise(d, card, fx.zone("discard"))
        elif definition["category"] == "troop":
            fx.discard_troop(d, card)
        elif any(r["card"] == card for r in d.state["players"][seat]["partners"]):
            fx.discard_partner(d, seat, card)


def _check_battle_retreat(state: State, seat: Seat, action: Action, item: dict[str, Any]) -> Plan:
    require_fields(action, ("to",))
    if action.get("to") not in ("army", "discard"):
        raise RuleViolation("bad_retreat", "to is 'army' (retreat into your private army) or 'discard'")
    return {}


def _do_battle_retreat(d: Draft, seat: Seat, action: Action, item: dict[str, Any], plan: Plan) -> None:
    d.emit("DecisionDone", {"seat": seat, "kind": "battle_retreat", "card": item["card"], "choice": action["to"]},
           seat)
    if action["to"] == "army":
        fx.retreat_home(d, seat, item["card"], fx.zone("limbo"))
    else:
        fx.move(d, item["card"], fx.zone("limbo"), fx.zone("discard"))


DecisionCheck = Callable[[State, Seat, Action, dict[str, Any]], Plan]
DecisionDo = Callable[[Draft, Seat, Action, dict[str, Any], Plan], None]
DECISIONS: dict[str, tuple[tuple[str, ...], DecisionCheck, DecisionDo]] = {
    "conflict": (("conflict",), _check_conflict, _do_conflict),
    "topple": (("manifesto", "fraud", "assassinate", "done"), _check_topple, _do_topple),
    "discard_order": (("discard_order",), _check_discard_order, _do_discard_order),
    "upkeep": (("upkeep",), _check_upkeep, _do_upkeep),
    "retreat": (("manifesto", "done"), _check_retreat, _do_retreat),
    "battle_retreat": (("retreat",), _check_battle_retreat, _do_battle_retreat),
}


ACTION_TYPES: tuple[str, ...] = tuple(sorted(set(TURN_ACTIONS) | {t for types, _, _ in DECISIONS.values()
                                                                     for t in types}))


# --- System steps: the queue and the end of a turn -------------------------------------------

def _score_topple(d: Draft, item: dict[str, Any]) -> None:
    state = d.state
    topple = state["topple"]
    kind = topple["prestige"]
    seats = state["seats"]
    points = [b.prestige(state, s, kind) for s in range(seats)]
    tripartite = []
    for seat in range(seats):
        others = sorted(points[o] for o in range(seats) if o != seat)
        tripartite.append(topple["diaz"] + sum(others[:2]))
    topplers = [s for s in range(seats) if points[s] > tripartite[s]]
    d.emit("ToppleResolved", {"card": item["card"], "prestige": kind, "diaz": topple["diaz"], "points": points,
                              "tripartite": tripartite, "topplers": topplers})
    if topplers or state["topples_out"] >= 4:
        fx.move(d, item["card"], fx.zone("limbo"), fx.zone("bullbear"))
        fx.end_game(d, END_REASONS[topple["regime"]] if topplers else "diaz_survives", topplers)
        return
    fx.to_bullbear(d, item["card"], fx.zone("limbo"))


def _run_system(d: Draft, item: dict[str, Any]) -> None:
    kind = item["kind"]
    if kind == "effect":
        fx.run_effect(d, item)
    elif kind == "bullbear":
        fx.to_bullbear(d, item["card"], fx.zone("limbo"))
    elif kind == "topple_score":
        _score_topple(d, item)


def _discard_headlines(d: Draft, order: list[str]) -> None:
    for card in order:
        position = b.market_position(d.state, card)
        if position is None:
            continue
        if card in d.state["spec"]:
            d.emit("SpeculationCubeSet", {"card": card, "seat": None})
        frm = {"zone": "market", "row": position[0], "col": position[1]}
        if b.card(d.state, card)["category"] == "topple":
            d.emit("ToppleLeftMarket", {"card": card})
        fx.to_bullbear(d, card, frm)
    d.emit("StepChanged", {"step": "restore"})
    if d.state["topples_out"] >= 4 and d.state["topple"] is None:
        fx.end_game(d, "diaz_survives")


def _restore_market(d: Draft) -> None:
    """Slide every row toward the free end, then deal new cards cheapest slot first."""
    market = [[x for x in row if x is not None] for row in d.state["market"]]
    market = [row + [None] * (b.COLUMNS - len(row)) for row in market]
    deck = list(d.state["deck"])
    drawn = []
    for col in range(b.COLUMNS):
        for row in range(b.ROWS):
            if market[row][col] is None and deck:
                market[row][col] = deck.pop(0)
                drawn.append(market[row][col])
    d.emit("MarketRestored", {"market": market, "drawn": drawn})
    d.emit("StepChanged", {"step": "income"})


def _income(d: Draft) -> None:
    seat = d.state["active"]
    fx.pay(d, None, seat, b.income_of(d.state, seat), "income")
    d.emit("StepChanged", {"step": "end"})
    if d.state["depression"] and b.cards_in_play(d.state, seat):
        fx.queue(d, [{"seat": seat, "kind": "upkeep"}])


def advance(d: Draft) -> None:
    """Run system steps until a seat owes a decision or the game is over."""
    while True:
        state = d.state
        if state["result"] is not None:
            return
        if state["queue"]:
            head = state["queue"][0]
            if head["kind"] == "retreat" and not b.can_turn(state, head["seat"]):
                # the hacendado turned since this troop began to retreat: nothing left to choose
                _do_retreat(d, head["seat"], {"type": "done"}, head, {})
                continue
            if head["seat"] is not None:
                return
            d.emit("DecisionDone", {"seat": None, "kind": head["kind"]})
            _run_system(d, head)
            continue
        step = state["step"]
        if step == "actions":
            if state["actions_left"] > 0 or b.bonus_actions(state, state["active"]):
                return
            d.emit("StepChanged", {"step": "discard"})
        elif step == "discard":
            heads = [row[0] for row in state["market"]
                     if row[0] is not None and b.card(state, row[0])["category"] in ("headline", "topple")]
            if len(heads) == 2 and b.card(state, heads[0])["icon"] != b.card(state, heads[1])["icon"]:
                fx.queue(d, [{"seat": state["active"], "kind": "discard_order", "cards": heads}])
                d.emit("StepChanged", {"step": "discard_order"})
            else:
                _discard_headlines(d, heads)
        elif step == "discard_order":
            return  # only reached with the decision still queued
        elif step == "restore":
            _restore_market(d)
        elif step == "income":
            _income(d)
        elif step == "end":
            cap = state["options"]["max_turns"]
            if cap != NO_TURN_CAP and state["turn"] >= cap:
                fx.end_game(d, "turn_limit")
                return
            seat = (state["active"] + 1) % state["seats"]
            actions = 2 if state["players"][seat]["jail"] else 3
            d.emit("TurnStarted", {"turn": state["turn"] + 1, "seat": seat, "actions": actions})
        else:
            return


# --- The protocol ---------------------------------------------------------------------------------

def awaiting(state: State) -> dict[Seat, str]:
    if state["result"] is not None:
        return {}
    if state["queue"]:
        head = state["queue"][0]
        return {} if head["seat"] is None else {head["seat"]: head["kind"]}
    if state["step"] == "actions":
        return {state["active"]: "turn"}
    return {}


def may_act(state: State, seat: Seat) -> bool:
    return seat in awaiting(state)


def _check(state: State, seat: Seat, action: Any) -> tuple[str, Plan, dict[str, Any] | None]:
    """Validate ``action``: (kind, plan, queued decision or None). Raises RuleViolation."""
    if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
        raise RuleViolation("bad_action", "an action is an object with a 'type'")
    if state["result"] is not None:
        raise RuleViolation("game_over", "the game is over")
    kind = action["type"]
    if kind not in ACTION_TYPES:
        raise RuleViolation("unknown_action", f"unknown action type; the types are {', '.join(ACTION_TYPES)}")
    owed = awaiting(state)
    if seat not in owed:
        raise RuleViolation("not_your_turn", "you have no decision to make now")
    if state["queue"]:
        item = state["queue"][0]
        types, check, _ = DECISIONS[item["kind"]]
        if kind not in types:
            raise RuleViolation("decision_owed", f"you owe a {item['kind']} decision: {', '.join(types)}")
        return kind, check(state, seat, dict(action), item), item
    if kind not in TURN_ACTIONS:
        raise RuleViolation("no_decision_owed", "that answers a decision nobody asked for")
    return kind, TURN_ACTIONS[kind][0](state, seat, dict(action)), None


def decide(state: State, seat: Seat, action: Action, rng: random.Random) -> list[GameEvent]:
    CHECK(action)
    kind, plan, item = _check(state, seat, action)
    d = Draft(state)
    if item is not None:
        DECISIONS[item["kind"]][2](d, seat, dict(action), item, plan)
    else:
        TURN_ACTIONS[kind][1](d, seat, dict(action), plan)
        if kind != "end_turn" and d.state["step"] == "actions" and not d.state["queue"] \
                and d.state["actions_left"] <= 0 and not b.bonus_actions(d.state, seat):
            d.emit("StepChanged", {"step": "discard"})
    advance(d)
    return d.events


def resolve(state: State, rng: random.Random) -> list[GameEvent]:
    d = Draft(state)
    advance(d)
    return d.events


def on_timeout(state: State, seat: Seat) -> Action:
    """End the turn; decline optional steps; the documented default of each decision."""
    if state["queue"] and state["queue"][0]["seat"] == seat:
        item = state["queue"][0]
        if item["kind"] == "conflict":
            held = b.factions_in_tableau(state, seat)
            first, second = item["factions"]
            faction = second if len(held.get(second, [])) < len(held.get(first, [])) else first
            return {"type": "conflict", "faction": faction}
        if item["kind"] in ("topple", "retreat"):
            return {"type": "done"}
        if item["kind"] == "battle_retreat":
            return {"type": "retreat", "to": "army"}
        if item["kind"] == "discard_order":
            return {"type": "discard_order", "first": item["cards"][0]}
        if item["kind"] == "upkeep":
            return {"type": "upkeep", "discard": default_upkeep(state, seat)}
    return {"type": "end_turn"}


def outcome(state: State) -> Outcome | None:
    result = state.get("result")
    if result is None:
        return None
    return Outcome(tuple(result["winners"]), result["reason"])


# --- Legal actions ------------------------------------------------------------------------------

def _decision_candidates(state: State, seat: Seat, item: dict[str, Any]) -> list[Action]:
    kind = item["kind"]
    if kind == "conflict":
        return [{"type": "conflict", "faction": f} for f in item["factions"]]
    if kind == "discard_order":
        return [{"type": "discard_order", "first": card} for card in item["cards"]]
    if kind == "battle_retreat":
        return [{"type": "retreat", "to": to} for to in ("army", "discard")]
    if kind == "upkeep":
        in_play = b.cards_in_play(state, seat)
        options = [default_upkeep(state, seat), list(in_play)]
        options += [[x for x in in_play if x != card] for card in in_play]
        options += [[card] for card in in_play]
        unique = {tuple(o): o for o in options}
        return [{"type": "upkeep", "discard": list(o)} for o in unique.values()]
    out: list[Action] = [{"type": "manifesto", "side": side} for side in (0, 1)]
    if kind == "retreat":
        return [*out, {"type": "done"}]
    for fraud in fraud_cards(state, seat):
        kinds = c.PRESTIGE if fraud["ability"]["prestige"] == "any" else (fraud["ability"]["prestige"],)
        out += [{"type": "fraud", "card": fraud["card"], "prestige": k} for k in kinds]
    for card in state["players"][seat]["hand"]:
        if b.card(state, card).get("assassination"):
            out += [{"type": "assassinate", "card": card, "target": t} for t in range(state["seats"])]
    out.append({"type": "done"})
    return out


def legal_actions(state: State, seat: Seat) -> list[Action]:
    """Every complete action ``seat`` may post now (the whole list: it stays a few hundred).

    A turn's actions are listed directly (:mod:`.legal`); a queued decision's few candidates
    go through the decision's own check."""
    if not may_act(state, seat):
        return []
    if not state["queue"]:
        return turn_actions(state, seat)
    legal = []
    for action in _decision_candidates(state, seat, state["queue"][0]):
        try:
            _check(state, seat, action)
        except RuleViolation:
            continue
        legal.append(action)
    return legal
