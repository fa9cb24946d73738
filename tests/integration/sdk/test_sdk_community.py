"""The SDK's calls of the correspondence community (issue 50), against a real server."""

from __future__ import annotations

import uuid

import pytest
from intrigue_client import (
    AlreadySeated,
    BadTimezone,
    Client,
    NotEnoughVacation,
    NotOnVacation,
    SeatNotOffered,
)


def register(server: str, name: str) -> Client:
    return Client.register(server, f"{name}-{uuid.uuid4().hex[:6]}")


def test_the_account_its_time_zone_and_a_vacation(server: str) -> None:
    natasha = register(server, "natasha")
    me = natasha.me()
    assert me["timezone"] == "UTC" and me["vacation_until"] is None and me["vacation_days_left"] == 30
    with pytest.raises(BadTimezone):
        natasha.set_timezone("Atlantis/Capital")
    assert natasha.set_timezone("Asia/Tokyo")["timezone"] == "Asia/Tokyo"
    with pytest.raises(NotEnoughVacation):
        natasha.start_vacation(31)
    away = natasha.start_vacation(3)
    assert away["vacation_until"] is not None and away["vacation_days_left"] == 27
    back = natasha.end_vacation()
    assert back["vacation_until"] is None and back["vacation_days_left"] == 29
    with pytest.raises(NotOnVacation):
        natasha.end_vacation()
    profile = natasha.player_profile(me["id"])
    assert (profile["reliability"], profile["decisions"], profile["timeouts"], profile["abandoned"]) == (
        None, 0, 0, 0)


def test_a_substitute_finds_a_seat_and_takes_it(server: str) -> None:
    natasha, sacha, haig, boris = (register(server, name) for name in ("natasha", "sacha", "haig", "boris"))
    game = natasha.create_game("coup", 3, min_reliability=50)
    assert game["min_reliability"] == 50 and game["substitutes"] is True
    for player in (natasha, sacha, haig):
        player.join(game["id"], commit=False)  # no fair shuffle: the game starts with the last seat
    haig.resign(game["id"])
    offered = {found["id"]: found["seats_offered"] for found in boris.seeking_substitute(limit=200)["games"]}
    assert offered[game["id"]] == [2]
    with pytest.raises(AlreadySeated):
        natasha.substitute(game["id"], 2)
    with pytest.raises(SeatNotOffered):
        boris.substitute(game["id"], 0)
    taken = boris.substitute(game["id"], 2)
    assert boris.player is not None and taken["seat"] == 2
    assert taken["game"]["players"][2] == {"id": boris.player["id"], "name": boris.player["name"]}
