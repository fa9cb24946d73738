"""Rate limits in headers (issue 53), on the strict server (a player's limit: a few requests a second).

Every answer under a limit carries ``RateLimit-Policy`` and ``RateLimit`` (the IETF draft's
structured fields), through the Flask app and through the front's fast handlers alike; every 429 has
``Retry-After`` and a problem naming the policy; and the Python SDK, pacing itself by them,
meets no 429 at all where an unpaced client meets several.
"""

from __future__ import annotations

import re
import uuid

import requests
from intrigue_client import Client
from intrigue_client.client import parse_rate_limit

from tests.integration.sdk.conftest import STRICT_RATE
from tests.integration.sdk.test_sdk_retries import Pauses

POLICY = re.compile(r'"(\w+)";q=(\d+);w=(\d+)')


def policies(response: requests.Response) -> dict[str, tuple[int, int]]:
    return {name: (int(q), int(w)) for name, q, w in POLICY.findall(response.headers["RateLimit-Policy"])}


def test_every_answer_under_a_limit_says_what_is_left(strict_server: str) -> None:
    anonymous = requests.get(f"{strict_server}/v1/games", timeout=10)
    assert anonymous.status_code == 200 and "anonymous" in policies(anonymous)
    me = Client.register(strict_server, f"headers-{uuid.uuid4().hex[:6]}", pace=False)
    bearer = {"Authorization": f"Bearer {me.token}"}
    seen = []
    for _ in range(4 * STRICT_RATE):
        answer = requests.get(f"{strict_server}/v1/me/games", headers=bearer, timeout=10)
        assert policies(answer)["player"] == (STRICT_RATE, 1) and "address" in policies(answer)
        left = parse_rate_limit(answer.headers["RateLimit"])
        assert 0 <= left["player"][0] <= STRICT_RATE and 0 <= left["player"][1] <= 1
        seen.append(answer)
        if answer.status_code == 429:
            break
    refused = seen[-1]
    assert refused.status_code == 429, "the burst met a 429"
    assert int(refused.headers["Retry-After"]) >= 1
    assert refused.json()["code"] == "rate_limited" and refused.json()["policy"] == "player"
    assert parse_rate_limit(refused.headers["RateLimit"])["player"][0] == 0
    assert parse_rate_limit(seen[0].headers["RateLimit"])["player"][0] > 0


def test_the_fast_handlers_answers_carry_them_too(strict_server: str) -> None:
    me = Client.register(strict_server, f"lane-{uuid.uuid4().hex[:6]}")
    bearer = {"Authorization": f"Bearer {me.token}"}
    created = requests.post(f"{strict_server}/v1/games", json={"game": "coup", "seats": 2, "bots": {"1": "random"}},
                            headers=bearer, timeout=10)  # a plain creation: the front's fast handler's
    assert created.status_code == 201 and policies(created)["player"] == (STRICT_RATE, 1)
    game_id = created.json()["id"]
    joined = requests.post(f"{strict_server}/v1/games/{game_id}/join", headers=bearer, timeout=10)
    assert joined.status_code == 200 and "player" in parse_rate_limit(joined.headers["RateLimit"])
    view = me.game(game_id)
    while 0 not in view["awaiting"]:
        view = me.game(game_id)
    moved = requests.post(f"{strict_server}/v1/games/{game_id}/actions", json=view["legal_actions"][0],
                          headers={**bearer, "If-Match": str(view["version"])}, timeout=10)
    assert moved.status_code in (200, 429) and "player" in policies(moved)
    with requests.get(f"{strict_server}/v1/games/{game_id}/events/stream?view=true", headers=bearer, timeout=10,
                      stream=True) as stream:
        assert stream.status_code in (200, 429) and "player" in policies(stream)


def test_the_python_sdk_paces_itself_and_meets_no_429(strict_server: str) -> None:
    pauses = Pauses()
    me = Client.register(strict_server, f"paced-{uuid.uuid4().hex[:6]}", sleep=pauses)
    refusals: list[int] = []
    me.session.hooks["response"].append(lambda r, *args, **kwargs: refusals.append(r.status_code)
                                        if r.status_code == 429 else None)
    pages = [me.my_games() for _ in range(4 * STRICT_RATE)]
    assert len(pages) == 4 * STRICT_RATE
    assert refusals == [], "a paced client meets no 429"
    assert pauses and all(0 < pause <= 1 for pause in pauses), pauses  # it waited, each time at most a window
    assert "player" in me.rate_limit
