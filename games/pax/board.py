"""Reading a Pax Porfiriana state: numbers the rules derive from the board.

Pure functions of the state (no events): what a regime pays, which connection a
troop must use to reach an enterprise, a troop's firepower, a seat's prestige, who
earns what at income. Both the rules and the views use them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from games.base import Seat, State

from .fold import find_enterprise, find_troop

MARKET_COSTS = (0, 1, 2, 4, 8, 16)
ROWS, COLUMNS = 2, 6
#: Which built connection troops use when an enterprise has two: the higher rank.
CONNECTION_RANK = {"boot": 0, "mule": 1, "rail": 2, "ship": 3}
HAND_LIMIT = 5
DIAZ_PRESTIGE = 2
POLICE_COST = 3
ASSASSINATION_COST = 3
ARMS_BONUS = 2


def card(state: State, card_id: str) -> dict[str, Any]:
    return state["cards"][card_id]


def regime(state: State) -> dict[str, Any]:
    return state["cards"][state["regime"]]


def economy(state: State) -> int:
    """The Economy value: 0 in a depression."""
    return 0 if state["depression"] else regime(state)["economy"]


def mines(state: State) -> int:
    return 0 if state["depression"] else regime(state)["mines"]


def allowed_income(state: State, ent: dict[str, Any]) -> int:
    """Income cubes (counting an extortion cube) the enterprise may hold now."""
    income = card(state, ent["card"])["income"]
    kind = income["kind"]
    if kind == "economy":
        return economy(state)
    if kind == "mine":
        return mines(state)
    if kind == "upgradable":
        return income["value"] + ent["land"]
    return income["value"]


def profit(ent: dict[str, Any]) -> int:
    return ent["income"] + (1 if ent["extortion"] is not None else 0)


def cubes_on(state: State, ent: dict[str, Any], owner: Seat) -> int:
    """Every cube on an enterprise card, whatever its kind or colour (buying land costs this)."""
    bribes = state["players"][owner]["bribes"].get(ent["card"], 0)
    return ent["income"] + (ent["extortion"] is not None) + sum(c is not None for c in ent["conn"]) + bribes


def connection(state: State, ent: dict[str, Any]) -> str:
    """The connection troops must use: the best built oval, or the base one during unrest."""
    definition = card(state, ent["card"])
    best = definition["connection"]
    if ent["unrest"] == 0:
        for oval, holder in zip(definition["ovals"], ent["conn"], strict=True):
            if holder is not None and CONNECTION_RANK[oval["connection"]] > CONNECTION_RANK[best]:
                best = oval["connection"]
    return best


def fare(state: State, troop: str, mode: str) -> int:
    """What a troop pays to travel by ``mode``: its printed fare; by ship, its ship fare when
    the card prints one, else its rail fare."""
    transport = card(state, troop)["transport"]
    return transport[mode] if mode in transport else transport["rail"]


def enterprises(state: State) -> Iterator[tuple[Seat, dict[str, Any]]]:
    for seat, player in enumerate(state["players"]):
        for ent in player["enterprises"]:
            yield seat, ent


def abilities(state: State, seat: Seat) -> list[dict[str, Any]]:
    """Abilities in force for ``seat``: partners, public faces and a loyalist hacendado's."""
    player = state["players"][seat]
    found: list[dict[str, Any]] = []
    for record in player["partners"]:
        definition = card(state, record["card"])
        if definition["category"] == "public":
            found += definition["faces"][record["face"]]["abilities"]
        else:
            found += definition["abilities"]
    if player["side"] is None:
        found += card(state, player["hacendado"])["loyalist"]["abilities"]
    return found


def firepower_bonus(state: State, seat: Seat) -> int:
    return max((a["amount"] for a in abilities(state, seat) if a["kind"] == "firepower"), default=0)


def firepower(state: State, troop: str, owner: Seat) -> int:
    return card(state, troop)["firepower"] + firepower_bonus(state, owner)


