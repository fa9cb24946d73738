"""The SDK README's bot, word for word, plays every title to its end against the server's bots.

Each game seats the README program (run as a program, configured by environment variables
as the README says) at one seat and the server's bots at the others, on the shared server
with its small bot budget. Small games keep the run short: two seats where the title allows,
and a low turn cap for Ideology and Pax Porfiriana.

Beyond finishing, the program must answer each decision once: in the stored log, every batch
its seat caused began while the game awaited that seat (never a revision of a sealed bid or
offer, which is what kept an earlier ``Bot.play`` re-bidding on every view it was sent).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from intrigue_client import Client

from events.envelope import Envelope
from projections.audit import game_events, read_log
from projections.record import fold
from tests.integration.sdk.test_readme_bot import readme_bot_code

#: (title, seats, options, the server's bots): every title, as small as it plays.
TABLES = [
    ("coup", 2, {}, {"1": "ismcts"}),
    ("revolution", 3, {}, {"1": "ismcts", "2": "random"}),
    ("ideology", 2, {"max_turns": 2}, {"1": "ismcts"}),
    ("pax", 2, {"max_turns": 10}, {"1": "random"}),
]


@pytest.mark.parametrize(("title", "seats", "options", "bots"), TABLES, ids=[table[0] for table in TABLES])
def test_the_readme_bot_finishes_each_title_against_server_bots(server: str, tmp_path: Path, title: str, seats: int,
                                                                options: dict[str, Any], bots: dict[str, str]) -> None:
    person = Client.register(server, f"readme-{title}")
    game_id = person.create_game(title, seats, options=options, bots=bots)["id"]
    program = tmp_path / "random_bot.py"
    program.write_text(readme_bot_code())
    env = {**os.environ, "INTRIGUE_URL": server, "INTRIGUE_TOKEN": person.token or "", "INTRIGUE_GAME": game_id}
    done = subprocess.run([sys.executable, str(program)], env=env, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-2000:]

    final = person.game(game_id)
    assert final["status"] == "finished", final["status"]
    assert f"winners: {final['winners']}" in done.stdout
    published = read_log(person.log_ndjson(game_id).decode().splitlines())
    assert_each_decision_answered_once(game_events(published), final["seat"])  # without the signed final record


def assert_each_decision_answered_once(events: list[Envelope], seat: int) -> None:
    """Every batch ``seat``'s player posted began while the game awaited that seat (no revision)."""
    record = None
    answered = 0
    for event in game_events(events):  # the game's own events: no orders, no signed final record
        if event.cause.get("kind") == "player" and event.cause.get("batch") == event.seq:
            assert event.cause["seat"] == seat
            assert record is not None and record["awaiting"][seat] is not None, \
                f"event {event.seq}: the seat posted for a decision it had already answered"
            answered += 1
        record = fold(record, event)
    assert answered > 0, "the seat played"
