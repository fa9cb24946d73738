"""Hidden information in Pax Porfiriana: hands, the draw order and the unused cards.

A seat sees its own hand; of another seat's hand only how many cards it holds. Nobody
sees the order of the draw pile or which cards stayed in the box, not even in the
GameSetUp event. Purchases are public (the market is face up and everybody watches
the card taken), so the feed may name a bought card; the view never lists another
seat's hand.

Checked by masking over random games: every card hidden from a viewer is replaced by a
marker in the state and in the raw events; the viewer's view and redacted feed must not
change. Errors are checked to read the same whatever the hidden cards are.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games.pax as pax
from games.base import RuleViolation
from games.pax.fold import copy_state
from games.table import Table, TableEvent

from .helpers import edit, give, scenario

#: Random games for the masking property: 12 under the default profile, 400 under ``long``.
GAMES = max(12, settings.default.max_examples // 50)


def random_game(seats: int, seed: int) -> Table:
    rng = random.Random(seed)
    t = Table(pax, seats, {}, seed=f"views-{seed}")  # type: ignore[arg-type]
    for _ in range(20_000):
        if t.outcome is not None:
            return t
        (seat,) = t.awaiting()
        legal = pax.legal_actions(t.current, seat)
        buys = [a for a in legal if a["type"] == "buy"]
        t.act(seat, rng.choice(buys if buys and rng.random() < 0.4 else legal))
    raise AssertionError("the game did not end")


def mask_state(state: dict[str, Any], viewer: int | None) -> dict[str, Any]:
    masked = copy_state(state)
    counter = iter(range(10**6))
    masked["deck"] = [f"secret-{next(counter)}" for _ in masked["deck"]]
    masked["box"] = [f"secret-{next(counter)}" for _ in masked["box"]]
    for seat, player in enumerate(masked["players"]):
        if seat != viewer:
            player["hand"] = [f"secret-{next(counter)}" for _ in player["hand"]]
    return masked


def mask_event(event: TableEvent) -> TableEvent:
    data = json.loads(json.dumps(event.data))
    if event.type == "GameSetUp":
        data["deck"] = [f"secret-{i}" for i, _ in enumerate(data["deck"])]
        data["box"] = [f"secret-b{i}" for i, _ in enumerate(data["box"])]
    return TableEvent(event.seq, event.type, data, event.actor)


@settings(max_examples=GAMES)
@given(seats=st.sampled_from([2, 3, 5]), seed=st.integers(0, 2**32 - 1))
def test_views_and_feeds_never_depend_on_cards_hidden_from_the_viewer(seats: int, seed: int) -> None:
    t = random_game(seats, seed)
    state = None
    for index, event in enumerate(t.events):
        state = pax.evolve(state, event)
        if index % 7 and index != len(t.events) - 1:
            continue  # every seventh state is plenty: each one is checked for every viewer
        for viewer in [None, *range(seats)]:
            assert pax.view(state, viewer) == pax.view(mask_state(state, viewer), viewer)
    for event in t.events:
        for viewer in [None, *range(seats)]:
            assert pax.redact(event, viewer) == pax.redact(mask_event(event), viewer)


def test_a_view_shows_its_own_hand_and_only_counts_of_the_others() -> None:
    t = scenario()
    edit(t, lambda s: (give(s, 0, "wobblies"), give(s, 1, "ley_de_fuga", "indian_fighters")))
    mine = pax.view(t.current, 0)
    assert mine["hand"] == ["wobblies"] and "wobblies" in mine["cards"]
    assert [p["hand_count"] for p in mine["players"]] == [1, 2, 0]
    text = json.dumps(mine)
    assert "ley_de_fuga" not in text and "indian_fighters" not in text
    spectator = pax.view(t.current, None)
    assert "hand" not in spectator and "wobblies" not in json.dumps(spectator)
    assert t.current["deck"][0] not in json.dumps(spectator)


def test_the_setup_event_hides_the_draw_pile_and_the_box_from_everyone() -> None:
    t = Table(pax, 4, {}, seed="setup-secret")  # type: ignore[arg-type]
    setup = t.events[0]
    for viewer in [None, 0, 1, 2, 3]:
        data = pax.redact(setup, viewer)
        assert "deck" not in data and "box" not in data
        assert data["deck_count"] == len(setup.data["deck"])
        hidden = set(setup.data["deck"]) | set(setup.data["box"])
        view = pax.view(t.current, viewer)
        assert not hidden & set(view["cards"]) and not hidden & set(view["names"])


@pytest.mark.parametrize("action", [
    {"type": "play", "card": "minas_prietas"},
    {"type": "sell", "card": "minas_prietas"},
    {"type": "buy", "card": "minas_prietas"},
    {"type": "speculate", "card": "minas_prietas"},
])
def test_errors_read_the_same_whether_a_card_is_in_a_rivals_hand_or_in_the_deck(action: dict) -> None:
    messages = []
    for where in ("rival", "deck"):
        t = scenario()
        if where == "rival":
            edit(t, lambda s: give(s, 1, "minas_prietas"))
        assert ("minas_prietas" in t.current["deck"]) == (where == "deck")
        with pytest.raises(RuleViolation) as err:
            pax.decide(t.current, 0, action, t.rng())
        messages.append((err.value.code, err.value.message))
    assert messages[0] == messages[1]
