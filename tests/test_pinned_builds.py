"""Pinned builds: CI, the README's commands and the image install what constraints.txt pins,
and every dependency pyproject.toml declares is pinned there, within its bounds."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
CONSTRAINT = "-c constraints.txt"


def pins() -> dict[str, str]:
    """constraints.txt as ``{name: version}``, names in their canonical spelling."""
    found = {}
    for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, pinned = line.partition("==")
            assert pinned, f"not pinned to one version in constraints.txt: {line!r}"
            found[canonicalize_name(name)] = pinned
    return found


def test_ci_runs_the_readme_test_command_with_the_pins() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    command = ci[ci.index("# The README's test command:") + 1]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"```sh\n{command}\n```" in readme, command
    assert command.startswith(f"pip install {CONSTRAINT} ") and "python -m pytest" in command


def test_the_image_installs_with_the_pins() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert re.search(r"^COPY [^\n]*\bconstraints\.txt\b", dockerfile, flags=re.M), "the image lacks constraints.txt"
    installs = re.findall(r"^RUN pip install .*$", dockerfile, flags=re.M)
    assert installs and all(CONSTRAINT in line for line in installs), installs


def test_every_declared_dependency_is_pinned_within_its_bounds() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    declared = [*project["dependencies"], *project["optional-dependencies"]["test"]]
    pinned = pins()
    for spec in declared:
        requirement = Requirement(spec)
        name = canonicalize_name(requirement.name)
        assert name in pinned, f"{requirement.name} is not in constraints.txt: run .ci/lock"
        assert requirement.specifier.contains(pinned[name], prereleases=True), (
            f"constraints.txt pins {requirement.name}=={pinned[name]}, outside {spec!r}: run .ci/lock")
