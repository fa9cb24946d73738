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

from .helpers import edit, give, place_enterprise, scenario, set_gold

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


# --- Cubes on the table are public (issue 27, item 3) ------------------------------------------

def seen_cubes(view: dict[str, Any], seat: int) -> int:
    """Every cube of ``seat`` a view shows, wherever it lies on the table."""
    total = 0
    for owner in view["players"]:
        for ent in owner["enterprises"]:
            total += (ent["income"] if owner["seat"] == seat else 0) + (ent["extortion"] == seat)
            total += sum(holder == seat for holder in ent["connections"])
    total += sum(slot["speculator"] == seat for row in view["market"] for slot in row if slot is not None)
    player = view["players"][seat]
    return total + player["hacendado"]["income_cubes"] + sum(player["bribes"].values())


def check_cubes_in_views(t: Table) -> None:
    for viewer in (None, *range(t.seats)):
        view = pax.view(t.current, viewer)
        for seat, player in enumerate(view["players"]):
            assert seen_cubes(view, seat) + player["supply"] == 15, (viewer, seat)
            on_cards = {e["card"]: e["bribes"] for e in player["enterprises"]}
            on_cards |= {p["card"]: p["bribes"] for p in player["partners"]}
            on_cards |= {e["troop"]["card"]: e["troop"]["bribes"] for o in view["players"] for e in o["enterprises"]
                         if e["troop"] is not None and e["troop"]["owner"] == seat}
            on_cards |= {card: player["bribes"].get(card, 0) for card in player["army"]}
            assert {k: v for k, v in on_cards.items() if v} == player["bribes"]


def test_a_bribe_cube_on_a_troops_loyalty_icon_is_in_every_view() -> None:
    t = scenario()
    edit(t, lambda s: (place_enterprise(s, 1, "juarez_customs_house"), give(s, 0, "terrazas_vaqueros"),
                       set_gold(s, 0, 10)))
    supply = t.current["players"][0]["supply"]
    t.act(0, {"type": "play", "card": "terrazas_vaqueros", "to": "juarez_customs_house"})
    assert t.current["players"][0]["supply"] == supply - 2  # the extortion cube and the bribe cube
    for viewer in (None, 0, 1, 2):
        view = pax.view(t.current, viewer)
        house = next(e for e in view["players"][1]["enterprises"] if e["card"] == "juarez_customs_house")
        assert house["troop"] == {"card": "terrazas_vaqueros", "owner": 0, "bribes": 1}
        assert view["players"][0]["bribes"] == {"terrazas_vaqueros": 1}
    check_cubes_in_views(t)


@pytest.mark.parametrize("seed", range(3))
def test_the_cubes_a_view_shows_add_up_with_the_supply_to_fifteen(seed: int) -> None:
    rng = random.Random(seed)
    t = Table(pax, 4, {}, seed=f"cubes-{seed}")  # type: ignore[arg-type]
    for step in range(3000):
        if t.outcome is not None:
            break
        if step % 7 == 0:
            check_cubes_in_views(t)
        (seat,) = t.awaiting()
        legal = pax.legal_actions(t.current, seat)
        troops = [a for a in legal if a["type"] in ("play", "redeploy") and "to" in a]
        t.act(seat, rng.choice(troops if troops and rng.random() < 0.5 else legal))
    check_cubes_in_views(t)
