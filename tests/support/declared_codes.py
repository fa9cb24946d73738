"""The problem codes the project declares, and the codes its source raises, read with ``ast``.

The declarations are where the codes are raised: ``engine.errors.DOMAIN_CODES``,
``service.answers.HTTP_CODES`` (both as ``service.answers.problem_codes()``), each game's
``RULE_CODES``, and the helpers' of ``games.base`` and ``games.table``. This module only
reads them and the raise sites, so a test can hold the two to each other.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from fnmatch import fnmatchcase
from functools import cache
from pathlib import Path

from games import registry
from games.base import HELPER_RULE_CODES
from games.table import TABLE_RULE_CODES
from service.answers import problem_codes
from tests.support import toy

ROOT = Path(__file__).resolve().parents[2]

#: Callables that take a problem code, and where the code is among their positional arguments.
CODE_ARGUMENT = {"Problem": 1, "DomainError": 0, "NotFound": 0, "Forbidden": 0, "Conflict": 0, "NotYourTurn": 0,
                 "Invalid": 0, "Limited": 0, "rule_refusal": 0, "DestinationRefused": 0, "RuleViolation": 0,
                 "InvalidOptions": 0, "whole_number": None, "parse_header_int": 2, "header_int": 1}


@dataclass(frozen=True)
class RaiseSite:
    """One call that names a problem code: the code or a pattern of it, or None when it is passed on."""

    path: Path
    line: int
    function: str
    code: str | None  # a literal, or an f-string as a pattern ("immune_to_*")
    status: int | None  # a Problem's literal status

    def __str__(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line} {self.function}({self.code!r})"


def _callee(node: ast.Call) -> str | None:
    if isinstance(node.func, ast.Name):
        return node.func.id
    if isinstance(node.func, ast.Attribute):
        return node.func.attr
    return None


def _codes(node: ast.expr) -> Iterator[str | None]:
    """The codes an argument may be: a literal, each branch of a conditional, an f-string's pattern."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, ast.IfExp):
        yield from _codes(node.body)
        yield from _codes(node.orelse)
    elif isinstance(node, ast.JoinedStr):
        yield "".join(part.value if isinstance(part, ast.Constant) else "*" for part in node.values)
    else:
        yield None


def raise_sites(path: Path) -> list[RaiseSite]:
    """Every call in ``path`` that names a problem code."""
    sites = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if not isinstance(node, ast.Call) or _callee(node) not in CODE_ARGUMENT:
            continue
        function = _callee(node)
        assert function is not None
        position = CODE_ARGUMENT[function]
        argument = next((kw.value for kw in node.keywords if kw.arg == "code"), None)
        if argument is None and position is not None and len(node.args) > position:
            argument = node.args[position]
        if argument is None:
            continue
        status = None
        if function == "Problem" and node.args and isinstance(node.args[0], ast.Constant):
            status = node.args[0].value
        for code in _codes(argument):
            sites.append(RaiseSite(path, node.lineno, function, code, status))
    return sites


def sites_under(*folders: str) -> list[RaiseSite]:
    return [site for folder in folders for path in sorted((ROOT / folder).rglob("*.py"))
            for site in raise_sites(path)]


def is_declared(code: str, declared: set[str] | dict[str, object]) -> bool:
    """Whether ``code`` (or, for an f-string's pattern, some code it stands for) is declared."""
    return code in declared or ("*" in code and any(fnmatchcase(name, code) for name in declared))


def game_codes() -> dict[str, str]:
    """Every rule and option code any game may refuse with (the test toy's too)."""
    codes = {**HELPER_RULE_CODES, **TABLE_RULE_CODES, **toy.RULE_CODES}
    for name in registry.available():
        codes.update(registry.load(name).RULE_CODES)
    return codes


@cache
def every_declared_code() -> frozenset[str]:
    """What an answer of the API may carry as its ``code``."""
    return frozenset(problem_codes()) | frozenset(game_codes())
