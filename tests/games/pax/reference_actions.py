"""A frozen copy of Pax Porfiriana's first move generator, the reference for the fast one.

It lists every candidate action the turn or the queued decision could name and keeps the
ones the rules' own check (``rules._check``) accepts: slow (a few milliseconds a call) but
plainly right, since the checks are what ``decide`` enforces. The property test in
test_legal_actions.py holds ``games.pax.legal_actions`` to exactly this list, in this order;
bench/pax_legal_actions.py times both.
"""

from __future__ import annotations

from typing import Any

from games.base import Action, RuleViolation, Seat, State
from games.pax import board as b
from games.pax import cards as c
from games.pax import rules


def _candidates(state: State, seat: Seat) -> list[Action]:
    player = state["players"][seat]
    ents = [e["card"] for _, e in b.enterprises(state)]
    out: list[Action] = []
    for card in player["hand"]:
        category = b.card(state, card)["category"]
        if category in ("enterprise", "partner"):
            out.append({"type": "play", "card": card})
        elif category == "troop":
            out += [{"type": "play", "card": card, "to": to} for to in [*ents, "hacendado"]]
        elif category == "orange":
            for ent in ents:
                out.append({"type": "play", "card": card, "target": ent})
                if b.card(state, card)["scapegoat"]:
                    out.append({"type": "play", "card": card, "target": ent, "scapegoat": True})
        elif category == "black":
            target = b.card(state, card)["target"]
            if target == "seat":
                out += [{"type": "play", "card": card, "target": s} for s in range(state["seats"])]
            elif target == "partner":
                out += [{"type": "play", "card": card, "target": r["card"]}
                        for p in state["players"] for r in p["partners"]]
            else:
                out += [{"type": "play", "card": card, "target": t}
                        for s in range(state["seats"]) for t in b.troops_of(state, s)]
    for _, _, card in b.market_slots(state):
        if b.card(state, card)["category"] in ("headline", "topple"):
            out += [{"type": "buy", "card": card, "side": side} for side in ("event", "status_quo")]
        else:
            out.append({"type": "buy", "card": card})
    out += [{"type": "buy_public", "card": card, "face": face} for card in state["public"] for face in (0, 1)]
    out += [{"type": "sell", "card": card} for card in [*player["hand"], *b.cards_in_play(state, seat)]]
    for troop in b.troops_of(state, seat):
        out += [{"type": "redeploy", "card": troop, "to": to} for to in [*ents, "hacendado"]]
    for ent in player["enterprises"]:
        out.append({"type": "buy_land", "enterprise": ent["card"]})
        if ent["unrest"]:
            out.append({"type": "police", "enterprise": ent["card"]})
        out.append({"type": "speculate", "to": {"income": ent["card"]}})
    for _, ent in b.enterprises(state):
        out += [{"type": "upgrade", "enterprise": ent["card"], "oval": i} for i in range(len(ent["conn"]))]
    if player["jail"]:
        out.append({"type": "police", "jail": True})
    market = [card for _, _, card in b.market_slots(state)]
    out += [{"type": "speculate", "card": card} for card in market]
    for card in b.loyalty_icons(state, seat):
        out.append({"type": "speculate", "to": {"bribe": card}})
    mine = [card for card, holder in state["spec"].items() if holder == seat]
    out += [{"type": "speculate", "card": card, "from": {"market": old}} for old in mine for card in market]
    if player["supply"] == 0:
        for ent in player["enterprises"]:
            out.append({"type": "speculate", "to": "supply", "from": {"income": ent["card"]}})
        for _, ent in b.enterprises(state):
            out += [{"type": "speculate", "to": "supply", "from": {"connection": ent["card"], "oval": i}}
                    for i, holder in enumerate(ent["conn"]) if holder == seat]
        out += [{"type": "speculate", "to": "supply", "from": {"bribe": card}} for card in player["bribes"]]
        out += [{"type": "speculate", "to": "supply", "from": {"market": old}} for old in mine]
    out.append({"type": "end_turn"})
    return out


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
        options = [rules.default_upkeep(state, seat), list(in_play)]
        options += [[x for x in in_play if x != card] for card in in_play]
        options += [[card] for card in in_play]
        unique = {tuple(o): o for o in options}
        return [{"type": "upkeep", "discard": list(o)} for o in unique.values()]
    out: list[Action] = [{"type": "manifesto", "side": side} for side in (0, 1)]
    if kind == "retreat":
        return [*out, {"type": "done"}]
    for fraud in rules.fraud_cards(state, seat):
        kinds = c.PRESTIGE if fraud["ability"]["prestige"] == "any" else (fraud["ability"]["prestige"],)
        out += [{"type": "fraud", "card": fraud["card"], "prestige": k} for k in kinds]
    for card in state["players"][seat]["hand"]:
        if b.card(state, card).get("assassination"):
            out += [{"type": "assassinate", "card": card, "target": t} for t in range(state["seats"])]
    out.append({"type": "done"})
    return out


def reference_legal_actions(state: State, seat: Seat) -> list[Action]:
    """Every candidate the rules' check accepts, in candidate order (the generator as it was)."""
    if not rules.may_act(state, seat):
        return []
    if state["queue"]:
        candidates = _decision_candidates(state, seat, state["queue"][0])
    else:
        candidates = _candidates(state, seat)
    legal = []
    for action in candidates:
        try:
            rules._check(state, seat, action)
        except RuleViolation:
            continue
        legal.append(action)
    return legal
