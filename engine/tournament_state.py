"""A tournament's state: a pure fold of its stream's events, its standings, its next pairing.

A tournament is an event stream of its own, sealed and chained as a game's is
(``events.envelope``). Its events:

- ``TournamentCreated``: the settings (game, seats per table, rounds, time control, options,
  start, player bounds, rated, round length) and its creator;
- ``PlayerJoinedTournament`` (the player and the rating it had then: pairing uses that one),
  ``PlayerLeftTournament``, before the start;
- ``TournamentStarted``; ``TournamentCancelled`` (too few players at ``starts_at``);
- ``RoundPaired``: the round's tables (players in seat order, the game of each) and byes,
  and the round's deadline;
- ``TableFinished``: a table's game ended, each seat's rank (0 the best; ties share);
- ``PlayerWithdrew``: never paired again;
- ``RoundEnded``; ``TournamentFinished``.

Everything derived (points, Buchholz, standings, the next pairing) is computed from the
folded state by the pure functions below, so a replay of the stream reaches the same
numbers, and ``intrigue verify`` can re-run each round's pairing from the results before it.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

from engine.pairing import BYE_POINTS, Entrant, Pairing, pair_round, seat_points
from events.envelope import Envelope, seal, utc_now
from games import registry
from games.base import GameEvent

State = dict[str, Any]

TOURNAMENT_EVENTS = frozenset({"TournamentCreated", "PlayerJoinedTournament", "PlayerLeftTournament",
                               "TournamentStarted", "RoundPaired", "TableFinished", "PlayerWithdrew",
                               "RoundEnded", "TournamentFinished", "TournamentCancelled"})


def fold(state: State | None, event: Envelope) -> State:
    """The state after ``event``; the state given is not changed."""
    if event.type == "TournamentCreated":
        data = dict(event.data)
        new: State = {**data, "rounds_total": data["rounds"], "status": "open", "players": [], "rounds": [],
                      "created_at": event.at}
    else:
        if state is None:
            raise ValueError(f"event {event.seq} ({event.type}) comes before TournamentCreated")
        if event.type not in TOURNAMENT_EVENTS:
            raise ValueError(f"event {event.seq}: unknown tournament event {event.type!r}")
        new = copy.deepcopy(state)
        _HANDLERS[event.type](new, event.data)
    new["version"] = event.seq
    new["last_hash"] = event.hash
    new["updated_at"] = event.at
    return new


def fold_drafts(state: State, drafts: Sequence[GameEvent]) -> State:
    """``state`` after ``drafts`` (unsealed): what an append of them would lead to."""
    out = state
    for offset, draft in enumerate(drafts, start=1):
        out = fold(out, seal(state["version"] + offset, draft.type, utc_now(), None, draft.data, {}, "0" * 64))
    return out


def replay(events: Iterable[Envelope]) -> State | None:
    state: State | None = None
    for event in events:
        state = fold(state, event)
    return state


def _joined(state: State, data: Any) -> None:
    state["players"].append({"id": data["player"]["id"], "name": data["player"]["name"],
                             "rating": data["rating"], "joined": data["order"], "withdrawn": False})


def _left(state: State, data: Any) -> None:
    state["players"] = [p for p in state["players"] if p["id"] != data["player"]]


def _started(state: State, data: Any) -> None:
    state["status"] = "running"
    state["started_at"] = data.get("at")


def _paired(state: State, data: Any) -> None:
    state["rounds"].append({"round": data["round"], "deadline": data["deadline"], "byes": list(data["byes"]),
                            "ended": False, "tables": [{**table, "ranks": None} for table in data["tables"]]})


def _table_finished(state: State, data: Any) -> None:
    table = state["rounds"][data["round"] - 1]["tables"][data["table"]]
    table["ranks"] = list(data["ranks"])


def _withdrew(state: State, data: Any) -> None:
    for player in state["players"]:
        if player["id"] == data["player"]:
            player["withdrawn"] = True


def _round_ended(state: State, data: Any) -> None:
    state["rounds"][data["round"] - 1]["ended"] = True


def _finished(state: State, data: Any) -> None:
    state["status"] = "finished"


def _cancelled(state: State, data: Any) -> None:
    state["status"] = "cancelled"
    state["reason"] = data.get("reason")


_HANDLERS = {"PlayerJoinedTournament": _joined, "PlayerLeftTournament": _left, "TournamentStarted": _started,
             "RoundPaired": _paired, "TableFinished": _table_finished, "PlayerWithdrew": _withdrew,
             "RoundEnded": _round_ended, "TournamentFinished": _finished, "TournamentCancelled": _cancelled}


# ------------------------------------------------------------------ derived
def points(state: State) -> dict[str, Fraction]:
    """Each player's points: finished tables' seat points, and a win's for each bye."""
    total = {player["id"]: Fraction(0) for player in state["players"]}
    for round_ in state["rounds"]:
        for player_id in round_["byes"]:
            total[player_id] = total.get(player_id, Fraction(0)) + BYE_POINTS
        for table in round_["tables"]:
            if table["ranks"] is None:
                continue
            for player_id, got in zip(table["players"], seat_points(table["ranks"]), strict=True):
                total[player_id] = total.get(player_id, Fraction(0)) + got
    return total


