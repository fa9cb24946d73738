"""What one Ideology seat learns over HTTP does not depend on cards or offers it has not seen.

Two scenario games give seat 0 (Fascism) the same deck, but give seat 1 (Imperialism)
different opening hands and draws, and a different region pile below its top tile. The
same public story is played in both: seat 1 exchanges a card (an economic one in one
game, a cultural one in the other) and draws an unseen one, both develop nothing, seat 1
places a military card on the new independent region, everyone passes, and seat 1 seals
a different diplomatic offer in each game. If anything seat 0 can fetch (its view, legal
actions, feed, replay, inbox, game lists, error bodies) differed between the two games,
it would be telling seat 0 something it has not seen.
"""

from __future__ import annotations

from games.ideology import components
from tests.support.client import Client
from tests.support.observer import SeatZeroObserver, normalise

FASCISM_DECK = ["military"] * 12 + ["economic"] * 12 + ["cultural"] * 12
IMPERIAL_A = ["military", "economic", "economic", "cultural", *(["military"] * 11), *(["economic"] * 10),
              *(["cultural"] * 11)]
IMPERIAL_B = ["military", "cultural", "cultural", "economic", *(["military"] * 11), *(["economic"] * 11),
              *(["cultural"] * 10)]
PILE = [r["id"] for r in components.default_components()["regions"]
        if r["id"] not in ("germany", "great_britain", "cuba")]
PILE_A = ["cuba", *PILE]
PILE_B = ["cuba", *reversed(PILE)]


class Observer(SeatZeroObserver):
    """Seat 0 (Fascism) of a 2-seat game against Imperialism with the given hidden parts."""

    def __init__(self, server: str, imperial: list[str], pile: list[str], offer: str) -> None:
        players = [Client.register(server, f"ideo-secret{i}") for i in range(2)]
        options = {"ideologies": ["fascism", "imperialism"], "regions": pile,
                   "decks": {"fascism": FASCISM_DECK, "imperialism": imperial}}
        super().__init__(players, players[0].create_game("ideology", 2, options))
        self.offer = offer

    def await_kind(self, seat: int, kind: str) -> None:
        for _ in range(20):
            game = self.players[0].game(self.game_id)
            if game["awaiting_kinds"].get(str(seat)) == kind:
                return
            self.players[0].events(self.game_id, after=game["version"], wait=5)
        raise AssertionError(f"seat {seat} never owed {kind!r}")


def play_the_story(o: Observer, second_card: str) -> None:
    o.look("dealt")
    o.mistake("exchange out of turn", {"type": "exchange", "discard": {}})
    o.act(1, {"type": "exchange", "discard": {second_card: 1}})
    o.look("seat 1 exchanged a card it holds")
    o.mistake("exchange more than my trade power", {"type": "exchange", "discard": {"military": 2}})
    o.act(0, {"type": "exchange", "discard": {}})
    o.await_kind(1, "develop")
    o.act(1, {"type": "done"})
    o.mistake("develop a region I do not control", {"type": "develop", "region": "cuba", "influence": "military"})
    o.act(0, {"type": "done"})
    o.await_kind(1, "foreign_affairs")
    o.look("cuba revealed")
    o.act(1, {"type": "place", "region": "cuba", "influence": "military"})
    o.look("seat 1 placed")
    o.mistake("place a card type I do not hold", {"type": "place", "region": "cuba", "influence": "economic"})
    o.act(0, {"type": "pass"})
    o.act(1, {"type": "pass"})
    o.await_kind(1, "conflict")
    o.act(1, {"type": "pass"})
    o.act(0, {"type": "pass"})
    o.await_kind(1, "offer")
    o.act(1, {"type": "offer", "offers": {"fascism": o.offer}})
    o.look("seat 1 sealed its offer")
    o.mistake("an offer to myself", {"type": "offer", "offers": {"fascism": "war"}})


