"""The engine stays a set of parts a reader can name: no module of engine/ grows past 500
lines, the facade only hands out the parts' commands, and a commit answers one way."""

from __future__ import annotations

import inspect
import typing
from pathlib import Path

import engine
from engine.commit import CommitPath
from engine.core import Engine
from engine.outcomes import Committed

ENGINE_DIR = Path(engine.__file__).resolve().parent
MAX_LINES = 500


def test_no_module_of_the_engine_is_over_500_lines() -> None:
    lengths = {path.name: len(path.read_text().splitlines()) for path in sorted(ENGINE_DIR.rglob("*.py"))}
    too_long = {name: count for name, count in lengths.items() if count > MAX_LINES}
    assert not too_long, f"split these modules of engine/ (at most {MAX_LINES} lines each): {too_long}"
    assert "core.py" in lengths and "commit.py" in lengths  # the walk saw the package


def test_every_command_of_the_facade_is_a_part_s_own_method(engine: Engine) -> None:
    """Engine defines no command of its own: each is the bound method of the part that does it,
    so a move's path goes through no wrapper and a reader finds the code where it is named."""
    own = {name for name, value in vars(Engine).items() if inspect.isfunction(value) and not name.startswith("__")}
    assert own == set(), f"Engine defines commands of its own: {sorted(own)}"
    commands = {name: value for name, value in vars(engine).items() if inspect.ismethod(value)}
    assert {"act", "join", "create_game", "advance", "read_page", "player_for_token"} <= set(commands)
    for name, method in commands.items():
        module = method.__self__.__class__.__module__
        assert module.startswith("engine.") and module != "engine.core", (name, module)


def test_a_commit_answers_committed_or_none() -> None:
    """One typed result, tested one way: ``None`` when nothing was appended."""
    answer = typing.get_type_hints(CommitPath.commit)["return"]
    assert set(typing.get_args(answer)) == {Committed, type(None)}
