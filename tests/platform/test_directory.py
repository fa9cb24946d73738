"""The players' name index (engine/directory.py): written with the registration, read by prefix,
and rebuilt for players registered before it existed."""

from __future__ import annotations

from engine.core import Engine
from engine.directory import backfill, find_by_prefix, names_key


def test_a_registration_is_found_by_any_case_prefix_and_no_further(engine: Engine) -> None:
    anna, _ = engine.create_player("Anna")
    anton, _ = engine.create_player("anton")
    engine.create_player("Bo")
    found = find_by_prefix(engine.redis, engine.keys, "AN")
    assert found == [{"id": anna.id, "name": "Anna"}, {"id": anton.id, "name": "anton"}]
    assert find_by_prefix(engine.redis, engine.keys, "ann") == [{"id": anna.id, "name": "Anna"}]
    assert find_by_prefix(engine.redis, engine.keys, "annabel") == []
    assert len(find_by_prefix(engine.redis, engine.keys, "a", limit=1)) == 1


def test_backfill_indexes_players_registered_before_the_index(engine: Engine) -> None:
    old, _ = engine.create_player("Olga")
    engine.redis.delete(names_key(engine.keys))  # as a server before issue 51 left it
    assert find_by_prefix(engine.redis, engine.keys, "ol") == []
    assert backfill(engine.redis, engine.keys) >= 1
    assert find_by_prefix(engine.redis, engine.keys, "ol") == [{"id": old.id, "name": "Olga"}]
    assert backfill(engine.redis, engine.keys) >= 1  # again: nothing doubles
    assert find_by_prefix(engine.redis, engine.keys, "ol") == [{"id": old.id, "name": "Olga"}]
