"""The bots: always a legal action, the budget kept, the same seed the same decision, and the
package's layering (bots may import games, and nothing else of the project)."""

from __future__ import annotations

import ast
import random
import time
from pathlib import Path

import pytest

from bots import IsmctsBot, RandomBot
from bots.heuristics import heuristic_for
from bots.ismcts import DEFAULT_BUDGET, Budget
from bots.knowledge.revolution import bid_candidates
from bots.play import SeatHistories, observation_for, play
from games import registry
from games.revolution.rules import check_bid
from games.table import Table

ROOT = Path(__file__).resolve().parents[2]
PROJECT_PACKAGES = {"games", "events", "projections", "workers", "service", "bench", "bots", "clients",
                    "intrigue_client", "tests"}
GAMES = ("coup", "revolution", "ideology", "pax")


def _imported_roots(path: Path) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def test_bots_import_only_games_and_games_never_import_bots() -> None:
    for path in (ROOT / "bots").rglob("*.py"):
        project = _imported_roots(path) & PROJECT_PACKAGES
        assert project <= {"bots", "games"}, f"{path.relative_to(ROOT)} imports {sorted(project - {'bots', 'games'})}"
    for path in (ROOT / "games").rglob("*.py"):
        assert "bots" not in _imported_roots(path), f"{path.relative_to(ROOT)} imports bots"


def test_every_game_registers_a_sampler() -> None:
    for game in registry.available():
        rules = registry.load(game)
        assert callable(rules.determinize) and callable(rules.prepare_sampler)


def _first_observation(game: str, seed: str, steps: int = 0):
    rules = registry.load(game)
    table = Table(rules, 3, dict(getattr(rules, "PLAYOUT_OPTIONS", {})), seed=seed)
    table.settle()
    rng = random.Random(seed)
    for _ in range(steps):
        seat = rng.choice(sorted(table.awaiting()))
        table.act(seat, rng.choice(rules.legal_actions(table.current, seat)))
    seat = min(table.awaiting())
    return table, observation_for(table, game, seat, SeatHistories(table))


@pytest.mark.parametrize("game", ["coup", "revolution", "ideology"])
def test_a_whole_game_of_bots_posts_only_legal_actions(game: str) -> None:
    """Table.act refuses an illegal action, so a finished game proves every choice was legal."""
    bots = [IsmctsBot(Budget(iterations=12, milliseconds=None)), heuristic_for(game), RandomBot()]
    record = play(game, bots, seed=f"legal-{game}", options=dict(getattr(registry.load(game), "PLAYOUT_OPTIONS", {})))
    assert record.outcome.winners
    assert record.decisions[0] and record.decisions[1]


def test_the_pax_bots_post_legal_actions() -> None:
    """A Pax game is long: a dozen decisions of each bot, each accepted by the table."""
    table, _ = _first_observation("pax", "legal-pax")
    histories = SeatHistories(table)
    bots = {0: IsmctsBot(Budget(iterations=4, milliseconds=None)), 1: heuristic_for("pax"), 2: RandomBot()}
    for step in range(36):
        seat = min(table.awaiting())
        action = bots[seat].choose(observation_for(table, "pax", seat, histories), random.Random(step))
        table.act(seat, action)  # raises RuleViolation for an illegal action
    assert len(table.events) > 10


def test_revolution_search_bids_are_legal_for_every_hand() -> None:
    for hand in [(1, 1, 3), (0, 0, 5), (2, 0, 3), (0, 3, 2), (4, 4, 9), (0, 0, 0), (1, 0, 0)]:
        held = dict(zip(("force", "blackmail", "gold"), hand, strict=True))
        candidates = bid_candidates(hand)
        assert candidates
        for action in candidates:
            assert check_bid(action["bids"], held) == action["bids"]


