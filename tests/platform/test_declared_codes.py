"""Problem codes are declared where they are raised, and raised only as declared.

The raise sites are read with ``ast``: a literal code the engine, the HTTP layer or a game
raises and does not declare fails here, and so does a declaration nothing raises.
"""

from __future__ import annotations

import ast
from fnmatch import fnmatchcase
from pathlib import Path

import pytest

from engine.errors import CONFLICT_RULE_CODES, DOMAIN_CODES
from games import registry
from games.action_schema import CHECK_RULE_CODES
from games.base import HELPER_RULE_CODES
from games.table import TABLE_RULE_CODES
from service.answers import HTTP_CODES, problem_codes
from service.app import HTTP_EXCEPTION_CODES
from service.http_errors import SERVER_CODES
from service.openapi import ANYWHERE, operations
from tests.support.declared_codes import ROOT, is_declared, raise_sites, sites_under


def test_every_code_the_engine_and_the_service_raise_is_declared_with_its_status() -> None:
    declared = problem_codes()
    sites = sites_under("engine", "service", "workers", "projections", "events")
    literal = [site for site in sites if site.code is not None]
    assert len(literal) > 50  # the reading finds the raise sites
    undeclared = [str(site) for site in literal if site.code not in declared]
    assert undeclared == []
    wrong_status = [f"{site}: {site.status}, declared {declared[site.code].status}" for site in literal
                    if site.status is not None and declared[site.code].status != site.status]
    assert wrong_status == []


def test_the_engine_and_the_http_layer_declare_a_code_once() -> None:
    assert set(DOMAIN_CODES) & set(HTTP_CODES) == set()


def test_codes_the_http_servers_pick_by_status_are_declared_with_that_status() -> None:
    declared = problem_codes()
    for status, code in {**SERVER_CODES, **HTTP_EXCEPTION_CODES}.items():
        assert declared[code].status == status, code


def test_the_api_reference_lists_only_declared_codes_under_their_status() -> None:
    declared = problem_codes()
    for operation in operations():
        for status, codes in {**operation.problems, **ANYWHERE}.items():
            for code in codes:
                assert code in declared, f"{operation.key}: {code}"
                assert declared[code].status == status, f"{operation.key}: {code} under {status}"


def test_every_declared_platform_code_is_raised_somewhere() -> None:
    raised = {site.code for site in sites_under("engine", "service")} | set(SERVER_CODES.values())
    raised |= set(HTTP_EXCEPTION_CODES.values()) | {"http_error"}
    assert sorted(set(problem_codes()) - raised) == []


@pytest.mark.parametrize("name", registry.available())
def test_every_code_a_game_raises_is_in_its_rule_codes_and_every_declared_one_is_raised(name: str) -> None:
    rules = registry.load(name)
    folder = Path(rules.__file__).parent  # type: ignore[attr-defined]
    sites = sites_under(str(folder.relative_to(ROOT)))
    assert [str(site) for site in sites if site.code is None] == [], "a game raises its codes as literals"
    assert [str(site) for site in sites if not is_declared(site.code or "", rules.RULE_CODES)] == []
    raised = {site.code for site in sites if site.code}
    # The helpers of games.base refuse on the game's behalf: a game that calls one declares its code too.
    called = {node.func.id for path in folder.rglob("*.py") for node in ast.walk(ast.parse(path.read_text()))
              if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
    raised |= {code for function, codes in _helper_codes().items() if function in called for code in codes}
    if "ActionCheck" in called:  # the strict check of games.action_schema refuses on the game's behalf too
        raised |= set(CHECK_RULE_CODES)
    stale = [code for code in rules.RULE_CODES if not any(fnmatchcase(code, pattern) for pattern in raised)]
    assert stale == [], "declared but never raised"
    assert all(meaning and "\n" not in meaning for meaning in rules.RULE_CODES.values())


def _helper_codes() -> dict[str, set[str]]:
    """Each helper function of games.base that refuses, with the declared codes it names."""
    tree = ast.parse((ROOT / "games" / "base.py").read_text())
    found = {}
    for function in tree.body:
        if isinstance(function, ast.FunctionDef):
            named = {node.value for node in ast.walk(function) if isinstance(node, ast.Constant)}
            codes = named & set(HELPER_RULE_CODES)
            if codes:
                found[function.name] = codes
    return found


def test_the_helpers_and_the_table_declare_what_they_raise() -> None:
    helpers = _helper_codes()
    assert set().union(*helpers.values()) == set(HELPER_RULE_CODES)
    literal = {site.code for site in raise_sites(ROOT / "games" / "base.py") if site.code is not None}
    assert literal <= set(HELPER_RULE_CODES)
    table = {site.code for site in raise_sites(ROOT / "games" / "table.py")}
    assert table == set(TABLE_RULE_CODES)
    # A table refuses as the engine does: a rule code that faults the moment is a conflict there too.
    assert set(TABLE_RULE_CODES) == set(CONFLICT_RULE_CODES) <= set(DOMAIN_CODES)
