"""The Assassin: 3 coins, the Contessa's block, the refund, and the double loss of the book's note."""

from __future__ import annotations

import pytest

import games.coup as coup
from games.base import RuleViolation

from .helpers import all_pass, coins, events_of, hidden, revealed, set_coins, table, total_coins, types

ASSASSIN, TARGET, OTHER = 0, 1, 2


def start(actor: list[str], target: list[str], other: list[str] | None = None, actor_coins: int = 3):
    t = table(actor, target, other or ["captain", "ambassador"])
    set_coins(t, {ASSASSIN: actor_coins})
    t.act(ASSASSIN, {"type": "assassinate", "target": TARGET})
    return t


def test_assassinate_costs_three_coins_paid_at_once() -> None:
    t = start(["assassin", "duke"], ["duke", "captain"], actor_coins=4)
    assert coins(t)[ASSASSIN] == 1
    assert t.current["treasury"] == 50 - 2 - 2 - 4 + 3
    assert t.awaiting() == {TARGET: "react", OTHER: "react"}


def test_assassinate_needs_three_coins() -> None:
    t = table(["assassin", "duke"], ["duke", "captain"], ["captain", "ambassador"])
    assert all(a["type"] != "assassinate" for a in coup.legal_actions(t.current, ASSASSIN))
    with pytest.raises(RuleViolation) as err:
        t.act(ASSASSIN, {"type": "assassinate", "target": TARGET})
    assert err.value.code == "not_enough_coins"


def test_unopposed_assassination_costs_the_target_an_influence_of_its_choice() -> None:
    t = start(["assassin", "duke"], ["duke", "captain"])
    all_pass(t)
    assert t.awaiting() == {TARGET: "reveal"}
    t.act(TARGET, {"type": "reveal", "card": "captain"})
    assert hidden(t, TARGET) == ["duke"] and revealed(t, TARGET) == ["captain"]
    assert coins(t)[ASSASSIN] == 0
    assert t.awaiting() == {TARGET: "turn"}


def test_only_the_target_may_block_and_only_with_the_contessa() -> None:
    t = start(["assassin", "duke"], ["contessa", "captain"], ["contessa", "ambassador"])
    assert coup.legal_actions(t.current, TARGET) == [{"type": "pass"}, {"type": "challenge"},
                                                     {"type": "block", "card": "contessa"}]
    assert coup.legal_actions(t.current, OTHER) == [{"type": "pass"}, {"type": "challenge"}]
    for seat, card in ((OTHER, "contessa"), (TARGET, "duke"), (TARGET, "captain")):
        with pytest.raises(RuleViolation) as err:
            t.act(seat, {"type": "block", "card": card})
        assert err.value.code == "cannot_block"


def test_a_contessa_block_stops_the_assassination_but_the_coins_stay_spent() -> None:
    t = start(["assassin", "duke"], ["contessa", "captain"])
    t.act(TARGET, {"type": "block", "card": "contessa"})
    assert t.awaiting() == {OTHER: "react", ASSASSIN: "react"}
    events = all_pass(t)
    assert types(events)[-2:] == ["WindowClosed", "TurnEnded"]
    assert hidden(t, TARGET) == ["captain", "contessa"]
    assert coins(t)[ASSASSIN] == 0
    assert total_coins(t) == 50


def test_a_successful_challenge_of_the_assassin_refunds_the_three_coins() -> None:
    t = start(["duke", "captain"], ["contessa", "captain"], actor_coins=5)
    assert coins(t)[ASSASSIN] == 2
    events = t.act(OTHER, {"type": "challenge"})
    (settled,) = events_of(events, "ChallengeSettled")
    assert settled.data["proven"] is False and settled.data["refund"] == 3
    assert coins(t)[ASSASSIN] == 5
    assert t.current["treasury"] == 50 - 5 - 2 - 2
    assert t.awaiting() == {ASSASSIN: "reveal"}
    t.act(ASSASSIN, {"type": "reveal", "card": "duke"})
    assert hidden(t, TARGET) == ["captain", "contessa"], "the failed assassination touches nobody"
    assert t.awaiting() == {TARGET: "turn"}


