"""What the correspondence community adds to a game's record (issue 50): vacations, the
weekend pause, substitutes and the counts reliability is made of.

Every one of them is folded from the game's own events, so a replay, the audit and
``intrigue verify`` see the same clocks as the server did:

- ``VacationStarted {seat, until}``: the seat's clock stops from the event's ``at`` until
  ``until``; a deadline running moves on by the pause, and a decision that comes to the
  seat meanwhile starts its clock at ``until``. ``VacationEnded {seat}`` (an early return)
  takes back the part not used. The game keeps the pause it accepted from all its seats
  together (``vacation_used``, seconds): the engine caps each pause by what is left of the
  game's ``max_vacation_days``, so no game can be kept from ending.
- ``pause_weekends``: a seat's clock does not run on Saturdays and Sundays in the time zone
  its player had when joining (``PlayerJoined``'s ``timezone``).
- ``SeatSubstituted {seat, player, left}``: another player takes over a seat the bot took
  over or that resigned; the one who left keeps their counts (``left``) and the rated loss.
- ``decided`` and ``timeouts`` per seat: the decisions the seat's player made (their own
  actions and standing orders) and the deadlines they missed before the bot took over.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from events.envelope import Envelope, format_at, parse_time

Record = dict[str, Any]

DAY = 86400
#: A game's ``max_vacation_days`` when its time control names none.
DEFAULT_MAX_VACATION_DAYS = 30


def vacation_allowed(control: dict[str, Any]) -> bool:
    """Whether a time control stops its clocks for vacations: asked for (the default) and a
    day or more per move; faster games ignore vacations."""
    return bool(control.get("vacation", True)) and control.get("seconds_per_move", DAY) >= DAY


def vacation_budget(record: Record) -> float:
    """Seconds of pause the game still accepts from all its seats together."""
    days = record["time_control"].get("max_vacation_days", DEFAULT_MAX_VACATION_DAYS)
    return max(0.0, days * DAY - float(record.get("vacation_used") or 0.0))


def per_seat(record: Record, name: str, empty: Any) -> list[Any]:
    """A per-seat list the record may not have yet (records folded before issue 50)."""
    return list(record.get(name) or [empty] * record["seats"])


def on_vacation(record: Record, seat: int, at: datetime) -> datetime | None:
    """When the seat's vacation ends, if it is on one at ``at``."""
    until = per_seat(record, "vacation_until", None)[seat]
    if until is None:
        return None
    end = parse_time(until)
    return end if end > at else None


def _zone(name: str | None) -> ZoneInfo | None:
    try:
        return ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def seat_zone(record: Record, seat: int) -> ZoneInfo | None:
    """The zone whose weekends pause the seat's clock, or None without ``pause_weekends``."""
    if not record["time_control"].get("pause_weekends"):
        return None
    return _zone(per_seat(record, "timezones", None)[seat])


def _week_edge(moment: datetime, zone: ZoneInfo) -> tuple[bool, datetime]:
    """Whether ``moment`` falls on a weekend in ``zone``, and when that stretch (the weekend,
    or the weekdays) ends, in UTC."""
    local = moment.astimezone(zone)
    midnight = local.replace(hour=0, minute=0, second=0, microsecond=0)
    weekday = local.weekday()
    if weekday >= 5:
        edge = midnight + timedelta(days=7 - weekday)
    else:
        edge = midnight + timedelta(days=5 - weekday)
    # Rebuilt from the wall clock, so a change of summer time in between is the zone's.
    edge = datetime(edge.year, edge.month, edge.day, tzinfo=zone)
    return weekday >= 5, edge.astimezone(moment.tzinfo)


def clock_end(start: datetime, seconds: float, zone: ZoneInfo | None) -> datetime:
    """When a clock started at ``start`` has run ``seconds``, weekends in ``zone`` not counted."""
    if zone is None:
        return start + timedelta(seconds=seconds)
    moment, left = start, seconds
    for _ in range(10_000):
        weekend, edge = _week_edge(moment, zone)
        if weekend:
            moment = edge
            continue
        room = (edge - moment).total_seconds()
        if left <= room:
            return moment + timedelta(seconds=left)
        left -= room
        moment = edge
    return moment + timedelta(seconds=left)


def running_seconds(start: datetime, end: datetime, zone: ZoneInfo | None) -> float:
    """The seconds a clock runs between ``start`` and ``end``, weekends in ``zone`` not counted."""
    if zone is None or end <= start:
        return (end - start).total_seconds()
    moment, ran = start, 0.0
    while moment < end:
        weekend, edge = _week_edge(moment, zone)
        stop = min(edge, end)
        if not weekend:
            ran += (stop - moment).total_seconds()
        moment = stop
    return ran


def fresh_deadlines(record: Record, seat: int, at: datetime, seconds: float, bank: float) -> tuple[str, str]:
    """A decision's move deadline and deadline, its clock started at ``at``: after the seat's
    vacation if it is on one, and with its weekends paused if the game pauses them."""
    if record["autoplay"][seat]:  # the bot plays the seat: neither a vacation nor a weekend holds it up
        return format_at(at + timedelta(seconds=seconds)), format_at(at + timedelta(seconds=seconds + bank))
    start = on_vacation(record, seat, at) or at
    zone = seat_zone(record, seat)
    return format_at(clock_end(start, seconds, zone)), format_at(clock_end(start, seconds + bank, zone))


