"""The project's layers stay drawn: no circle of imports between files, none upward.

Every import is read from the source with ``ast`` (those inside functions too), so an
import tucked into a function to dodge a circle is caught as well as one at the top.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: The top-level packages from the bottom up; a package may import those of lower rank.
#: service and workers share a rank: peers that must not import each other.
RANKS = {"games": 0, "bots": 1, "events": 2, "projections": 3, "engine": 4, "service": 5, "workers": 5}
#: What a package may import beyond the rule of ranks: bots play the rules alone.
ONLY = {"bots": {"games"}}


def project_modules() -> dict[str, Path]:
    """Every module of the layered packages, by dotted name."""
    modules = {}
    for package in RANKS:
        for path in sorted((ROOT / package).rglob("*.py")):
            if ".venv" in path.parts:
                continue
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join(parts)] = path
    return modules


def imported(module: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The project modules ``module`` imports, anywhere in its file."""
    found = set()
    is_package = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.split(".")
                anchor = anchor if is_package else anchor[:-1]
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            # ``from package import module`` imports the module; ``from module import name``, the module.
            names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
        else:
            continue
        for name in names:
            parts = name.split(".")
            while parts and ".".join(parts) not in known:
                parts.pop()
            if parts and ".".join(parts) != module:
                found.add(".".join(parts))
    return found


def import_graph() -> dict[str, set[str]]:
    known = project_modules()
    return {module: imported(module, path, known) for module, path in known.items()}


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    wrong = []
    for module, targets in graph.items():
        home = module.split(".")[0]
        for target in targets:
            there = target.split(".")[0]
            if there == home:
                continue
            allowed = RANKS[there] < RANKS[home] and there in ONLY.get(home, RANKS)
            if not allowed:
                wrong.append(f"{module} imports {target}")
    return sorted(wrong)


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one file (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1 or node in graph[node]:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def test_no_file_imports_from_a_higher_layer_or_a_peer() -> None:
    assert upward_imports(import_graph()) == []


def test_no_circle_of_imports_between_files() -> None:
    assert circles(import_graph()) == []


def test_the_check_sees_imports_inside_functions_and_both_kinds_of_fault() -> None:
    """The checks themselves can fail: a circle and an upward import are reported."""
    graph = {"engine.a": {"engine.b"}, "engine.b": {"engine.a"}, "games.x": {"service.app"},
             "service.app": set(), "workers.w": {"service.app"}, "bots.b": {"events.store"}, "events.store": set()}
    assert circles(graph) == [["engine.a", "engine.b"]]
    assert upward_imports(graph) == ["bots.b imports events.store", "games.x imports service.app",
                                     "workers.w imports service.app"]
    source = ROOT / "service" / "cli.py"
    assert any(t.startswith("workers") or t.startswith("engine") for t in
               imported("service.cli", source, project_modules())), "imports inside functions are read"
