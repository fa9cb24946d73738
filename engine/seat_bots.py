"""The bots that sit at a table: which strategies a game may seat, and what each one is shown.

A bot is given exactly what a client of that seat could read over HTTP: the seat's view,
its legal actions and its own feed (every game event as the game's ``redact`` shows it to
that seat). It never reads the record's state beyond that, so a bot at the table cannot
play on a card it was not shown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bots import IsmctsBot, Observation, RandomBot, observe
from bots.ismcts import Budget
from engine.errors import Invalid
from events.envelope import PLATFORM_EVENTS, Envelope
from projections.record import Record, rules_of

#: The strategies a game's creator may seat (``"bots": {"<seat>": "<strategy>"}``), by name.
STRATEGIES = ("ismcts", "random")


def make_bot(strategy: str, budget: Budget) -> IsmctsBot | RandomBot:
    """The bot that plays ``strategy``; ``budget`` bounds an ISMCTS decision."""
    if strategy == "ismcts":
        return IsmctsBot(budget=budget)
    if strategy == "random":
        return RandomBot()
    raise ValueError(f"unknown bot strategy {strategy!r}")


def bot_seats(record: Record) -> dict[int, str]:
    """The game's bot seats and their strategies (none for games created before bots sat)."""
    return {int(seat): strategy for seat, strategy in (record.get("bots") or {}).items()}


def observation_for(record: Record, events: Sequence[Envelope], seat: int) -> Observation:
    """What ``seat`` knows at ``record``: its view, legal actions and its own redacted history.

    ``events`` are the game's stored events up to the record's version; platform events
    (joins, missed deadlines) say nothing of the game and are left out, as a bot's history
    holds only the game's own events.
    """
    rules = rules_of(record)
    state = record["state"]
    game_events = [event for event in events if event.type not in PLATFORM_EVENTS and event.seq <= record["version"]]
    return Observation(game=record["game"], seat=seat, view=rules.view(state, seat),
                       legal_actions=rules.legal_actions(state, seat),
                       history=tuple(observe(rules, game_events, seat)))


def check_bots(requested: Mapping[str, Any], seats: int) -> dict[str, str]:
    """The creator's bot seats, checked; refused with :class:`Invalid` otherwise."""
    chosen: dict[str, str] = {}
    for key, strategy in requested.items():
        if not (isinstance(key, str) and key.isascii() and key.isdigit() and int(key) < seats):
            raise Invalid("bad_bot_seat", f"bot seat {str(key)[:20]!r} is not a seat of this game "
                                             f"(seats are numbered 0 to {seats - 1})")
        if strategy not in STRATEGIES:
            raise Invalid("unknown_bot_strategy", f"unknown bot strategy {str(strategy)[:40]!r}; "
                                                     f"choose from {', '.join(STRATEGIES)}")
        chosen[str(int(key))] = strategy
    if len(chosen) >= seats:
        raise Invalid("bad_bot_seat", "leave at least one seat for a person: a game starts when they fill")
    return dict(sorted(chosen.items(), key=lambda item: int(item[0])))
