"""Information-set Monte Carlo tree search over the game protocol (one search, every game).

This is the multiple-observer variant of Cowling, Powley and Whitehouse (2012): every seat
has a tree of its own, whose nodes are that seat's information sets. Each iteration

1. samples a complete state from the searching seat's information (the game's
   ``prepare_sampler``: never the real hidden state);
2. walks every tree at once: the seat to act picks among the actions legal in this sample
   by UCB1 with availability counts (so an action that is seldom legal is not starved),
   and every other seat's tree follows the move *as that seat observes it* (the events
   ``redact`` shows it). A sealed bid or a sealed offer is one hidden-move edge for the
   rivals, so their choices never condition on it; and the rivals' bids or offers already
   sealed are reopened in each sample (the game knowledge's ``reopen``), so they are chosen
   alongside the seat's own: simultaneous decisions are searched as simultaneous, not as
   if the searching seat moved first or last;
3. expands one new action, plays the rest of the game out with the game's rollout policy
   (random by default), and backs up every seat's share of the win in its own tree.

System steps (``resolve``) and the draws inside them are not tree nodes: the sampler and
the rules' own generator carry that chance, as in determinized ISMCTS.

The budget is a number of iterations and a wall-clock cap, whichever ends first; with an
iteration budget only, the same seed gives the same decision.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import orjson

from bots.base import Observation
from bots.heuristics import heuristic_for
from bots.knowledge import Knowledge, knowledge_for
from games import registry
from games.base import Action, GameEvent, GameRules, RuleViolation, Seat, State
from games.fold import evolve_all


def action_key(action: Action) -> bytes:
    """A canonical key for an action: equal actions, equal keys, whatever the key order."""
    return orjson.dumps(action, option=orjson.OPT_SORT_KEYS)


class Node:
    """One information set of one seat's tree; ``visits`` and ``total`` are of the edge into it."""

    __slots__ = ("children", "visits", "total", "available", "hint")

    def __init__(self) -> None:
        self.children: dict[Any, Node] = {}
        self.visits = 0
        self.total = 0.0
        self.available = 0
        #: The key of the rule-of-thumb move at this information set (None until first asked).
        self.hint: Any = None


@dataclass(frozen=True)
class Budget:
    """How much search one decision may spend: iterations and milliseconds (None: no cap)."""

    iterations: int | None = 5000
    milliseconds: float | None = 450.0


DEFAULT_BUDGET = Budget()


@dataclass
class SearchStats:
    iterations: int = 0
    seconds: float = 0.0


class IsmctsBot:
    """The strong bot: multiple-observer ISMCTS from the seat's own information."""

    name = "ismcts"

    def __init__(self, budget: Budget = DEFAULT_BUDGET, exploration: float = 0.7) -> None:
        self.budget = budget
        self.exploration = exploration
        self.last = SearchStats()

    def choose(self, observation: Observation, rng: random.Random) -> Action:
        started = time.perf_counter()  # the budget covers the sampler's preparation too
        legal = [dict(action) for action in observation.legal_actions]
        if not legal:
            raise ValueError("the seat has no legal action to choose from")
        rules = registry.load(observation.game)
        knowledge = knowledge_for(observation.game)
        try:
            sampler = rules.prepare_sampler(observation.view, observation.history, observation.seat)
        except ValueError:  # a history the sampler cannot read (a scenario's odd deck): play by rule of thumb
            self.last = SearchStats()
            return heuristic_for(observation.game).choose(observation, rng)
        rng = random.Random(rng.getrandbits(64))  # a plain generator: the search draws a hundred thousand times
        search = _Search(rules, knowledge, observation.seat, self.exploration, rng)
        root_actions = knowledge.root_actions(observation, legal, sampler.sample(random.Random(0)), rules)
        if len(root_actions) == 1:
            self.last = SearchStats()
            return root_actions[0]
        shaper = knowledge.shaper(observation)
        deadline = None if self.budget.milliseconds is None else started + self.budget.milliseconds / 1000
        cap = self.budget.iterations
        done = 0
        while (cap is None or done < cap) and (deadline is None or time.perf_counter() < deadline):
            state = sampler.sample(rng)
            if shaper is not None:
                state = shaper(state, rng)
            state = knowledge.reopen(state, observation.seat)
            search.iterate(state, root_actions)
            done += 1
        self.last = SearchStats(done, time.perf_counter() - started)
        return search.best(root_actions)


