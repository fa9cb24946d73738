"""The standing-orders resource: a seated player's decisions made in advance (``engine.orders``).

``PUT`` replaces the caller's orders in a game, ``GET`` reads them, ``DELETE`` clears them.
Nobody but the caller ever reads them while the game is on; they are published with the
game's log when it ends.
"""

from __future__ import annotations

from typing import Any

from marshmallow import RAISE, Schema, fields

from engine.orders import MAX_ORDERS
from service.api_doc import BODY, GAME, GAME_ID, TOKEN, Blueprint, declare
from service.context import current_player, engine
from service.inputs import object_body

orders_bp = Blueprint("orders", __name__, url_prefix="/v1/games")

ORDERS_DESCRIPTION = (
    "At most 20 orders, each {decision, when, answer, once}. When the game comes to await you for `decision` "
    "(a kind `awaiting_kinds` names) and every condition of `when` holds (each game's are listed in "
    "`<Game>OrderConditions`), the first such order whose `answer` the rules accept is played as your own action "
    "in the very commit that opened the decision: no worker, no deadline, no reserve spent. An answer the rules "
    "refuse at that moment is skipped (the next order, or you are asked as usual); a `once` order is removed when "
    "it answers. Orders are consulted each time the game moves (one set while a decision already waits for "
    "you answers it at the game's next move). An order whose `answer` has no action's shape in this game (its "
    "`type`, its fields) is 422 `bad_order` naming the order and the field (`answer.type`, `answer.card`, ...). "
    "Setting them moves no version and shows in no feed: nobody else can tell you have orders, or an answer of "
    "theirs from one you typed. While the game is on, every time shown (an event's `at`, `updated_at`) is rounded "
    "down to the minute (under an hour per move) or the hour, so an order's answer reads as one typed within it; "
    "see docs/correspondence.md, \"What a clock can tell\".")


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
@declare("Replace your standing orders in this game", auth="required", ok=(200, "StandingOrderList"),
         problems=(BODY, TOKEN, GAME, {403: ("not_seated",), 409: ("game_over", "busy"), 422: ("bad_order",)}),
         params=(GAME_ID,), body="StandingOrders", description=ORDERS_DESCRIPTION)
def replace_orders(game_id: str) -> dict[str, Any]:
    player = current_player()
    assert player is not None
    body = ORDERS_SCHEMA.load(object_body())
    eng = engine()
    return {"orders": eng.orders.replace(player.id, eng.load(game_id), body["orders"])}


@orders_bp.get("/<game_id>/orders")
@declare("Your standing orders in this game", auth="required", ok=(200, "StandingOrderList"),
         problems=(TOKEN, GAME, {403: ("not_seated",)}), params=(GAME_ID,),
         description="Only yours: nobody else can read them, or tell that you have any, until the game ends and "
                     "its log (with every StandingOrdersSet) is published.")
def read_orders(game_id: str) -> dict[str, Any]:
    player = current_player()
    assert player is not None
    eng = engine()
    return {"orders": eng.orders.of_player(player.id, eng.load(game_id))}


@orders_bp.delete("/<game_id>/orders")
@declare("Clear your standing orders in this game", auth="required", ok=(204, None),
         problems=(TOKEN, GAME, {403: ("not_seated",), 409: ("game_over", "busy")}), params=(GAME_ID,), ok_type="")
def clear_orders(game_id: str) -> tuple[str, int]:
    player = current_player()
    assert player is not None
    eng = engine()
    eng.orders.clear(player.id, eng.load(game_id))
    return "", 204
