"""One line of English per decision of a finished Coup game, for its transcript.

A transcript is read after the end, when every card is public, so lines name the
cards. Every line starts with the turn it belongs to ("Turn 4 - ..."); bookkeeping
events (a window closing, a block offered, the turn passing on) get no line.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.base import EventLike, State
from games.coup.components import CARD_NAMES, CLAIM

#: What a seat does, in words, for each action (the target is added where there is one).
_DECLARED = {
    "income": "takes income",
    "foreign_aid": "declares foreign aid",
    "coup": "launches a coup against seat {target}",
    "tax": "declares tax",
    "assassinate": "declares the assassination of seat {target}",
    "steal": "declares a steal from seat {target}",
    "exchange": "declares an exchange with the court deck",
}


def _card(card: str) -> str:
    return f"the {CARD_NAMES.get(card, card)}"


def _cards(cards: list[str]) -> str:
    names = [CARD_NAMES.get(card, card) for card in cards]
    return ", ".join(names) if names else "nothing"


def _coins(count: int) -> str:
    return f"{count} coin" if count == 1 else f"{count} coins"


def describe(before: State | None, event: EventLike, after: State) -> str | None:
    data, kind = event.data, event.type
    if kind == "CardsDealt":
        hands = "; ".join(f"seat {seat} {_cards(hand)}" for seat, hand in enumerate(data["hands"]))
        return f"Deal - each seat gets {_coins(data['coins'])} and two cards: {hands}"
    if before is None:
        return None
    turn = f"Turn {before['turns']} - "
    if kind == "ActionDeclared":
        seat, action = data["seat"], data["type"]
        if action == "income":
            return None  # nothing can stop it: its ActionSucceeded line says it all
        what = _DECLARED[action].format(target=data.get("target"))
        paid = f", paying {_coins(data['paid'])}" if data["paid"] else ""
        claim = f", claiming {_card(CLAIM[action])}" if action in CLAIM else ""
        return f"{turn}seat {seat} {what}{paid}{claim}"
    if kind == "Passed":
        return f"{turn}seat {data['seat']} lets it pass"
    if kind == "BlockDeclared":
        return f"{turn}seat {data['seat']} claims {_card(data['card'])} and blocks"
    if kind == "ChallengeSettled":
        claimant, card = data["claimant"], _card(data["card"])
        if data["proven"]:
            drawn = CARD_NAMES.get(data["drawn"], data["drawn"])
            return (f"{turn}seat {data['challenger']} challenges seat {claimant}, who shows {card}, "
                    f"returns it to the deck and draws the {drawn}")
        return f"{turn}seat {data['challenger']} challenges seat {claimant}, who does not hold {card}"
    if kind == "InfluenceLost":
        how = "reveals" if data["chosen"] else "loses"
        out = " and is out of the game" if data["exiled"] else ""
        return f"{turn}seat {data['seat']} {how} {_card(data['card'])}{out}"
    if kind == "ActionSucceeded":
        return _success(turn, before, data)
    if kind == "ExchangeCompleted":
        return f"{turn}seat {data['seat']} keeps {_cards(data['kept'])} and returns {_cards(data['returned'])}"
    if kind == "WindowClosed" and data["kind"] == "block":
        return f"{turn}the block stands"
    return None


def _success(turn: str, before: State, data: Mapping[str, Any]) -> str | None:
    seat, action = data["seat"], data["type"]
    coins = before["seats"][seat]["coins"]
    if action in ("income", "foreign_aid", "tax"):
        claim = f"claims {_card(CLAIM[action])} and " if action in CLAIM else ""
        verb = {"income": "takes income", "foreign_aid": "takes foreign aid", "tax": "takes tax"}[action]
        return f"{turn}seat {seat} {claim}{verb}: {coins} -> {coins + data['amount']} coins"
    if action == "steal":
        return (f"{turn}seat {seat} steals {_coins(data['amount'])} from seat {data['target']}: "
                f"{coins} -> {coins + data['amount']} coins")
    if action == "assassinate":
        return f"{turn}the assassination of seat {data['target']} goes ahead"
    if action == "exchange":
        return f"{turn}seat {seat} draws {_cards(data['drawn'])}"
    return None  # a coup's effect is the influence it takes, which has its own line
