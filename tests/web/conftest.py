"""Browser fixtures: a real ``intrigue serve`` on a real redis-server, and the system's Chromium
driven by Playwright (Debian's ``chromium`` package: no browser is downloaded).

Each test module shares one browser; every player gets a context of its own (its own
storage, like a person on their own device). Every page records its console errors and
uncaught exceptions, and a test fails if any page had one.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright

from service.embedded import EmbeddedRedis
from tests.integration.conftest import SMALL_BOT_BUDGET, UNREACHABLE_LIMITS, serving

CHROMIUM = os.environ.get("INTRIGUE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
#: Where the tests also copy their screenshots (the README's come from such a run).
SHOTS = os.environ.get("INTRIGUE_SCREENSHOTS")

expect.set_options(timeout=15_000)


@pytest.fixture(scope="session")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``intrigue serve`` (the API, its workers and the web client) on a Redis of its own."""
    redis_server = EmbeddedRedis(tmp_path_factory.mktemp("web-redis"), persist=False).start()
    # Bots decide in a blink, and one rated game puts a player on a leaderboard.
    env = {**os.environ, "REDIS_URL": redis_server.url, "INTRIGUE_LOG_LEVEL": "WARNING", **UNREACHABLE_LIMITS,
           **SMALL_BOT_BUDGET, "INTRIGUE_LEADERBOARD_MIN_GAMES": "1"}
    try:
        with serving(env, tmp_path_factory.mktemp("web-server") / "serve.log") as base:
            yield base
    finally:
        redis_server.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"the browser tests drive Debian's chromium at {CHROMIUM}: install it with "
                    "'apt-get install chromium' (.ci/run does), or point INTRIGUE_CHROMIUM at one")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@dataclass
class Player:
    """One person at their own device: a browser context, its page, what went wrong in it."""

    name: str
    context: BrowserContext
    page: Page
    base: str
    errors: list[str] = field(default_factory=list)
    token: str = ""

    def open(self, path: str) -> None:
        self.page.goto(self.base + path)

    def sign_up(self, *, already_there: bool = False) -> None:
        if not already_there:
            self.open("/account")
        self.page.get_by_label("Your name").fill(self.name)
        self.page.get_by_role("button", name="Sign up").click()
        expect(self.page.get_by_text(f"Welcome, {self.name}.")).to_be_visible()
        self.token = self.page.locator("output.token").inner_text()  # shown once, as a person copies it

    def sign_in(self, token: str) -> None:
        """Sign in by pasting a token (one made over the API), as a person does on a new device."""
        self.open("/account")
        self.page.get_by_label("Token").fill(token)
        self.page.get_by_role("button", name="Sign in").click()
        expect(self.page).to_have_url(re.compile(r"/me$"))
        self.token = token

    def create_game(self, game: str, seats: int, options_json: str | None = None,
                    fill_in: Callable[[Page], None] | None = None) -> str:
        """Create a game through the form and sit down; returns its id (from the address).
        ``fill_in``, if given, sets the form's other fields (after the game and seats)."""
        self.open("/new")
        self.page.get_by_label("Game", exact=True).select_option(game)
        self.page.get_by_label("Seats").fill(str(seats))
        if options_json is not None:
            self.page.get_by_text("Advanced options (JSON)").click()
            self.page.get_by_label("Options as JSON").fill(options_json)
        if fill_in is not None:
            fill_in(self.page)
        self.page.get_by_role("button", name="Create and sit down").click()
        expect(self.page).to_have_url(re.compile(r"/games/[A-Za-z0-9_-]+$"))
        return self.page.url.rsplit("/", 1)[1]

    def take_seat(self, game_id: str) -> None:
        """Open the shared address of a game and sit down."""
        self.open(f"/games/{game_id}")
        self.page.get_by_role("button", name="Take a seat").click()
        expect(self.page.get_by_text(f"You are {self.name}")).to_be_visible()

    def shot(self, directory: Path, name: str) -> None:
        path = directory / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=True)
        if SHOTS:
            Path(SHOTS).mkdir(parents=True, exist_ok=True)
            shutil.copy(path, Path(SHOTS) / path.name)


def seated_table(players: Callable[..., Player], names: Sequence[str], game: str) -> tuple[list[Player], str]:
    """Sign everyone named up; the first creates a table of ``game`` for them all through the
    form and the others take their seats. Returns the players, in order, and the game's id."""
    people = [players(name) for name in names]
    for person in people:
        person.sign_up()
    host, *guests = people
    game_id = host.create_game(game, len(people))
    for guest in guests:
        guest.take_seat(game_id)
    return people, game_id


@pytest.fixture()
def players(browser: Browser, web_server: str) -> Iterator[Callable[..., Player]]:
    """Make players (each in a fresh context); at the end, no page may have logged an error."""
    made: list[Player] = []

    def make(name: str, *, width: int = 1100) -> Player:
        context = browser.new_context(viewport={"width": width, "height": 900})
        page = context.new_page()
        player = Player(name, context, page, web_server)
        page.on("console", lambda message: player.errors.append(f"console: {message.text}")
                if message.type == "error" else None)
        page.on("pageerror", lambda error: player.errors.append(f"page error: {error}"))
        made.append(player)
        return player

    yield make
    errors = {p.name: p.errors for p in made if p.errors}
    for player in made:
        player.context.close()
    assert not errors, f"console errors: {errors}"


#: Where the accessibility tests keep axe-core, installed from the npm registry by npm itself.
AXE_DIR = Path(os.environ.get("INTRIGUE_AXE_DIR", Path(__file__).resolve().parents[2] / ".axe"))
AXE_VERSION = "4"


@pytest.fixture(scope="session")
def axe_source() -> str:
    """axe-core's script: from AXE_DIR, after ``npm install axe-core`` there if it is not yet
    (the npm registry through npm, nowhere else; .ci/run installs it before the tests)."""
    script = AXE_DIR / "node_modules" / "axe-core" / "axe.min.js"
    if not script.is_file():
        npm = shutil.which("npm")
        if npm is None:
            pytest.fail("the accessibility tests need axe-core: install npm (Debian's 'npm'), or run "
                        f"'npm install --prefix {AXE_DIR} axe-core@{AXE_VERSION}' where npm is")
        subprocess.run([npm, "install", "--prefix", str(AXE_DIR), "--no-audit", "--no-fund", "--no-save",
                        f"axe-core@{AXE_VERSION}"], check=True, timeout=300, capture_output=True)
    return script.read_text(encoding="utf-8")


def axe_violations(page: Page, axe: str) -> list[str]:
    """Serious and critical violations axe-core finds on the page as it stands."""
    if not page.evaluate("() => Boolean(window.axe)"):
        page.evaluate(axe)  # evaluated, not a script tag: the page's CSP allows no inline script
    found = page.evaluate("""async () => {
        const result = await axe.run(document, {resultTypes: ["violations"]});
        return result.violations.filter((v) => ["serious", "critical"].includes(v.impact))
            .map((v) => `${v.id} (${v.impact}): ${v.help}: ${
                v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join("; ")}`);
    }""")
    return list(found)


@pytest.fixture(scope="session")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("screenshots")
