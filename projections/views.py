"""Everything about a game that leaves the server passes through this module.

A caller is a seat number, ``None`` for a spectator, or the operator (who audits).
Views are built by inclusion: the record's public fields are copied one by one and
the game's own ``view``/``redact`` decide what of the game state a seat sees. After
the game has ended every secret is public, the seed included.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from events.envelope import PLATFORM_EVENTS, Envelope, parse_time
from projections.record import Record, reserve_left, resigned, rules_of

OPERATOR = "operator"
#: How finely the times of a game still on are shown (seconds): an event's ``at`` and the
#: game's ``updated_at`` are rounded down to the minute in a game of less than an hour per
#: move, to the hour otherwise (and untimed). An answer a standing order gave carries the
#: time of the move that opened its decision; rounded so, it cannot be told from an answer
#: typed within the same minute or hour (docs/correspondence.md, "What a clock can tell").
SHOWN_STEP_LIVE = 60
SHOWN_STEP_SLOW = 3600
#: The time per move from which a game counts as slow (its times are shown to the hour).
SLOW_FROM_SECONDS = 3600


def shown_step(record: Record) -> int:
    """How finely ``record``'s times are shown while the game is on (see :data:`SHOWN_STEP_LIVE`)."""
    per_move = (record.get("time_control") or {}).get("seconds_per_move")
    return SHOWN_STEP_LIVE if per_move and per_move < SLOW_FROM_SECONDS else SHOWN_STEP_SLOW


def shown_time(record: Record, at: str, exact: bool = False) -> str:
    """``at`` as callers see it: exact once the game is over (its log is public then) or when
    ``exact``, else rounded down to :func:`shown_step`.

    Every ``at`` is spelt by ``events.envelope.format_at`` (``2026-11-29T11:19:06.123Z``), and a
    minute or an hour since the epoch is a whole one on the clock: rounding is cutting the
    string (this runs for every event of every feed)."""
    if exact or record["status"] == "finished":
        return at
    return at[:16] + ":00.000Z" if shown_step(record) == SHOWN_STEP_LIVE else at[:13] + ":00:00.000Z"


def summary(record: Record, exact: bool = False) -> dict[str, Any]:
    """The public facts of a game: what the lobby and every caller may see (its times as
    :func:`shown_time` shows them)."""
    return {
        "id": record["id"],
        "game": record["game"],
        "status": record["status"],
        "version": record["version"],
        "seats": record["seats"],
        "players": [_player(p) for p in record["players"]],
        "bots": dict(record.get("bots") or {}),
        "options": public_options(record),
        "time_control": record["time_control"],
        "created_at": record["created_at"],
        "updated_at": shown_time(record, record["updated_at"], exact),
        "seed_hash": record["seed_hash"],
        "scenario": is_scenario(record),
        "resigned": resigned(record),
        "unlisted": bool(record.get("unlisted")),
        "invite": list(record.get("invite") or []),
        "rematch_of": record.get("rematch_of"),
        "rated": bool(record.get("rated")),
        "min_reliability": record.get("min_reliability"),
        "substitutes": bool(record.get("substitutes", True)),
        "entropy": dict(record.get("entropy") or {}),
        **({"tournament": record["tournament"], "round": record.get("round")} if record.get("tournament") else {}),
        **({"humans_only": True} if record.get("humans_only") else {}),
    }


def viewer(record: Record, seat: int | None | str) -> int | None | str:
    """Whose eyes ``seat`` sees the game with: a resigned seat's are a spectator's until the end.

    Its cards are the takeover bot's to play; the seat learns nothing more than it knew.
    """
    if isinstance(seat, int) and record["status"] != "finished" and seat in resigned(record):
        return None
    return seat


def _player(player: dict[str, Any] | None) -> dict[str, Any] | None:
    """A seat's player as every caller sees it: id and name, and the strategy of a bot."""
    if player is None:
        return None
    shown = {"id": player["id"], "name": player["name"]}
    if "bot" in player:
        shown["bot"] = player["bot"]
    if player.get("bot_account"):
        shown["bot_account"] = True
    return shown


def is_scenario(record: Record) -> bool:
    """Whether an option fixed hidden information (a deck's order, a region pile).

    Its creator may then know every hand, and nothing was shuffled from the seed that
    ``seed_hash`` commits to: every caller is told so, from the game's creation on.
    """
    secret = getattr(rules_of(record), "SECRET_OPTIONS", ())
    return any(record["options"].get(key) is not None for key in secret)


def public_options(record: Record) -> dict[str, Any]:
    """Options minus those a game declares secret (a scenario's fixed deck reveals every hand)."""
    secret = getattr(rules_of(record), "SECRET_OPTIONS", ())
    return {key: value for key, value in record["options"].items() if key not in secret}


def vacations(record: Record, clock: datetime) -> dict[str, str]:
    """The seats whose players are on vacation at ``clock``, with when it ends (their clocks are stopped)."""
    held = record.get("vacation_until") or []
    return {str(seat): until for seat, until in enumerate(held) if until and parse_time(until) > clock}


