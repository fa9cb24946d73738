"""Every problem code answers one status, in every game and from every layer.

The declarations: each operation's problem codes in the API reference, each game's rule
codes (a refusal's status is ``rule_status``), and the README's table of codes.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

from games import registry
from games.shapes import rule_codes
from service.openapi import operations
from service.problem_status import rule_status

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")


def declared_statuses() -> dict[str, set[int]]:
    found: dict[str, set[int]] = defaultdict(set)
    for operation in operations():
        for status, codes in operation.problems.items():
            for code in codes:
                found[code].add(status)
    for name in registry.available():
        for code in rule_codes(registry.load(name)):
            found[code].add(rule_status(code))
    return found


def readme_rows() -> dict[str, list[set[int]]]:
    """Code -> the statuses of each README row that lists it (a row may name several statuses)."""
    table = README.split("| status | codes |", 1)[1].split("\n\n", 1)[0]
    rows: dict[str, list[set[int]]] = defaultdict(list)
    for line in table.splitlines():
        cells = line.split("|")
        if len(cells) < 3 or not re.match(r"\s*\d{3}", cells[1]):
            continue
        statuses = {int(status) for status in re.findall(r"\d{3}", cells[1])}
        for code in set(re.findall(r"`([a-z_]+)`", cells[2])):
            rows[code].append(statuses)
    return rows


def test_every_declared_code_answers_one_status() -> None:
    several = {code: sorted(statuses) for code, statuses in declared_statuses().items() if len(statuses) > 1}
    assert several == {}


def test_not_your_turn_and_game_over_are_409_whoever_raises_them() -> None:
    for code in ("not_your_turn", "game_over"):
        assert declared_statuses()[code] == {409}
        assert rule_status(code) == 409


def test_the_readme_lists_each_code_in_one_row_under_its_status() -> None:
    rows = readme_rows()
    assert {code: found for code, found in rows.items() if len(found) > 1} == {}
    wrong = {code: (sorted(statuses), sorted(rows[code][0])) for code, statuses in declared_statuses().items()
             if code in rows and not statuses <= rows[code][0]}
    assert wrong == {}