class _Search:
    def __init__(self, rules: GameRules, knowledge: Knowledge, seat: Seat, exploration: float,
                 rng: random.Random) -> None:
        self.rules = rules
        self.knowledge = knowledge
        self.seat = seat
        self.exploration = exploration
        self.rollout_limit = knowledge.rollout_decisions
        self.rng = rng
        self.roots: dict[Seat, Node] = {}

    def best(self, root_actions: Sequence[Action]) -> Action:
        root = self.roots.get(self.seat, Node())
        scored = [(root.children[key].visits if (key := ("a", action_key(a))) in root.children else -1, -index)
                  for index, a in enumerate(root_actions)]
        return root_actions[-max(scored)[1]]

    def _fold(self, state: State, events: Sequence[GameEvent]) -> State:
        """The step's events folded on one copy of the state (not one copy an event)."""
        folded = evolve_all(self.rules.evolve, state, events)
        return state if folded is None else folded

    def _settle(self, state: State) -> State:
        rules = self.rules
        while rules.outcome(state) is None and not rules.awaiting(state):
            state = self._fold(state, rules.resolve(state, self.rng))
        return state

    def iterate(self, state: State, root_actions: Sequence[Action]) -> None:
        rules, rng = self.rules, self.rng
        seats = self.knowledge.seat_count(state)
        nodes = {s: self.roots.setdefault(s, Node()) for s in range(seats)}
        paths: dict[Seat, list[Node]] = {s: [] for s in range(seats)}
        in_tree = True
        first = True
        steps = 0
        while True:
            state = self._settle(state)
            if rules.outcome(state) is not None or steps >= self.rollout_limit:
                break
            waiting = sorted(rules.awaiting(state))
            if first:
                actor = self.seat
                actions = list(root_actions)
            else:
                actor = rng.choice(waiting)
                actions = self.knowledge.candidates(state, actor, rules)
            first = False
            if not actions:
                break
            if in_tree:
                node = nodes[actor]
                if node.hint is None:  # one information set, one view: the hint of its first sample serves all
                    node.hint = ("a", action_key(self.knowledge.policy(state, actor, actions, rng)))
                follow = actor != self.seat and rng.random() < self.knowledge.rival_model
                action, child, expanded = self._select(node, actions, follow)
                try:
                    events = rules.decide(state, actor, action, rng)
                except RuleViolation:  # an action legal in the seat's view but not in this sample
                    break
                nodes[actor] = child
                paths[actor].append(child)
                for other in range(seats):  # what each rival saw, read before the fold may reuse the events' data
                    if other != actor:
                        key = ("o", actor, self._observed(events, other))
                        nxt = nodes[other].children.get(key)
                        if nxt is None:
                            nxt = nodes[other].children[key] = Node()
                        nodes[other] = nxt
                        paths[other].append(nxt)
                state = self._fold(state, events)
                if expanded:
                    in_tree = False
            else:
                action = self.knowledge.rollout(state, actor, actions, rng)
                try:
                    state = self._fold(state, rules.decide(state, actor, action, rng))
                except RuleViolation:
                    break
            steps += 1
        rewards = self.knowledge.rewards(state, rules, seats)
        for seat, path in paths.items():
            reward = rewards[seat]
            for node in path:
                node.visits += 1
                node.total += reward

    def _observed(self, events: Sequence[GameEvent], seat: Seat) -> bytes:
        return orjson.dumps([(e.type, self.rules.redact(e, seat)) for e in events], option=orjson.OPT_SORT_KEYS)

    def _select(self, node: Node, actions: Sequence[Action], follow: bool = False) -> tuple[Action, Node, bool]:
        """UCB1 over the available children, plus a progressive bias toward the node's hint
        (the rule-of-thumb move); an untried available action first, the hint before others.
        With ``follow`` (a rival modelled as the rule-of-thumb player) the hint, when legal."""
        hint = node.hint
        if follow:
            for action in actions:
                key = ("a", action_key(action))
                if key == hint:
                    child = node.children.get(key)
                    if child is None:
                        child = node.children[key] = Node()
                    child.available += 1
                    return action, child, child.visits == 0
        untried = []
        choices = []
        hinted = None
        for action in actions:
            key = ("a", action_key(action))
            child = node.children.get(key)
            if child is None or child.visits == 0:
                if key == hint:
                    hinted = (action, key)
                untried.append((action, key))
            else:
                child.available += 1
                choices.append((action, child))
        if untried:
            action, key = hinted or untried[self.rng.randrange(len(untried))]
            child = node.children.get(key)
            if child is None:
                child = node.children[key] = Node()
            child.available += 1
            return action, child, True
        c = self.exploration
        weight = self.knowledge.hint_weight
        best_score, best = -1.0, choices[0]
        for action, child in choices:
            score = child.total / child.visits + c * math.sqrt(math.log(child.available) / child.visits)
            if child is node.children.get(hint):
                score += weight / (child.visits + 1)
            if score > best_score:
                best_score, best = score, (action, child)
        return best[0], best[1], False