def _shift(record: Record, seat: int, seconds: float) -> None:
    """Move a running clock's deadlines of ``seat`` on (or back) by ``seconds``."""
    if record["awaiting"][seat] is None or record["deadlines"][seat] is None:
        return
    deadlines, moves = list(record["deadlines"]), per_seat(record, "move_deadlines", None)
    deadlines[seat] = format_at(parse_time(deadlines[seat]) + timedelta(seconds=seconds))
    if moves[seat] is not None:
        moves[seat] = format_at(parse_time(moves[seat]) + timedelta(seconds=seconds))
    record["deadlines"], record["move_deadlines"] = deadlines, moves


def vacation_started(record: Record, event: Envelope) -> None:
    seat = event.data["seat"]
    at, until = parse_time(event.at), parse_time(event.data["until"])
    pause = max(0.0, (until - at).total_seconds())
    held = per_seat(record, "vacation_until", None)
    held[seat] = event.data["until"]
    record["vacation_until"] = held
    record["vacation_used"] = float(record.get("vacation_used") or 0.0) + pause
    _shift(record, seat, pause)


def vacation_ended(record: Record, event: Envelope) -> None:
    seat = event.data["seat"]
    until = on_vacation(record, seat, parse_time(event.at))
    held = per_seat(record, "vacation_until", None)
    held[seat] = None
    record["vacation_until"] = held
    if until is None:
        return
    back = (until - parse_time(event.at)).total_seconds()
    record["vacation_used"] = max(0.0, float(record.get("vacation_used") or 0.0) - back)
    _shift(record, seat, -back)


def seat_substituted(record: Record, event: Envelope) -> None:
    """The substitute holds the seat from now on: back in the running, the bot's stand-in over."""
    seat = event.data["seat"]
    decided, timeouts = per_seat(record, "decided", 0), per_seat(record, "timeouts", 0)
    record["left"] = [*(record.get("left") or []), {"seat": seat, "player": event.data["left"],
                                                    "decided": decided[seat], "timeouts": timeouts[seat]}]
    decided[seat] = timeouts[seat] = 0
    record["decided"], record["timeouts"] = decided, timeouts
    players, misses, autoplay = list(record["players"]), list(record["misses"]), list(record["autoplay"])
    players[seat] = event.data["player"]
    misses[seat], autoplay[seat] = 0, False
    record["players"], record["misses"], record["autoplay"] = players, misses, autoplay
    record["resigned"] = [s for s in record.get("resigned") or [] if s != seat]
    record["substituted"] = sorted({*(record.get("substituted") or []), seat})
    joined_zone(record, event)
    held = per_seat(record, "vacation_until", None)
    held[seat] = None
    record["vacation_until"] = held
    if record["awaiting"][seat] is not None:  # the substitute gets a fresh clock for what waits
        control = record["time_control"]
        moves, deadlines = per_seat(record, "move_deadlines", None), list(record["deadlines"])
        moves[seat], deadlines[seat] = fresh_deadlines(record, seat, parse_time(event.at),
                                                       control["seconds_per_move"], 0.0)
        record["move_deadlines"], record["deadlines"] = moves, deadlines


def count_decision(record: Record, event: Envelope) -> None:
    """A seat's player decided (an action of theirs, or a standing order): once per batch."""
    seat = event.actor
    if seat is None or event.cause.get("kind") not in ("player", "orders") or event.cause.get("batch") != event.seq:
        return
    decided = per_seat(record, "decided", 0)
    decided[seat] += 1
    record["decided"] = decided


def count_timeout(record: Record, seat: int) -> None:
    """A deadline the seat's player missed, while the bot had not yet taken the seat over."""
    if record["autoplay"][seat] or seat in (record.get("resigned") or []):
        return
    timeouts = per_seat(record, "timeouts", 0)
    timeouts[seat] += 1
    record["timeouts"] = timeouts


def joined_zone(record: Record, event: Envelope) -> None:
    """The joining player's time zone, kept where the game pauses weekends."""
    zone = event.data.get("timezone")
    if zone is None:
        return
    zones = per_seat(record, "timezones", None)
    zones[event.data["seat"]] = zone
    record["timezones"] = zones


def as_rated(record: Record, ranks: Sequence[int]) -> tuple[Record, list[int]]:
    """The record and ranks a rating reads: each substituted seat held by the player who first
    left it, ranked below every other seat; the substitutes are not rated."""
    left = {entry["seat"]: entry["player"] for entry in reversed(record.get("left") or [])}
    if not left:
        return record, list(ranks)
    last = max(ranks) + 1
    players = list(record["players"])
    shown = list(ranks)
    for seat, player_id in left.items():
        players[seat] = {"id": player_id, "name": ""}
        shown[seat] = last
    return {**record, "players": players}, shown
