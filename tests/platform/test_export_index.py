"""The export's index of each player's finished games: written by the commit that ends a game,
ordered by the end, read from any moment on, and rebuilt by ``intrigue reindex``."""

from __future__ import annotations

from engine.core import Engine
from engine.export import finished_key
from events.envelope import parse_time


def test_finished_games_are_indexed_by_their_end_and_rebuilt(engine: Engine) -> None:
    host, guest = engine.create_player("exporter")[0], engine.create_player("guest")[0]
    ended = []
    for _ in range(3):
        game_id = engine.create_game(host, "coup", 2, {}, {"seconds_per_move": 3600})["id"]
        engine.join(host, game_id)
        engine.join(guest, game_id)
        engine.resign(guest, game_id)
        ended.append(game_id)
    unfinished = engine.create_game(host, "coup", 2, {}, {"seconds_per_move": 3600})["id"]
    engine.join(host, unfinished)

    def listed(player_id: str, since: float | None = None) -> list[str]:
        records = list(engine.finished_games(player_id, since))
        ends = [parse_time(r["updated_at"]) for r in records]
        assert ends == sorted(ends)  # oldest end first (games ending in one millisecond: in id order)
        return sorted(r["id"] for r in records)

    assert listed(host.id) == sorted(ended)
    last = engine.load(ended[-1])
    assert ended[-1] in listed(guest.id, parse_time(last["updated_at"]).timestamp())
    assert ended[0] not in listed(guest.id, parse_time(last["updated_at"]).timestamp() + 0.001)
    engine.redis.delete(finished_key(engine.keys, host.id))
    assert listed(host.id) == []
    engine.rebuild_indexes()
    assert listed(host.id) == sorted(ended)
