"""Ring one: every registered game honours the protocol the platform relies on.

Random legal playouts to the end through the same call sequence as the server; after
every step: seats that may not act have no legal actions, awaited seats have some, every
legal action is accepted as it is, views and redacted events are JSON, evolve leaves its
input alone, and replaying the events rebuilds the state. Every game played to its end
writes the log the server would store, and the audit behind ``intrigue verify`` must
accept it: a title never ships a log its own audit rejects.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable

import pytest

from games import registry
from games.base import RuleViolation
from games.table import TABLE_RULE_CODES, TableEvent
from projections.record import PLATFORM_EVENT_TYPES
from projections.renderable import check_renders
from service.openapi_shapes import action_schema
from tests.support.logged_table import LoggedTable as Table

GAMES = registry.available()


def seat_counts(name: str) -> list[int]:
    rules = registry.load(name)
    return list(range(rules.MIN_SEATS, rules.MAX_SEATS + 1))


def playout(name: str, options: dict) -> dict:
    """``options`` plus the game's PLAYOUT_OPTIONS: what keeps a random playout short (a turn
    limit, for a game whose random play may run very long; see that game's README)."""
    return {**getattr(registry.load(name), "PLAYOUT_OPTIONS", {}), **options}


def option_sets(name: str) -> list[dict]:
    """No options, each optional rule that is off by default switched on alone, then all of them."""
    rules = registry.load(name)
    defaults = rules.validate_options({}, rules.MIN_SEATS)  # the protocol completes options with defaults
    switches = [key for key, value in defaults.items() if value is False]
    return [{}, *({key: True} for key in switches), *([dict.fromkeys(switches, True)] if len(switches) > 1 else [])]


def audited(table: Table) -> None:
    """The finished game's log passes the audit and names the table's winners."""
    assert table.outcome is not None
    report = table.audit()
    assert report.finished and report.winners == list(table.outcome.winners)
    assert report.events == len(table.log)


def check_step(table: Table) -> None:
    rules, state = table.rules, table.current
    waiting = rules.awaiting(state)
    for seat in range(table.seats):
        legal = rules.legal_actions(state, seat)
        if not rules.may_act(state, seat):
            assert legal == [], f"seat {seat} may not act but has legal actions"
        if seat in waiting:
            assert legal, f"seat {seat} is awaited but has no legal action"
        json.dumps(rules.view(state, seat))
    json.dumps(rules.view(state, None))
    event = table.events[-1]
    for seat in [None, *range(table.seats)]:
        json.dumps(rules.redact(event, seat))
    # The check a commit makes with INTRIGUE_RENDER_CHECK on (issue 47), on every step here.
    check_renders({"game": rules.NAME, "seats": table.seats, "status": "active", "state": state}, [event])


@pytest.mark.parametrize("name", GAMES)
def test_random_playouts_end_and_replay(name: str) -> None:
    rules = registry.load(name)
    for seats in seat_counts(name):
        for seed, options in enumerate([{}, {}, *option_sets(name)]):
            table = Table(rules, seats, playout(name, options), seed=f"conformance-{seed}")
            table.play_randomly(random.Random(seed), check=check_step)
            assert table.outcome is not None and table.outcome.winners
            audited(table)
            assert table.replay() == table.state
            assert rules.awaiting(table.current) == {}
            assert all(rules.legal_actions(table.current, s) == [] for s in range(seats))


@pytest.mark.parametrize("name", GAMES)
def test_decide_and_evolve_leave_their_input_alone(name: str) -> None:
    rules = registry.load(name)
    table = Table(rules, rules.MIN_SEATS, playout(name, {}), seed="purity")
    rng = random.Random(1)
    for _ in range(60):
        if table.outcome is not None:
            break
        if not table.awaiting():
            table.settle()
            continue
        seat = rng.choice(sorted(table.awaiting()))
        action = rng.choice(rules.legal_actions(table.current, seat))
        before = copy.deepcopy(table.current)
        drafts = rules.decide(table.current, seat, action, table.rng())
        assert table.current == before, "decide changed the state it was given"
        state = table.current
        for offset, draft in enumerate(drafts, 1):
            previous, frozen = state, copy.deepcopy(state)
            state = rules.evolve(previous, TableEvent(len(table.events) + offset, draft.type, dict(draft.data),
                                                      draft.actor))
            assert previous == frozen and state is not previous, "evolve changed the state it was given"
            assert table.current == before
        table.act(seat, action)