def table_view(record: Record, clock: datetime | None = None, exact: bool = False) -> dict[str, Any]:
    """The part of :func:`game_view` that is the same for every caller of one version: the
    summary, whom it awaits and their clocks. A process that renders a version for several
    seats (its streams, the mover's answer) builds it once (service.view_cache); the seat's
    own parts stand at their places in it, empty, so each caller's view keeps one key order.
    """
    awaited = [s for s, kind in enumerate(record["awaiting"]) if kind is not None]
    deadlines = [d for d in record["deadlines"] if d is not None]
    if record["status"] == "starting":  # the wait for the committed seats' secrets
        deadlines = [record["reveal_by"]]
    return {
        **summary(record, exact),
        "awaiting": awaited,
        "awaiting_kinds": {str(s): record["awaiting"][s] for s in awaited},
        "deadline": min(deadlines) if deadlines else None,
        "deadlines": {str(s): record["deadlines"][s] for s in awaited},
        "autoplay": [s for s, on in enumerate(record["autoplay"]) if on],
        "reserve": reserve_left(record, clock or datetime.now(UTC)),
        "move_deadlines": {str(s): moves[s] for s in awaited if (moves := record.get("move_deadlines"))},
        "vacation_until": vacations(record, clock or datetime.now(UTC)),
        "seat": None,
        "view": None,
        "legal_actions": [],
        "winners": record["winners"],
        "reason": record["reason"],
        "seed": record["seed"],
        "rematch": None,
    }


def game_view(record: Record, seat: int | None | str, clock: datetime | None = None,
              table: dict[str, Any] | None = None, exact: bool = False) -> dict[str, Any]:
    """``GET /v1/games/<id>`` for one caller: status, whom it awaits, the seat's view and moves.

    The operator sees the spectator's view plus the raw state, for audits. Reserves are
    shown as of ``clock`` (default: now; a replay passes the time of its version). ``table``
    is this version's :func:`table_view`, when the caller has it already (it is not changed).
    ``exact`` shows its times as they are (a replay of a game over: see :func:`shown_time`).
    """
    rules = rules_of(record)
    body = dict(table) if table is not None else table_view(record, clock, exact)
    body["seat"] = None if seat == OPERATOR else seat
    if record["state"] is not None and seat == OPERATOR:
        body["view"] = rules.view(record["state"], None)
        body["state"] = record["state"]
    elif record["state"] is not None:
        eyes = viewer(record, seat)
        assert not isinstance(eyes, str)
        body["view"] = rules.view(record["state"], eyes)
        if eyes is not None and record["status"] == "active" and rules.may_act(record["state"], eyes):
            body["legal_actions"] = rules.legal_actions(record["state"], eyes)
    view = body["view"]
    body["phase"] = view.get("phase") if isinstance(view, dict) else None
    return body


def feed_item(record: Record, event: Envelope, seat: int | None | str) -> dict[str, Any] | None:
    """One event as the caller may see it, or None when it is hidden from them entirely; its
    ``at`` as :func:`shown_time` shows it (the operator's exact)."""
    at = event.at if seat == OPERATOR else shown_time(record, event.at)
    if seat == OPERATOR or record["status"] == "finished":
        data: Any = event.data
    elif event.type in PLATFORM_EVENTS:
        data = _platform_data(record, event)
    else:
        # Not the operator here (handled above), so the viewer is a seat or a spectator (None).
        data = rules_of(record).redact(event, viewer(record, seat))  # type: ignore[arg-type]
        if data is None:
            return None
    return {"seq": event.seq, "type": event.type, "at": at, "actor": event.actor, "data": data}


def _platform_data(record: Record, event: Envelope) -> dict[str, Any]:
    data = event.data
    if event.type == "GameCreated":
        keep = ("id", "game", "seats", "time_control", "created_by", "seed_hash")
        shown = {**{k: data[k] for k in keep}, "options": public_options(record), "scenario": is_scenario(record)}
        if data.get("bots"):
            shown["bots"] = dict(data["bots"])
        return shown
    if event.type == "PlayerJoined":
        joined = {"seat": data["seat"], "player": _player(data["player"])}
        return {**joined, "commitment": data["commitment"]} if "commitment" in data else joined
    if event.type == "DeadlineMissed":
        return {"seat": data["seat"], "misses": data["misses"], "autoplay": data["autoplay"]}
    if event.type == "GameEnded":
        return {"winners": data["winners"], "reason": data["reason"], "seed": data["seed"]}
    if event.type in ("PlayerLeft", "SeatResigned"):
        return {"seat": data["seat"]}
    if event.type == "GameCancelled":
        return {"by": data["by"]}
    if event.type == "VacationStarted":
        return {"seat": data["seat"], "until": data["until"]}
    if event.type == "VacationEnded":
        return {"seat": data["seat"]}
    if event.type == "SeatSubstituted":
        return {"seat": data["seat"], "player": {"id": data["player"]["id"], "name": data["player"]["name"]}}
    if event.type == "SecretRevealed":  # the secret itself is shown with the log, after the end
        return {"seat": data["seat"]}
    if event.type in ("RevealsAwaited", "GameStarted"):  # public: the wait's end, and who was dropped
        return dict(data)
    return {}
