"""A seat's move: decide it on the record at hand, append it, answer a retried request as the first.

An action is decided on the record this process last saw and appended with its version
(``engine.commit``); a stale record loses the append's version check, and the action is
decided again on a fresh read. A request with an ``Idempotency-Key`` is answered from what
its first post appended, from the key's hash while the game is played and from the
archived events' causes once it is over.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.commit import MAX_RETRIES, CommitPath, KeyWonRace
from engine.errors import Conflict, DomainError, Forbidden, Limited, NotYourTurn, rule_refusal
from engine.gating import Gating
from engine.outcomes import Committed, Player
from engine.revisions import check_revision
from engine.seeds import Seeds
from events.envelope import canonical_json
from events.store import EventStore, Gate
from games.base import GameEvent, RuleViolation
from projections.projector import Projector
from projections.record import Record, resigned, rules_of, seat_of


class Moves:
    def __init__(self, store: EventStore, projector: Projector, seeds: Seeds, commits: CommitPath,
                 gating: Gating, *, revisions_per_decision: int) -> None:
        self.store = store
        self.projector = projector
        self.seeds = seeds
        self.commits = commits
        self.gating = gating
        #: How often a seat may replace one sealed decision (``engine.revisions``; 0: no bound).
        self.revisions_per_decision = revisions_per_decision

    def act(self, player: Player, game_id: str, action: Mapping[str, Any], idempotency_key: str | None = None,
            if_match: int | None = None, gates: Sequence[Gate] = (), answer_first: bool = False) -> Committed:
        """A seat's action: decide, append, follow up. Rejected actions change nothing.

        It decides on the record this process last saw, without reading the store first:
        the append's version check refuses a stale one (then it re-reads and decides
        again), and a refusal is only given after a fresh read confirms it.

        The ``gates`` spend the caller's rate-limit tokens (its own, its address's) once per
        request: inside the append when there is one (no round trip of their own), which
        refuses the action with a 429 and appends nothing when a token is not there; apart
        for an action that appends nothing (a refusal, a replayed answer), whose caller, out
        of tokens, hears the 429 instead. On a cluster the tokens are spent first, apart.

        With ``answer_first`` what the commit owes the workers comes back in the result
        (``after_answer``), for the caller to run once its answer is sent.
        """
        later: list[Callable[[], None]] | None = [] if answer_first else None

        def attempt(held: Sequence[Gate]) -> tuple[Committed, bool]:
            done = self._act_on_cached(player, game_id, action, idempotency_key, if_match, held, later)
            return done, done.gated

        return self.gating.gated(gates, attempt)

    def _act_on_cached(self, player: Player, game_id: str, action: Mapping[str, Any], idempotency_key: str | None,
                       if_match: int | None, gates: Sequence[Gate], later: list[Callable[[], None]] | None
                       ) -> Committed:
        record = self.projector.cached(game_id)
        if record is not None:
            try:
                return self._act(player, game_id, record, action, idempotency_key, if_match, gates, later)
            except DomainError as refused:
                if isinstance(refused, Limited):
                    raise
                fresh = self.commits.load(game_id)
                if fresh["version"] == record["version"]:
                    raise
        return self._act(player, game_id, self.commits.load(game_id), action, idempotency_key, if_match, gates, later)

    def _act(self, player: Player, game_id: str, record: Record, action: Mapping[str, Any],
             idempotency_key: str | None, if_match: int | None, gates: Sequence[Gate] = (),
             later: list[Callable[[], None]] | None = None) -> Committed:
        seat = seat_of(record, player.id)
        if seat is None:
            raise Forbidden("not_seated", "you do not hold a seat in this game")
        idem = None
        if idempotency_key is not None:
            field = f"{seat}:{idempotency_key}"
            fingerprint = hashlib.sha256(canonical_json(dict(action)).encode()).hexdigest()
            idem = (field, fingerprint)
            replay = self._replay_idempotent(game_id, record, seat, idem)
            if replay is not None:
                return replay
        for _ in range(MAX_RETRIES):
            try:
                drafts = self.decide(record, seat, action, if_match)
            except Exception:
                if idem is not None:  # an identical request may have won meanwhile: answer as it did
                    replay = self._replay_idempotent(game_id, self.commits.load(game_id), seat, idem)
                    if replay is not None:
                        return replay
                raise
            cause = {"kind": "player", "seat": seat, "action": dict(action)}
            if idempotency_key is not None:
                cause["key"] = idempotency_key
            try:
                done = self.commits.commit(game_id, record, drafts, cause, idem, gates, later)
            except KeyWonRace:  # a twin request with the same key appended first: answer as it was
                assert idem is not None
                replay = self._replay_idempotent(game_id, self.commits.load(game_id), seat, idem)
                assert replay is not None
                return replay
            if done is not None:
                return done
            if if_match is not None:
                raise Conflict("version_conflict", "the game moved on before your action landed",
                               version=self.store.version(game_id))
            record = self.commits.load(game_id)
        raise Conflict("busy", "the game changed too often; try again")

    def decide(self, record: Record, seat: int, action: Mapping[str, Any], if_match: int | None) -> list[GameEvent]:
        """The events of ``seat``'s ``action`` on ``record``, or the refusal (the platform's, then the rules')."""
        if record["status"] in ("open", "starting"):
            raise Conflict("game_not_started", "the game has not started: seats are still open"
                           if record["status"] == "open" else "the game starts once the committed seats reveal")
        if record["status"] == "finished":
            raise Conflict("game_over", "the game is over")
        if record["status"] == "cancelled":
            raise Conflict("game_cancelled", "this game was cancelled before it started")
        if if_match is not None and if_match != record["version"]:
            raise Conflict("version_conflict", f"the game is at version {record['version']}, not {if_match}",
                           version=record["version"])
        if seat in resigned(record):
            raise Conflict("seat_resigned", "you resigned this game: the takeover bot plays your seat")
        rules = rules_of(record)
        if not rules.may_act(record["state"], seat):
            raise NotYourTurn("not_your_turn", "you have no decision to make now", version=record["version"])
        check_revision(record, seat, self.revisions_per_decision)
        try:
            rng = self.seeds.rng(record, record["version"] + 1)
            return rules.decide(record["state"], seat, dict(action), rng)
        except RuleViolation as err:
            raise rule_refusal(err.code, err.message, version=record["version"],
                           legal_actions=rules.legal_actions(record["state"], seat)) from None

    def _replay_idempotent(self, game_id: str, record: Record, seat: int,
                           idem: tuple[str, str]) -> Committed | None:
        stored = self.store.idempotent_result(game_id, idem[0])
        if stored is None and record["status"] == "finished":
            stored = self._archived_idempotent_result(game_id, seat, idem[0].split(":", 1)[1])
        if stored is None:
            return None
        if stored["fingerprint"] != idem[1]:
            raise Conflict("idempotency_key_reused",
                           "this Idempotency-Key was already used for a different action")
        events = self.store.read(game_id, after=stored["first"] - 1, upto=stored["last"])
        if record["version"] < stored["last"]:
            # The record was read before a racing request with this key appended: the
            # answer's view must include the action it reports.
            record = self.commits.load(game_id)
        return Committed(record, events)

    def _archived_idempotent_result(self, game_id: str, seat: int, key: str) -> dict[str, Any] | None:
        """What the idempotency hash said of ``key``, read back from the events' causes.

        Each batch a player's keyed action caused records the action and the key, so an
        archived game needs no idempotency hash to answer a retry as the first post was; the
        system steps its commit took name it (``follows``) and were in that answer too.
        """
        found: dict[str, Any] | None = None
        for event in self.store.read(game_id):
            cause = event.cause
            if found is not None:
                if found["first"] not in (cause.get("batch"), cause.get("follows")):  # its commit's system steps too
                    break
                found["last"] = event.seq
            elif (cause.get("kind") == "player" and cause.get("key") == key and event.actor == seat
                  and cause.get("batch") == event.seq):
                fingerprint = hashlib.sha256(canonical_json(cause.get("action")).encode()).hexdigest()
                found = {"fingerprint": fingerprint, "first": event.seq, "last": event.seq}
        return found

