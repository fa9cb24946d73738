"""The Bot base class when someone moves first: it decides again on the view the 409 brought."""

from __future__ import annotations

from typing import Any

import pytest
from intrigue_client import Bot, StreamEvent

from tests.integration.sdk.test_sdk_calls import start_coup


class Stop(Exception):
    """Ends the bot's game from inside ``choose``, once the test has seen what it wanted."""


def test_a_bot_that_lost_a_race_decides_again_on_the_fresh_view(server: str) -> None:
    game_id, (alice, bob, carol) = start_coup(server, "race")
    alice.act(game_id, {"type": "tax"})  # claims the Duke: bob and carol may challenge or pass
    decided: list[dict[str, Any]] = []
    seen: list[StreamEvent] = []

    class RacedBot(Bot):
        def choose(self, view: Any, legal_actions: list[dict[str, Any]]) -> dict[str, Any]:
            decided.append(view)
            if len(decided) == 2:
                raise Stop
            carol.act(game_id, {"type": "pass"})  # carol answers first: bob's version is now stale
            return {"type": "pass"}

        def on_event(self, event: StreamEvent) -> None:
            seen.append(event)

    with pytest.raises(Stop):
        RacedBot(bob).play(game_id)
    first, second = decided
    assert second["version"] > first["version"], "the second decision is on the view the 409 carried"
    assert {"type": "challenge"} in second["legal_actions"] and second["awaiting"] == [1]
    assert bob.game(game_id)["awaiting"] == [1]  # bob's stale pass changed nothing
    assert [event.data["seq"] for event in seen] == [e["seq"] for e in bob.events(game_id)["events"]
                                                     if e["seq"] <= first["version"]]
