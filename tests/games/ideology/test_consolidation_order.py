"""Consolidation is a function of the state's value, not of how its map happens to be spelled.

A state folded from a log has its regions keyed in sorted order; one folded from fresh
drafts kept the data file's order. A worker once resolved from the latter while the audit
replayed the former, and the two disagreed on the order of the regions lost (issue 27).
"""

from __future__ import annotations

import json
import random

from games.ideology import board as b
from games.ideology import rules

from .helpers import edit, put, seat_of, table


def test_regions_lost_together_are_listed_in_id_order_whatever_the_maps_order() -> None:
    t = table(3, ["imperialism", "capitalism", "fascism"])
    imperialist = seat_of(t, "imperialism")
    for rid in ("united_states", "germany"):  # the data file lists the United States first
        put(t, rid, imperialist, military=3, economic=3, cultural=3)  # 9 against 9: no strict majority
    state = edit(t)
    state["phase"] = b.CONSOLIDATION
    map_order = {**state, "regions": {rid: state["regions"][rid] for rid in state["board"]["regions"]}}
    reversed_order = {**state, "regions": dict(reversed(list(state["regions"].items())))}
    drawn = [json.dumps([e.type, e.data]) for e in rules.resolve(map_order, random.Random(1))]
    assert [json.dumps([e.type, e.data]) for e in rules.resolve(reversed_order, random.Random(1))] == drawn
    consolidated = json.loads(drawn[0])
    assert consolidated[0] == "RegionsConsolidated" and consolidated[1]["lost"] == ["germany", "united_states"]
