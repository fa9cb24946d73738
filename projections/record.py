"""The game record: the platform's fold of one game's stream.

A record wraps the game's own state (folded by the game's ``evolve``) with what
the platform tracks around it: seats and players, status, version, whom it awaits
and until when, missed deadlines, autoplay and the result. It is plain JSON data
so it can be snapshotted, and :func:`fold` never mutates the record it is given.

Deadlines are derived from the events alone (each event's ``at`` plus the time
control), so they survive restarts and can be rebuilt. A seat's clock keeps running
while a simultaneous step only shrinks (other seats passing or bidding); any other
change of whom the game awaits starts a fresh clock for every awaited seat.

Time banks: with ``time_control.reserve_seconds`` each seat also owns a reserve. A
decision's default lands at its move deadline plus the seat's reserve left; time a
seat spends beyond the move deadline is taken from its reserve when its clock stops
(it decided, it lost the decision, or a fresh clock started). So a seat that misses a
move deadline first spends its reserve, and ``DeadlineMissed`` (a default, counted
towards the bot's takeover) happens only once the reserve is gone. ``move_deadlines``
keeps the plain deadlines, where each seat's reserve starts to run.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from events.envelope import Envelope, parse_time
from games.base import GameRules, Outcome
from games.registry import load
from projections import community

Record = dict[str, Any]

DEFAULT_TIME_CONTROL = {"seconds_per_move": 86400, "autoplay_after": 3, "autoplay_seconds": 10,
                        "reserve_seconds": 0}


def _awaited(record: Record) -> dict[int, str]:
    return {seat: kind for seat, kind in enumerate(record["awaiting"]) if kind is not None}


def awaiting(record: Record) -> dict[int, str]:
    """Seats the game waits for, with the kind of decision each owes."""
    return _awaited(record)


#: How a bot seat's player reads in views and listings, by strategy.
BOT_NAMES = {"ismcts": "ISMCTS bot", "random": "Random bot"}


def bot_player(strategy: str) -> dict[str, str]:
    """The player entry of a seat a bot holds: an id no registered player can have, and its strategy."""
    return {"id": f"bot:{strategy}", "name": BOT_NAMES.get(strategy, f"{strategy} bot"), "bot": strategy}


def _game_created(event: Envelope) -> Record:
    data = event.data
    seats = data["seats"]
    # Bot seats are taken at creation: the people's seats are the ones left, and the last
    # of them to join starts the game.
    bots = dict(data.get("bots") or {})
    players: list[dict[str, str] | None] = [None] * seats
    for seat, strategy in bots.items():
        players[int(seat)] = bot_player(strategy)
    return {
        "id": data["id"], "game": data["game"], "seats": seats, "options": data["options"],
        "time_control": {**DEFAULT_TIME_CONTROL, **data["time_control"]},
        "created_at": event.at, "created_by": data["created_by"], "seed_hash": data["seed_hash"],
        "status": "open", "players": players, "bots": bots, "version": 0, "last_hash": "", "updated_at": event.at,
        "state": None, "awaiting": [None] * seats, "deadlines": [None] * seats, "misses": [0] * seats,
        "autoplay": [False] * seats, "winners": None, "reason": None, "seed": None,
        "move_deadlines": [None] * seats,
        "reserve": [float({**DEFAULT_TIME_CONTROL, **data["time_control"]}["reserve_seconds"])] * seats,
        "resigned": [], "revisions": [0] * seats, "departures": {},
        "unlisted": bool(data.get("unlisted", False)), "invite": list(data.get("invite") or []),
        "rematch_of": data.get("rematch_of"), "rated": bool(data.get("rated", False)),
        "min_reliability": data.get("min_reliability"), "substitutes": bool(data.get("substitutes", True)),
        "humans_only": bool(data.get("humans_only", False)),
        **({"tournament": data["tournament"], "round": data.get("round")} if data.get("tournament") else {}),
    }


def fold(record: Record | None, event: Envelope) -> Record:
    """Apply one stored event to a record and return the new record."""
    if event.type == "GameCreated":
        new = _game_created(event)
    else:
        if record is None:
            raise ValueError(f"event {event.seq} ({event.type}) comes before GameCreated")
        new = dict(record)
        handler = _PLATFORM_HANDLERS.get(event.type)
        if handler is not None:
            handler(new, event)
        else:
            _fold_game_event(new, event)
    new["version"] = event.seq
    new["last_hash"] = event.hash
    new["updated_at"] = event.at
    return new


def _player_joined(record: Record, event: Envelope) -> None:
    players = list(record["players"])
    players[event.data["seat"]] = event.data["player"]
    record["players"] = players
    community.joined_zone(record, event)
    if "commitment" in event.data:  # a fair shuffle's commitment (events.entropy)
        seat = str(event.data["seat"])
        record["commitments"] = {**(record.get("commitments") or {}), seat: event.data["commitment"]}
        record["entropy"] = {**(record.get("entropy") or {}), seat: "committed"}


def _reveals_awaited(record: Record, event: Envelope) -> None:
    """Every seat is taken and some committed: the game starts once they reveal, or at ``until``."""
    record["status"] = "starting"
    record["reveal_by"] = event.data["until"]


def _secret_revealed(record: Record, event: Envelope) -> None:
    seat = str(event.data["seat"])
    record["secrets"] = {**(record.get("secrets") or {}), seat: event.data["secret"]}
    record["entropy"] = {**(record.get("entropy") or {}), seat: "revealed"}


def _game_started(record: Record, event: Envelope) -> None:
    record["status"] = "active"
    if event.data.get("dropped"):  # committed seats that did not reveal in time: out of the mix
        record["entropy"] = {**(record.get("entropy") or {}), **{str(s): "dropped" for s in event.data["dropped"]}}
    record.pop("reveal_by", None)


def _deadline_missed(record: Record, event: Envelope) -> None:
    seat = event.data["seat"]
    community.count_timeout(record, seat)
    misses, autoplay = list(record["misses"]), list(record["autoplay"])
    misses[seat] = event.data["misses"]
    autoplay[seat] = event.data["autoplay"]
    record["misses"], record["autoplay"] = misses, autoplay


def _player_left(record: Record, event: Envelope) -> None:
    players = list(record["players"])
    players[event.data["seat"]] = None
    record["players"] = players
    # Leaving and joining again appends and moves nothing on: the engine bounds how often.
    if str(event.data["seat"]) in (record.get("commitments") or {}):  # the seat's commitment leaves with it
        gone = str(event.data["seat"])
        record["commitments"] = {s: c for s, c in record["commitments"].items() if s != gone}
        record["entropy"] = {s: v for s, v in (record.get("entropy") or {}).items() if s != gone}
    player = event.data["player"]
    record["departures"] = {**departures(record), player: departures(record).get(player, 0) + 1}


def _game_cancelled(record: Record, event: Envelope) -> None:
    record["status"] = "cancelled"


def _seat_resigned(record: Record, event: Envelope) -> None:
    """The seat is out of the running; the takeover bot plays its decisions at once from now on."""
    seat = event.data["seat"]
    record["resigned"] = [*resigned(record), seat]
    autoplay = list(record["autoplay"])
    autoplay[seat] = True
    record["autoplay"] = autoplay
    if record["awaiting"][seat] is not None:
        deadlines, moves = list(record["deadlines"]), list(record["move_deadlines"])
        deadlines[seat] = moves[seat] = event.at
        record["deadlines"], record["move_deadlines"] = deadlines, moves


def _game_ended(record: Record, event: Envelope) -> None:
    record["status"] = "finished"
    record["winners"] = list(event.data["winners"])
    record["reason"] = event.data["reason"]
    record["seed"] = event.data["seed"]
    record["awaiting"] = [None] * record["seats"]
    record["deadlines"] = [None] * record["seats"]
    record["move_deadlines"] = [None] * record["seats"]


_PLATFORM_HANDLERS = {
    "PlayerJoined": _player_joined,
    "RevealsAwaited": _reveals_awaited,
    "SecretRevealed": _secret_revealed,
    "GameStarted": _game_started,
    "DeadlineMissed": _deadline_missed,
    "PlayerLeft": _player_left,
    "GameCancelled": _game_cancelled,
    "SeatResigned": _seat_resigned,
    "GameEnded": _game_ended,
    "VacationStarted": community.vacation_started,
    "VacationEnded": community.vacation_ended,
    "SeatSubstituted": community.seat_substituted,
}
#: Event types the platform folds itself: a game that emitted one would be folded as the
#: platform's (a game's own end event named GameEnded answered 500 on every action).
PLATFORM_EVENT_TYPES = frozenset({"GameCreated", *_PLATFORM_HANDLERS})


def rules_of(record: Record) -> GameRules:
    return load(record["game"])


def revisions(record: Record) -> list[int]:
    """How many times each seat has revised the decision it sealed and still may replace (a
    Revolution! bid, an Ideology offer) since it was last awaited; zeros for records folded
    before revisions were counted."""
    return list(record.get("revisions") or [0] * record["seats"])


def departures(record: Record) -> dict[str, int]:
    """How many times each player left this game while it was open (none in older records)."""
    return dict(record.get("departures") or {})


def _revising_seat(record: Record, event: Envelope) -> int | None:
    """The seat whose own batch ``event`` opens while the game no longer awaited it, if any.

    A seat may act unawaited only where its game lets it replace a sealed choice, so this
    counts revisions for every title without knowing its rules. The first event of the
    batch is read against the record as the seat's post found it.
    """
    seat = event.actor
    if (seat is not None and record["status"] == "active" and event.cause.get("batch") == event.seq
            and event.cause.get("seat") == seat and event.cause.get("kind") in ("player", "bot")
            and record["awaiting"][seat] is None):
        return seat
    return None


def _fold_game_event(record: Record, event: Envelope) -> None:
    rules = rules_of(record)
    revising = _revising_seat(record, event)
    if revising is not None:
        counts = revisions(record)
        counts[revising] += 1
        record["revisions"] = counts
    record["state"] = rules.evolve(record["state"], event)
    community.count_decision(record, event)
    if event.actor is not None and event.cause.get("kind") == "player":
        # The player is back: their own decision ends any run of misses and the bot's stand-in.
        if record["misses"][event.actor] or record["autoplay"][event.actor]:
            misses, autoplay = list(record["misses"]), list(record["autoplay"])
            misses[event.actor], autoplay[event.actor] = 0, False
            record["misses"], record["autoplay"] = misses, autoplay
    if record["status"] != "active":
        return
    before = _awaited(record)
    after = {} if rules.outcome(record["state"]) is not None else rules.awaiting(record["state"])
    # A seat's own decision (a pass, a bid, a replaced bid) that leaves the others awaited
    # for the same thing does not restart their clocks; system steps and new decisions do.
    only_shrank = (event.actor is not None
                   and all(before.get(seat) == kind for seat, kind in after.items()))
    seats = record["seats"]
    awaiting_list: list[str | None] = [None] * seats
    deadlines: list[str | None] = [None] * seats
    at = parse_time(event.at)
    control = record["time_control"]
    move_deadlines = list(record.get("move_deadlines") or [None] * seats)
    reserve = list(record.get("reserve") or [float(control.get("reserve_seconds", 0))] * seats)
    for seat in range(seats):
        kept = only_shrank and seat in after and record["deadlines"][seat] is not None
        if record["deadlines"][seat] is not None and not kept:
            reserve[seat] = spend_reserve(reserve[seat], move_deadlines[seat], at, community.seat_zone(record, seat))
    new_moves: list[str | None] = [None] * seats
    out = resigned(record)
    for seat, kind in after.items():
        awaiting_list[seat] = kind
        if only_shrank and record["deadlines"][seat] is not None:
            deadlines[seat] = record["deadlines"][seat]
            new_moves[seat] = move_deadlines[seat]
        elif seat in out:  # a resigned seat's decision is the takeover bot's, due at once
            deadlines[seat] = new_moves[seat] = event.at
        else:
            seconds = control["autoplay_seconds"] if record["autoplay"][seat] else control["seconds_per_move"]
            seconds = min(seconds, control["seconds_per_move"])
            bank = 0.0 if record["autoplay"][seat] else reserve[seat]
            new_moves[seat], deadlines[seat] = community.fresh_deadlines(record, seat, at, seconds, bank)
    record["awaiting"] = awaiting_list
    record["deadlines"] = deadlines
    record["move_deadlines"] = new_moves
    record["reserve"] = reserve
    held = record.get("revisions")
    if held and any(held[seat] for seat in after):  # awaited again: a fresh decision, a fresh count
        record["revisions"] = [0 if seat in after else count for seat, count in enumerate(held)]


def spend_reserve(reserve: float, move_deadline: str | None, at: datetime, zone: ZoneInfo | None = None) -> float:
    """The reserve left once a clock that ran past ``move_deadline`` stops at ``at`` (weekends
    in ``zone`` not counted, where the game pauses them)."""
    if move_deadline is None:
        return reserve
    overtime = community.running_seconds(parse_time(move_deadline), at, zone)
    return round(max(0.0, reserve - max(0.0, overtime)), 3)


def reserve_left(record: Record, now: datetime | None = None) -> list[float]:
    """Each seat's reserve as of ``now`` (a running clock past its move deadline spends it)."""
    reserve = list(record.get("reserve") or [0.0] * record["seats"])
    if now is None or record["status"] != "active":
        return reserve
    moves = record.get("move_deadlines") or [None] * record["seats"]
    return [spend_reserve(left, moves[seat], now, community.seat_zone(record, seat))
            if record["awaiting"][seat] is not None else left
            for seat, left in enumerate(reserve)]


