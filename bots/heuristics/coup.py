"""An honest Coup player: claims only what it holds, challenges only what cannot be true."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from bots.base import Observation
from games.base import Action
from games.coup.rules import COPIES

#: Which card to keep first when a hand must shrink (and so reveal the last one first).
KEEP_ORDER = ("duke", "assassin", "captain", "contessa", "ambassador")


def _seen(view: Mapping[str, Any], hand: Sequence[str]) -> Counter[str]:
    """Copies of each character this seat can see: its hand and every revealed card."""
    seen = Counter(hand)
    for entry in view["seats"]:
        seen.update(entry["revealed"])
    return seen


def _strongest_rival(view: Mapping[str, Any], seat: int) -> int:
    rivals = [s for s in view["seats"] if s["seat"] != seat and s["alive"]]
    return max(rivals, key=lambda s: (s["influence"], s["coins"], -s["seat"]))["seat"]


class CoupHeuristic:
    name = "heuristic"

    def choose(self, observation: Observation, rng: random.Random) -> Action:
        view, legal, seat = observation.view, list(observation.legal_actions), observation.seat
        me = view["seats"][seat]
        hand = me.get("hand", [])
        kinds = {a["type"] for a in legal}

        def pick(kind: str, **fields: Any) -> Action | None:
            for action in legal:
                if action["type"] == kind and all(action.get(k) == v for k, v in fields.items()):
                    return dict(action)
            return None

        if "keep" in kinds:
            best = sorted(observation.legal_actions,
                          key=lambda a: sorted(KEEP_ORDER.index(card) for card in a["cards"]))
            return dict(best[0])
        if "reveal" in kinds:
            return dict(max(legal, key=lambda a: KEEP_ORDER.index(a["card"])))
        if "pass" in kinds:
            return self._react(view, legal, seat, hand, pick, rng)
        target = _strongest_rival(view, seat)
        for option in (pick("coup", target=target), pick("assassinate", target=target) if "assassin" in hand else None,
                       pick("tax") if "duke" in hand else None):
            if option is not None:
                return option
        # Steals and foreign aid can be blocked turn after turn: mixing in income keeps the game moving.
        if "captain" in hand and rng.random() < 0.5:
            rich = [s for s in view["seats"] if s["seat"] != seat and s["alive"] and s["coins"] >= 2]
            if rich:
                option = pick("steal", target=max(rich, key=lambda s: s["coins"])["seat"])
                if option is not None:
                    return option
        if "ambassador" in hand and len(set(hand)) < len(hand):
            return pick("exchange") or dict(legal[0])
        if rng.random() < 0.5:
            return pick("foreign_aid") or pick("income") or dict(legal[0])
        return pick("income") or dict(legal[0])

    @staticmethod
    def _react(view: Mapping[str, Any], legal: list[Action], seat: int, hand: Sequence[str], pick: Any,
               rng: random.Random) -> Action:
        seen = _seen(view, hand)
        window = view["window"]
        blocked = bool(window and window["kind"] == "block")
        claim = view["block"]["card"] if blocked else (view["action"] or {}).get("claim")
        challenge = pick("challenge")
        if challenge is not None and claim is not None and seen[claim] >= COPIES:
            return challenge
        if challenge is not None and blocked and (view["action"] or {}).get("seat") == seat and rng.random() < 0.4:
            return challenge  # a block of its own action is sometimes called, or a bluffed block stalls the game
        for action in legal:
            if action["type"] == "block" and action["card"] in hand:
                return dict(action)
        action = view["action"] or {}
        if (action.get("type") == "assassinate" and action.get("target") == seat
                and view["seats"][seat]["influence"] == 1):
            block = pick("block", card="contessa")
            if block is not None:  # losing the last card anyway: the bluff costs nothing more
                return block
        return pick("pass") or dict(legal[0])
