"""Revolution!, Ideology and Pax Porfiriana tables, from real games, in the browser."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import expect

from tests.web.conftest import Player, seated_table


def seal(player: Player, bid: dict[str, int]) -> None:
    for field, count in bid.items():
        player.page.get_by_label(field, exact=True).fill(str(count))
    player.page.get_by_role("button", name="Seal my bid").click()


def test_a_revolution_round_resolves_in_every_context(players: Callable[..., Player], shots: Path) -> None:
    people, game_id = seated_table(players, ("Ana", "Bruno", "Carla"), "revolution")
    ana, bruno, carla = people
    for person in people:
        expect(person.page.get_by_role("button", name="Seal my bid")).to_be_visible()

    # Over budget: Ana holds 3 Gold. The form refuses it and sends nothing.
    seal(ana, {"Printer gold": 5, "Printer force": 1, "Printer blackmail": 1})
    expect(ana.page.locator("#bid-error")).to_contain_text("You hold 3 gold and this bid places 5")
    expect(ana.page.get_by_text("Your sealed bid")).to_have_count(0)
    expect(bruno.page.locator(".rev-seats tbody tr").first).to_contain_text("thinking")

    seal(ana, {"Printer gold": 3})
    expect(ana.page.get_by_text("Your sealed bid: Printer: 1 force, 1 blackmail, 3 gold")).to_be_visible()
    expect(bruno.page.locator(".rev-seats tbody tr").first).to_contain_text("sealed")
    # What Ana bid stays hers until the reveal: the others learn only that she bid.
    expect(bruno.page.locator("#feed li").first).to_have_text(re.compile(r"^\d+ Ana \(seat 0\) seals a bid$"))
    expect(ana.page.locator("#feed li").first).to_contain_text(
        "Ana (seat 0) seals a bid: 1 force, 1 blackmail, 3 gold on the Printer")
    seal(bruno, {"Priest force": 1, "Priest blackmail": 1, "Priest gold": 3})
    carla.shot(shots, "revolution-bidding")
    seal(carla, {"General blackmail": 1, "Merchant force": 1, "Merchant gold": 3})

    # The workers resolve the round; every context shows it without a reload.
    for person in people:
        results = person.page.get_by_label("Round 1 results")
        expect(results).to_contain_text("Printer: won by Ana (seat 0)", use_inner_text=True)
        expect(results).to_contain_text("Priest: won by Bruno (seat 1)", use_inner_text=True)
        expect(results).to_contain_text("Merchant: won by Carla (seat 2)", use_inner_text=True)
        expect(person.page.get_by_text(re.compile(r"^Round 2 of at most"))).to_be_visible()
        # Once revealed, every seat's bid is on the table, and the log tells it in words.
        bids = person.page.get_by_role("table", name="Round 1 bids, as revealed")
        expect(bids).to_contain_text("Bruno (seat 1) Priest: 1 force, 1 blackmail, 3 gold", use_inner_text=True)
        expect(bids).to_contain_text("Merchant: 1 force, 3 gold", use_inner_text=True)
        expect(bids.locator(".tip-text").first).to_contain_text("The winning bid gets")  # a character explains itself
        expect(person.page.locator("#feed")).to_contain_text("the bids are revealed")
        expect(person.page.locator("#feed")).not_to_contain_text("BidsRevealed")
    ana.shot(shots, "revolution-resolved")


def test_an_ideology_table_renders_and_takes_a_legal_action(players: Callable[..., Player], shots: Path) -> None:
    first, second = players("Iris"), players("Igor")
    first.sign_up()
    second.sign_up()
    game_id = first.create_game("ideology", 2)
    second.take_seat(game_id)
    page = first.page
    expect(page.locator("svg.ideology-map")).to_be_visible()
    expect(page.locator("svg.ideology-map g.region.live")).to_have_count(2)
    expect(page.locator("svg.ideology-map g.region.dormant")).not_to_have_count(0)
    expect(page.get_by_text("Your hand:")).to_be_visible()
    expect(page.get_by_role("table", name="Regions in play")).to_contain_text("controlled")
    legend = page.get_by_role("list", name="Map legend")
    expect(legend).to_contain_text("Iris (seat 0) controls")
    expect(legend).to_contain_text("not in play yet")
    # No two region names overlap on the map (Europe is crowded).
    boxes = page.locator("svg.ideology-map text:not(.count)").evaluate_all(
        "(texts) => texts.map((t) => { const b = t.getBBox(); return [b.x + t.parentNode.transform.baseVal[0].matrix.e,"
        " b.y + t.parentNode.transform.baseVal[0].matrix.f, b.width, b.height]; })")
    crossing = [(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:]
                if a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]]
    assert not crossing, crossing
    first.shot(shots, "ideology")
    awaited, other = (first, second) if first.page.get_by_text("Your move").is_visible() else (second, first)
    expect(awaited.page.get_by_text("Your move")).to_be_visible()
    awaited.page.locator("#decision button").first.click()
    expect(other.page.get_by_text("Your move")).to_be_visible()
    expect(awaited.page.locator("#decision")).to_be_empty()


def test_a_pax_table_renders_and_takes_a_legal_action(players: Callable[..., Player], shots: Path) -> None:
    first, second = players("Porfirio"), players("Pancha")
    first.sign_up()
    second.sign_up()
    game_id = first.create_game("pax", 2)
    second.take_seat(game_id)
    for person in (first, second):
        expect(person.page.get_by_label("Market", exact=True)).to_be_visible()
        expect(person.page.get_by_text(re.compile(r"^Regime: "))).to_be_visible()
    on_turn = first if first.page.get_by_text("Your move").count() else second
    expect(on_turn.page.get_by_text("Your move")).to_be_visible()
    expect(on_turn.page.get_by_text(re.compile(r"\(3 actions left\)"))).to_be_visible()
    on_turn.shot(shots, "pax")
    # Moves are worded: a public card's face by its name, an upgrade's connection by its kind.
    moves = " ".join(on_turn.page.locator("#decision").evaluate_all(
        "(nodes) => nodes.map((n) => [...n.querySelectorAll('button, option')].map((b) => b.textContent).join(' | '))"))
    assert not re.search(r"\b(face|oval) \d|\b[a-z]+_[a-z_]+\b", moves), moves
    # Buying a market card: a button each, or a list and its button when there are many.
    decision = on_turn.page.locator("#decision")
    many = decision.locator("form", has=on_turn.page.get_by_role("button", name="Buy", exact=True))
    if many.count():
        many.get_by_role("button", name="Buy", exact=True).click()
    else:
        decision.get_by_role("button", name=re.compile(r"^Buy (?!the public)")).first.click()
    expect(on_turn.page.get_by_text(re.compile(r"\(2 actions left\)"))).to_be_visible()
    feed = on_turn.page.locator("#feed")
    expect(feed).to_contain_text(re.compile(r"\(seat \d\) buys "))
    for raw in ("ActionTaken", "GoldMoved", "StepChanged", "why"):
        expect(feed).not_to_contain_text(raw)
