"""The one version number: the distribution's, as pyproject.toml declares it.

``intrigue --version`` and the API document's ``info.version`` both read it, so they
cannot disagree.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version


def package_version() -> str:
    """The installed distribution's version (``unknown`` when run from a bare checkout)."""
    try:
        return version("intrigue")
    except PackageNotFoundError:
        return "unknown"
