"""The correspondence community's calls (issue 50): your account (time zone, vacation) and
vacations; the engine's parts are ``engine.vacations``, ``engine.reliability``,
``engine.active_games`` and ``engine.substitutes``."""

from __future__ import annotations

from functools import cache
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from flask import Blueprint

from engine.errors import Invalid
from engine.outcomes import Joined, Player
from projections.listing import Page
from service.context import current_player, engine
from service.inputs import object_body
from service.schemas import AccountPatchSchema, SeatChoiceSchema, VacationSchema

community_bp = Blueprint("community", __name__, url_prefix="/v1/me")

ACCOUNT_PATCH_SCHEMA = AccountPatchSchema()
VACATION_SCHEMA = VacationSchema()
SEAT_CHOICE_SCHEMA = SeatChoiceSchema()


@community_bp.get("")
def account() -> dict[str, Any]:
    """Who you are, your time zone and your vacation."""
    player = current_player()
    assert player is not None
    return engine().vacations.account(player)


@community_bp.patch("")
def change_account() -> dict[str, Any]:
    """Set your time zone: the weekends that pause games with ``pause_weekends`` you join from now on."""
    player = current_player()
    assert player is not None
    body = ACCOUNT_PATCH_SCHEMA.load(object_body())
    return engine().vacations.set_timezone(player, known_zone(body["timezone"]))


@community_bp.post("/vacation")
def start_vacation() -> dict[str, Any]:
    """Start a vacation of ``days`` now: your clocks stop in every game that allows it."""
    player = current_player()
    assert player is not None
    body = VACATION_SCHEMA.load(object_body())
    return engine().vacations.start(player, body["days"])


@community_bp.delete("/vacation")
def end_vacation() -> dict[str, Any]:
    """End your vacation now: the whole days not used are given back."""
    player = current_player()
    assert player is not None
    return engine().vacations.end(player)


@cache
def _zones() -> frozenset[str]:
    """The zones of the tz database (the ``tzdata`` package's, or the system's): read once."""
    return frozenset(available_timezones())


def known_zone(name: str) -> str:
    """``name`` when it is an IANA zone the server knows (its tz database), else 422 bad_timezone."""
    if name in _zones() or name == "UTC":
        try:
            ZoneInfo(name)
            return name
        except (ZoneInfoNotFoundError, ValueError):
            pass
    raise Invalid("bad_timezone", f"{name[:64]!r} is not a time zone this server knows (an IANA name such as "
                                  "Europe/Paris)")


def take_seat(player: Player, game_id: str) -> Joined:
    """``POST /v1/games/<id>/join`` with ``{"seat": N}``: a substitute takes over a seat on offer."""
    body = SEAT_CHOICE_SCHEMA.load(object_body())
    return engine().substitutes.substitute(player, game_id, body["seat"])


def seeking(page: Page) -> dict[str, Any]:
    """``GET /v1/games?seeking_substitute=true``: running games offering seats, with their players' reliability."""
    games = [dict(found) for found in page.cards]
    engine().reliability.annotate(games)
    return {"games": games, "next_cursor": page.next_cursor}
