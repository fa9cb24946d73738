"""The production shape (docker-compose.yml, Dockerfile): no docker engine runs here, so this
checks what the files promise, and that an API with no operator token grants no operator."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
import yaml

from engine.core import Engine
from service.app import create_app
from tests.platform.test_engine import started

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
SERVICES = COMPOSE["services"]


def test_every_service_restarts_and_each_api_has_a_health_check_on_a_real_route() -> None:
    assert {"redis", "api", "worker"} <= set(SERVICES)
    for name, service in SERVICES.items():
        assert service.get("restart") in ("always", "unless-stopped", "on-failure"), name
    app = create_app(redis_url="redis://127.0.0.1:1/0", rate_limit=0)
    adapter = app.url_map.bind("localhost")
    apis = [name for name, service in SERVICES.items() if "8000" in " ".join(service.get("ports", []))]
    assert "api" in apis
    for name in apis:
        check = " ".join(SERVICES[name]["healthcheck"]["test"])
        path = re.search(r"http://127\.0\.0\.1:8000(/[^'\"]*)", check).group(1)
        assert adapter.match(path.split("?")[0], method="GET"), name  # it asks a route that exists
    assert SERVICES["worker"]["depends_on"]["redis"]["condition"] == "service_healthy"


def intrigue_services() -> dict[str, dict]:
    return {name: s for name, s in SERVICES.items() if not str(s.get("image", "")).startswith("redis")}


def test_one_image_is_built_once_for_the_api_and_the_workers() -> None:
    images = {service["image"] for service in intrigue_services().values()}
    assert len(images) == 1 and next(iter(images)).startswith("intrigue:")
    builders = [name for name, service in SERVICES.items() if "build" in service]
    profiles = [tuple(SERVICES[name].get("profiles", [])) for name in builders]
    assert "api" in builders and len(profiles) == len(set(profiles))  # one build per profile
    for name, service in intrigue_services().items():
        assert "build" in service or service.get("pull_policy") == "never", name


def test_there_is_no_default_operator_token_and_the_readme_says_where_it_comes_from() -> None:
    tokens = [service.get("environment", {}).get("INTRIGUE_OPERATOR_TOKEN") for service in SERVICES.values()]
    for value in filter(None, tokens):
        assert re.fullmatch(r"\$\{INTRIGUE_OPERATOR_TOKEN(:-)?\}", value), value
    readme = (ROOT / "README.md").read_text()
    assert "`.env`" in readme and "INTRIGUE_OPERATOR_TOKEN" in readme


def test_the_image_runs_as_an_unprivileged_user() -> None:
    lines = [line.strip() for line in (ROOT / "Dockerfile").read_text().splitlines()]
    assert sum(line.startswith("FROM ") for line in lines) == 1
    users = [line.split()[1] for line in lines if line.startswith("USER ")]
    cmd = next(i for i, line in enumerate(lines) if line.startswith(("CMD ", "ENTRYPOINT ")))
    assert users and users[-1] not in ("root", "0", "0:0")
    assert max(i for i, line in enumerate(lines) if line.startswith("USER ")) < cmd


@pytest.mark.parametrize("configured", [None, ""])
def test_without_an_operator_token_no_token_is_the_operators(engine: Engine, configured: str | None,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Compose passes an empty INTRIGUE_OPERATOR_TOKEN when none is set: that grants nothing."""
    if configured is None:
        monkeypatch.delenv("INTRIGUE_OPERATOR_TOKEN", raising=False)
    else:
        monkeypatch.setenv("INTRIGUE_OPERATOR_TOKEN", configured)
    game_id, _ = started(engine)
    url = engine.redis.connection_pool.connection_kwargs
    client = create_app(redis_url=f"redis://{url['host']}:{url['port']}/0", rate_limit=0).test_client()
    for token in ("", " ", "change-me", "operator-secret"):
        response = client.get(f"/v1/games/{game_id}/log", headers={"Authorization": f"Bearer {token}"})
        assert response.status_code in (401, 403), (token, response.status_code)


def test_the_image_copies_every_package_the_distribution_installs() -> None:
    """A package left out of the Dockerfile's COPY lines fails only when the image starts."""
    include = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]["include"]
    packages = {pattern.rstrip("*") for pattern in include}
    copied = {line.split()[1] for line in (ROOT / "Dockerfile").read_text().splitlines() if line.startswith("COPY ")}
    assert packages <= copied, sorted(packages - copied)
