"""Issue 47, item 4: private table talk belongs to the two players, not to their seats.

A and X sit at an open four-seat Coup table; A whispers to X and X answers; X leaves and Y
takes X's seat. Y reads neither message (not in ``GET /messages``, not in the feed), A still
reads both, and Y's own private talk with A from then on is theirs.
"""

from __future__ import annotations

from tests.support.client import Client


def private_texts(reader: Client, game_id: str) -> set[str]:
    listed = reader.get(f"/v1/games/{game_id}/messages")["messages"]
    fed = [item["data"] for item in reader.events(game_id)["events"] if item["type"] == "ChatMessage"]
    assert sorted(m["text"] for m in listed) == sorted(m["text"] for m in fed)
    assert all("players" not in m for m in listed)  # the ids the server keeps are never shown
    return {m["text"] for m in listed if m["to"] is not None}


def test_a_seats_next_occupant_reads_none_of_the_last_ones_private_talk(server: str) -> None:
    a, x, y = (Client.register(server, f"talk-{name}") for name in ("a", "x", "y"))
    game_id = a.create_game("coup", 4)
    seat_a = a.join(game_id)
    seat_x = x.join(game_id)
    a.post(f"/v1/games/{game_id}/messages", {"text": "Shall we share the Duke?", "to": seat_x}, expect=201)
    x.post(f"/v1/games/{game_id}/messages", {"text": "Only until Haig falls", "to": seat_a}, expect=201)
    assert private_texts(x, game_id) == {"Shall we share the Duke?", "Only until Haig falls"}
    x.post(f"/v1/games/{game_id}/leave")
    assert y.join(game_id) == seat_x
    assert private_texts(y, game_id) == set()
    assert private_texts(a, game_id) == {"Shall we share the Duke?", "Only until Haig falls"}
    y.post(f"/v1/games/{game_id}/messages", {"text": "New here", "to": seat_a}, expect=201)
    assert private_texts(y, game_id) == {"New here"}
    assert private_texts(a, game_id) == {"Shall we share the Duke?", "Only until Haig falls", "New here"}
