"""The transcript of a finished Pax Porfiriana game: one readable line per event worth telling.

Everything is public once a game is over, so a line may name any card.
"""

from __future__ import annotations

from typing import Any

from games.base import EventLike, State


def _name(state: State, card: str | None) -> str:
    if card is None:
        return "?"
    definition = state["cards"].get(card)
    return definition["name"] if definition else card


def _target(state: State, target: Any) -> str:
    if isinstance(target, int) and not isinstance(target, bool):
        return f"seat {target}"
    if target == "hacendado":
        return "their private army"
    return _name(state, target)


def _describe_action(before: State, data: dict[str, Any]) -> str:
    seat, action = data["seat"], data["action"]
    kind = action["type"]
    who = f"Seat {seat}"
    cost = data.get("cost", 0)
    paid = f" for {cost} gold" if cost else ""
    card = _name(before, action.get("card"))
    if kind == "play":
        if "to" in action:
            return f"{who} sends {card} to {_target(before, action['to'])}{paid}"
        if action.get("target") == seat and not isinstance(seat, bool):
            return f"{who} plays {card} against itself{paid}"
        if "target" in action:
            scapegoat = " as a scapegoat" if action.get("scapegoat") else ""
            return f"{who} plays {card} against {_target(before, action['target'])}{scapegoat}{paid}"
        return f"{who} plays {card}{paid}"
    if kind == "buy":
        side = f" and plays its {action['side'].replace('_', ' ')}" if "side" in action else ""
        payee = data.get("payee")
        to = f" (paid to seat {payee})" if payee is not None and cost else ""
        return f"{who} buys {card} from the market{paid}{to}{side}"
    if kind == "buy_public":
        face = before["cards"][action["card"]]["faces"][action["face"]]["name"]
        return f"{who} buys the public card {card} as {face}{paid}"
    if kind == "sell":
        return f"{who} sells {card} for {data.get('price', 0)} gold"
    if kind == "redeploy":
        return f"{who} redeploys {card} to {_target(before, action['to'])}{paid}"
    if kind == "buy_land":
        return f"{who} buys land for {_name(before, action['enterprise'])}{paid}"
    if kind == "upgrade":
        return f"{who} builds a connection on {_name(before, action['enterprise'])}{paid}"
    if kind == "police":
        if action.get("jail"):
            return f"{who} leaves jail{paid}"
        return f"{who} sends the police to {_name(before, action['enterprise'])}{paid}"
    if kind == "speculate":
        to = action.get("to", {"market": action.get("card")})
        if isinstance(to, dict) and "market" in to:
            return f"{who} speculates on {_name(before, to['market'])}"
        return f"{who} moves a cube"
    return f"{who} acts ({kind})"


def describe(before: State | None, event: EventLike, after: State) -> str | None:
    """One readable line for a finished game's transcript, or None for bookkeeping events."""
    data = dict(event.data)
    kind = event.type
    state = before if before is not None else after
    if kind == "GameSetUp":
        return f"{data['seats']} seats sit down to Pax Porfiriana with the {data['set']} card set; seat " \
               f"{data['first']} plays first"
    if kind == "TurnStarted":
        return f"Turn {data['turn']}: seat {data['seat']} has {data['actions']} actions"
    if kind == "ActionTaken":
        return _describe_action(state, data)
    if kind == "StepChanged" and data.get("ended"):
        return f"Seat {data['seat']} ends the turn"
    if kind == "RegimeChanged":
        return f"The regime changes to {_name(after, data['regime'])}"
    if kind == "DepressionChanged":
        return "Two bears in a row: a depression begins" if data["on"] else "Two bulls in a row: the depression ends"
    if kind == "JailChanged":
        return f"Seat {data['seat']} goes to jail" if data["jailed"] else f"Seat {data['seat']} leaves jail"
    if kind == "HacendadoTurned":
        if data["side"] is None:
            return f"Seat {data.get('by')} assassinates the hacendado of seat {data['seat']}; the heir is loyal"
        orientation = after["cards"][after["players"][data["seat"]]["hacendado"]]["orientations"][data["side"]]
        return f"Seat {data['seat']} publishes a manifesto: {orientation['name']}"
    if kind == "DiazDefenceChanged":
        return f"Seat {data['seat']} discards {_name(after, data['card'])}: Díaz gains {data['amount']} " \
               f"{data['prestige']}"
    if kind == "DecisionDone" and data.get("kind") == "conflict":
        return f"Seat {data['seat']} loses its {data['choice']} cards in the conflict"
    if kind == "DecisionDone" and data.get("kind") == "battle_retreat":
        troop = _name(after, data["card"])
        if data["choice"] == "army":
            return f"Seat {data['seat']}'s {troop} retreats from the battle into its private army"
        return f"Seat {data['seat']}'s {troop} stays to be beaten and is discarded"
    if kind == "DecisionDone" and data.get("kind") == "retreat":
        return f"Seat {data['seat']}'s {_name(after, data['card'])} retreats"
    if kind == "ToppleStarted":
        return f"A topple under {_name(after, data['regime'])}: {data['prestige']} counts, and Díaz holds " \
               f"{data['diaz']}"
    if kind == "ToppleResolved":
        if data["topplers"]:
            return f"Díaz falls: seat(s) {', '.join(map(str, data['topplers']))} beat their tripartite"
        return "Díaz survives the topple"
    if kind == "CardMoved" and data["to"]["zone"] == "grievances" and \
            after["cards"][data["card"]]["category"] == "enterprise":
        return f"Slave revolt at {_name(after, data['card'])}: seat {data['to']['seat']} is the liberator"
    if kind == "GameDecided":
        winners = ", ".join(f"seat {s}" for s in data["winners"])
        return f"The game ends ({data['reason'].replace('_', ' ')}): {winners} win(s)"
    return None
