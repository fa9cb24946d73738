"""The SDK's webhook calls and its signature check, on deliveries the server really signed."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import pytest
from intrigue_client import (
    Client,
    InvalidSignature,
    WebhookNotFound,
    parse_delivery,
    verify_signature,
)

from engine.webhooks import sign
from tests.integration.test_http_correspondence import Receiver


@pytest.fixture()
def receiver() -> Iterator[Receiver]:
    server = Receiver()
    yield server
    server.close()


def test_the_signature_check_accepts_only_the_signed_bytes_recently_with_the_secret() -> None:
    body = b'{"id":"d1","type":"your_turn","game":"g","version":7,"deadline":null,"created_at":"x"}'
    now = 1_800_000_000
    header = sign("s3cret", now, body)
    assert verify_signature("s3cret", header, body, now=now + 10)
    assert parse_delivery("s3cret", header, body, now=now)["version"] == 7
    assert not verify_signature("other", header, body, now=now)
    assert not verify_signature("s3cret", header, body.replace(b"7", b"8"), now=now)
    assert not verify_signature("s3cret", header, body, now=now + 301)  # a replay, five minutes on
    assert verify_signature("s3cret", header, body, now=now + 301, tolerance=600)
    for garbled in (None, "", "v1=abc", "t=soon,v1=abc", header.replace("v1=", "v0=")):
        assert not verify_signature("s3cret", garbled, body, now=now)
    rotated = f"t={now},v1={'0' * 64},{header.split(',')[1]}"  # two signatures while a secret is rotated
    assert verify_signature("s3cret", rotated, body, now=now)
    with pytest.raises(InvalidSignature):
        parse_delivery("other", header, body, now=now)


def test_a_real_delivery_checks_and_the_webhook_calls_round_trip(strict_server: str, receiver: Receiver) -> None:
    host, guest = Client.register(strict_server, "hooked"), Client.register(strict_server, "guest")
    created = host.create_webhook(receiver.url("/host"), ["your_turn", "game_over"])
    assert set(created) == {"id", "url", "events", "secret"} and created["events"] == ["your_turn", "game_over"]
    listed = host.webhooks()
    assert [hook["id"] for hook in listed] == [created["id"]] and "secret" not in listed[0]
    assert listed[0]["disabled"] is False

    game_id = host.create_game("coup", 2)["id"]
    host.join(game_id)
    guest.join(game_id)
    host.game(game_id)  # the host reveals the last secret: the game starts, seat 0 (the host) awaited
    receiver.wait_for(lambda: receiver.at("/host"), 30, "the your_turn delivery")
    delivery = receiver.at("/host")[0]
    header = delivery["headers"]["Intrigue-Signature"]
    payload = parse_delivery(created["secret"], header, delivery["raw"])
    assert payload["type"] == "your_turn" and payload["game"] == game_id
    assert delivery["headers"]["Intrigue-Delivery"] == payload["id"]
    assert not verify_signature(created["secret"], header, delivery["raw"] + b" ")
    assert not verify_signature(created["secret"], header, delivery["raw"], now=time.time() + 600)
    assert json.loads(delivery["raw"])["version"] == payload["version"]

    give_up = time.monotonic() + 30
    version = host.game(game_id)["version"]
    while (status := [d["status"] for d in host.deliveries(created["id"])]) != ["delivered"]:
        assert time.monotonic() < give_up, status
        host.events(game_id, after=version, wait=1)  # a pause of up to a second (nobody moves) between looks
    host.delete_webhook(created["id"])
    assert host.webhooks() == []
    with pytest.raises(WebhookNotFound) as gone:
        host.deliveries(created["id"])
    assert gone.value.status == 404
