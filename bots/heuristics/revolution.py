"""A greedy Revolution! bidder: one token per character, richest characters first."""

from __future__ import annotations

import random

from bots.base import Observation
from games.base import Action
from games.revolution.rules import ALLOWED_KINDS, KINDS, MAX_CHARACTERS, check_bid

#: Characters in the order this bot wants them (support, tokens and a cube together).
WANTED = ("priest", "printer", "aristocrat", "innkeeper", "merchant", "general", "captain", "magistrate",
          "mercenary", "rogue", "spy", "apothecary")


def greedy_bid(hand: dict[str, int]) -> dict[str, dict[str, int]]:
    """The strongest tokens on the most wanted characters, one token each while they last."""
    bids: dict[str, dict[str, int]] = {}
    tokens = [kind for kind in KINDS for _ in range(hand.get(kind, 0))]
    for kind in tokens:
        homes = [cid for cid in WANTED if kind in ALLOWED_KINDS[cid]]
        fresh = [cid for cid in homes if cid not in bids]
        if fresh and len(bids) < MAX_CHARACTERS:
            home = fresh[0]
        else:
            home = next((cid for cid in homes if cid in bids), homes[0])
        bids.setdefault(home, {})
        bids[home][kind] = bids[home].get(kind, 0) + 1
    return check_bid(bids, hand)


class RevolutionHeuristic:
    name = "heuristic"

    def choose(self, observation: Observation, rng: random.Random) -> Action:
        legal = list(observation.legal_actions)
        view = observation.view
        if legal and legal[0]["type"] == "bid":
            return {"type": "bid", "bids": greedy_bid(view["hands"][observation.seat])}
        spies = [a for a in legal if a["type"] == "spy"]
        if spies:  # take a cube from the richest area where a rival stands
            support = {area["id"]: area["support"] for area in view["areas"]}
            return dict(max(spies, key=lambda a: support[a["area"]]))
        return dict(legal[-1]) if legal[-1]["type"] == "skip" and len(legal) == 1 else dict(rng.choice(legal))
