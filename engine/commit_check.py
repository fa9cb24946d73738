"""Defence in depth for the log: a commit whose state some reader cannot read is refused.

The strict action and option checks (``games.action_schema``) keep ill-shaped input from the
rules; this keeps a rules bug from the log. With ``INTRIGUE_RENDER_CHECK`` on, a commit renders
what every reader of the game would ask for next (``projections.renderable``) before it
appends: if that fails, nothing is appended, the error is logged with the game and the event,
and the request that caused it answers 500, so the game stays readable and playable by every
other move. The check costs up to 1.6 ms of CPU a move for Pax Porfiriana and Ideology (about
the whole of a Coup move's), so it is off by default and on in the test suites; ``intrigue
verify`` runs it on every event of a log it audits.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from events.envelope import Envelope
from projections.record import Record
from projections.renderable import Unrenderable, check_renders

log = logging.getLogger(__name__)


class UnrenderableCommit(RuntimeError):
    """A commit refused because a reader could not read the state it leads to (a rules bug)."""


def refuse_unrenderable(game_id: str, record: Record, envelopes: Sequence[Envelope]) -> None:
    """Raise :class:`UnrenderableCommit` (logged) unless every reader can read ``record``."""
    try:
        check_renders(record, envelopes)
    except Unrenderable as err:
        log.error("refused a commit to game %s that no reader could read, nothing appended: %s",
                  game_id, err, exc_info=err.__cause__)
        raise UnrenderableCommit(f"game {game_id}: {err}") from err
