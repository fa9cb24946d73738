"""What one Coup seat learns over HTTP does not depend on cards it has not seen.

Two scenario games are dealt the same hand for seat 0 but different hands to seats 1
and 2 and a different court deck. The same public story is played in both: a tax
declared and let through, a Duke claim challenged and proven (so the claimant draws an
unseen replacement), an exchange that draws two unseen cards, and seat 0's own mistakes.
If anything seat 0 can fetch (its view, legal actions, feed, replay, inbox, lobby
entry, error bodies) differed between the two games, it would be telling seat 0
something about cards it has not seen.
"""

from __future__ import annotations

from typing import Any

from tests.support.client import Client
from tests.support.observer import INCIDENTAL, SeatZeroObserver

#: Same hand for seat 0; seats 1 and 2 and the undealt court deck differ.
DECK_A = ["duke", "contessa", "duke", "captain", "ambassador", "assassin",
          "captain", "contessa", "ambassador", "assassin", "duke", "captain", "contessa", "ambassador", "assassin"]
DECK_B = ["duke", "contessa", "duke", "assassin", "captain", "ambassador",
          "assassin", "ambassador", "contessa", "captain", "duke", "contessa", "captain", "assassin", "ambassador"]


class Observer(SeatZeroObserver):
    """Seat 0 of a 3-seat Coup game dealt from ``deck``."""

    incidental = INCIDENTAL | {"players", "instance"}

    def __init__(self, server: str, deck: list[str]) -> None:
        players = [Client.register(server, f"secret{i}") for i in range(3)]
        super().__init__(players, players[0].create_game("coup", 3, {"deck": deck}))

    def own_choice(self, seat: int) -> dict[str, Any]:
        """A decision that depends on the seat's own cards: the first legal one it is offered."""
        return self.players[seat].game(self.game_id)["legal_actions"][0]

    def await_turn(self, seat: int) -> None:
        """Long-poll until ``seat`` owes its turn (a worker closes passed windows)."""
        for _ in range(20):
            game = self.players[0].game(self.game_id)
            if game["awaiting_kinds"].get(str(seat)) == "turn":
                return
            self.players[0].events(self.game_id, after=game["version"], wait=5)
        raise AssertionError(f"seat {seat}'s turn never came")


def play_the_story(observer: Observer) -> None:
    o = observer
    o.look("dealt")
    o.mistake("challenge on my own turn", {"type": "challenge"})
    o.act(0, {"type": "tax"})
    o.look("tax declared")
    o.mistake("turn move in a window I am not in", {"type": "income"})
    o.act(1, {"type": "pass"})
    o.act(2, {"type": "pass"})
    o.await_turn(1)
    o.look("tax through")
    o.act(1, {"type": "tax"})  # seat 1 holds a Duke in both games
    o.look("seat 1 claims the Duke")
    o.act(0, {"type": "challenge"})
    o.look("challenge proven: seat 1 drew an unseen card, I owe a card")
    o.mistake("reveal a card I do not hold", {"type": "reveal", "card": "assassin"})
    o.act(0, {"type": "reveal", "card": "contessa"})
    o.await_turn(2)
    o.look("seat 1 taxed")
    o.act(2, {"type": "exchange"})
    o.act(0, {"type": "pass"})
    o.act(1, {"type": "pass"})
    for _ in range(20):  # the worker closes the window; seat 2 then owes its keep
        game = o.players[0].game(o.game_id)
        if game["awaiting_kinds"].get("2") == "keep":
            break
        o.players[0].events(o.game_id, after=game["version"], wait=5)
    o.look("seat 2 drew two unseen cards")
    o.mistake("keep someone else's exchange", {"type": "keep", "cards": ["duke"]})
    o.act(2, o.own_choice(2))
    o.await_turn(0)
    o.look("exchange done")


def test_seat_zero_cannot_tell_two_deals_apart_over_http(server: str) -> None:
    a, b = Observer(server, DECK_A), Observer(server, DECK_B)
    play_the_story(a)
    play_the_story(b)
    assert len(a.seen) == len(b.seen)
    for seen_a, seen_b in zip(a.seen, b.seen, strict=True):
        assert seen_a == seen_b, f"seat 0 can tell the deals apart at {seen_a['label']!r}"
    # The story did touch the secrets it claims to: the games really differ underneath.
    finals = [Client(a.players[0].base_url, token="operator-secret").get(f"/v1/games/{o.game_id}/replay")["state"]
              for o in (a, b)]
    assert finals[0]["seats"][1]["hidden"] != finals[1]["seats"][1]["hidden"]
    assert finals[0]["deck"] != finals[1]["deck"]
    # And seat 0's own cards are what it was dealt, minus the one it revealed.
    me = a.players[0].game(a.game_id)["view"]
    assert me["seats"][0]["hand"] == ["duke"] and me["seats"][0]["revealed"] == ["contessa"]


def test_a_scenario_deck_is_published_to_nobody_until_the_end(server: str) -> None:
    """The fixed deck would reveal every hand: it is not in the options anyone can read."""
    observer = Observer(server, DECK_A)
    gid = observer.game_id
    lobby_like = [Client(server).game(gid), *(player.game(gid) for player in observer.players)]
    mine = [g for g in observer.players[0].get("/v1/me/games")["games"] if g["id"] == gid]
    for body in [*lobby_like, *mine]:
        assert "deck" not in body["options"], body["options"]
    for seat, body in enumerate(lobby_like[1:]):
        hands = {s["seat"]: s.get("hand") for s in body["view"]["seats"]}
        assert hands[seat] == DECK_A[2 * seat:2 * seat + 2]
        assert all(hand is None for other, hand in hands.items() if other != seat)
        assert body["view"]["scenario"] is True and "deck" not in body["view"]
