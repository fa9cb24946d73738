"""Transcripts: the platform's lines, each game's describer, a plain line for a game without one, chat in place."""

from __future__ import annotations

from engine.core import Engine
from games.coup import components as coup
from projections.transcript import transcript


def test_a_game_without_a_describer_still_gets_a_transcript_with_the_chat_in_place(engine: Engine) -> None:
    players = [engine.create_player(name)[0] for name in ("ada", "bo")]
    game_id = engine.create_game(players[0], "toy", 2, {}, {"seconds_per_move": 60})["id"]
    for player in players:
        engine.join(player, game_id)
    engine.chat.post(game_id, 0, None, "good luck")
    for _ in range(2):  # seat 0 picks 3 and seat 1 picks 2: seat 0 scores twice and wins
        engine.act(players[0], game_id, {"type": "pick", "number": 3})
        engine.chat.post(game_id, 1, 0, "hmm")
        engine.act(players[1], game_id, {"type": "pick", "number": 2})  # its commit reveals both picks
    assert engine.load(game_id)["status"] == "finished"

    lines = transcript(engine.store.read(game_id), engine.chat.all(game_id)).splitlines()
    assert lines[0] == f"toy for 2 seats (game {game_id})"
    assert lines[1] == "The game starts: seat 0 (ada), seat 1 (bo)"
    assert lines[2] == "    [chat] seat 0 (ada) to everyone: good luck"
    # The toy game has no describe(): a plain line per seat decision, none for system steps.
    assert lines[3:7] == ["seat 0 (ada): Picked", "    [chat] seat 1 (bo) to seat 0 (ada): hmm",
                          "seat 1 (bo): Picked", "seat 0 (ada): Picked"]
    assert lines[-1] == "The game ends (two points): seat 0 (ada) wins"
    assert sum(line.endswith("Picked") for line in lines) == 4


def test_a_scenarios_first_line_says_that_its_creator_fixed_the_hidden_cards(engine: Engine) -> None:
    creator = engine.create_player("ada")[0]
    fixed = engine.create_game(creator, "coup", 3, {"deck": list(coup.FULL_DECK)}, {"seconds_per_move": 60})["id"]
    shuffled = engine.create_game(creator, "coup", 3, {}, {"seconds_per_move": 60})["id"]
    assert transcript(engine.store.read(fixed), []).splitlines()[0] == (
        f"coup for 3 seats (game {fixed}); a scenario: its creator fixed the hidden cards")
    assert transcript(engine.store.read(shuffled), []).splitlines()[0] == f"coup for 3 seats (game {shuffled})"