@pytest.mark.parametrize("game", GAMES)
def test_the_same_seed_gives_the_same_legal_decision(game: str) -> None:
    table, observation = _first_observation(game, f"seeded-{game}", steps=6)
    bot = IsmctsBot(Budget(iterations=6 if game == "pax" else 60, milliseconds=None))
    first = bot.choose(observation, random.Random(11))
    assert bot.last.iterations in (0, bot.budget.iterations)  # 0: a single legal action needs no search
    assert bot.choose(observation, random.Random(11)) == first
    table.act(observation.seat, first)  # raises RuleViolation for an illegal action


def test_the_time_budget_bounds_a_decision() -> None:
    _, observation = _first_observation("revolution", "budget")
    bot = IsmctsBot(Budget(iterations=None, milliseconds=80))
    started = time.perf_counter()
    bot.choose(observation, random.Random(1))
    elapsed = time.perf_counter() - started
    assert bot.last.iterations >= 1
    assert elapsed < 0.08 + 0.25  # one iteration past the cap, and the sampler's preparation


def test_the_iteration_budget_is_exact() -> None:
    _, observation = _first_observation("coup", "iterations")
    bot = IsmctsBot(Budget(iterations=37, milliseconds=None))
    bot.choose(observation, random.Random(2))
    assert bot.last.iterations == 37


def test_the_default_budget_caps_time() -> None:
    assert DEFAULT_BUDGET.milliseconds is not None and DEFAULT_BUDGET.milliseconds < 1000


def test_search_beats_random_play_at_revolution() -> None:
    """A small, fixed budget still wins most 3-seat games against random bidders."""
    share = 0.0
    for index in range(3):
        bots = [RandomBot(), RandomBot(), RandomBot()]
        seat = index % 3
        bots[seat] = IsmctsBot(Budget(iterations=20, milliseconds=None))
        winners = play("revolution", bots, seed=f"strength-{index}").outcome.winners
        share += 1 / len(winners) if seat in winners else 0
    assert share >= 2


@pytest.mark.parametrize("game", ["ideology", "pax"])
def test_the_search_tries_the_rule_of_thumb_move_first(game: str) -> None:
    """With one iteration the only move searched is the heuristic bot's (these two heuristics
    draw nothing at random, so the search's generator cannot make them differ)."""
    for steps in (0, 5, 11):
        _, observation = _first_observation(game, f"hint-{game}", steps=steps)
        if len(observation.legal_actions) < 2:
            continue
        bot = IsmctsBot(Budget(iterations=1, milliseconds=None))
        expected = heuristic_for(game).choose(observation, random.Random(0))
        assert bot.choose(observation, random.Random(5)) == expected


def test_rivals_in_the_tree_follow_the_model_as_often_as_told() -> None:
    """The rival model: with ``rival_model`` 1 a rival plays its hint whenever the sample makes
    it legal (a rival's hand differs between samples of one of its nodes, so not always);
    with 0 it searches, and tries other moves far more often."""
    from bots.ismcts import _Search, action_key
    from bots.knowledge import knowledge_for

    _, observation = _first_observation("coup", "rival-model", steps=2)
    rules = registry.load("coup")
    knowledge = knowledge_for("coup")
    sampler = rules.prepare_sampler(observation.view, observation.history, observation.seat)
    saved = knowledge.rival_model
    shares = {}
    try:
        for model in (1.0, 0.0):
            knowledge.rival_model = model
            rng = random.Random(3)
            search = _Search(rules, knowledge, observation.seat, 0.7, rng)
            for _ in range(150):
                search.iterate(sampler.sample(rng), list(observation.legal_actions))
            hinted = total = 0
            stack = [node for seat, node in search.roots.items() if seat != observation.seat]
            while stack:
                node = stack.pop()
                for key, child in node.children.items():
                    if key[0] == "a":
                        total += child.visits
                        hinted += child.visits if key == node.hint else 0
                stack += node.children.values()
            shares[model] = hinted / total
    finally:
        knowledge.rival_model = saved
    assert shares[1.0] > 0.9 and shares[0.0] < 0.6, shares
    assert action_key({"b": 1, "a": 2}) == action_key({"a": 2, "b": 1})
