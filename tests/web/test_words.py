"""Every event of every game is told in words in the table's log ("What happened"), as a
seat sees it live (redacted) and as everyone sees it once the game is over (whole).

The events are real: random legal play of each game (games/table.py) to its end, plus the
few kinds random play seldom reaches, written as the rules write them. Each game's page
module describes them in the browser; no line may be empty or show a raw event type, a
field name or an identifier.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import expect

from events.envelope import PLATFORM_EVENTS
from games import registry
from games.table import Table
from tests.web.conftest import Player

GAMES = ("coup", "revolution", "ideology", "pax")
#: Kinds random play seldom reaches in a few games, as the rules write them.
RARE = {"ideology": [
    {"type": "AttackCancelled", "data": {"defender": 1, "card": "capitalism:m4"}},
    {"type": "AttackRenewed", "data": {"attacker": 0, "card": "imperialism:c9"}},
    {"type": "ConflictAbandoned", "data": {"attacker": 0, "defender": 1}},
]}
PLATFORM = [
    {"type": "GameCreated", "data": {"id": "abc", "game": "coup", "seats": 3, "bots": {"2": "ismcts"}}},
    {"type": "PlayerJoined", "data": {"seat": 1, "player": {"id": "p1", "name": "Sacha"}}},
    {"type": "GameStarted", "data": {}},
    {"type": "DeadlineMissed", "data": {"seat": 1, "misses": 1, "autoplay": True}},
    {"type": "PlayerLeft", "data": {"seat": 1}},
    {"type": "GameCancelled", "data": {"by": "p0"}},
    {"type": "SeatResigned", "data": {"seat": 2}},
    {"type": "GameEnded", "data": {"winners": [0], "reason": "last_standing", "seed": "x"}},
    {"type": "RevealsAwaited", "data": {"until": "2026-11-29T12:00:00.000Z"}},
    {"type": "SecretRevealed", "data": {"seat": 1}},
    {"type": "GameStarted", "data": {"entropy": {"0": "revealed", "1": "dropped"}, "dropped": [1]}},
    {"type": "VacationStarted", "data": {"seat": 1, "until": "2026-12-06T11:00:00.000000Z"}},
    {"type": "VacationEnded", "data": {"seat": 1}},
    {"type": "SeatSubstituted", "data": {"seat": 2, "player": {"id": "p3", "name": "Boris"}}},
]
#: A raw type ("BidPlaced"), a snake_case id, or a value that leaked unformatted.
RAW = re.compile(r"\b[A-Z][a-z]+[A-Z][A-Za-z]*\b|\b[a-z]+_[a-z_]+\b|undefined|\[object|\bnull\b|NaN|\{|\}")


def sample_events(game: str) -> list[dict[str, Any]]:
    """Events of a few random games of ``game``: whole, and as seat 0 and a spectator see them."""
    rules = registry.load(game)
    items: list[dict[str, Any]] = []
    for index, seats in enumerate(sorted({rules.MIN_SEATS, min(rules.MAX_SEATS, 4), rules.MAX_SEATS})):
        table = Table(rules, seats, {}, seed=f"words-{index}")
        try:
            table.play_randomly(random.Random(index), max_steps=2500)
        except AssertionError:
            pass  # a long game stopped early still holds its events
        for event in table.events:
            items.append({"type": event.type, "data": json.loads(json.dumps(event.data)), "seats": seats})
            for seat in (0, None):
                shown = rules.redact(event, seat)
                if shown is not None:
                    items.append({"type": event.type, "data": json.loads(json.dumps(shown)), "seats": seats})
    return items + RARE.get(game, [])


def test_every_event_of_every_game_has_words(players: Callable[..., Player]) -> None:
    person = players("Reader")
    person.open("/")
    expect(person.page.locator("main")).not_to_be_empty()
    for game in GAMES:
        module = __import__(f"games.{game}.fold", fromlist=["EVENT_TYPES"])
        items = sample_events(game)
        seen = {item["type"] for item in items}
        missing = set(module.EVENT_TYPES) - seen
        assert not missing, f"{game}: no sample of {missing}"
        lines = person.page.evaluate("""async ([game, items]) => {
            const {describePlatform} = await import("/static/games/platform.js");
            const table = (await import(`/static/games/${game}.js`))[game];
            const seatName = (s) => `Seat ${s}`;
            const feed = [];
            return items.map((item) => {
                feed.push(item);
                const players = Array.from({length: item.seats || 3}, () => null);
                const shown = {game, players, view: null};
                const line = describePlatform(item, {seatName, feed}) ?? table.describe(item, shown, {seatName, feed});
                return [item.type, line];
            });
        }""", [game, items + PLATFORM])
        wrong = sorted({f"{kind}: {line!r}" for kind, line in lines
                        if not isinstance(line, str) or not line.strip() or kind in line or RAW.search(line)})
        assert not wrong, f"{game}: lines without words or with raw names:\n" + "\n".join(wrong[:40])
        told = {kind for kind, _ in lines}
        assert told >= set(module.EVENT_TYPES) | PLATFORM_EVENTS
