"""Retries against a live server, through a proxy that fails on demand (tests/integration/sdk/proxy.py).

An action whose answer is lost (a 503, a 500, a dropped connection after the server
acted) is posted again with the same Idempotency-Key, and the server applies it once; a
429 is waited out for exactly its ``retry_after``; a stream cut mid-frame resumes with
``Last-Event-ID``, nothing lost and nothing twice.
"""

from __future__ import annotations

import pytest
from intrigue_client import Client, ConnectionFailed, StoreUnavailable
from intrigue_client.client import DEFAULT_PAUSE

from service.embedded import free_port
from tests.integration.sdk.conftest import STRICT_RATE
from tests.integration.sdk.proxy import FaultProxy
from tests.integration.sdk.test_sdk_calls import coins, start_coup


class Pauses(list[float]):
    """A client's pause that records each one and takes it as the SDK would (its default pause)."""

    def __call__(self, seconds: float) -> None:
        self.append(seconds)
        DEFAULT_PAUSE(seconds)


def through(proxy: FaultProxy, player: Client, **options: object) -> tuple[Client, Pauses]:
    pauses = Pauses()
    return Client(proxy.base, token=player.token, sleep=pauses, backoff=0.05, **options), pauses  # type: ignore[arg-type]


@pytest.mark.parametrize("fault", ["answer_503", "answer_500", "drop_after"])
def test_a_lost_answer_is_retried_with_the_same_key_and_applied_once(server: str, proxy: FaultProxy,
                                                                    fault: str) -> None:
    game_id, players = start_coup(server, f"lost-{fault}-")
    alice, pauses = through(proxy, players[0])
    path = f"/v1/games/{game_id}/actions"
    proxy.arm("POST", path, fault)  # type: ignore[arg-type]
    version = alice.game(game_id)["version"]
    answer = alice.act(game_id, {"type": "income"}, if_match=version)

    attempts = proxy.requests_to("POST", path)
    assert [a.fault for a in attempts] == [fault, None]
    keys = {a.headers["Idempotency-Key"] for a in attempts}
    assert len(keys) == 1 and {a.headers["If-Match"] for a in attempts} == {str(version)}
    assert len(pauses) == 1 and pauses[0] > 0
    assert coins(players[0], game_id, 0) == 3  # one income, not two
    assert answer["version"] == players[0].game(game_id)["version"]
    assert answer["game"]["awaiting"] == [1]


def test_retries_are_bounded_and_the_key_outlives_them(server: str, proxy: FaultProxy) -> None:
    game_id, players = start_coup(server, "bounded")
    alice, pauses = through(proxy, players[0], retries=2)
    path = f"/v1/games/{game_id}/actions"
    proxy.arm("POST", path, "answer_503", times=3)
    with pytest.raises(StoreUnavailable) as gave_up:
        alice.act(game_id, {"type": "income"}, if_match=alice.game(game_id)["version"])
    attempts = proxy.requests_to("POST", path)
    key = gave_up.value.idempotency_key
    assert len(attempts) == 3 and {a.headers["Idempotency-Key"] for a in attempts} == {key}
    assert len(pauses) == 2 and pauses[1] >= 0.05  # 503's Retry-After: the body's exact 0.05 s at least
    # The first attempt had landed: posting the same decision again later learns so, and applies nothing more.
    again = alice.act(game_id, {"type": "income"}, idempotency_key=key)
    assert again["game"]["awaiting"] == [1] and coins(players[0], game_id, 0) == 3


def test_a_dropped_read_is_retried(server: str, proxy: FaultProxy) -> None:
    game_id, players = start_coup(server, "reread")
    alice, pauses = through(proxy, players[0])
    proxy.arm("GET", f"/v1/games/{game_id}", "drop_before", times=2)
    assert alice.game(game_id)["seat"] == 0
    assert len(proxy.requests_to("GET", f"/v1/games/{game_id}")) == 3 and len(pauses) == 2


def test_a_429_waits_its_exact_retry_after(server: str, proxy: FaultProxy) -> None:
    game_id, players = start_coup(server, "patient")
    alice, pauses = through(proxy, players[0])
    path = f"/v1/games/{game_id}/actions"
    proxy.arm("POST", path, "rate_limit", retry_after=0.4)
    answer = alice.act(game_id, {"type": "income"}, if_match=alice.game(game_id)["version"])
    assert pauses == [0.4]  # the body's exact value, not the header's whole second
    attempts = proxy.requests_to("POST", path)
    assert len(attempts) == 2 and attempts[0].headers["Idempotency-Key"] == attempts[1].headers["Idempotency-Key"]
    assert answer["game"]["awaiting"] == [1] and coins(players[0], game_id, 0) == 3


def test_a_real_rate_limit_is_waited_out(strict_server: str) -> None:
    """The strict server allows a few requests a second: a burst meets its 429s and still succeeds."""
    pauses = Pauses()
    player = Client.register(strict_server, "hasty", sleep=pauses, pace=False)  # meets the 429s, not paced
    game_id = player.create_game("coup", 2)["id"]
    burst = 4 * STRICT_RATE
    versions = [player.game(game_id)["version"] for _ in range(burst)]
    assert len(versions) == burst and set(versions) == {versions[0]}
    assert pauses, "the burst met no 429"
    assert all(0 < pause <= 1 / STRICT_RATE + 0.05 for pause in pauses)  # each wait: about one token's worth


def test_the_stream_resumes_after_a_drop_with_last_event_id(server: str, proxy: FaultProxy) -> None:
    game_id, players = start_coup(server, "resume")
    for seat in (0, 1, 2):
        players[seat].act(game_id, {"type": "income"})
    path = f"/v1/games/{game_id}/events/stream"
    proxy.arm("GET", path, "cut_stream", times=2, frames=3)  # the first two connections are cut mid-frame
    watcher, _ = through(proxy, players[0])
    target = players[0].game(game_id)["version"]
    seen: list[int] = []
    views: list[int] = []
    with watcher.stream(game_id) as stream:
        for event in stream:
            if event.is_view:
                views.append(event.data["version"])
            else:
                seen.append(event.data["seq"])
                if event.data["seq"] >= target:
                    break
        assert stream.reconnects == 2
        # Live: a move made now comes through the same stream.
        moved = players[0].act(game_id, {"type": "income"})
        for event in stream:
            if not event.is_view:
                seen.append(event.data["seq"])
                if event.data["seq"] >= moved["version"]:
                    break
    feed = [event["seq"] for event in players[0].events(game_id, after=0)["events"]]
    assert seen == [seq for seq in feed if seq <= moved["version"]], "every event once, in order"
    assert views[0] == target  # the stream opens with the seat's view as it is
    connections = proxy.requests_to("GET", path)
    assert "Last-Event-ID" not in connections[0].headers
    resumed_at = [int(c.headers["Last-Event-ID"]) for c in connections[1:]]
    assert len(connections) == 3 and resumed_at == sorted(resumed_at) and resumed_at[0] >= 1


def test_no_server_at_all_fails_after_the_bounded_retries() -> None:
    pauses = Pauses()
    nobody = Client(f"http://127.0.0.1:{free_port()}", token="t", retries=2, backoff=0.01, sleep=pauses)
    with pytest.raises(ConnectionFailed) as failed:
        nobody.game("any")
    assert failed.value.status is None and failed.value.code == "connection_failed" and len(pauses) == 2
