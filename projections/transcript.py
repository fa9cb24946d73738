"""The transcript of a finished game: readable text, one line per decision, chat in place.

Each game writes its own lines (``describe(before, event, after)`` of its rules
module); the platform writes the lines of its own events (the start, a missed deadline,
the end). A game module without ``describe`` still gets a transcript, with a plain line
per seat decision. Table talk posted while the game stood at version V comes right
after the line of event V.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from events.envelope import Envelope
from projections.record import Record, fold, rules_of
from projections.views import is_scenario


def transcript(events: Iterable[Envelope], messages: Sequence[Mapping[str, Any]] = ()) -> str:
    """The whole text; ``messages`` are chat messages (``version``, ``from``, ``to``, ``text``)."""
    record: Record | None = None
    pending = sorted(messages, key=lambda m: (m["version"], m["id"]))
    lines: list[str] = []
    for event in events:
        before = record
        record = fold(record, event)
        line = _line(before, record, event)
        if line:
            lines.append(line)
        while pending and pending[0]["version"] <= event.seq:
            lines.append(_chat_line(record, pending.pop(0)))
    for message in pending:
        lines.append(_chat_line(record, message))
    return "\n".join(lines) + "\n"


def _name(record: Record | None, seat: int | None) -> str:
    if record is None or seat is None or not 0 <= seat < len(record["players"]):
        return f"seat {seat}"
    player = record["players"][seat]
    if not player:
        return f"seat {seat}"
    return f"seat {seat} ({player['name']}, a bot account)" if player.get("bot_account") else \
        f"seat {seat} ({player['name']})"


def _chat_line(record: Record | None, message: Mapping[str, Any]) -> str:
    to = "everyone" if message["to"] is None else _name(record, message["to"])
    return f"    [chat] {_name(record, message['from'])} to {to}: {message['text']}"


def _line(before: Record | None, after: Record, event: Envelope) -> str | None:
    data = event.data
    if event.type == "GameCreated":
        scenario = "; a scenario: its creator fixed the hidden cards" if is_scenario(after) else ""
        bots = ", ".join(_name(after, int(seat)) for seat in sorted(data.get("bots") or {}, key=int))
        seated = f"; bots hold {bots}" if bots else ""
        return f"{data['game']} for {data['seats']} seats (game {data['id']}){scenario}{seated}"
    if event.type == "PlayerJoined":
        return None
    if event.type == "RevealsAwaited":
        return "Every seat is taken: the seats that committed to a secret reveal it before the deal"
    if event.type == "SecretRevealed":
        return f"{_name(after, data['seat'])} reveals its secret for the shuffle"
    if event.type == "GameStarted":
        seats = ", ".join(_name(after, seat) for seat in range(after["seats"]))
        dropped = ", ".join(_name(after, seat) for seat in data.get("dropped") or ())
        left_out = f" ({dropped} did not reveal in time: left out of the shuffle's seed)" if dropped else ""
        return f"The game starts: {seats}{left_out}"
    if event.type == "DeadlineMissed":
        bot = "; the bot plays the seat from now on" if data["autoplay"] else ""
        return f"{_name(after, data['seat'])} let a deadline pass: the default move is played{bot}"
    if event.type == "PlayerLeft":
        return f"{_name(before, data['seat'])} leaves the table"
    if event.type == "GameCancelled":
        return "The creator cancels the game before it starts"
    if event.type == "SeatResigned":
        return f"{_name(after, data['seat'])} resigns: the takeover bot plays the seat from now on"
    if event.type == "VacationStarted":
        return f"{_name(after, data['seat'])} goes on vacation until {data['until']}: the seat's clock stops"
    if event.type == "VacationEnded":
        return f"{_name(after, data['seat'])} is back from vacation: the seat's clock runs again"
    if event.type == "SeatSubstituted":
        return f"{_name(after, data['seat'])} takes the seat over as a substitute"
    if event.type == "GameEnded" and not data["winners"] and data["reason"] == "expired":
        return "The game expires: its seats did not fill in time"
    if event.type == "GameEnded":
        winners = " and ".join(_name(after, seat) for seat in data["winners"])
        reason = str(data["reason"]).replace("_", " ")  # words, not the code: "last standing"
        return f"The game ends ({reason}): {winners} {'wins' if len(data['winners']) == 1 else 'share the win'}"
    assert before is not None
    rules = rules_of(after)
    describe = getattr(rules, "describe", None)
    if describe is None:  # a game that does not describe itself yet: a plain line per seat decision
        return f"{_name(after, event.actor)}: {event.type}" if event.actor is not None else None
    return describe(before["state"], event, after["state"])
