"""The JavaScript SDK (``clients/js``) against a live server: its own tests, its README bot, its declarations.

Its tests run under Node's own test runner (``node --test``), pointed at the integration
suite's server and at the strict one (a low per-player limit, so the SDK meets real 429s).
The README's bot, word for word, plays a game of every title to its end against the server's
bots. The TypeScript declarations checked in (``src/api.d.ts``) must be what
``openapi-typescript`` (pinned in ``clients/js/package.json``, installed by ``npm ci --prefix
clients/js`` in the README's test command) makes of the document the server serves now.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from intrigue_client import Client

from projections.audit import game_events, read_log
from tests.integration.sdk.test_readme_bot_titles import TABLES, assert_each_decision_answered_once

JS = Path(__file__).resolve().parents[3] / "clients" / "js"
README = JS / "README.md"
#: The installed generator: ``npm ci --prefix clients/js`` puts it here.
GENERATOR = JS / "node_modules" / ".bin" / "openapi-typescript"
COMPILER = JS / "node_modules" / ".bin" / "tsc"


def readme_bot_code() -> str:
    """The README's bot: the ```js block under "A bot in 20 lines"."""
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## A bot in 20 lines"):]
    match = re.search(r"```js\n(.*?)```", section, flags=re.S)
    assert match, "the README has a js block under 'A bot in 20 lines'"
    return match.group(1)


def installed(tool: Path) -> Path:
    assert tool.exists(), f"{tool.name} is missing: run `npm ci --prefix clients/js` (the README's test command does)"
    return tool


def test_the_readme_bot_is_at_most_20_lines() -> None:
    lines = [line for line in readme_bot_code().splitlines() if line.strip()]
    assert 0 < len(lines) <= 20, len(lines)


def test_the_sdk_tests_pass_against_the_live_server(server: str, strict_server: str) -> None:
    env = {**os.environ, "INTRIGUE_URL": server, "INTRIGUE_STRICT_URL": strict_server}
    done = subprocess.run(["node", "--test", "tests/"], cwd=JS, env=env, capture_output=True, text=True, timeout=280)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    counts = dict(re.findall(r"^# (pass|fail|skipped|todo|cancelled) (\d+)$", done.stdout, flags=re.M))
    assert int(counts["pass"]) >= 8 and counts["fail"] == counts["skipped"] == counts["cancelled"] == "0", counts


@pytest.mark.parametrize(("title", "seats", "options", "bots"), TABLES, ids=[table[0] for table in TABLES])
def test_the_readme_bot_finishes_each_title_against_server_bots(server: str, tmp_path: Path, title: str, seats: int,
                                                                options: dict[str, Any], bots: dict[str, str]) -> None:
    person = Client.register(server, f"js-readme-{title}")
    game_id = person.create_game(title, seats, options=options, bots=bots)["id"]
    (tmp_path / "node_modules").mkdir()
    (tmp_path / "node_modules" / "intrigue-client").symlink_to(JS, target_is_directory=True)
    program = tmp_path / "random_bot.mjs"
    program.write_text(readme_bot_code())
    env = {**os.environ, "INTRIGUE_URL": server, "INTRIGUE_TOKEN": person.token or "", "INTRIGUE_GAME": game_id}
    done = subprocess.run(["node", str(program)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-2000:]

    final = person.game(game_id)
    assert final["status"] == "finished", final["status"]
    assert "winners: [" in done.stdout and f"reason: {final['reason']}" in done.stdout, done.stdout
    published = read_log(person.log_ndjson(game_id).decode().splitlines())
    assert_each_decision_answered_once(game_events(published), final["seat"])  # without the signed final record


def test_the_declarations_match_the_live_document(server: str, tmp_path: Path) -> None:
    generated = tmp_path / "api.d.ts"
    done = subprocess.run([str(installed(GENERATOR)), f"{server}/v1/openapi.json", "-o", str(generated)],
                          cwd=JS, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert generated.read_text(encoding="utf-8") == (JS / "src" / "api.d.ts").read_text(encoding="utf-8"), (
        "clients/js/src/api.d.ts is stale: regenerate it (INTRIGUE_URL=<a running server> npm run types)")


def test_the_declarations_compile() -> None:
    done = subprocess.run([str(installed(COMPILER)), "-p", "tsconfig.json"], cwd=JS, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stdout[-3000:]
