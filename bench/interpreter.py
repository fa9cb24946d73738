"""The interpreter the image runs Intrigue on, or the nearest one this machine has.

The image is built ``FROM python:<minor>-slim``, whose CPython is compiled with profile-guided
optimisation and link-time optimisation (``--enable-optimizations --with-lto``). A CPython
built without them (pyenv's default, say) runs the same code slower: on the per-move paths of
``bench/hot_paths.py`` it took a fifth more CPU than Debian's build of the same minor version
(docs/performance.md). A benchmark on such an interpreter measures the interpreter's build,
not what a user of the image gets, so the side-by-side bench runs Intrigue on:

1. ``$INTRIGUE_BENCH_PYTHON`` when set;
2. else the running interpreter, if it is the image's minor version and an optimised build;
3. else a virtual environment (``.bench-venv/<minor>``, made once, the project installed in
   it) on the distribution's ``/usr/bin/python<minor>``: Debian builds its CPython with
   profile-guided and link-time optimisation, as the image's is built;
4. else the running interpreter, said to be unlike the image's.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VENVS = ROOT / ".bench-venv"
#: Prints a dict of what decides whether an interpreter is built as the image's.
_DESCRIBE = ("import json, sys, sysconfig; print(json.dumps({'version': sys.version.split()[0], "
             "'minor': '%d.%d' % sys.version_info[:2], 'base_prefix': sys.base_prefix, "
             "'config': sysconfig.get_config_var('CONFIG_ARGS') or ''}))")


@dataclass(frozen=True)
class Interpreter:
    path: str
    #: A few words for the figures' header: the version and why it stands for the image's.
    label: str
    like_the_image: bool


def image_minor(dockerfile: Path = ROOT / "Dockerfile") -> str:
    """The CPython minor version the image is built from (``FROM python:3.11-slim``: ``3.11``)."""
    found = re.search(r"^FROM\s+python:(\d+\.\d+)", dockerfile.read_text(), re.MULTILINE)
    if found is None:
        raise RuntimeError(f"{dockerfile} does not start from an official python image")
    return found.group(1)


def installed_for(pyproject: Path = ROOT / "pyproject.toml") -> str:
    """What a virtual environment's ``ready`` mark records: the hashes of the pyproject.toml it
    was installed from and of the constraints.txt beside it (a new dependency, such as the
    image's, or a refreshed pin then reinstalls it)."""
    pins = pyproject.with_name("constraints.txt")
    pinned = hashlib.sha256(pins.read_bytes()).hexdigest() if pins.exists() else "none"
    return f"installed from pyproject.toml {hashlib.sha256(pyproject.read_bytes()).hexdigest()}, pins {pinned}\n"


def describe(python: str) -> dict[str, str]:
    done = subprocess.run([python, "-c", _DESCRIBE], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def optimised(facts: dict[str, str]) -> bool:
    """Built with profile-guided optimisation: configured so (python.org's and the official
    images' builds), or a distribution's own build under /usr (Debian's and Ubuntu's are)."""
    return "--enable-optimizations" in facts["config"] or facts["base_prefix"] == "/usr"


def image_like(say=print) -> Interpreter:
    """The interpreter to run Intrigue's processes on (see the module's text); ``say`` is told
    of a virtual environment being made, the one slow step."""
    minor = image_minor()
    chosen = os.environ.get("INTRIGUE_BENCH_PYTHON")
    if chosen:
        facts = describe(chosen)
        return Interpreter(chosen, f"CPython {facts['version']} ($INTRIGUE_BENCH_PYTHON)",
                           facts["minor"] == minor and optimised(facts))
    here = describe(sys.executable)
    if here["minor"] == minor and optimised(here):
        return Interpreter(sys.executable, f"CPython {here['version']}, an optimised build", True)
    system = Path(f"/usr/bin/python{minor}")
    if system.exists():
        venv = VENVS / minor
        python = venv / "bin" / "python"
        wanted = installed_for()
        ready = venv / "ready"
        if not ready.exists() or ready.read_text() != wanted:
            # Made once, and again when the project's dependencies change: the image installs
            # what pyproject.toml asks for, and so must the interpreter that stands for it.
            say(f"making {venv} on {system} (the image's CPython {minor}, an optimised build), once"
                if not ready.exists() else f"making {venv} again: pyproject.toml changed since it was made")
            # Made afresh (--clear): a dependency the project dropped must not linger in it.
            subprocess.run([str(system), "-m", "venv", "--clear", str(venv)], check=True)
            subprocess.run([str(python), "-m", "pip", "install", "-q", "-c", str(ROOT / "constraints.txt"),
                            "-e", f"{ROOT}[prod,bench]"], check=True)  # the versions CI and the image run
            ready.write_text(wanted)
        facts = describe(str(python))
        return Interpreter(str(python), f"CPython {facts['version']}, {system}'s optimised build", True)
    return Interpreter(sys.executable, f"CPython {here['version']}, NOT built as the image's (no PGO/LTO, "
                                       f"or not {minor}): figures understate the image", False)
