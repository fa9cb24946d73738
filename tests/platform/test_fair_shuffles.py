"""Fair shuffles: a seat that never reveals is dropped when the wait ends, and the mix hangs on every secret.

The wait for reveals is a deadline as any other: the commit that fills the game puts it in
the deadline index, and the worker's step for it (``Engine.advance``, run here with a
``now`` past the wait instead of sleeping) starts the game without the late seats. The
calls go through the app (its test client), the deadline through the engine.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

import pytest
from flask.testing import FlaskClient
from hypothesis import given
from hypothesis import strategies as st

from engine.core import Engine
from engine.settings import Limits
from events.entropy import REVEALS_AWAITED, mix_seed
from events.envelope import format_at, parse_time
from projections.audit import audit
from projections.record import earliest_deadline
from service.app import create_app


def register(client: FlaskClient, name: str) -> dict[str, str]:
    body = client.post("/v1/players", json={"name": name}).get_json()
    return {"Authorization": f"Bearer {body['token']}"}


def test_a_seat_that_never_reveals_is_dropped_when_the_wait_ends(engine: Engine,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    client = create_app(engine, limits=Limits.off()).test_client()
    host, guest = register(client, "patient"), register(client, "silent")
    game_id = client.post("/v1/games", headers=host, json={"game": "coup", "seats": 2, "options": {},
                                                           "time_control": {}}).get_json()["id"]
    secret = secrets.token_bytes(32)
    for who, commitment in ((host, hashlib.sha256(secret).hexdigest()), (guest, "ab" * 32)):
        assert client.post(f"/v1/games/{game_id}/join", headers=who, json={"commitment": commitment}).status_code == 200
    answer = client.post(f"/v1/games/{game_id}/reveal", headers=host, json={"secret": secret.hex()}).get_json()
    assert answer["game"]["status"] == "starting" and answer["game"]["entropy"] == {"0": "revealed", "1": "committed"}
    record = engine.load(game_id)
    reveal_by = parse_time(record["reveal_by"])
    # INTRIGUE_REVEAL_SECONDS unset: the wait is 120 s from the join that took the last seat.
    awaited = next(e for e in engine.read_events(game_id) if e.type == REVEALS_AWAITED)
    assert abs((reveal_by - parse_time(awaited.at)).total_seconds() - 120) < 1
    # The wait is in the deadline index: the workers' sweep would ask for this game then.
    assert earliest_deadline(record) == record["reveal_by"]
    assert engine.redis.zscore(engine.keys.deadlines(), game_id) == reveal_by.timestamp()

    assert engine.advance(game_id, now=reveal_by - timedelta(seconds=1)) == "nothing_due"
    past = reveal_by + timedelta(milliseconds=1)
    monkeypatch.setattr("engine.commit.utc_now", lambda: format_at(past))  # the step's events are stamped then
    assert engine.advance(game_id, now=past) == "started"
    monkeypatch.undo()
    view = client.get(f"/v1/games/{game_id}", headers=guest).get_json()
    assert view["status"] == "active" and view["entropy"] == {"0": "revealed", "1": "dropped"}
    events = engine.read_events(game_id)
    start = next(e for e in events if e.type == "GameStarted")
    assert start.data == {"entropy": {"0": "revealed", "1": "dropped"}, "dropped": [1]}
    assert start.cause["kind"] == "start"
    # Too late to reveal now; the game's draws mix the one secret revealed.
    late = client.post(f"/v1/games/{game_id}/reveal", headers=guest, json={"secret": "cd" * 32})
    assert late.status_code == 409 and late.get_json()["code"] == "game_not_starting"
    assert engine.load(game_id)["secrets"] == {"0": secret.hex()}
    # The log so far audits once it ends (resigning ends a two-seat game at once).
    assert client.post(f"/v1/games/{game_id}/resign", headers=guest).status_code == 200
    assert audit(engine.read_events(game_id)).finished


def test_a_game_without_commitments_starts_when_it_fills_as_before(engine: Engine) -> None:
    client = create_app(engine, limits=Limits.off()).test_client()
    host, guest = register(client, "plain-host"), register(client, "plain-guest")
    game_id = client.post("/v1/games", headers=host, json={"game": "coup", "seats": 2, "options": {},
                                                           "time_control": {}}).get_json()["id"]
    client.post(f"/v1/games/{game_id}/join", headers=host)
    view = client.post(f"/v1/games/{game_id}/join", headers=guest).get_json()["game"]
    assert view["status"] == "active" and view["entropy"] == {}
    assert next(e for e in engine.read_events(game_id) if e.type == "GameStarted").data == {}


HEX64 = st.binary(min_size=32, max_size=32).map(bytes.hex)
SECRETS = st.dictionaries(st.integers(0, 5).map(str), HEX64, min_size=1, max_size=6)


@given(seed=HEX64, revealed=SECRETS, seat=st.integers(0, 5), other=HEX64)
def test_the_mixed_seed_changes_when_any_revealed_secret_changes(seed: str, revealed: dict[str, str], seat: int,
                                                                 other: str) -> None:
    key = sorted(revealed, key=int)[seat % len(revealed)]
    changed = {**revealed, key: other}
    mixed = mix_seed(seed, revealed)
    assert mixed != seed and len(mixed) == 64
    assert (mix_seed(seed, changed) == mixed) == (other == revealed[key])
    assert mix_seed(other if other != seed else seed + "0", revealed) != mixed  # and with the server's seed
    assert mix_seed(seed, dict(reversed(list(revealed.items())))) == mixed  # seat order, not the order given
