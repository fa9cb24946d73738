"""How often a seat may replace a choice it already sealed, and a player leave an open game.

Some titles let a seat replace a sealed choice while the others still decide (a Revolution!
bid, an Ideology offer or its withdrawal): each replacement is appended, yet the game does
not move on. So does leaving an open game and joining it again. Unbounded, a looping client
grows a game's log with its loop instead of the game (the log is kept for ever).

The counts live in the record, folded from the events themselves (``projections.record``:
``revisions`` per seat since it was last awaited, ``departures`` per player): a replay, an
audit and every process's fold agree on them, and a snapshot carries them. The limit is a
setting (``INTRIGUE_REVISIONS_PER_DECISION``) checked here before the commit, so a refusal
appends nothing and an operator's change never alters how a stored log folds.
"""

from __future__ import annotations

from engine.errors import Conflict
from projections.record import Record, departures, revisions


def check_revision(record: Record, seat: int, limit: int) -> None:
    """Refuse with ``409 too_many_revisions`` a seat's post that would revise its sealed
    decision more than ``limit`` times (0: no limit). A post that answers an awaited
    decision is never refused here."""
    if not limit or record["awaiting"][seat] is not None:
        return
    if revisions(record)[seat] >= limit:
        raise Conflict("too_many_revisions",
                       f"you have replaced this sealed decision {limit} times, the most this server allows; "
                       "it stands until the game moves on", version=record["version"])


def check_rejoin(record: Record, player_id: str, limit: int) -> None:
    """Refuse with ``409 too_many_revisions`` a join by a player who already left this open
    game ``limit`` times (0: no limit)."""
    if limit and departures(record).get(player_id, 0) >= limit:
        raise Conflict("too_many_revisions",
                       f"you have left this game {limit} times, the most this server allows; "
                       "it is not open to you again")
