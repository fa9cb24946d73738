"""Settings are read once, at start, in one place; an unusable value is one line naming it."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine.settings import VARIABLES, Limits, RetryPolicy, Settings, SettingsError

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("games", "bots", "events", "projections", "engine", "service", "workers")


def test_an_empty_environment_gives_the_documented_defaults() -> None:
    settings = Settings.from_env({})
    assert settings == Settings()
    assert settings.limits == Limits() and settings.webhook_retry == RetryPolicy()
    assert settings.redis_url is None and settings.operator_token is None and not settings.redis_cluster


def test_every_variable_fills_its_setting() -> None:
    settings = Settings.from_env({
        "REDIS_URL": "redis://db:6379/1", "INTRIGUE_QUEUE_URL": "redis://queues:6379/0",
        "INTRIGUE_REDIS_CLUSTER": "1", "WEB_CONCURRENCY": "3", "INTRIGUE_BIND": "127.0.0.1:9000",
        "INTRIGUE_OPERATOR_TOKEN": "secret", "INTRIGUE_RATE_LIMIT": "7", "INTRIGUE_ANONYMOUS_RATE_LIMIT": "3",
        "INTRIGUE_REGISTRATIONS_PER_HOUR": "5", "INTRIGUE_GAMES_PER_HOUR": "6", "INTRIGUE_OPEN_GAMES_PER_PLAYER": "4",
        "INTRIGUE_TRUSTED_PROXIES": "2", "INTRIGUE_CHAT_RATE": "9", "INTRIGUE_WEBHOOKS_ALLOW_PRIVATE": "1",
        "INTRIGUE_WEBHOOK_RETRY_BASE": "0.3", "INTRIGUE_WEBHOOK_RETRY_MAX": "60", "INTRIGUE_WEBHOOK_RETRY_FOR": "600",
        "INTRIGUE_WEBHOOK_DISABLE_AFTER": "1200", "INTRIGUE_LOG_LEVEL": "warning", "INTRIGUE_PAX_CARD_SETS": "/sets",
        "INTRIGUE_BOT_ITERATIONS": "40", "INTRIGUE_BOT_MILLISECONDS": "120.5",
    })
    assert settings == Settings(
        redis_url="redis://db:6379/1", queue_url="redis://queues:6379/0", redis_cluster=True, web_concurrency=3,
        bind="127.0.0.1:9000", operator_token="secret",
        limits=Limits(player_rate=7, anonymous_rate=3, registrations_per_hour=5, games_per_hour=6, open_games=4,
                      trusted_proxies=2),
        chat_rate=9, webhooks_allow_private=True,
        webhook_retry=RetryPolicy(base=0.3, cap=60, retry_for=600, disable_after=1200),
        log_level="WARNING", pax_card_sets="/sets", bot_iterations=40, bot_milliseconds=120.5)


def test_an_empty_value_is_unset_as_compose_passes_it() -> None:
    assert Settings.from_env({"INTRIGUE_OPERATOR_TOKEN": "", "WEB_CONCURRENCY": "", "REDIS_URL": ""}) == Settings()


@pytest.mark.parametrize(("name", "value"), [
    ("INTRIGUE_RATE_LIMIT", "fast"), ("INTRIGUE_RATE_LIMIT", "-1"), ("INTRIGUE_RATE_LIMIT", "nan"),
    ("INTRIGUE_OPEN_GAMES_PER_PLAYER", "2.5"), ("INTRIGUE_CHAT_RATE", "-1"), ("WEB_CONCURRENCY", "0"),
    ("INTRIGUE_REDIS_CLUSTER", "maybe"), ("INTRIGUE_WEBHOOKS_ALLOW_PRIVATE", "sure"), ("REDIS_URL", "localhost:6379"),
    ("INTRIGUE_LOG_LEVEL", "LOUD"), ("INTRIGUE_BIND", "everywhere"), ("INTRIGUE_WEBHOOK_RETRY_BASE", "soon"),
    ("INTRIGUE_BOT_ITERATIONS", "0"), ("INTRIGUE_BOT_ITERATIONS", "many"), ("INTRIGUE_BOT_MILLISECONDS", "0"),
])
def test_an_unusable_value_is_refused_naming_the_variable(name: str, value: str) -> None:
    with pytest.raises(SettingsError) as refused:
        Settings.from_env({name: value})
    message = str(refused.value)
    assert message.startswith(f"{name}={value!r} cannot be used: ") and "\n" not in message


def test_a_cluster_without_a_queue_redis_is_refused_at_start() -> None:
    with pytest.raises(SettingsError, match="INTRIGUE_QUEUE_URL"):
        Settings.from_env({"INTRIGUE_REDIS_CLUSTER": "1", "REDIS_URL": "redis://node:7000/0"})


@pytest.mark.parametrize("command", [
    [sys.executable, "-m", "service.cli", "serve", "--port", "0"],
    [sys.executable, "-m", "service.cli", "worker"],
    [sys.executable, "-m", "workers", "worker", "--burst"],
    [sys.executable, "-c", "import service.wsgi"],
    [sys.executable, "-m", "gunicorn", "-c", "python:service.gunicorn_conf", "service.wsgi:app"],
])
def test_a_process_with_an_unusable_value_stops_at_start_with_one_line(command: list[str], tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "INTRIGUE_RATE_LIMIT": "fast", "HOME": str(tmp_path)}
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    lines = done.stderr.strip().splitlines()
    assert done.returncode in (2, 3), done.stderr
    assert len(lines) == 1 and "INTRIGUE_RATE_LIMIT='fast' cannot be used" in lines[0], done.stderr
    assert not (tmp_path / "intrigue-data").exists()


def test_the_readme_table_lists_every_variable_and_no_other() -> None:
    """The configuration table's first column names exactly the variables the settings read."""
    section = (ROOT / "README.md").read_text(encoding="utf-8").split("## Configuration", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    named = {name for row in rows for name in re.findall(r"`([A-Z][A-Z_]+)`", row.split("|")[1])}
    assert named == {variable.name for variable in VARIABLES}


def test_only_the_settings_module_reads_the_environment() -> None:
    readers = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Attribute) and node.attr in ("environ", "getenv", "environb") \
                        and isinstance(node.value, ast.Name) and node.value.id == "os":
                    readers.append(str(path.relative_to(ROOT)))
    assert set(readers) == {"engine/settings.py"}
