"""The faults a new user met in Chromium (issue 51), each held by a test that fails without its fix.

The other seats play over the API (tests/web/by_api.py) so the browser's time goes to the
page under test.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable

from playwright.sync_api import expect

from tests.web.by_api import ApiPlayer, coup_game, play_until
from tests.web.conftest import Player

#: Seat 0: Duke, Captain; seat 1: Assassin, Ambassador (dealt two each from the top).
DECK = ["duke", "captain", "assassin", "ambassador", "contessa", "assassin", "duke", "duke", "captain",
        "captain", "ambassador", "ambassador", "assassin", "contessa", "contessa"]
IDENTIFIER = re.compile(r"\b[a-z]+_[a-z_]+\b")


def test_next_page_and_more_of_my_games_show_only_when_there_is_more_and_list_each_game_once(
        players: Callable[..., Player], web_server: str) -> None:
    host = ApiPlayer(web_server, "Pager")
    made = {host.call("POST", "/v1/games", {"game": "revolution", "seats": 3})["id"] for _ in range(52)}
    for game_id in made:
        host.call("POST", f"/v1/games/{game_id}/join")
    person = players("Pager")
    person.sign_in(host.token)

    # My games: 50 a page, so a second page of two; then no more.
    more = person.page.get_by_role("button", name="More of my games")
    waiting = person.page.locator("#open-list")
    expect(waiting.locator("[data-game]")).to_have_count(50)
    more.click()
    expect(waiting.locator("[data-game]")).to_have_count(52)
    expect(more).to_be_hidden()
    assert {row.get_attribute("data-game") for row in waiting.locator("[data-game]").all()} == made

    # The lobby: 20 a page; "Next page" until there is none, each game listed once.
    person.page.get_by_role("link", name="Lobby").click()
    person.page.get_by_label("Game").select_option("revolution")
    rows = person.page.locator(".games [data-game]")
    expect(rows).to_have_count(20)
    following = person.page.get_by_role("button", name="Next page")
    for _ in range(10):
        if not following.is_visible():
            break
        shown = rows.count()
        following.click()
        expect(rows).not_to_have_count(shown)
    expect(following).to_be_hidden()
    ids = [row.get_attribute("data-game") for row in rows.all()]
    assert len(ids) == len(set(ids)) and made <= set(ids)


def test_home_lists_the_hosted_games_and_signing_up_puts_the_forms_away(players: Callable[..., Player]) -> None:
    person = players("Newcomer")
    person.open("/")
    hosted = person.page.get_by_role("region", name="Games hosted here")
    for name in ("Coup", "Revolution!", "Ideology: The War of Ideas", "Pax Porfiriana"):
        expect(hosted).to_contain_text(name)
    expect(hosted.get_by_role("link", name="Rules of Coup")).to_be_visible()
    person.sign_up(already_there=True)
    expect(person.page.get_by_role("button", name="Sign up")).to_be_hidden()
    expect(person.page.get_by_role("button", name="Sign in")).to_be_hidden()
    expect(person.page.get_by_label("Your name")).to_be_hidden()


def test_my_games_says_who_won_and_which_games_wait_for_players(players: Callable[..., Player],
                                                                  web_server: str) -> None:
    winner, loser = ApiPlayer(web_server, "Victor"), ApiPlayer(web_server, "Vanya")
    finished = coup_game(winner, [loser], DECK)
    final = play_until({0: winner, 1: loser}, finished, lambda seen: seen["status"] == "finished")
    open_one = winner.call("POST", "/v1/games", {"game": "coup", "seats": 3})["id"]
    winner.call("POST", f"/v1/games/{open_one}/join")
    person = players("Victor")
    person.sign_in(winner.token)
    champion = final["players"][final["winners"][0]]["name"]
    row = person.page.get_by_role("region", name="Finished").locator(f'[data-game="{finished}"]')
    expect(row).to_contain_text(f"Winner: {champion}")
    waiting = person.page.get_by_role("region", name="Waiting for players").locator(f'[data-game="{open_one}"]')
    expect(waiting).to_contain_text("Waiting for players")
    expect(person.page.get_by_role("region", name="In progress").locator(f'[data-game="{open_one}"]')).to_have_count(0)


def test_coup_says_why_a_card_is_lost_and_the_status_speaks_in_words(players: Callable[..., Player],
                                                                      web_server: str) -> None:
    natasha, sacha = ApiPlayer(web_server, "Natasha"), ApiPlayer(web_server, "Sacha")
    game_id = coup_game(natasha, [sacha], DECK)
    person = players("Sacha")
    person.sign_in(sacha.token)
    person.open(f"/games/{game_id}")
    status = person.page.locator(".status")
    expect(status).to_contain_text("Awaiting Natasha (seat 0) to play a turn")
    natasha.act(game_id, {"type": "tax"})
    expect(status).to_contain_text("Awaiting Sacha (seat 1) to react to the claim")
    person.page.get_by_role("button", name="Challenge the Duke").click()
    decision = person.page.locator("#decision")
    expect(decision).to_contain_text(
        "You lose an influence: your challenge failed: Natasha (seat 0) showed the Duke. Choose the card to give up.")
    expect(status).to_contain_text("Awaiting Sacha (seat 1) to choose a card to lose")
    for text in (status.inner_text(), decision.inner_text()):
        assert not IDENTIFIER.search(text), text
        assert " to turn" not in text and " to react" not in text.replace("to react to the claim", "")


def test_on_a_phone_the_own_cards_and_the_claim_come_before_the_moves(players: Callable[..., Player],
                                                                     web_server: str) -> None:
    me = ApiPlayer(web_server, "Phoebe")
    others = [ApiPlayer(web_server, name) for name in ("Ivan", "Olga", "Pyotr", "Raisa", "Sergei")]
    game_id = coup_game(me, others)
    person = players("Phoebe", width=390)
    person.page.set_viewport_size({"width": 390, "height": 740})
    person.sign_in(me.token)
    person.open(f"/games/{game_id}")
    decision = person.page.locator("#decision")
    moves = decision.get_by_role("button")
    expect(moves.first).to_be_visible()
    assert moves.count() >= 9  # income, aid, tax, exchange, five steals
    mine = decision.locator(".coup-mine")
    expect(mine).to_be_in_viewport()
    assert mine.bounding_box()["y"] < moves.first.bounding_box()["y"]

    # Ivan steals from her: the claim she reacts to is above her choices, on the first screen.
    decision.get_by_role("button", name="Income (+1 coin)").click()
    expect(person.page.locator(".status")).to_contain_text("Ivan (seat 1) to play a turn")
    others[0].act(game_id, {"type": "steal", "target": 0})
    claim = decision.locator(".decision-claim")
    expect(claim).to_have_text("Ivan (seat 1) steals from Phoebe (seat 0) claiming the Captain")
    expect(claim).to_be_in_viewport()
    expect(mine).to_be_in_viewport()
    assert claim.bounding_box()["y"] < decision.get_by_role("button", name="Pass").bounding_box()["y"]


def test_a_finished_coup_table_shows_no_live_prompt_at_any_version(players: Callable[..., Player],
                                                                    web_server: str) -> None:
    natasha, sacha = ApiPlayer(web_server, "Natasha"), ApiPlayer(web_server, "Sacha")
    game_id = coup_game(natasha, [sacha], DECK)
    natasha.act(game_id, {"type": "foreign_aid"})  # a window opens: Sacha may block with a Duke
    window_at = natasha.view(game_id)["version"]
    final = play_until({0: natasha, 1: sacha}, game_id, lambda seen: seen["status"] == "finished")
    champion = f"{final['players'][final['winners'][0]]['name']} (seat {final['winners'][0]})"
    person = players("Natasha")
    person.sign_in(natasha.token)
    person.open(f"/games/{game_id}")
    slider = person.page.get_by_label("Version", exact=True)
    label = person.page.locator("#replay-label")
    expect(label).to_have_text(f"Version {final['version']} of {final['version']}")

    # The live board and the replay's last version: the result and the final state, and nothing
    # left on the table (the last coup is history, told in the log, not an action in the centre).
    live, replay = person.page.locator(".board"), person.page.locator("#replay-board")
    for board in (live, replay):
        expect(board.locator(".coup-centre")).to_contain_text(f"Game over: {champion} wins.")
        expect(board.locator(".coup-centre")).to_contain_text("Final state after ")
        expect(board.locator(".coup-centre")).not_to_contain_text("launches a coup")
        expect(board.locator(".coup-action, .coup-window, .coup-clock, .on-turn")).to_have_count(0)
        expect(board.locator(".winner")).to_contain_text("the winner")

    # Every version of the replay: no prompt, clock or "to play"; the result always stands.
    slider.focus()
    person.page.keyboard.press("Home")
    expect(label).to_have_text(f"Version 1 of {final['version']}")
    for version in range(2, final["version"] + 1):
        person.page.keyboard.press("ArrowRight")
        expect(label).to_have_text(f"Version {version} of {final['version']}")
        expect(replay).to_contain_text("Result: ")
        for live_words in ("to play", "waiting for", "closes in", "Your move", "Your turn"):
            expect(person.page.locator("main")).not_to_contain_text(live_words)
        expect(replay.locator(".coup-action, .coup-clock, .on-turn")).to_have_count(0)
        if version == window_at:
            expect(replay).to_contain_text("could still come from Sacha (seat 1)")
            # The log follows the slider: its newest line is the version shown.
            expect(person.page.locator("#feed li").first).to_have_attribute("data-seq", str(window_at))
    expect(person.page.locator("#decision")).to_be_empty()


def test_revolution_results_agree_with_the_city_after_a_spy(players: Callable[..., Player], web_server: str) -> None:
    tag = uuid.uuid4().hex[:4]
    spy, captain, merchant = (ApiPlayer(web_server, f"{name}{tag}") for name in ("Vera", "Boris", "Lena"))
    game_id = spy.call("POST", "/v1/games", {"game": "revolution", "seats": 3})["id"]
    for person in (spy, captain, merchant):
        person.call("POST", f"/v1/games/{game_id}/join")
    browser = players(f"Vera{tag}")
    browser.sign_in(spy.token)
    browser.open(f"/games/{game_id}")
    expect(browser.page.get_by_role("button", name="Seal my bid")).to_be_visible()
    captain.act(game_id, {"type": "bid", "bids": {"captain": {"blackmail": 1, "gold": 3}, "priest": {"force": 1}}})
    merchant.act(game_id, {"type": "bid", "bids": {"merchant": {"force": 1, "gold": 3}, "general": {"blackmail": 1}}})
    spy.act(game_id, {"type": "bid", "bids": {"spy": {"force": 1, "gold": 3}, "printer": {"blackmail": 1}}})
    boris = f"Boris{tag} (seat 1)"
    page = browser.page
    page.get_by_role("button", name=f"Spy: replace {boris}'s cube in the Harbor").click()
    results = page.get_by_label("Round 1 results")
    expect(results).to_contain_text(f"Captain: won by {boris} (+1 support, a cube in the Harbor)", use_inner_text=True)
    expect(results).to_contain_text(f"Then Vera{tag} (seat 0)'s Spy replaced {boris}'s cube in the Harbor with its own",
                                    use_inner_text=True)
    harbor = page.get_by_role("table", name="The city").get_by_role("row", name=re.compile("^Harbor"))
    expect(harbor.get_by_role("cell").nth(2)).to_have_text("1")  # Vera's column: the cube is hers now
    expect(harbor.get_by_role("cell").nth(3)).to_have_text("")  # Boris's column: his is gone
    bids = page.get_by_role("table", name="Round 1 bids, as revealed")
    expect(bids).to_contain_text("Captain: 1 blackmail, 3 gold", use_inner_text=True)


#: Every region's tile and labels on screen, and what is wrong with them: a label outside its
#: own tile, a label over another region's tile, two labels or two tiles meeting.
MAP_FAULTS = """() => {
    const regions = [...document.querySelectorAll("svg.ideology-map g.region")].map((g) => ({
        id: g.dataset.region, tile: g.querySelector("rect, circle").getBoundingClientRect(),
        labels: [...g.querySelectorAll("text")].map((t) => t.getBoundingClientRect())}));
    const meet = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
        && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
    const inside = (a, b) => a.left >= b.left - 0.5 && a.right <= b.right + 0.5
        && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
    const faults = [];
    const labels = regions.flatMap((r) => r.labels.map((box) => ({id: r.id, box})));
    for (const r of regions) {
        if (r.labels.some((box) => !inside(box, r.tile))) faults.push(`${r.id}: a label leaves its tile`);
        for (const other of regions) {
            if (other === r) continue;
            if (r.labels.some((box) => meet(box, other.tile))) faults.push(`${r.id}: a label crosses ${other.id}`);
            if (other.id > r.id && meet(r.tile, other.tile)) faults.push(`${r.id} and ${other.id} overlap`);
        }
    }
    labels.forEach((a, i) => labels.slice(i + 1).forEach((b) => {
        if (meet(a.box, b.box)) faults.push(`labels of ${a.id} and ${b.id} meet`);
    }));
    const smallest = Math.min(...regions.flatMap((r) => r.labels.map((box) => box.height)));
    return {count: regions.length, faults, smallest, page: document.documentElement.scrollWidth};
}"""


def test_the_ideology_map_keeps_every_name_inside_its_region_on_a_phone_and_a_desktop(
        players: Callable[..., Player], web_server: str) -> None:
    iris, igor = ApiPlayer(web_server, "Iris"), ApiPlayer(web_server, "Igor")
    game_id = iris.call("POST", "/v1/games", {"game": "ideology", "seats": 2})["id"]
    iris.call("POST", f"/v1/games/{game_id}/join")
    igor.call("POST", f"/v1/games/{game_id}/join")
    for width in (390, 1280):
        person = players(f"Iris{width}", width=width)
        person.sign_in(iris.token)
        person.open(f"/games/{game_id}")
        expect(person.page.locator("svg.ideology-map g.region.live")).to_have_count(2)
        expect(person.page.locator("svg.ideology-map g.region")).to_have_count(43)  # the whole map, Europe included
        seen = person.page.evaluate(MAP_FAULTS)
        assert seen["count"] == 43 and not seen["faults"], (width, seen["faults"])
        assert seen["smallest"] >= 8.5, f"at {width} px the smallest label is {seen['smallest']:.1f} px high"
        assert seen["page"] <= width, f"the page scrolls sideways at {width} px"  # the map pans in its frame


def test_a_finished_revolution_table_says_who_won_and_asks_nothing_at_any_version(
        players: Callable[..., Player], web_server: str) -> None:
    tag = uuid.uuid4().hex[:4]
    people = [ApiPlayer(web_server, f"{name}{tag}") for name in ("Nadia", "Oleg", "Pavla")]
    game_id = people[0].call("POST", "/v1/games", {"game": "revolution", "seats": 3})["id"]
    for person in people:
        person.call("POST", f"/v1/games/{game_id}/join")
    final = play_until(dict(enumerate(people)), game_id, lambda seen: seen["status"] == "finished",
                       choose=lambda view, legal: legal[0], limit=600)
    assert final["status"] == "finished"
    winners = " and ".join(f"{final['players'][s]['name']} (seat {s})" for s in final["winners"])
    browser = players(f"Nadia{tag}")
    browser.sign_in(people[0].token)
    browser.open(f"/games/{game_id}")
    live, replay = browser.page.locator(".board"), browser.page.locator("#replay-board")
    won = f"{winners} {'share the win' if len(final['winners']) > 1 else 'wins'}"
    for board in (live, replay):
        expect(board.locator(".result")).to_contain_text("Game over (")
        expect(board.locator(".result")).to_contain_text(won)
        expect(board.locator(".result")).not_to_contain_text("_")
    label = browser.page.locator("#replay-label")
    browser.page.get_by_label("Version", exact=True).focus()
    browser.page.keyboard.press("Home")
    shown = 1
    while shown < final["version"]:  # every few versions: bidding, resolving, patronage
        for _ in range(min(5, final["version"] - shown)):
            browser.page.keyboard.press("ArrowRight")
            shown += 1
        expect(label).to_have_text(f"Version {shown} of {final['version']}")
        expect(replay).to_contain_text("Result: ")
        for asking in ("thinking", "are being", "is paid", "Your move", "Your turn", "deadline", "Seal my bid"):
            expect(browser.page.locator("main")).not_to_contain_text(asking)
