"""How the table meets the API's refusals: a 429 waited out, a 409 shown and answered by
reading the view again. The refusals are made by intercepting one request at the network,
so the page meets exactly the answers the API documents."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from playwright.sync_api import Route, expect

from tests.web.conftest import Player

PROBLEM = {"Content-Type": "application/problem+json"}


def two_seat_coup(players: Callable[..., Player]) -> tuple[Player, Player]:
    natasha, sacha = players("Natasha"), players("Sacha")
    natasha.sign_up()
    sacha.sign_up()
    game_id = natasha.create_game("coup", 2)
    sacha.take_seat(game_id)
    expect(natasha.page.get_by_role("button", name="Income (+1 coin)")).to_be_visible()
    return natasha, sacha


def refuse_once(player: Player, status: int, problem: dict[str, object], headers: dict[str, str]) -> list[str]:
    """The next action the page posts gets this refusal; later ones reach the server."""
    seen: list[str] = []

    def handle(route: Route) -> None:
        seen.append(route.request.headers.get("idempotency-key", ""))
        if len(seen) == 1:
            route.fulfill(status=status, headers={**PROBLEM, **headers}, body=json.dumps(problem))
        else:
            route.continue_()

    player.page.route(re.compile(r"/v1/games/[^/]+/actions$"), handle)
    return seen


def expected_refusals(player: Player, status: int) -> None:
    """Chromium logs every refused response; the one this test made is the only one allowed."""
    logged = [e for e in player.errors if f"status of {status}" in e]
    assert len(logged) == 1, player.errors
    player.errors[:] = [e for e in player.errors if e not in logged]


def test_a_429_is_waited_out(players: Callable[..., Player]) -> None:
    natasha, sacha = two_seat_coup(players)
    keys = refuse_once(natasha, 429, {"type": "about:blank", "title": "Too many requests", "status": 429,
                                      "code": "rate_limited", "detail": "too many requests (player); retry in 0.30 s",
                                      "retry_after": 0.3}, {"Retry-After": "1"})
    natasha.page.get_by_role("button", name="Income (+1 coin)").click()
    expect(sacha.page.locator('[data-seat="0"] .coin-count')).to_have_text("3")
    expect(natasha.page.get_by_role("alert")).to_be_hidden()
    assert len(keys) == 2 and keys[0] == keys[1]  # the same request, sent again
    expected_refusals(natasha, 429)


def test_a_409_shows_its_detail_and_reads_the_view_again(players: Callable[..., Player]) -> None:
    natasha, sacha = two_seat_coup(players)
    detail = "the game is at version 9; you decided on version 8"
    refuse_once(natasha, 409, {"type": "about:blank", "title": "Conflict", "status": 409,
                               "code": "version_conflict", "detail": detail}, {})
    view_read = re.compile(r"/v1/games/[^/?]+$")
    with natasha.page.expect_request(lambda request: request.method == "GET" and view_read.search(request.url)):
        natasha.page.get_by_role("button", name="Income (+1 coin)").click()
    expect(natasha.page.get_by_role("alert")).to_have_text(detail)
    natasha.page.get_by_role("button", name="Income (+1 coin)").click()  # offered again, from the view read anew
    expect(sacha.page.locator('[data-seat="0"] .coin-count')).to_have_text("3")
    expect(natasha.page.get_by_role("alert")).to_be_hidden()
    expected_refusals(natasha, 409)
