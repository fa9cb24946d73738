"""``intrigue verify`` of a tournament's log: its hash chain, and each round's pairing re-run.

A tournament's stream (``GET /v1/tournaments/<id>/log``) holds every result its pairings
stood on, so each ``RoundPaired`` must be exactly what ``engine.pairing`` gives for the
standings before it: score then rating, no repeated table-mates while avoidable, legal
table sizes, byes to the fewest players and never twice to one.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from engine.tournament_state import check_pairings, replay
from events.envelope import ChainError, Envelope, check_chain


def verify_tournament(events: Sequence[Envelope]) -> int:
    """Exit status: 0 the log checks, 1 it does not (the first fault named)."""
    try:
        check_chain(events)
        state = replay(events)
    except (ChainError, ValueError, KeyError, TypeError) as err:
        print(f"INVALID: {err}", file=sys.stderr)
        return 1
    faults = check_pairings(events)
    if faults:
        print(f"INVALID: {faults[0]}", file=sys.stderr)
        return 1
    assert state is not None
    rounds = len(state["rounds"])
    print(f"OK: tournament {state['id']}: {len(events)} events, hash chain intact, the pairing of each of "
          f"{rounds} round(s) follows the rules from the results before it; status {state['status']}")
    return 0
