"""The start of a game whose players committed to secrets: one spelling for the engine and the audit.

The game starts when every committed seat has revealed its secret (the batch that reveals
the last one) or when the wait for reveals ends (a worker's step): ``GameStarted`` says
where each committed seat's secret stands (``entropy``) and which seats were ``dropped``
from the mix for not revealing in time, then the game's setup draws from the mixed seed
(``events.entropy.mix_seed``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from games.base import GameEvent
from projections.record import Record, rules_of


def dropped_seats(record: Record, secrets: Mapping[str, str]) -> list[int]:
    """The committed seats whose secret is not among ``secrets``, in seat order."""
    return sorted(int(seat) for seat in record.get("commitments") or {} if seat not in secrets)


def start_events(record: Record, secrets: Mapping[str, str], rng: random.Random) -> list[GameEvent]:
    """``GameStarted`` with the fate of each committed seat's secret, then the setup drawn with ``rng``."""
    dropped = dropped_seats(record, secrets)
    entropy = {seat: "dropped" if int(seat) in dropped else "revealed" for seat in record.get("commitments") or {}}
    started = GameEvent("GameStarted", {"entropy": entropy, "dropped": dropped})
    return [started, *rules_of(record).setup(record["options"], record["seats"], rng)]