def met(state: State) -> dict[str, frozenset[str]]:
    """Whom each player has sat with, in every round paired so far."""
    seen: dict[str, set[str]] = {player["id"]: set() for player in state["players"]}
    for round_ in state["rounds"]:
        for table in round_["tables"]:
            for player_id in table["players"]:
                seen.setdefault(player_id, set()).update(other for other in table["players"] if other != player_id)
    return {player_id: frozenset(others) for player_id, others in seen.items()}


def had_bye(state: State) -> set[str]:
    return {player_id for round_ in state["rounds"] for player_id in round_["byes"]}


def buchholz(state: State, totals: dict[str, Fraction]) -> dict[str, Fraction]:
    """The sum, over every table a player sat at, of its table-mates' points."""
    out = {player["id"]: Fraction(0) for player in state["players"]}
    for round_ in state["rounds"]:
        for table in round_["tables"]:
            for player_id in table["players"]:
                out[player_id] = out.get(player_id, Fraction(0)) + sum(
                    (totals.get(other, Fraction(0)) for other in table["players"] if other != player_id), Fraction(0))
    return out


def standings(state: State) -> list[dict[str, Any]]:
    """Players by points, then Buchholz, then rating (then the order they joined)."""
    totals = points(state)
    tie_break = buchholz(state, totals)
    byes = had_bye(state)
    played = {player["id"]: 0 for player in state["players"]}
    for round_ in state["rounds"]:
        for table in round_["tables"]:
            for player_id in table["players"]:
                played[player_id] = played.get(player_id, 0) + 1
    rows = sorted(state["players"], key=lambda p: (-totals[p["id"]], -tie_break[p["id"]], -p["rating"], p["joined"]))
    return [{"rank": place, "player": {"id": p["id"], "name": p["name"]}, "points": _number(totals[p["id"]]),
             "buchholz": _number(tie_break[p["id"]]), "rating": p["rating"], "tables": played[p["id"]],
             "bye": p["id"] in byes, "withdrawn": p["withdrawn"]}
            for place, p in enumerate(rows, start=1)]


def _number(value: Fraction) -> float:
    return round(float(value), 4)


def next_pairing(state: State) -> Pairing:
    """The pairing the rules give for the next round, from the state before it (pure)."""
    rules = registry.load(state["game"])
    totals = points(state)
    entrants = [Entrant(p["id"], totals[p["id"]], float(p["rating"]), p["joined"])
                for p in state["players"] if not p["withdrawn"]]
    return pair_round(entrants, met(state), had_bye(state), state["seats_per_table"], rules.MIN_SEATS,
                      rules.MAX_SEATS)


def current_round(state: State) -> dict[str, Any] | None:
    return state["rounds"][-1] if state["rounds"] else None


def round_complete(round_: dict[str, Any]) -> bool:
    return all(table["ranks"] is not None for table in round_["tables"])


def check_pairings(events: Iterable[Envelope]) -> list[str]:
    """Re-run every round's pairing from the state before it; the faults found, in words."""
    faults: list[str] = []
    state: State | None = None
    for event in events:
        if event.type == "RoundPaired" and state is not None:
            try:
                expected = next_pairing(state)
            except ValueError as err:
                faults.append(f"event {event.seq}: round {event.data['round']} should not be paired: {err}")
            else:
                tables = [list(table["players"]) for table in event.data["tables"]]
                if tables != expected.tables or list(event.data["byes"]) != expected.byes:
                    faults.append(f"event {event.seq}: round {event.data['round']} is not the pairing the rules "
                                  f"give ({expected.tables}, byes {expected.byes})")
        state = fold(state, event)
    return faults


def summary(state: State) -> dict[str, Any]:
    """A tournament as a listing shows it."""
    return {key: state.get(key) for key in ("id", "name", "game", "status", "seats_per_table", "starts_at",
                                            "min_players", "max_players", "rated", "round_seconds",
                                            "created_by", "created_at")} | {
        "rounds": state["rounds_total"], "players": len(state["players"]), "round": len(state["rounds"])}


def present(state: State) -> dict[str, Any]:
    """A tournament as ``GET /v1/tournaments/<id>`` shows it."""
    rounds = []
    for round_ in state["rounds"]:
        rounds.append({"round": round_["round"], "deadline": round_["deadline"], "ended": round_["ended"],
                       "byes": round_["byes"],
                       "tables": [{"table": t["table"], "game": t["game"], "players": t["players"],
                                   "ranks": t["ranks"]} for t in round_["tables"]]})
    return {**summary(state), "time_control": state["time_control"], "options": state["options"],
            "version": state["version"],
            "entrants": [{"id": p["id"], "name": p["name"], "withdrawn": p["withdrawn"]} for p in state["players"]],
            "standings": standings(state), "rounds_played": rounds}
