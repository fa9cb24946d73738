"""The correspondence community's calls (issue 50): your account (time zone, vacation) and
vacations; the engine's parts are ``engine.vacations``, ``engine.reliability``,
``engine.active_games`` and ``engine.substitutes``."""

from __future__ import annotations

from functools import cache
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from engine.errors import Invalid
from engine.outcomes import Joined, Player
from projections.listing import Page
from service.api_doc import BODY, TOKEN, Blueprint, declare
from service.context import current_player, engine
from service.inputs import object_body
from service.schemas import AccountPatchSchema, VacationSchema

community_bp = Blueprint("community", __name__, url_prefix="/v1/me")

#: What the join's declaration (service/routes.py) says of a substitute's ``{"seat": N}``.
JOIN_DESCRIPTION = (
    "Without a body you take the first free seat of an open game. With "
    "`{\"seat\": N}` you take over a seat a running game offers (`seats_offered` in GET "
    "/v1/games?seeking_substitute=true; else 409 `seat_not_offered`; a player seated in the game: 409 "
    "`already_seated`): a `SeatSubstituted` event; the player who left can no longer act, and keeps the rated "
    "loss; your result is not rated. A game's `min_reliability` refuses players below it (403 `too_unreliable`); "
    "past INTRIGUE_ACTIVE_GAMES_PER_PLAYER seats in games not over, 409 `too_many_active_games`.")

ACCOUNT_PATCH_SCHEMA = AccountPatchSchema()
VACATION_SCHEMA = VacationSchema()


@community_bp.get("")
@declare("Who you are, your time zone and your vacation", auth="required", ok=(200, "Account"), problems=(TOKEN,))
def account() -> dict[str, Any]:
    """Who you are, your time zone and your vacation."""
    player = current_player()
    assert player is not None
    return engine().vacations.account(player)


@community_bp.patch("")
@declare("Set your time zone (the weekends of games with pause_weekends)", auth="required", ok=(200, "Account"),
         problems=(BODY, TOKEN, {422: ("bad_timezone",)}), body="AccountPatch",
         description="An IANA name (`Europe/Paris`); UTC by default. A game that pauses weekends keeps the zone its "
                     "players had when they joined.")
def change_account() -> dict[str, Any]:
    """Set your time zone: the weekends that pause games with ``pause_weekends`` you join from now on."""
    player = current_player()
    assert player is not None
    body = ACCOUNT_PATCH_SCHEMA.load(object_body())
    return engine().vacations.set_timezone(player, known_zone(body["timezone"]))


@community_bp.post("/vacation")
@declare("Start a vacation of N days now: your clocks stop", auth="required", ok=(200, "Account"),
         problems=(BODY, TOKEN, {409: ("not_enough_vacation", "on_vacation", "busy")}), body="Vacation",
         description="Every player has INTRIGUE_VACATION_DAYS_PER_YEAR days a calendar year (UTC). A "
                     "`VacationStarted` event is appended to each running game of yours whose time control allows "
                     "it (`vacation`, the default with a day or more per move): your clock stops there and your "
                     "deadlines move on by the pause, at most what is left of the game's `max_vacation_days` (all "
                     "seats together).")
def start_vacation() -> dict[str, Any]:
    """Start a vacation of ``days`` now: your clocks stop in every game that allows it."""
    player = current_player()
    assert player is not None
    body = VACATION_SCHEMA.load(object_body())
    return engine().vacations.start(player, body["days"])


@community_bp.delete("/vacation")
@declare("End your vacation now; the whole days not used come back", auth="required", ok=(200, "Account"),
         problems=(TOKEN, {409: ("not_on_vacation", "busy")}),
         description="A `VacationEnded` event in each game still paused for you: its clock runs again from now.")
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


def take_seat(player: Player, game_id: str, seat: int) -> Joined:
    """``POST /v1/games/<id>/join`` with ``{"seat": N}`` (service/shuffles.py's JoinSchema): a substitute
    takes over a seat on offer."""
    return engine().substitutes.substitute(player, game_id, seat)


def seeking(page: Page) -> dict[str, Any]:
    """``GET /v1/games?seeking_substitute=true``: running games offering seats, with their players' reliability."""
    games = [dict(found) for found in page.cards]
    engine().reliability.annotate(games)
    return {"games": games, "next_cursor": page.next_cursor}
