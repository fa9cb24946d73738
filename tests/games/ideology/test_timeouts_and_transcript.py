"""The documented default of every decision, and the transcript's lines for a worked example."""

from __future__ import annotations

from games.ideology import board as b
from games.ideology import rules
from games.ideology.describe import describe

from .helpers import check_invariants, empty_hand, give, put, seat_of, set_advancements, start_phase, table


def test_every_awaited_kind_has_its_documented_default() -> None:
    t = table(2, ["fascism", "imperialism"])
    fascist, imperialist = seat_of(t, "fascism"), seat_of(t, "imperialism")
    first = t.current["order"][0]
    assert rules.on_timeout(t.current, first) == {"type": "exchange", "discard": {}}
    before = list(t.current["hands"][first])
    t.timeout(first)
    assert t.current["hands"][first] == before
    start_phase(t, b.DEVELOPMENT, first=fascist)
    assert rules.on_timeout(t.current, fascist) == {"type": "done"}
    start_phase(t, b.FOREIGN, first=fascist)
    assert rules.on_timeout(t.current, fascist) == {"type": "pass"}
    start_phase(t, b.CONFLICT, first=fascist)
    assert rules.on_timeout(t.current, fascist) == {"type": "pass"}
    put(t, "germany", imperialist, cultural=1)
    give(t, fascist, cultural=2)
    give(t, imperialist, cultural=1)
    t.act(fascist, {"type": "attack", "region": "germany", "influence": "cultural", "target": imperialist},
          settle=False)
    assert rules.on_timeout(t.current, imperialist) == {"type": "concede"}
    t.act(imperialist, {"type": "cancel"}, settle=False)
    assert rules.on_timeout(t.current, fascist) == {"type": "stop"}
    t.timeout(fascist)
    assert t.current["conflict"] is None and t.awaiting() == {imperialist: "conflict"}
    start_phase(t, b.DIPLOMACY)
    assert rules.on_timeout(t.current, fascist) == {"type": "offer", "offers": {}}
    check_invariants(t.current)


def test_a_silent_resources_discard_drops_the_newest_cards() -> None:
    t = table(2, ["fascism", "imperialism"])
    fascist = seat_of(t, "fascism")
    empty_hand(t, fascist)
    give(t, fascist, military=3, cultural=2)
    state = dict(t.current)
    state["phase"] = b.RESOURCES
    state["owed"] = [0, 0]
    state["owed"][fascist] = 2
    t.state = state
    assert rules.on_timeout(t.current, fascist) == {"type": "discard",
                                                    "discard": {"military": 0, "economic": 0, "cultural": 2}}
    t.timeout(fascist)
    assert b.count_types(t.current["hands"][fascist]) == {"military": 3, "economic": 0, "cultural": 0}


def test_the_indonesia_conflict_reads_as_the_rulebook_tells_it() -> None:
    t = table(2, ["fascism", "imperialism"])
    fascist, imperialist = seat_of(t, "fascism"), seat_of(t, "imperialism")
    put(t, "indonesia", imperialist, economic=1)
    set_advancements(t, imperialist, industry=2)
    set_advancements(t, fascist, industry=1)
    start_phase(t, b.CONFLICT, first=fascist)
    empty_hand(t, fascist)
    empty_hand(t, imperialist)
    give(t, fascist, economic=4)
    give(t, imperialist, economic=1)
    start = len(t.events)
    before = t.current
    t.act(fascist, {"type": "attack", "region": "indonesia", "influence": "economic", "target": imperialist},
          settle=False)
    t.act(imperialist, {"type": "cancel"}, settle=False)
    t.act(fascist, {"type": "continue"}, settle=False)
    t.act(imperialist, {"type": "concede"}, settle=False)
    t.act(imperialist, {"type": "pass"}, settle=False)
    lines = []
    for event in t.events[start:]:
        after = rules.evolve(before, event)
        lines.append(describe(before, event, after))
        before = after
    assert lines[0].startswith(f"Turn 1, conflict - seat {fascist} (Fascism) attacks Imperialism in Indonesia "
                               "with an economic card after paying 2 penalty card(s)")
    assert lines[1] == f"Turn 1, conflict - seat {imperialist} (Imperialism) cancels the attack with an economic card"
    assert lines[2] == f"Turn 1, conflict - seat {fascist} (Fascism) presses on with another economic card"
    assert lines[3] == (f"Turn 1, conflict - seat {imperialist} (Imperialism) concedes: Fascism's economic card "
                        "replaces one of its own in Indonesia")
    assert lines[4] is None  # a pass is not worth a line
