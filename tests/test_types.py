"""Types are checked: the README's test command runs mypy over the layers below the HTTP and
worker fronts, and every ``# type: ignore`` left in them says why."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHECKED = ["games", "events", "projections", "engine", "bots"]
IGNORE = re.compile(r"#\s*type:\s*ignore(\[[^\]]*\])?(?P<after>.*)$")


def test_mypy_checks_the_layers_in_the_test_command() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert config["files"] == CHECKED and config.get("warn_unused_ignores") is True
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    command = ci[ci.index("# The README's test command:") + 1]
    assert "&& mypy &&" in command, command


def unexplained(lines: list[str]) -> list[int]:
    """Numbers (from 1) of the lines with a ``type: ignore`` and no reason, beside it or just above."""
    found = []
    for number, line in enumerate(lines):
        match = IGNORE.search(line)
        if match is None:
            continue
        said_after = re.fullmatch(r"\s*#\s*\S.*", match.group("after"))
        said_above = number > 0 and lines[number - 1].strip().startswith("#")
        if not (said_after or said_above):
            found.append(number + 1)
    return found


def test_every_type_ignore_says_why() -> None:
    files = [path for package in CHECKED for path in sorted((ROOT / package).rglob("*.py"))
             if ".venv" not in path.parts]
    assert len(files) > 50  # the walk saw the packages
    silent = [f"{path.relative_to(ROOT)}:{number}" for path in files
              for number in unexplained(path.read_text(encoding="utf-8").splitlines())]
    assert not silent, f"a type: ignore with no reason beside it or on the line above: {silent}"


def test_the_check_of_reasons_tells_one_from_the_other() -> None:
    assert unexplained(["a = f()  # type: ignore[arg-type]",
                        "b = f()  # type: ignore[arg-type]  # f is untyped here",
                        "# g's stub is wrong about None",
                        "c = g()  # type: ignore"]) == [1]
