"""A game's table talk is bounded: past INTRIGUE_MESSAGES_PER_GAME, 409 table_talk_full and nothing is kept."""

from __future__ import annotations

from dataclasses import replace

from engine.core import Engine
from engine.settings import Limits, Settings
from service.app import create_app
from tests.platform.test_engine import started


def test_a_full_table_refuses_more_talk_with_its_own_code(engine: Engine) -> None:
    settings = replace(Settings(), messages_per_game=3, chat_rate=0)
    capped = Engine(engine.redis, engine.scheduler, settings=settings)
    game_id, players = started(capped)
    client = create_app(capped, settings=settings, limits=Limits.off()).test_client()
    tokens = []
    for player in players:  # a token for each seated player, by hand: started() keeps none
        issued = capped.issue_token(player)
        tokens.append({"Authorization": f"Bearer {issued['token']}"})
    said = [client.post(f"/v1/games/{game_id}/messages", json={"text": f"m{i}"}, headers=tokens[i % 2])
            for i in range(3)]
    assert [r.status_code for r in said] == [201, 201, 201]
    full = client.post(f"/v1/games/{game_id}/messages", json={"text": "one more"}, headers=tokens[1])
    assert full.status_code == 409, full.get_data(as_text=True)
    assert full.mimetype == "application/problem+json" and full.get_json()["code"] == "table_talk_full"
    assert [m["text"] for m in capped.messages(game_id, None)] == ["m0", "m1", "m2"]
    # Another game's table is its own.
    other, others = started(capped)
    assert capped.post_message(others[0], other, None, "hello")["text"] == "hello"


def test_the_ceiling_is_a_setting_with_a_default() -> None:
    assert Settings().messages_per_game == 1000
    assert Settings.from_env({"INTRIGUE_MESSAGES_PER_GAME": "5"}).messages_per_game == 5
