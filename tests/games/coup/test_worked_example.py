"""The rulebook's "Esempio di partita", move by move, on the deck that deals it.

Natasha (seat 0) holds Contessa and Duke, Sacha (seat 1) Captain and Contessa, Haig
(seat 2) Assassin and Duke. The scenario deck is never shuffled: the court deck's
top is drawn first and returned cards go to its bottom, so every draw the book
describes is the one the rules make.
"""

from __future__ import annotations

from games.table import Table

from .helpers import (
    HAIG,
    NATASHA,
    SACHA,
    all_pass,
    all_revealed,
    coins,
    events_of,
    example_table,
    hidden,
    revealed,
    total_coins,
    types,
)

COURT = ["assassin", "duke", "contessa", "captain", "captain", "ambassador", "ambassador", "ambassador",
         "assassin"]


def first_round(t: Table) -> None:
    # Natasha claims the Duke and takes 3 coins; nobody challenges.
    t.act(NATASHA, {"type": "tax"})
    assert t.awaiting() == {SACHA: "react", HAIG: "react"}
    all_pass(t)
    assert coins(t) == [5, 2, 2]
    assert t.current["treasury"] == 41
    assert t.awaiting() == {SACHA: "turn"}

    # Sacha bluffs the Ambassador; nobody challenges; he draws an Assassin and a Duke.
    t.act(SACHA, {"type": "exchange"})
    all_pass(t)
    assert t.awaiting() == {SACHA: "keep"}
    assert t.current["exchange"]["drawn"] == ["assassin", "duke"]
    assert t.current["deck"] == COURT[2:]
    # He keeps the Assassin and the Captain he had, and puts the Duke and the Contessa back.
    events = t.act(SACHA, {"type": "keep", "cards": ["assassin", "captain"]})
    (completed,) = events_of(events, "ExchangeCompleted")
    assert sorted(completed.data["returned"]) == ["contessa", "duke"]
    assert hidden(t, SACHA) == ["assassin", "captain"]
    assert coins(t)[SACHA] == 2
    assert t.current["deck"] == [*COURT[2:], "contessa", "duke"]
    assert len(t.current["deck"]) == 9

    # Haig claims the Duke (he has it); Sacha challenges and loses.
    t.act(HAIG, {"type": "tax"})
    events = t.act(SACHA, {"type": "challenge"})
    (settled,) = events_of(events, "ChallengeSettled")
    assert settled.data["proven"] is True and settled.data["card"] == "duke"
    # The Duke goes back to the court deck and Haig draws a new card: the Contessa.
    assert settled.data["drawn"] == "contessa"
    assert hidden(t, HAIG) == ["assassin", "contessa"]
    assert t.current["deck"] == [*COURT[3:], "contessa", "duke", "duke"]
    # Sacha loses an influence and chooses which: the Assassin.
    assert t.awaiting() == {SACHA: "reveal"}
    assert coins(t)[HAIG] == 2, "the tax is paid once the challenge is over"
    events = t.act(SACHA, {"type": "reveal", "card": "assassin"})
    assert types(events)[:3] == ["InfluenceLost", "ActionSucceeded", "TurnEnded"]
    # Haig keeps the 3 coins of his Duke.
    assert coins(t)[HAIG] == 5


def test_after_the_first_round() -> None:
    t = example_table()
    assert hidden(t, NATASHA) == ["contessa", "duke"]
    assert hidden(t, SACHA) == ["captain", "contessa"]
    assert hidden(t, HAIG) == ["assassin", "duke"]
    assert coins(t) == [2, 2, 2]
    assert t.current["deck"] == COURT
    assert t.current["treasury"] == 44

    first_round(t)

    # "Dopo il primo turno"
    assert hidden(t, NATASHA) == ["contessa", "duke"] and coins(t)[NATASHA] == 5
    assert hidden(t, SACHA) == ["captain"] and coins(t)[SACHA] == 2
    assert hidden(t, HAIG) == ["assassin", "contessa"] and coins(t)[HAIG] == 5
    assert all_revealed(t) == ["assassin"] and revealed(t, SACHA) == ["assassin"]
    assert t.current["treasury"] == 50 - 12
    assert t.current["deck"] == ["captain", "captain", "ambassador", "ambassador", "ambassador", "assassin",
                                 "contessa", "duke", "duke"]
    assert t.awaiting() == {NATASHA: "turn"}
    assert t.current["turns"] == 4


def test_the_continuation_until_haig_is_out() -> None:
    t = example_table()
    first_round(t)
    deck_after_first_round = list(t.current["deck"])

    # Natasha claims the Duke again: 8 coins.
    t.act(NATASHA, {"type": "tax"})
    all_pass(t)
    assert coins(t) == [8, 2, 5]

    # Sacha takes income: nothing to challenge or block, no window at all.
    events = t.act(SACHA, {"type": "income"})
    assert "BlockDeclared" not in types(events) and t.current["window"] is None
    assert coins(t) == [8, 3, 5]
    assert t.awaiting() == {HAIG: "turn"}

    # Haig claims the Assassin against Natasha and pays 3; nobody challenges, Natasha blocks
    # with the Contessa, nobody challenges her: the assassination fails, the coins stay spent.
    t.act(HAIG, {"type": "assassinate", "target": NATASHA})
    assert coins(t)[HAIG] == 2
    t.act(SACHA, {"type": "pass"})
    t.act(NATASHA, {"type": "block", "card": "contessa"})
    assert t.awaiting() == {SACHA: "react", HAIG: "react"}
    events = all_pass(t)
    assert "InfluenceLost" not in types(events)
    assert hidden(t, NATASHA) == ["contessa", "duke"]
    assert coins(t) == [8, 3, 2]

    # Natasha pays 7 for a coup against Haig, who reveals the Contessa.
    events = t.act(NATASHA, {"type": "coup", "target": HAIG})
    assert t.awaiting() == {HAIG: "reveal"}, "a coup opens no window: it cannot be blocked or challenged"
    t.act(HAIG, {"type": "reveal", "card": "contessa"})
    assert coins(t) == [1, 3, 2]
    assert hidden(t, HAIG) == ["assassin"]

    # Sacha claims the Captain against Haig; Haig blocks with an Ambassador he does not have;
    # Sacha challenges; Haig loses his last influence (his Assassin) and Sacha takes 2 coins.
    t.act(SACHA, {"type": "steal", "target": HAIG})
    t.act(NATASHA, {"type": "pass"})
    t.act(HAIG, {"type": "block", "card": "ambassador"})
    events = t.act(SACHA, {"type": "challenge"})
    (settled,) = events_of(events, "ChallengeSettled")
    assert settled.data["proven"] is False and settled.data["claimant"] == HAIG
    (lost,) = events_of(events, "InfluenceLost")
    assert lost.data == {"seat": HAIG, "card": "assassin", "chosen": False, "exiled": True, "coins_returned": 0}

    # "In questo momento"
    assert hidden(t, NATASHA) == ["contessa", "duke"] and coins(t)[NATASHA] == 1
    assert hidden(t, SACHA) == ["captain"] and coins(t)[SACHA] == 5
    assert hidden(t, HAIG) == [] and coins(t)[HAIG] == 0
    assert all_revealed(t) == ["assassin", "assassin", "contessa"]
    assert revealed(t, HAIG) == ["assassin", "contessa"]
    assert t.current["deck"] == deck_after_first_round, "nobody drew or returned a card since"
    assert t.current["treasury"] == 50 - 6 and total_coins(t) == 50
    # "La partita continua...": Haig is skipped, Natasha plays next.
    assert t.outcome is None
    assert t.awaiting() == {NATASHA: "turn"}
