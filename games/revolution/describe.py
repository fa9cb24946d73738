"""One line of English per decision of a finished Revolution! game, for its transcript.

A transcript is read after the end, when every bid is public, so a bid's line shows
its tokens. Every line starts with its round ("Round 3 - ...").
"""

from __future__ import annotations

from collections.abc import Mapping

from games.base import EventLike, State
from games.revolution.components import AREA_BY_ID, CHARACTER_BY_ID, KIND_NAMES, KINDS


def _character(cid: str) -> str:
    return f"the {CHARACTER_BY_ID[cid]['name']}" if cid in CHARACTER_BY_ID else cid


def _area(area: str) -> str:
    return f"the {AREA_BY_ID[area]['name']}" if area in AREA_BY_ID else area


def _tokens(tokens: Mapping[str, int]) -> str:
    parts = [f"{tokens[kind]} {KIND_NAMES[kind]}" for kind in KINDS if tokens.get(kind)]
    if not parts:
        return "nothing"
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


def _cube(ref: Mapping[str, object]) -> str:
    return f"seat {ref['owner']}'s cube in {_area(str(ref['area']))}"


def describe(before: State | None, event: EventLike, after: State) -> str | None:
    data, kind = event.data, event.type
    if kind == "RoundStarted":
        return f"Round {data['round']} begins"
    if before is None:
        return None
    round_ = f"Round {after['round']} - "
    if kind == "BidPlaced":
        if data.get("forfeit"):
            return f"{round_}seat {data['seat']} sits the round out and forfeits its tokens"
        again = "changes its bid to" if before["sealed"][data["seat"]] is not None else "bids"
        bids = "; ".join(f"{_tokens(tokens)} on {_character(cid)}" for cid, tokens in data["bids"].items())
        return f"{round_}seat {data['seat']} {again} {bids or 'nothing'}"
    if kind == "CharacterResolved":
        winner = data["winner"]
        if winner is None:
            return None if not any(_offered(bids, data["character"]) for bids in before["revealed"] or []) else (
                f"{round_}nobody wins {_character(data['character'])} (tied bids)")
        gains = [f"{data['support']} support"] if data["support"] else []
        if data["tokens"]:
            gains.append(_tokens(data["tokens"]))
        if data["cube"]:
            gains.append(f"a cube in {_area(data['cube'])}")
        return f"{round_}seat {winner} wins {_character(data['character'])}: {', '.join(gains) or 'nothing more'}"
    if kind == "SpyReplacedCube":
        return (f"{round_}seat {data['seat']}'s Spy replaces "
                f"{_cube({'owner': data['owner'], 'area': data['area']})} with its own")
    if kind == "ApothecarySwappedCubes":
        return f"{round_}seat {data['seat']}'s Apothecary swaps {_cube(data['first'])} and {_cube(data['second'])}"
    if kind == "RewardSkipped":
        return f"{round_}seat {data['seat']} does not use the {str(data['character']).capitalize()}"
    if kind == "PatronagePaid":
        paid = ", ".join(f"seat {seat} {gold}" for seat, gold in enumerate(data["gold"]) if gold)
        return f"{round_}Patronage pays Gold: {paid}" if paid else None
    if kind == "GameScored":
        support = ", ".join(f"seat {seat} {points}" for seat, points in enumerate(data["support"]))
        winners = " and ".join(f"seat {seat}" for seat in data["winners"])
        return f"{round_}final support: {support}; {winners} {'wins' if len(data['winners']) == 1 else 'tie'}"
    return None


def _offered(bids: Mapping[str, Mapping[str, int]], cid: str) -> bool:
    return any(bids.get(cid, {}).values())
