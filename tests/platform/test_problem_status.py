"""Every problem code answers one status, in every game and from every layer.

The declarations: the platform's codes with their statuses (``service.answers.problem_codes``),
each operation's problem codes in the API reference, each game's ``RULE_CODES`` (a refusal's
status is ``rule_status``); the README's table of codes is checked against them.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

from games import registry
from service.answers import problem_codes
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
        for code in registry.load(name).RULE_CODES:
            found[code].add(rule_status(code))
    for code, declared in problem_codes().items():
        if declared.status is not None:
            found[code].add(declared.status)
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
        codes = re.sub(r"\([^()]*\)", "", cells[2])  # a remark in parentheses names no code
        for code in set(re.findall(r"`([a-z_]+)`", codes)):
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


def test_the_readme_table_and_the_platform_declaration_agree() -> None:
    """Each code the platform declares is in the README's table under its status, and the table names no other."""
    rows = readme_rows()
    declared = problem_codes()
    missing = sorted(set(declared) - set(rows))
    assert missing == [], "declared, not in the README's table"
    unknown = sorted(set(rows) - set(declared))
    assert unknown == [], "in the README's table, not declared"
    wrong = {code: (code_of.status, sorted(rows[code][0])) for code, code_of in declared.items()
             if code_of.status is not None and code_of.status not in rows[code][0]}
    assert wrong == {}
