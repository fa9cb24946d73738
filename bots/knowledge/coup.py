"""Coup for the search: a belief that claims are mostly true, and a score for a cut rollout.

The sampler deals the unseen cards uniformly: a rival who has blocked with a Captain three
times holds one no more often than anybody else. Play against honest players then
challenges far too often. So before each iteration the sample is reshaped: for each
character a rival has claimed since its hand last changed (an action, a block), that rival
is dealt the card with probability :data:`BELIEVED` (swapped in from the deck or another
rival, never from what the seat can see). The sample stays consistent with the seat's view:
only unseen cards change places.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from bots.base import Observation
from bots.knowledge.base import Knowledge
from games.base import Seat, State

#: How often a sample honours a rival's standing claim.
BELIEVED = 0.95


def standing_claims(observation: Observation) -> dict[Seat, list[str]]:
    """The characters each rival has claimed and not since lost, exchanged or shown, latest last."""
    claims: dict[Seat, list[str]] = {}
    for event in observation.history:
        data = event.data
        if event.type == "ActionDeclared" and data.get("claim"):
            claims.setdefault(data["seat"], []).append(data["claim"])
        elif event.type == "BlockDeclared":
            claims.setdefault(data["seat"], []).append(data["card"])
        elif event.type == "ChallengeSettled":
            # proven: the card went back to the court and another came; not proven: a bluff
            claimant = data["claimant"]
            claims[claimant] = [card for card in claims.get(claimant, []) if card != data["card"]]
        elif event.type == "ExchangeCompleted":
            claims.pop(data["seat"], None)
        elif event.type == "InfluenceLost":
            held = claims.get(data["seat"], [])
            if data["card"] in held:
                held.remove(data["card"])
    claims.pop(observation.seat, None)
    return {seat: cards[-2:] for seat, cards in claims.items() if cards}


class CoupKnowledge(Knowledge):
    rollout_decisions = 120
    score_scale = 4.0

    def shaper(self, observation: Observation) -> Callable[[State, random.Random], State] | None:
        claims = standing_claims(observation)
        if not claims:
            return None
        me = observation.seat

        def shape(state: State, rng: random.Random) -> State:
            seats = [dict(player, hidden=list(player["hidden"])) for player in state["seats"]]
            deck = list(state["deck"])
            exchanging = state["exchange"]["seat"] if state["exchange"] is not None else None
            for rival, cards in claims.items():
                hidden = seats[rival]["hidden"]
                if rival == exchanging or not hidden:
                    continue
                for card in reversed(cards):
                    if card in hidden or rng.random() >= BELIEVED:
                        continue
                    spare = [i for i, held in enumerate(hidden) if held not in cards]
                    if not spare:
                        continue
                    places: list[tuple[str, int | None, int]] = [("deck", None, i) for i, c in enumerate(deck)
                                                                 if c == card]
                    places += [("seat", other, i) for other, player in enumerate(seats)
                               if other not in (me, rival, exchanging) for i, c in enumerate(player["hidden"])
                               if c == card]
                    if not places:
                        continue
                    where, other, index = places[rng.randrange(len(places))]
                    mine = spare[rng.randrange(len(spare))]
                    given = hidden[mine]
                    hidden[mine] = card
                    if other is None:  # the deck's place
                        deck[index] = given
                    else:
                        seats[other]["hidden"][index] = given
            return {**state, "seats": seats, "deck": deck}

        return shape

    def scores(self, state: State, seats: int) -> list[float] | None:
        """An influence is worth about a coup's seven coins."""
        return [7.0 * len(player["hidden"]) + player["coins"] for player in state["seats"]]
