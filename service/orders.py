"""The standing-orders resource: a seated player's decisions made in advance (``engine.orders``).

``PUT`` replaces the caller's orders in a game, ``GET`` reads them, ``DELETE`` clears them.
Nobody but the caller ever reads them while the game is on; they are published with the
game's log when it ends.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint
from marshmallow import RAISE, Schema, fields

from engine.orders import MAX_ORDERS
from service.context import current_player, engine
from service.inputs import object_body

orders_bp = Blueprint("orders", __name__, url_prefix="/v1/games")


class StandingOrderSchema(Schema):
    """One order, as the API reference describes it (each game's conditions are listed apart)."""

    decision = fields.String(required=True, metadata={
        "description": "A decision kind the game's `awaiting` names (Coup: turn, react, reveal, keep)",
        "example": "react"})
    when = fields.Dict(keys=fields.String(), load_default=dict, metadata={
        "description": "Conditions that must all hold: the game's own, listed in `<Game>OrderConditions` "
                       "(`CoupOrderConditions`, ...); empty: always", "example": {"targeted": False}})
    answer = fields.Dict(required=True, metadata={"description": "The action to play, as POST /actions takes it",
                                                  "example": {"type": "pass"}})
    once = fields.Boolean(load_default=False, metadata={"description": "Spent (removed) once it answers"})


class StandingOrdersSchema(Schema):
    class Meta:
        unknown = RAISE

    orders = fields.List(fields.Raw(), required=True, metadata={
        "description": f"At most {MAX_ORDERS} orders, tried in this order: the first that matches and is legal "
                       "answers"})


class StandingOrderListSchema(Schema):
    orders = fields.List(fields.Nested(StandingOrderSchema))


ORDERS_SCHEMA = StandingOrdersSchema()  # built once, used by every request


@orders_bp.put("/<game_id>/orders")
def replace_orders(game_id: str) -> dict[str, Any]:
    player = current_player()
    assert player is not None
    body = ORDERS_SCHEMA.load(object_body())
    eng = engine()
    return {"orders": eng.orders.replace(player.id, eng.load(game_id), body["orders"])}


@orders_bp.get("/<game_id>/orders")
def read_orders(game_id: str) -> dict[str, Any]:
    player = current_player()
    assert player is not None
    eng = engine()
    return {"orders": eng.orders.of_player(player.id, eng.load(game_id))}


@orders_bp.delete("/<game_id>/orders")
def clear_orders(game_id: str) -> tuple[str, int]:
    player = current_player()
    assert player is not None
    eng = engine()
    eng.orders.clear(player.id, eng.load(game_id))
    return "", 204
