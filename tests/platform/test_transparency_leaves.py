"""Each finished game's leaf in the transparency log: what it says, and that it is never lost."""

from __future__ import annotations

import pytest

from engine.core import Engine
from engine.transparency import leaf_of_log
from tests.platform.test_archive import finish, started


def test_a_finished_game_has_one_leaf_that_its_own_log_recomputes(engine: Engine) -> None:
    game_id, players = started(engine)
    assert engine.transparency.leaf(game_id) is None  # not while it is played
    finish(engine, game_id, players)
    index, leaf = engine.transparency.leaf(game_id) or (None, None)
    assert index is not None and leaf == leaf_of_log(engine.store.read(game_id))
    size = engine.transparency.tree.size()
    engine.follow_ups.archive(game_id, engine.load(game_id))  # archiving again adds nothing
    assert engine.transparency.tree.size() == size and engine.transparency.leaf(game_id) == (index, leaf)


def test_reindex_adds_the_leaf_of_a_game_whose_leaf_was_cut_off(engine: Engine, monkeypatch: pytest.MonkeyPatch
                                                                ) -> None:
    """The process died after archiving, before the leaf: ``intrigue reindex`` adds it."""
    game_id, players = started(engine)
    with monkeypatch.context() as patch:
        patch.setattr(engine.transparency, "add", lambda record: -1)
        finish(engine, game_id, players)
    assert engine.store.is_archived(game_id) and engine.transparency.leaf(game_id) is None
    engine.rebuild_indexes()
    found = engine.transparency.leaf(game_id)
    assert found is not None and found[1] == leaf_of_log(engine.store.read(game_id))
