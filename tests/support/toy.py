"""Sealed Numbers: a tiny game for platform tests, with one secret and one simultaneous step.

Each seat secretly picks 1, 2 or 3; when all have picked, a system step reveals the
picks; the highest unique pick scores a point; first to 2 points wins. The deal gives
every seat a secret "mark" drawn with the rng, to prove chance is recorded.
"""

from __future__ import annotations

import random
from typing import Any

from games.base import GameEvent, InvalidOptions, Outcome, RuleViolation, require_fields

NAME = "toy"
MIN_SEATS = 2
MAX_SEATS = 4
RULE_CODES = {"unknown_option": "toy takes no options", "unknown_action": "an action other than pick",
              "bad_number": "a pick of another number than 1, 2 or 3", "unknown_field": "a key pick does not take"}


def validate_options(options: dict[str, Any], seats: int) -> dict[str, Any]:
    if options:
        raise InvalidOptions("unknown_option", "toy takes no options")
    return {}


def setup(options: dict[str, Any], seats: int, rng: random.Random) -> list[GameEvent]:
    return [GameEvent("Dealt", {"seats": seats, "marks": [rng.randrange(1000) for _ in range(seats)]})]


def evolve(state, event):
    if event.type == "Dealt":
        n = event.data["seats"]
        return {"seats": n, "marks": list(event.data["marks"]), "picks": [None] * n, "score": [0] * n, "round": 1}
    new = {**state, "picks": list(state["picks"]), "score": list(state["score"])}
    if event.type == "Picked":
        new["picks"][event.actor] = event.data["number"]
    elif event.type == "Revealed":
        if event.data["winner"] is not None:
            new["score"][event.data["winner"]] += 1
        new["picks"] = [None] * state["seats"]
        new["round"] += 1
    return new


def awaiting(state):
    if outcome(state) is not None:
        return {}
    return {seat: "pick" for seat, pick in enumerate(state["picks"]) if pick is None}


def may_act(state, seat):
    return outcome(state) is None and any(p is None for p in state["picks"])


def legal_actions(state, seat):
    return [{"type": "pick", "number": n} for n in (1, 2, 3)] if may_act(state, seat) else []


def decide(state, seat, action, rng):
    if action.get("type") != "pick":
        raise RuleViolation("unknown_action", "the only action is pick")
    require_fields(action, ["number"])
    if action.get("number") not in (1, 2, 3):
        raise RuleViolation("bad_number", "pick 1, 2 or 3")
    return [GameEvent("Picked", {"number": action["number"]}, actor=seat)]


def resolve(state, rng):
    picks = state["picks"]
    counts = {p: picks.count(p) for p in picks}
    unique = [p for p in picks if counts[p] == 1]
    winner = picks.index(max(unique)) if unique else None
    return [GameEvent("Revealed", {"picks": picks, "winner": winner})]


def on_timeout(state, seat):
    return {"type": "pick", "number": 1}


def outcome(state):
    for seat, score in enumerate(state["score"]):
        if score >= 2:
            return Outcome((seat,), "two_points")
    return None


def view(state, seat):
    body = {"score": state["score"], "round": state["round"],
            "picked": [p is not None for p in state["picks"]]}
    if seat is not None:
        body["my_pick"] = state["picks"][seat]
        body["my_mark"] = state["marks"][seat]
    return body


def redact(event, seat):
    if event.type == "Picked":
        return {"number": event.data["number"]} if seat == event.actor else {}
    if event.type == "Dealt":
        return {"seats": event.data["seats"], "my_mark": None if seat is None else event.data["marks"][seat]}
    return dict(event.data)