@pytest.mark.parametrize("name", GAMES)
def test_evolve_leaves_its_input_alone_over_whole_games(name: str) -> None:
    """Refold finished random games, optional rules included: no event may change its input."""
    rules = registry.load(name)
    counts = seat_counts(name)
    plays = [(seats, {}) for seats in counts]
    plays += [(counts[i % len(counts)], options) for i, options in enumerate(option_sets(name)[1:])]
    for index, (seats, options) in enumerate(plays):
        table = Table(rules, seats, playout(name, options), seed=f"purity-{index}")
        table.play_randomly(random.Random(index))
        state = None
        for event in table.events:
            frozen = json.dumps(state, sort_keys=True)
            new = rules.evolve(state, event)
            assert json.dumps(state, sort_keys=True) == frozen, f"evolve changed its input at {event.type}"
            assert new is not state
            state = new
        assert state == table.current
        audited(table)


@pytest.mark.parametrize("name", GAMES)
def test_timeouts_give_accepted_actions(name: str) -> None:
    rules = registry.load(name)
    table = Table(rules, rules.MAX_SEATS, seed="timeouts")
    for _ in range(3000):
        if table.outcome is not None:
            break
        seat = min(table.awaiting())
        table.timeout(seat)
    assert table.outcome is not None, "a game played only by timeouts must still end"
    audited(table)


@pytest.mark.parametrize("name", GAMES)
def test_unknown_action_is_refused_with_a_code(name: str) -> None:
    rules = registry.load(name)
    table = Table(rules, rules.MIN_SEATS, seed="refusal")
    seat = min(table.awaiting())
    with pytest.raises(RuleViolation) as err:
        rules.decide(table.current, seat, {"type": "no-such-action"}, table.rng())
    assert err.value.code and err.value.message


@pytest.mark.parametrize("name", GAMES)
def test_every_event_of_a_random_game_describes_itself_as_a_line_or_nothing(name: str) -> None:
    """The transcript asks ``describe(before, event, after)`` of every event of a finished game."""
    rules = registry.load(name)
    for seats in (rules.MIN_SEATS, rules.MAX_SEATS):
        table = Table(rules, seats, playout(name, {}), seed=f"describe-{seats}")
        table.play_randomly(random.Random(seats))
        state = None
        lines = 0
        for event in table.events:
            after = rules.evolve(state, event)
            line = rules.describe(state, event, after)
            assert line is None or (isinstance(line, str) and line.strip() and "\n" not in line), (event.type, line)
            lines += line is not None
            state = after
        assert lines > 0, "a whole game gave no line at all"
        audited(table)


@pytest.mark.parametrize("name", GAMES)
def test_no_game_event_takes_a_name_the_platform_folds_itself(name: str) -> None:
    rules = registry.load(name)
    table = Table(rules, rules.MIN_SEATS, playout(name, {}), seed="platform-names")
    table.play_randomly(random.Random(7))
    audited(table)
    clashes = {event.type for event in table.events} & PLATFORM_EVENT_TYPES
    assert not clashes, f"{name} emits platform event types {sorted(clashes)}"


def reversed_keys(value: object) -> object:
    """``value`` with the keys of every dict in it in reverse order (equal, spelled otherwise)."""
    if isinstance(value, dict):
        return {key: reversed_keys(value[key]) for key in reversed(list(value))}
    if isinstance(value, list):
        return [reversed_keys(item) for item in value]
    return value


def as_json(value: object) -> str:
    return json.dumps(value, sort_keys=True)


