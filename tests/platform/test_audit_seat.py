"""The audit takes the acting seat from the batch's cause, not from its first event.

A Pax Porfiriana manifesto starts with the hacendado's cubes going back to the supply, an
event no seat performs (actor null): every finished Pax game once failed ``intrigue
verify`` for it (issue 27). Logs written before causes named the seat must still verify.
"""

from __future__ import annotations

import random

import pytest

from events.envelope import Envelope, seal
from games import registry
from projections.audit import AuditError, audit
from tests.support.logged_table import LoggedTable


@pytest.fixture(scope="module")
def pax_log() -> list[Envelope]:
    """A finished three-seat Pax game with a manifesto whose batch opens without an actor."""
    table = LoggedTable(registry.load("pax"), 3, {"max_turns": 40}, seed="p-5")
    table.play_randomly(random.Random(5))
    assert any(e.cause.get("batch") == e.seq and e.cause.get("kind") == "player" and e.actor is None
               and e.cause["action"]["type"] == "manifesto" for e in table.log)
    return table.log


def resealed(events: list[Envelope], cause_of) -> list[Envelope]:
    out: list[Envelope] = []
    for event in events:
        prev = out[-1].hash if out else event.prev
        out.append(seal(event.seq, event.type, event.at, event.actor, event.data, cause_of(event), prev))
    return out


def test_a_finished_pax_game_with_a_manifesto_verifies(pax_log: list[Envelope]) -> None:
    assert audit(pax_log).finished


def test_a_log_whose_causes_do_not_name_the_seat_still_verifies(pax_log: list[Envelope]) -> None:
    old = resealed(pax_log, lambda e: {k: v for k, v in e.cause.items() if k != "seat"})
    assert all("seat" not in e.cause for e in old)
    assert audit(old).winners == audit(pax_log).winners


def test_a_cause_naming_another_seat_is_caught(pax_log: list[Envelope]) -> None:
    head = next(e for e in pax_log if e.cause.get("kind") == "player" and e.cause.get("batch") == e.seq
                and e.actor is None)
    forged = resealed(pax_log, lambda e: {**e.cause, "seat": (e.cause["seat"] + 1) % 3}
                      if e.cause.get("batch") == head.seq else e.cause)
    with pytest.raises(AuditError) as err:
        audit(forged)
    assert err.value.seq == head.seq


def test_a_cause_naming_no_seat_and_a_batch_with_no_actor_is_refused(pax_log: list[Envelope]) -> None:
    head = next(e for e in pax_log if e.cause.get("kind") == "player" and e.cause.get("batch") == e.seq)
    batch = [e for e in pax_log if e.cause.get("batch") == head.seq]
    forged = resealed(pax_log, lambda e: {**e.cause, "seat": None} if e in batch else e.cause)
    with pytest.raises(AuditError, match="must name its seat"):
        audit(forged)


def test_intrigue_verify_accepts_the_pax_log(pax_log: list[Envelope], tmp_path, capsys) -> None:
    from service.cli import main

    path = tmp_path / "pax.ndjson"
    path.write_text("".join(event.to_json() + "\n" for event in pax_log))
    assert main(["verify", str(path)]) == 0, capsys.readouterr().err