def discount(state: State, seat: Seat, enterprise: str) -> int:
    """The best single discount on playing this enterprise (discounts never add up)."""
    district = card(state, enterprise)["district"]
    return max((a["amount"] for a in abilities(state, seat)
                if a["kind"] == "discount" and a.get("district", district) == district), default=0)


def bonus_actions(state: State, seat: Seat) -> list[str]:
    """Unused bonus actions this turn, by action type (each ability gives one)."""
    left = list(state["bonus_used"])
    out = []
    for ability in abilities(state, seat):
        if ability["kind"] == "bonus_action":
            if ability["action"] in left:
                left.remove(ability["action"])
            else:
                out.append(ability["action"])
    return out


def faction_of(state: State, record: dict[str, Any]) -> str | None:
    definition = card(state, record["card"])
    if definition["category"] == "public":
        return definition["faces"][record["face"]]["faction"]
    return definition.get("faction")


def troops_of(state: State, seat: Seat) -> list[str]:
    """Troops ``seat`` owns: at any enterprise, and its private army."""
    owned = [ent["troop"]["card"] for _, ent in enterprises(state)
             if ent["troop"] is not None and ent["troop"]["owner"] == seat]
    return owned + list(state["players"][seat]["army"])


def cards_in_play(state: State, seat: Seat) -> list[str]:
    """What a depression charges for: own enterprises, partners and troops."""
    player = state["players"][seat]
    return ([e["card"] for e in player["enterprises"]] + [p["card"] for p in player["partners"]]
            + troops_of(state, seat))


def factions_in_tableau(state: State, seat: Seat) -> dict[str, list[str]]:
    """Faction -> the cards of that faction ``seat`` could discard (partners, publics, troops)."""
    out: dict[str, list[str]] = {}
    for record in state["players"][seat]["partners"]:
        faction = faction_of(state, record)
        if faction:
            out.setdefault(faction, []).append(record["card"])
    for troop in troops_of(state, seat):
        out.setdefault(card(state, troop)["faction"], []).append(troop)
    return out


def can_turn(state: State, seat: Seat) -> bool:
    """The seat's hacendado may still be turned (during a topple or a retreat): it is on its
    loyalist side and not an assassinated hacendado's heir, who stays loyal for good."""
    player = state["players"][seat]
    return player["side"] is None and not player["loyal"]


def hacendado_faction(state: State, seat: Seat) -> str | None:
    player = state["players"][seat]
    if player["side"] is None:
        return None
    return card(state, player["hacendado"])["orientations"][player["side"]]["faction"]


def grievance_prestige(definition: dict[str, Any]) -> list[str]:
    if definition["category"] == "enterprise":
        return definition.get("liberator_prestige", [])
    return definition.get("prestige", [])


def prestige(state: State, seat: Seat, kind: str) -> int:
    """Prestige icons of ``kind``: cards in play, the grievance pile, a turned hacendado."""
    player = state["players"][seat]
    total = 0
    for ent in player["enterprises"]:
        total += card(state, ent["card"])["prestige"].count(kind)
    for record in player["partners"]:
        definition = card(state, record["card"])
        icons = definition["faces"][record["face"]]["prestige"] if definition["category"] == "public" \
            else definition["prestige"]
        total += icons.count(kind)
    for troop in troops_of(state, seat):
        total += card(state, troop)["prestige"].count(kind)
    for grievance in player["grievances"]:
        total += grievance_prestige(card(state, grievance)).count(kind)
    if player["side"] is not None:
        orientation = card(state, player["hacendado"])["orientations"][player["side"]]
        total += orientation["prestige"] == kind
    return total


