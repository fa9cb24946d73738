"""The RateLimit headers come from the spending itself (docs/performance.md, section 29).

Every script that spends a token answers what each bucket holds after, and that is what the
answer's ``RateLimit`` header says: a move costs its one append, not a second round trip to
read the buckets back. The figures must stay those the buckets hold.
"""

from __future__ import annotations

import math
import re

from flask.testing import FlaskClient
from werkzeug.datastructures import Headers

from engine.core import Engine
from engine.ratelimit import RateLimiter
from engine.settings import Bucket, Limits
from events.store import Gate
from service.app import create_app
from tests.platform.test_front import toy_game

#: A player's bucket that refills so slowly (one token in 100 s) that a test's requests see
#: each of its tokens go, one at a time: its quota is its burst, 20.
SLOW = Bucket("player", 0.01, 20)
STATE = re.compile(r'"(\w+)";r=(\d+);t=(\d+)')


class SlowLimits(Limits):
    """The limits with the slow player's bucket (the address's and the anonymous' as they are)."""

    def player(self) -> Bucket:
        return SLOW


def commands(engine: Engine) -> dict[str, int]:
    """The commands the Redis served so far, by name (INFO's own calls left out): a script
    call is one ``evalsha``, and the commands it ran count under their own names."""
    stats = engine.redis.info("commandstats")
    return {name.removeprefix("cmdstat_"): int(stat["calls"]) for name, stat in stats.items()
            if name not in ("cmdstat_info",)}


def served_since(before: dict[str, int], after: dict[str, int]) -> dict[str, int]:
    return {name: calls - before.get(name, 0) for name, calls in after.items() if calls != before.get(name, 0)}


def left(headers: Headers) -> dict[str, tuple[int, int]]:
    """The ``RateLimit`` header's (remaining, seconds to reset) by policy."""
    return {name: (int(r), int(t)) for name, r, t in STATE.findall(headers["RateLimit"])}


def slow_client(engine: Engine) -> FlaskClient:
    limits = SlowLimits(**{**Limits.off().__dict__, "address_rate": 100})
    return create_app(engine, limits=limits).test_client()


def test_a_move_over_http_is_one_script_call_its_headers_read_from_the_append(engine: Engine) -> None:
    """The move's append spends the caller's tokens and answers what is left: nothing else
    reaches Redis for the answer (before, a second script read the buckets back)."""
    client = slow_client(engine)
    game_id, auth = toy_game(client)
    version = client.get(f"/v1/games/{game_id}", headers=auth[0]).get_json()["version"]
    before = commands(engine)
    answer = client.post(f"/v1/games/{game_id}/actions", json={"type": "pick", "number": 2},
                         headers={**auth[0], "If-Match": str(version)})
    served = served_since(before, commands(engine))
    assert answer.status_code == 200 and "player" in left(answer.headers)
    # The append alone: no script reads the buckets back for the headers (before: evalsha 2,
    # and the two buckets read a third time, hmget 6). Each bucket is read twice by the append:
    # to know that every one has a token, then to spend it.
    assert served["evalsha"] == 1 and served["hmget"] == 2 * 2, served


def test_the_carried_levels_are_what_the_buckets_hold(engine: Engine) -> None:
    """On each path (a move and a join spent in their append, a read spent by the admission),
    the header's ``r`` is one less than before, and what the buckets hold when read."""
    client = slow_client(engine)
    game_id, auth = toy_game(client)
    limiter: RateLimiter = engine.limiter
    player = engine.player_for_token(auth[0]["Authorization"].split()[1])
    assert player is not None
    player_id = player.id
    gate = Gate(limiter.key(SLOW, player_id), SLOW.rate, SLOW.burst, "player")
    seen = []
    for path, body in ((f"/v1/games/{game_id}", None), ("/v1/me/games", None),
                       (f"/v1/games/{game_id}/actions", {"type": "pick", "number": 2})):
        answer = (client.get(path, headers=auth[0]) if body is None
                  else client.post(path, json=body, headers=auth[0]))
        assert answer.status_code == 200, answer.get_json()
        remaining, reset = left(answer.headers)["player"]
        held = limiter.left([gate])[0]
        assert remaining == math.floor(held)
        assert reset - 1 <= math.ceil((SLOW.burst - held) / SLOW.rate) <= reset  # a tick may pass between the two
        seen.append(remaining)
    assert seen == [seen[0], seen[0] - 1, seen[0] - 2] and seen[0] < SLOW.burst


def test_a_join_carries_its_appends_levels(engine: Engine) -> None:
    """The fast join's append spends the tokens and says what is left: one script call."""
    client = slow_client(engine)
    tokens = [client.post("/v1/players", json={"name": f"j{i}"}).get_json()["token"] for i in range(2)]
    auth = [{"Authorization": f"Bearer {token}"} for token in tokens]
    game = client.post("/v1/games", json={"game": "toy", "seats": 2}, headers=auth[0]).get_json()
    assert client.post(f"/v1/games/{game['id']}/join", headers=auth[0]).status_code == 200
    before = commands(engine)
    joined = client.post(f"/v1/games/{game['id']}/join", headers=auth[1])
    assert joined.status_code == 200
    assert served_since(before, commands(engine)).get("evalsha") == 1
    assert left(joined.headers)["player"][0] == SLOW.burst - 1  # its creation (anonymous) spent none of it