def earliest_deadline(record: Record) -> str | None:
    """When the platform must next act on its own: a seat's deadline, or now for a system step;
    while a game is starting, the end of its wait for reveals."""
    if record["status"] == "starting":
        return record.get("reveal_by")
    if record["status"] != "active":
        return None
    due = [d for d in record["deadlines"] if d is not None]
    if not due:
        return record["updated_at"]  # nobody awaited: a system step (resolve) is due at once
    return min(due, key=parse_time)


def resigned(record: Record) -> list[int]:
    """Seats that resigned, in the order they did (records folded before resigning existed have none)."""
    return list(record.get("resigned") or [])


def still_in(record: Record) -> list[int]:
    """Seats still in the running: every seat but those that resigned."""
    out = resigned(record)
    return [seat for seat in range(record["seats"]) if seat not in out]


def platform_outcome(record: Record) -> Outcome | None:
    """How an active game ends, if it does now: the game's own outcome, with resigned seats out of it.

    A game with at most one seat still in, or whose people have all resigned (bots alone
    would play on), ends: the seats left share the win, as on Board Game Arena and lichess.
    Otherwise the game's rules decide; a resigned seat never wins, and should the takeover
    bot win on its behalf, the seats still in share the win instead.
    """
    left = still_in(record)
    people_in = [seat for seat in left if "bot" not in (record["players"][seat] or {})]
    if record["state"] is not None and resigned(record) and (len(left) <= 1 < record["seats"] or not people_in):
        return Outcome(tuple(left), "resigned")
    outcome = rules_of(record).outcome(record["state"]) if record["state"] is not None else None
    if outcome is None:
        return None
    out = resigned(record)
    winners = tuple(seat for seat in outcome.winners if seat not in out)
    return Outcome(winners or tuple(left), outcome.reason)


def final_ranks(record: Record) -> list[int]:
    """Each seat's place in a finished game, 0 the best; equal places are ties.

    The winners share the first place and the other seats still in the next one; resigned
    seats come last, the latest to resign above the earlier ones.
    """
    winners = set(record["winners"] or [])
    out = resigned(record)
    ranks = [0 if seat in winners else 1 for seat in range(record["seats"])]
    for position, seat in enumerate(reversed(out)):
        ranks[seat] = 2 + position
    return ranks


def seat_of(record: Record, player_id: str) -> int | None:
    for seat, player in enumerate(record["players"]):
        if player is not None and player["id"] == player_id:
            return seat
    return None


def seat_now(record: Record | None, player_id: str | None, seat: int | None | str) -> int | None | str:
    """The seat a feed held open redacts ``record`` for: the one ``player_id`` holds in it (a
    seat left in an open game may be another's by the deal), else ``seat`` as it was (the
    operator, an anonymous caller, or no record read)."""
    if player_id is None or record is None:
        return seat
    return seat_of(record, player_id)