def loyalty_icons(state: State, seat: Seat) -> dict[str, int]:
    """Cards in play of ``seat`` with Loyalty icons: each holds a bribe cube under Pax."""
    out: dict[str, int] = {}
    player = state["players"][seat]
    for ent in player["enterprises"]:
        out[ent["card"]] = card(state, ent["card"])["prestige"].count("loyalty")
    for record in player["partners"]:
        definition = card(state, record["card"])
        icons = definition["faces"][record["face"]]["prestige"] if definition["category"] == "public" \
            else definition["prestige"]
        out[record["card"]] = icons.count("loyalty")
    for troop in troops_of(state, seat):
        out[troop] = card(state, troop)["prestige"].count("loyalty")
    return {k: v for k, v in out.items() if v}


def income_of(state: State, seat: Seat) -> int:
    """Gold ``seat`` collects at its income phase: one per cube of its colour that pays."""
    player = state["players"][seat]
    total = player["hac_cubes"]
    closed = set()
    for owner, ent in enterprises(state):
        if ent["unrest"]:
            closed.add(ent["card"])
            continue
        if owner == seat:
            total += ent["income"]
        total += (ent["extortion"] == seat) + sum(holder == seat for holder in ent["conn"])
    total += sum(n for c, n in player["bribes"].items() if c not in closed)
    return total


def placed_cubes(state: State, seat: Seat) -> int:
    """Cubes of ``seat`` on the table (the conservation check: plus supply makes 15)."""
    player = state["players"][seat]
    total = player["hac_cubes"] + sum(player["bribes"].values())
    total += sum(1 for holder in state["spec"].values() if holder == seat)
    for owner, ent in enterprises(state):
        if owner == seat:
            total += ent["income"]
        total += (ent["extortion"] == seat) + sum(holder == seat for holder in ent["conn"])
    return total


def market_slots(state: State) -> Iterator[tuple[int, int, str]]:
    for row in range(ROWS):
        for col in range(COLUMNS):
            found = state["market"][row][col]
            if found is not None:
                yield row, col, found


def market_position(state: State, card_id: str) -> tuple[int, int] | None:
    for row, col, found in market_slots(state):
        if found == card_id:
            return row, col
    return None


def left_of(state: State, seat: Seat) -> list[Seat]:
    """Every seat starting left of ``seat`` and ending with ``seat`` itself."""
    seats = state["seats"]
    return [(seat + i) % seats for i in range(1, seats + 1)]


def working_trunk(state: State, ent: dict[str, Any]) -> Seat | None:
    """The seat holding the cube of this enterprise's trunk line, when it is built and the
    enterprise has no unrest (unrest stops every advantage of a trunk line); else None."""
    if ent["unrest"]:
        return None
    for oval, holder in zip(card(state, ent["card"])["ovals"], ent["conn"], strict=True):
        if oval["trunk"] and holder is not None:
            return holder
    return None


def can_reach(state: State, troop: str, ent_card: str) -> bool:
    """Jurisdiction: the troop's district, US troops anywhere in Mexico under US Intervention,
    every troop anywhere under Anarchy, and any troop to an enterprise on a working trunk
    line (the jurisdiction section's three exceptions)."""
    definition = card(state, troop)
    district = card(state, ent_card)["district"]
    if state["regime"] == "anarchy" or definition["jurisdiction"] == district:
        return True
    if state["regime"] == "us_intervention" and definition["faction"] == "blue" and district != "america":
        return True
    found = find_enterprise(state, ent_card)
    return found is not None and working_trunk(state, found[1]) is not None


def troop_location(state: State, troop: str) -> tuple[Seat, dict[str, Any] | None] | None:
    return find_troop(state, troop)


def enterprise(state: State, ent_card: str) -> tuple[Seat, dict[str, Any]] | None:
    return find_enterprise(state, ent_card)


def placed_enterprise(state: State, ent_card: str) -> tuple[Seat, dict[str, Any]]:
    """(owner, record) of an enterprise the caller knows is in play (a checked plan names it)."""
    found = find_enterprise(state, ent_card)
    if found is None:
        raise KeyError(f"enterprise {ent_card!r} is not in play")
    return found
