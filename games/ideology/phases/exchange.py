"""Exchange: each seat in turn order may trade cards of its hand for new draws."""

from __future__ import annotations

import random

from games.base import Action, GameEvent, RuleViolation, Seat, State, require_fields
from games.ideology.board import EXCHANGE, trade_power
from games.ideology.phases.checks import check_in_hand, counts_field, pick_cards, require_phase
from games.ideology.phases.resources import draw_cards


def decide_exchange(state: State, seat: Seat, action: Action, rng: random.Random) -> list[GameEvent]:
    require_phase(state, EXCHANGE, "exchange")
    require_fields(action, ("discard",))
    counts = counts_field(action, "discard")
    total = sum(counts.values())
    power = trade_power(state, seat)
    if total > power:
        raise RuleViolation("over_trade_power",
                            f"your Trade Power is {power}: you may exchange at most {power} card(s)")
    check_in_hand(state, seat, counts)
    discarded = pick_cards(state["hands"][seat], counts)
    draw = draw_cards(state, seat, total, rng, discarded)
    return [GameEvent("CardsExchanged", {"seat": seat, "discarded": discarded, "draw": draw}, actor=seat)]
