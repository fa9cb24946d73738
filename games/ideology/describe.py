"""The transcript of a finished Ideology game: one English line per event worth telling.

Everything is public once a game is over, so a line may name any card or offer.
"""

from __future__ import annotations

from games.base import EventLike, Seat, State
from games.ideology.board import card_type, count_types


def _who(state: State, seat: Seat) -> str:
    iid = state["ideology"][seat]
    return f"seat {seat} ({state['board']['ideologies'][iid]['name']})"


def _ideology(state: State, seat: Seat) -> str:
    return state["board"]["ideologies"][state["ideology"][seat]]["name"]


def _region_name(state: State, rid: str) -> str:
    return state["board"]["regions"][rid]["name"]


def _kinds(cards: list[str]) -> str:
    counts = count_types(cards)
    return ", ".join(f"{n} {kind}" for kind, n in counts.items() if n) or "none"


def _a(kind: str) -> str:
    return f"an {kind}" if kind[0] in "aeiou" else f"a {kind}"


def describe(before: State | None, event: EventLike, after: State) -> str | None:
    """One English line about ``event`` for a finished game's transcript, or None."""
    data = event.data
    kind = event.type
    if kind == "TableSet":
        ideologies = after["board"]["ideologies"]
        seats = ", ".join(f"{_who(after, s)} starts in {_region_name(after, ideologies[iid]['start_region'])}"
                          for s, iid in enumerate(after["ideology"]))
        return f"Ideology for {after['seats']} seats on the {after['board']['name']} map: {seats}"
    assert before is not None
    prefix = f"Turn {after['turn']}, {before['phase'].replace('_', ' ')} - "
    if kind == "TurnStarted":
        drawn = ", ".join(f"{_ideology(after, s)} {len(d['cards'])}" for s, d in enumerate(data["draws"]) if d["cards"])
        return f"Turn {data['turn']}, resources - cards drawn up to Global Influence: {drawn or 'none'}"
    if kind == "CardsDiscarded":
        return f"{prefix}{_who(after, data['seat'])} discards {_kinds(data['cards'])} down to its Global Influence"
    if kind == "PhaseStarted":
        line = f"Turn {data['turn']}, {data['phase'].replace('_', ' ')} begins"
        if data.get("region"):
            line += f"; {_region_name(after, data['region'])} joins the independent regions"
        return line
    if kind == "CardsExchanged":
        if not data["discarded"]:
            return None
        return f"{prefix}{_who(after, data['seat'])} exchanges {_kinds(data['discarded'])} card(s)"
    if kind == "RegionDeveloped":
        return (f"{prefix}{_who(after, data['seat'])} develops {_region_name(after, data['region'])} "
                f"with {_a(card_type(data['card']))} card")
    if kind == "AdvancementBought":
        board = after["board"]["advancements"]
        paid = (f"{_kinds(data['cards'])} card(s)" if data["cards"]
                else " and ".join(board[a]["name"] for a in data["advancements"]))
        return f"{prefix}{_who(after, data['seat'])} buys {board[data['advancement']]['name']} with {paid}"
    if kind == "InfluencePlaced":
        extra = f" (plus {len(data['penalty'])} for distance)" if data["penalty"] else ""
        return (f"{prefix}{_who(after, data['seat'])} places {_a(card_type(data['card']))} card on "
                f"{_region_name(after, data['region'])}{extra}")
    if kind == "InfluenceRemoved":
        return (f"{prefix}{_who(after, data['seat'])} removes its {card_type(data['card'])} card from "
                f"{_region_name(after, data['region'])}")
    if kind == "ConflictDeclared":
        penalty = data["distance"] + data["advancement"]
        extra = f" after paying {penalty} penalty card(s)" if penalty else ""
        return (f"{prefix}{_who(after, data['attacker'])} attacks {_ideology(after, data['defender'])} in "
                f"{_region_name(after, data['region'])} with {_a(data['influence'])} card{extra}")
    if kind == "AttackCancelled":
        return f"{prefix}{_who(after, data['defender'])} cancels the attack with {_a(card_type(data['card']))} card"
    if kind == "AttackRenewed":
        return f"{prefix}{_who(after, data['attacker'])} presses on with another {card_type(data['card'])} card"
    if kind == "ConflictWon":
        return (f"{prefix}{_who(after, data['defender'])} concedes: {_ideology(after, data['attacker'])}'s "
                f"{data['influence']} card replaces one of its own in {_region_name(after, data['region'])}")
    if kind == "ConflictAbandoned":
        return f"{prefix}{_who(after, data['attacker'])} gives up the conflict in {_region_name(after, data['region'])}"
    if kind == "WmdUsed":
        return (f"{prefix}{_who(after, data['seat'])} uses weapons of mass destruction on "
                f"{_ideology(after, data['target'])} in {_region_name(after, data['region'])}, destroying "
                f"{len(data['destroyed'])} card(s)")
    if kind == "OffersRevealed":
        pairs = []
        seats = after["seats"]
        for a in range(seats):
            for b in range(a + 1, seats):
                pairs.append(f"{_ideology(after, a)}-{_ideology(after, b)} {data['relations'][a][b]}")
        return f"Turn {data['turn']}, diplomacy - offers revealed: {'; '.join(pairs)}"
    if kind == "RegionsConsolidated":
        parts = [f"{_region_name(after, rid)} now level {level}" for rid, level in data["levels"].items()]
        parts += [f"{_region_name(after, rid)} becomes independent" for rid in data["lost"]]
        parts += [f"{_ideology(after, s)} takes {_region_name(after, rid)}" for rid, s in data["gained"].items()]
        return f"Turn {data['turn']}, consolidation - {'; '.join(parts) if parts else 'no change'}"
    if kind == "TurnOrderSet":
        order = ", ".join(f"{_ideology(after, s)} ({data['influence'][s]})" for s in data["order"])
        return f"Turn {data['turn']}, new turn order by Global Influence: {order}"
    if kind == "GameScored":
        winners = " and ".join(_who(after, s) for s in data["winners"])
        return (f"Game over after turn {data['turn']} ({data['reason'].replace('_', ' ')}): {winners} "
                f"{'wins' if len(data['winners']) == 1 else 'share the win'} with "
                f"{data['influence'][data['winners'][0]]} Global Influence")
    return None