@pytest.mark.parametrize("name", GAMES)
def test_a_state_read_back_from_json_plays_on_alike(name: str) -> None:
    """A snapshot, or the record a commit hands to the workers, is the state through JSON:
    tuples come back as lists. From it, every seat must see and may do the same, the same
    events must fold to the same state, and a system step must draw the same events."""
    rules = registry.load(name)
    for seats in (rules.MIN_SEATS, rules.MAX_SEATS):
        table = Table(rules, seats, playout(name, {}), seed=f"json-{seats}")
        table.play_randomly(random.Random(seats))
        audited(table)
        state = None
        for event in table.events:
            state_json = json.loads(json.dumps(state))
            assert as_json(rules.evolve(state_json, event)) == as_json(rules.evolve(state, event)), event.type
            state = rules.evolve(state, event)
            if event.type in PLATFORM_EVENT_TYPES or state is None:
                continue
            state_json = json.loads(json.dumps(state))
            assert rules.awaiting(state_json) == rules.awaiting(state)
            for seat in [None, *range(seats)]:
                assert as_json(rules.view(state_json, seat)) == as_json(rules.view(state, seat))
                if seat is not None:
                    assert as_json(rules.legal_actions(state_json, seat)) == as_json(rules.legal_actions(state, seat))
            if not rules.awaiting(state) and rules.outcome(state) is None:
                drawn = [(d.type, d.data) for d in rules.resolve(state, random.Random(event.seq))]
                again = [(d.type, d.data) for d in rules.resolve(state_json, random.Random(event.seq))]
                assert as_json(again) == as_json(drawn), event.type
                # A state is a value: how its dicts happen to be ordered (a log gives keys
                # sorted, a fold of fresh drafts keeps their insertion order) changes no step.
                respelled = [(d.type, d.data) for d in rules.resolve(reversed_keys(state), random.Random(event.seq))]
                assert as_json(respelled) == as_json(drawn), event.type


@pytest.mark.parametrize("name", GAMES)
def test_the_rules_require_what_the_api_reference_marks_required(name: str) -> None:
    """The reference's ``<Game>Action`` schema and the rules agree on every required field,
    and an action left without one is refused naming it, whatever the seat owes."""
    rules = registry.load(name)
    required = rules.REQUIRED_FIELDS
    for branch in action_schema(rules)["oneOf"]:
        kind = branch["title"]
        if kind != "other":
            assert sorted(set(branch["required"]) - {"type"}) == sorted(required.get(kind, ())), kind
    table = Table(rules, rules.MIN_SEATS, seed="required")
    seat = min(table.awaiting())
    for kind, fields in required.items():
        for missing in fields:
            action = {"type": kind, **{field: 0 for field in fields if field != missing}}
            with pytest.raises(RuleViolation) as err:
                rules.decide(table.current, seat, action, table.rng())
            assert err.value.code.startswith("missing_") and repr(missing) in err.value.message, (action, err.value)
            assert err.value.code in rules.RULE_CODES


@pytest.mark.parametrize("name", GAMES)
def test_every_refusal_of_a_random_game_is_a_declared_rule_code(name: str) -> None:
    """Stale actions (legal once, most of them not now), other seats' actions, unknown types, extra
    fields and odd options: whatever the rules refuse with is in the game's ``RULE_CODES``."""
    rules = registry.load(name)
    declared = set(rules.RULE_CODES) | set(TABLE_RULE_CODES)
    refused: set[str] = set()

    def attempt(call: Callable[..., object], *args: object) -> None:
        try:
            call(*args)
        except RuleViolation as err:
            refused.add(err.code)

    for key in rules.validate_options({}, rules.MIN_SEATS):
        for odd in (None, -1, "odd", [], {"odd": 1}, True):
            attempt(rules.validate_options, {key: odd}, rules.MIN_SEATS)
    attempt(rules.validate_options, {"no_such_option": 1}, rules.MIN_SEATS)
    attempt(rules.validate_options, {}, rules.MAX_SEATS + 1)
    rng = random.Random(7)
    for seats in (rules.MIN_SEATS, rules.MAX_SEATS):
        table = Table(rules, seats, playout(name, {}), seed=f"refusals-{seats}")
        table.settle()
        seen: list[dict] = []
        for _ in range(150):
            if table.outcome is not None:
                break
            state = table.current
            legal = {seat: rules.legal_actions(state, seat) for seat in range(seats)}
            seen.extend(action for actions in legal.values() for action in actions[:5])
            for seat in range(seats):
                wrong = [*rng.sample(seen, min(4, len(seen))), {"type": "no-such-action"}, {"no": "type"}]
                if legal[seat]:
                    wrong.append({**rng.choice(legal[seat]), "no_such_field": 1})
                for action in wrong:
                    attempt(rules.decide, state, seat, action, table.rng())
            mover = rng.choice([seat for seat, actions in legal.items() if actions])
            table.act(mover, rng.choice(legal[mover]))
        attempt(table.act, 0, {"type": "no-such-action"})
    assert len(refused) >= 4  # the attempts meet the rules' refusals
    assert sorted(refused - declared) == []
