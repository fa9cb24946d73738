"""Revolution! for the search: concrete bids to try, bids for rollouts, and the final scoring
applied early as the evaluation of a cut rollout.

A bid places a whole hand on up to six characters, far too many bids to list, so the search
tries a fixed, deterministic set built from the hand alone (hands are public, so every
sample of one information set offers the same set): the rules' example bids, every way of
sending each token kind to its own character among the most rewarding ones, and splits of
the Gold. Rollouts bid like the random bot (one of the rules' example bids).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from functools import lru_cache

import orjson

from bots.base import Observation
from bots.knowledge.base import Knowledge
from games.base import Action, GameRules, RuleViolation, Seat, State
from games.revolution.rules import (
    ALLOWED_KINDS,
    BIDDING,
    KINDS,
    check_bid,
    example_bids,
    final_scores,
)

#: Characters worth bidding on, richest reward first (support, tokens, a cube).
HOMES = ("printer", "priest", "aristocrat", "merchant", "innkeeper", "general", "mercenary")


def _hand_key(hand: dict[str, int]) -> tuple[int, ...]:
    return tuple(hand.get(kind, 0) for kind in KINDS)


@lru_cache(maxsize=4096)
def bid_candidates(hand: tuple[int, ...]) -> tuple[Action, ...]:
    """The bids the search tries for a hand of (force, blackmail, gold) counts."""
    held = dict(zip(KINDS, hand, strict=True))
    found: dict[bytes, Action] = {}

    def add(bids: dict[str, dict[str, int]]) -> None:
        try:
            canonical = check_bid(bids, held)
        except RuleViolation:
            return
        found.setdefault(orjson.dumps(canonical, option=orjson.OPT_SORT_KEYS), {"type": "bid", "bids": canonical})

    for action in example_bids(held):
        add(action["bids"])
    kinds = [kind for kind in KINDS if held[kind]]
    top = HOMES[:4]
    for homes in itertools.permutations(top, len(kinds)):
        if all(kind in ALLOWED_KINDS[home] for kind, home in zip(kinds, homes, strict=True)):
            bids: dict[str, dict[str, int]] = {}
            for kind, home in zip(kinds, homes, strict=True):
                bids.setdefault(home, {})[kind] = held[kind]
            add(bids)
    gold = held["gold"]
    if gold >= 2:
        strong = {kind: held[kind] for kind in ("force", "blackmail") if held[kind]}
        for first, second in itertools.combinations(HOMES, 2):
            half = gold // 2
            bids = {first: {"gold": gold - half}, second: {"gold": half}}
            if strong:
                bids.setdefault("priest" if "priest" not in bids else "printer", {}).update(strong)
            add(bids)
    return tuple(found[key] for key in sorted(found))


@lru_cache(maxsize=4096)
def _examples(hand: tuple[int, ...]) -> tuple[Action, ...]:
    return tuple(example_bids(dict(zip(KINDS, hand, strict=True))))


class RevolutionKnowledge(Knowledge):
    rollout_decisions = 9
    score_scale = 8.0

    def root_actions(self, observation: Observation, legal: list[Action], sample: State,
                     rules: GameRules) -> list[Action]:
        if sample["phase"] != BIDDING:
            return legal
        extra = bid_candidates(_hand_key(sample["hands"][observation.seat]))
        keys = {orjson.dumps(a, option=orjson.OPT_SORT_KEYS) for a in legal}
        return legal + [dict(a) for a in extra if orjson.dumps(a, option=orjson.OPT_SORT_KEYS) not in keys]

    def candidates(self, state: State, seat: Seat, rules: GameRules) -> list[Action]:
        if state["phase"] == BIDDING:
            return list(bid_candidates(_hand_key(state["hands"][seat])))
        return rules.legal_actions(state, seat)

    def rollout(self, state: State, seat: Seat, actions: Sequence[Action], rng: random.Random) -> Action:
        if state["phase"] == BIDDING:
            examples = _examples(_hand_key(state["hands"][seat]))
            return examples[rng.randrange(len(examples))]
        return actions[rng.randrange(len(actions))]

    def reopen(self, state: State, seat: Seat) -> State:
        if state["phase"] != BIDDING:
            return state
        state = dict(state)
        state["sealed"] = [sealed if index == seat else None for index, sealed in enumerate(state["sealed"])]
        return state

    def scores(self, state: State, seats: int) -> list[float] | None:
        return [float(s) for s in final_scores(state)["support"]]
