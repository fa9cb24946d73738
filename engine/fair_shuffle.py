"""Fair shuffles in the engine: revealing a committed secret, and starting without the late ones.

A seat that joined with a commitment (``engine.tables``) reveals its secret once every seat
is taken (the game is ``starting``); the reveal that completes the set starts the game in
the same batch. When the wait (``INTRIGUE_REVEAL_SECONDS``) ends first, the worker's step
for the game's deadline (``engine.upkeep``) starts it without the seats that did not reveal.
Either way the setup draws from the server's seed mixed with the secrets revealed
(``events.entropy``, ``projections.shuffles``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import UTC, datetime, timedelta

from engine.commit import MAX_RETRIES, CommitPath
from engine.errors import Conflict, Forbidden, Invalid
from engine.outcomes import Committed, Player
from engine.seeds import Seeds
from events.entropy import REVEALS_AWAITED, SECRET_REVEALED, commitment_of, is_hex64
from events.envelope import format_at, parse_time
from games.base import GameEvent
from projections.record import Record, seat_of
from projections.shuffles import start_events


def reveals_awaited(seconds: float) -> GameEvent:
    """The join batch's last event when the game filled with committed seats: reveals are due by then."""
    return GameEvent(REVEALS_AWAITED, {"until": format_at(datetime.now(UTC) + timedelta(seconds=seconds))})


def started(seeds: Seeds, record: Record, secrets: Mapping[str, str], seq: int) -> list[GameEvent]:
    """The start's events, the setup drawn at ``seq`` from the seed mixed with ``secrets``."""
    return start_events(record, secrets, seeds.rng({**record, "secrets": dict(secrets)}, seq))


def start_late(seeds: Seeds, commits: CommitPath, record: Record, now: datetime) -> str:
    """A worker's step for a starting game: once the wait for reveals is over, start without the rest."""
    if parse_time(record["reveal_by"]) > now:
        return "nothing_due"
    drafts = started(seeds, record, record.get("secrets") or {}, record["version"] + 1)
    done = commits.commit(record["id"], record, drafts, {"kind": "start", "reason": "reveal_deadline"})
    return "raced" if done is None else "started"


class Reveals:
    """``POST /v1/games/<id>/reveal``: a committed seat's secret."""

    def __init__(self, seeds: Seeds, commits: CommitPath) -> None:
        self.seeds = seeds
        self.commits = commits

    def reveal(self, player: Player, game_id: str, secret: str, answer_first: bool = False) -> Committed:
        """Reveal the caller's secret; the last one missing starts the game. Revealing again is harmless."""
        later: list[Callable[[], None]] | None = [] if answer_first else None
        for _ in range(MAX_RETRIES):
            record = self.commits.load(game_id)
            drafts = self._decide(record, player, secret)
            if not drafts:
                return Committed(record, [])
            seat = drafts[0].actor
            done = self.commits.commit(game_id, record, drafts, {"kind": "reveal", "seat": seat}, later=later)
            if done is not None:
                return done
        raise Conflict("busy", "the game changed too often while revealing; try again")

    def _decide(self, record: Record, player: Player, secret: str) -> list[GameEvent]:
        seat = seat_of(record, player.id)
        if seat is None:
            raise Forbidden("not_seated", "you do not hold a seat in this game")
        key = str(seat)
        commitment = (record.get("commitments") or {}).get(key)
        revealed = (record.get("secrets") or {}).get(key)
        if revealed is not None and revealed == secret:
            return []  # said twice: the first reveal stands
        if record["status"] != "starting":
            raise Conflict("game_not_starting", "secrets are revealed once every seat is taken, before the game "
                                                f"starts; this game is {record['status']}")
        if commitment is None:
            raise Conflict("nothing_to_reveal", "your seat joined without a commitment: there is nothing to reveal")
        if not is_hex64(secret) or commitment_of(secret) != commitment:
            raise Invalid("bad_reveal", "the secret must be 64 lowercase hex digits (32 bytes) whose SHA-256 is "
                                        "the commitment your seat joined with")
        drafts = [GameEvent(SECRET_REVEALED, {"seat": seat, "secret": secret}, actor=seat)]
        secrets = {**(record.get("secrets") or {}), key: secret}
        if set(secrets) >= set(record["commitments"]):
            drafts += started(self.seeds, record, secrets, record["version"] + 1)
        return drafts
