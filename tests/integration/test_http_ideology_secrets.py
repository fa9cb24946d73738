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

from typing import Any

from games.ideology import components
from tests.support.client import Client

FASCISM_DECK = ["military"] * 12 + ["economic"] * 12 + ["cultural"] * 12
IMPERIAL_A = ["military", "economic", "economic", "cultural", *(["military"] * 11), *(["economic"] * 10),
              *(["cultural"] * 11)]
IMPERIAL_B = ["military", "cultural", "cultural", "economic", *(["military"] * 11), *(["economic"] * 11),
              *(["cultural"] * 10)]
PILE = [r["id"] for r in components.default_components()["regions"]
        if r["id"] not in ("germany", "great_britain", "cuba")]
PILE_A = ["cuba", *PILE]
PILE_B = ["cuba", *reversed(PILE)]
INCIDENTAL = {"id", "game_id", "at", "deadline", "deadlines", "created_at", "updated_at", "seed_hash", "hash",
              "prev", "move_deadlines", "created_by", "player", "player_id"}


def normalise(value: Any, game_id: str) -> Any:
    if isinstance(value, dict):
        return {k: normalise(v, game_id) for k, v in value.items() if k not in INCIDENTAL}
    if isinstance(value, list):
        return [normalise(v, game_id) for v in value]
    if isinstance(value, str):
        return value.replace(game_id, "<game>")
    return value


class Observer:
    """Everything seat 0 can fetch about one game, gathered at each checkpoint."""

    def __init__(self, server: str, imperial: list[str], pile: list[str], offer: str) -> None:
        self.players = [Client.register(server, f"ideo-secret{i}") for i in range(2)]
        options = {"ideologies": ["fascism", "imperialism"], "regions": pile,
                   "decks": {"fascism": FASCISM_DECK, "imperialism": imperial}}
        self.game_id = self.players[0].create_game("ideology", 2, options)
        for seat, player in enumerate(self.players):
            assert player.join(self.game_id) == seat
        self.offer = offer
        self.seen: list[Any] = []

    def look(self, label: str) -> None:
        me, gid = self.players[0], self.game_id
        game = me.game(gid)
        observed = {
            "label": label,
            "game": game,
            "feed": me.events(gid, after=0),
            "replay": me.get(f"/v1/games/{gid}/replay", params={"version": game["version"]}),
            "inbox": me.get("/v1/me/games", params={"awaiting": "me"})["games"],
            "mine": me.get("/v1/me/games")["games"],
        }
        self.seen.append(normalise(observed, gid))

    def mistake(self, label: str, action: dict[str, Any]) -> None:
        response = self.players[0].request("POST", f"/v1/games/{self.game_id}/actions", action)
        assert response.status_code in (409, 422), response.text
        self.seen.append(normalise({"label": label, "status": response.status_code, "problem": response.json()},
                                   self.game_id))

    def act(self, seat: int, action: dict[str, Any]) -> None:
        self.players[seat].act(self.game_id, action)

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
