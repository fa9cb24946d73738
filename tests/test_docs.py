"""The README and the docs: every declared problem code listed, only files of this repository cited,
"the two commands" kept to two, and the README a front door (short, one benchmark table)."""

from __future__ import annotations

import re
from pathlib import Path

from service.answers import problem_codes

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "games").glob("*/README.md"))]


def test_the_readme_lists_every_problem_code() -> None:
    codes = set(problem_codes())  # declared where raised; tests/platform/test_declared_codes.py holds them to it
    assert {"bad_if_match", "headers_too_large", "method_not_allowed", "store_unavailable"} <= codes
    missing = sorted(code for code in codes if f"`{code}`" not in README)
    assert not missing, f"problem codes missing from the README's table: {missing}"


def cited_paths(text: str) -> list[str]:
    """Backticked words that name a file or folder (not URLs, API paths or commands)."""
    found = []
    for token in re.findall(r"`([^`\s]+)`", text):
        if token.startswith(("/", "./", "http", "$", "-", "application/", "text/")) or "://" in token or "=" in token:
            continue
        if "/" in token or re.search(r"\.(md|py|json|toml|yml|yaml|txt|cfg|ini)$", token):
            found.append(token)
    return found


def exists(base: Path, pattern: str) -> bool:
    return any(base.glob(pattern) if "/" in pattern else base.rglob(pattern))


def test_the_docs_cite_only_files_in_the_repository() -> None:
    outside = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        # A scratch folder in a command (/tmp/peer) is fine; a file cited from outside is not.
        cited_outside = r"/work/\S*|shared/\w\S*|/tmp/\S+\.(?:py|md|txt|json|csv)\b"
        outside += [f"{doc.relative_to(ROOT)}: {m}" for m in re.findall(cited_outside, text)]
        for cited in cited_paths(text):
            pattern = re.sub(r"<[^>]+>", "*", cited).rstrip("/")
            # A bare file name ("test_end_of_game.py") may live anywhere below the document or the root.
            if not any(exists(base, pattern) for base in (ROOT, doc.parent)):
                outside.append(f"{doc.relative_to(ROOT)}: {cited}")
    assert not outside, f"cited but not in the repository: {outside}"
    assert (ROOT / ".ci" / "run").exists()


def test_the_two_commands_are_two() -> None:
    section = README.split("## The two commands", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```\w*\n(.*?)```", section, flags=re.S)
    assert len(blocks) == 2 and all(len(block.strip().splitlines()) == 1 for block in blocks), blocks


def test_the_readme_is_a_front_door() -> None:
    """At most 350 lines; its benchmarks are one current table and the command that made it,
    the dated runs and the history being docs/performance.md's."""
    assert len(README.splitlines()) <= 350, f"the README has {len(README.splitlines())} lines (at most 350)"
    section = README.split("## Benchmarks", 1)[1].split("\n## ", 1)[0]
    tables = re.findall(r"^\|---", section, flags=re.M)
    commands = re.findall(r"```\w*\n(.*?)```", section, flags=re.S)
    assert len(tables) == 1 and len(commands) == 1 and "bench/side_by_side.py" in commands[0], (tables, commands)
    assert "docs/performance.md" in section