def test_double_loss_the_target_challenges_a_true_assassin_and_does_not_block() -> None:
    t = start(["assassin", "duke"], ["duke", "captain"])
    t.act(TARGET, {"type": "challenge"})
    assert t.current["deck"][-1] == "assassin", "the proven Assassin went back to the court deck"
    assert t.awaiting() == {TARGET: "reveal"}
    t.act(TARGET, {"type": "reveal", "card": "duke"})  # one influence for the lost challenge
    # The target may still claim a Contessa; it does not, and the assassination goes through.
    assert t.awaiting() == {TARGET: "react"}
    assert coup.legal_actions(t.current, TARGET) == [{"type": "pass"}, {"type": "block", "card": "contessa"}]
    events = t.act(TARGET, {"type": "pass"})
    (succeeded,) = events_of(events, "ActionSucceeded")
    assert succeeded.data == {"seat": ASSASSIN, "type": "assassinate", "target": TARGET}
    assert hidden(t, TARGET) == [] and revealed(t, TARGET) == ["captain", "duke"]
    assert t.awaiting() == {OTHER: "turn"}


def test_double_loss_a_bluffed_contessa_is_challenged() -> None:
    t = start(["assassin", "duke"], ["duke", "captain"])
    t.act(TARGET, {"type": "block", "card": "contessa"})  # the target holds no Contessa
    events = t.act(ASSASSIN, {"type": "challenge"})
    (settled,) = events_of(events, "ChallengeSettled")
    assert settled.data["proven"] is False and settled.data["about"] == "block"
    assert t.awaiting() == {TARGET: "reveal"}
    t.act(TARGET, {"type": "reveal", "card": "captain"})
    # Both influences are gone: one for the challenge, one for the assassination.
    assert hidden(t, TARGET) == [] and revealed(t, TARGET) == ["captain", "duke"]
    assert t.awaiting() == {OTHER: "turn"}


def test_a_challenged_true_contessa_stands_and_the_challenger_loses() -> None:
    t = start(["assassin", "duke"], ["contessa", "captain"])
    t.act(TARGET, {"type": "block", "card": "contessa"})
    t.act(OTHER, {"type": "challenge"})
    assert t.awaiting() == {OTHER: "reveal"}
    t.act(OTHER, {"type": "reveal", "card": "ambassador"})
    assert len(hidden(t, TARGET)) == 2 and "captain" in hidden(t, TARGET)
    assert t.current["deck"][-1] == "contessa"
    assert coins(t)[ASSASSIN] == 0
    assert t.awaiting() == {TARGET: "turn"}


def test_a_third_seat_losing_its_challenge_leaves_the_target_its_block() -> None:
    t = start(["assassin", "duke"], ["contessa", "captain"])
    t.act(OTHER, {"type": "challenge"})
    t.act(OTHER, {"type": "reveal", "card": "captain"})
    assert t.awaiting() == {TARGET: "react"}
    t.act(TARGET, {"type": "block", "card": "contessa"})
    all_pass(t)
    assert hidden(t, TARGET) == ["captain", "contessa"]
    assert hidden(t, OTHER) == ["ambassador"]


def test_a_target_exiled_by_its_own_challenge_is_not_assassinated_again() -> None:
    t = table(["assassin", "duke"], ["duke", "captain"], ["captain", "ambassador"])
    set_coins(t, {ASSASSIN: 6})
    t.act(ASSASSIN, {"type": "assassinate", "target": TARGET})
    all_pass(t)
    t.act(TARGET, {"type": "reveal", "card": "duke"})
    t.act(TARGET, {"type": "income"})
    t.act(OTHER, {"type": "income"})
    t.act(ASSASSIN, {"type": "assassinate", "target": TARGET})
    events = t.act(TARGET, {"type": "challenge"})
    lost = events_of(events, "InfluenceLost")
    assert [e.data["card"] for e in lost] == ["captain"]
    assert "BlockOffered" not in types(events), "an exiled seat is offered nothing"
    assert types(events) == ["ChallengeSettled", "InfluenceLost", "ActionSucceeded", "TurnEnded"]
    assert hidden(t, TARGET) == []
    assert t.awaiting() == {OTHER: "turn"}