def test_seat_zero_cannot_tell_two_deals_and_offers_apart_over_http(server: str) -> None:
    a = Observer(server, IMPERIAL_A, PILE_A, "war")
    b = Observer(server, IMPERIAL_B, PILE_B, "peace")
    play_the_story(a, "economic")
    play_the_story(b, "cultural")
    assert len(a.seen) == len(b.seen)
    for seen_a, seen_b in zip(a.seen, b.seen, strict=True):
        assert seen_a == seen_b, f"seat 0 can tell the games apart at {seen_a['label']!r}"
    # The games really differ underneath: seat 1's hand, its sealed offer, the pile.
    operator = Client(a.players[0].base_url, token="operator-secret")
    states = [operator.get(f"/v1/games/{o.game_id}/replay")["state"] for o in (a, b)]
    assert states[0]["hands"][1] != states[1]["hands"][1]
    assert states[0]["offers"][1] == {"fascism": "war"} and states[1]["offers"][1] == {"fascism": "peace"}
    assert states[0]["region_pile"] != states[1]["region_pile"]
    # Seat 0's own view shows its own hand: three military cards from its fixed deck.
    me = a.players[0].game(a.game_id)["view"]
    assert me["hand"]["counts"] == {"military": 3, "economic": 0, "cultural": 0}
    # Seat 1 does see its own sealed offer.
    assert a.players[1].game(a.game_id)["view"]["my_offer"] == {"fascism": "war"}


#: Seat 1 draws military, military, economic, then military again: whichever type it
#: exchanges, it still holds military cards to lay, but not the same ones.
IMPERIAL_TWIN = ["military", "military", "economic", "military", *(["military"] * 9), *(["economic"] * 11),
                 *(["cultural"] * 12)]


def test_a_secret_exchange_leaves_no_trace_in_the_cards_seat_one_lays_later(server: str) -> None:
    """Twin games with the same fixed decks and pile, differing only in the type of card
    seat 1 exchanges in secret (issue 27). A card's id follows its deck's order, and seat 1
    lays the first card of its type in hand order: had a public event named that id, seat 0
    would read off which card went in the exchange."""
    a = Observer(server, IMPERIAL_TWIN, PILE_A, "war")
    b = Observer(server, IMPERIAL_TWIN, PILE_A, "war")
    play_the_story(a, "military")
    play_the_story(b, "economic")
    assert len(a.seen) == len(b.seen)
    for seen_a, seen_b in zip(a.seen, b.seen, strict=True):
        assert seen_a == seen_b, f"seat 0 can tell the exchanges apart at {seen_a['label']!r}"
    spectator = Client(server)
    assert (normalise(spectator.events(a.game_id, after=0), a.game_id)
            == normalise(spectator.events(b.game_id, after=0), b.game_id))
    # Underneath, seat 1 laid different cards of the same type on Cuba.
    operator = Client(server, token="operator-secret")
    laid = [operator.get(f"/v1/games/{o.game_id}/replay")["state"]["regions"]["cuba"]["cards"]["military"]
            for o in (a, b)]
    assert laid[0] != laid[1] and all(len(cards) == 1 for cards in laid)
    placed = [e for e in a.players[0].events(a.game_id, after=0)["events"] if e["type"] == "InfluencePlaced"]
    assert placed and placed[0]["data"]["card"] == "imperialism:military"


def test_fixed_decks_and_pile_are_published_to_nobody(server: str) -> None:
    observer = Observer(server, IMPERIAL_A, PILE_A, "war")
    gid = observer.game_id
    bodies = [Client(server).game(gid), *(player.game(gid) for player in observer.players)]
    bodies += [g for g in observer.players[0].get("/v1/me/games")["games"] if g["id"] == gid]
    for body in bodies:
        assert "decks" not in body["options"] and "regions" not in body["options"], body["options"]
        text = str(body)
        assert str(PILE_A[:3])[1:-1] not in text
    for body in bodies[:3]:
        assert body["view"]["scenario"] is True
        assert body["view"]["options"]["decks_fixed"] is True
