"""The webhooks resource: a player registers, lists and deletes webhooks (``engine.webhooks`` delivers them)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint
from marshmallow import RAISE, Schema, fields, validate

from engine.webhooks import EVENT_TYPES
from service.context import current_player, engine
from service.inputs import object_body

webhooks_bp = Blueprint("webhooks", __name__, url_prefix="/v1/me/webhooks")


class WebhookCreateSchema(Schema):
    class Meta:
        unknown = RAISE

    url = fields.String(required=True, validate=validate.Length(min=1, max=2000),
                        metadata={"example": "https://example.org/intrigue-hook",
                                  "pattern": "^https?://[^\\u0000-\\u0020\\u007f-\\u009f]+$"})
    events = fields.List(fields.String(validate=validate.OneOf(EVENT_TYPES)), required=True,
                         validate=validate.Length(min=1, max=len(EVENT_TYPES)),
                         metadata={"description": "Any of your_turn, deadline_soon, game_over, invited, "
                                                  "tournament_round, tournament_over"})


WEBHOOK_CREATE_SCHEMA = WebhookCreateSchema()  # built once, used by every request


class WebhookCreatedSchema(Schema):
    id = fields.String()
    url = fields.String()
    events = fields.List(fields.String())
    secret = fields.String(metadata={"description": "The signing secret: shown only in this answer"})


class WebhookSchema(Schema):
    id = fields.String()
    url = fields.String()
    events = fields.List(fields.String())
    created_at = fields.String()
    disabled = fields.Boolean(metadata={"description": "True once every delivery failed for 3 days"})
    disabled_at = fields.String(allow_none=True)
    disabled_reason = fields.String(allow_none=True)
    failing_since = fields.String(allow_none=True, metadata={"description": "First failure since the last success"})


class WebhookListSchema(Schema):
    webhooks = fields.List(fields.Nested(WebhookSchema))


class DeliverySchema(Schema):
    id = fields.String(metadata={"description": "The Intrigue-Delivery id, the same on every retry"})
    type = fields.String()
    game = fields.String()
    version = fields.Integer()
    status = fields.String(validate=validate.OneOf(["pending", "delivered", "failed", "cancelled"]))
    attempts = fields.Integer()
    created_at = fields.String()
    last_attempt_at = fields.String(allow_none=True)
    last_status = fields.String(allow_none=True, metadata={"description": "HTTP status or error of the last try"})
    next_retry = fields.String(allow_none=True, metadata={"description": "When the next attempt is due"})
    delivered_at = fields.String(allow_none=True)


class DeliveryListSchema(Schema):
    deliveries = fields.List(fields.Nested(DeliverySchema))


@webhooks_bp.post("")
def create_webhook() -> tuple[dict[str, Any], int]:
    player = current_player()
    assert player is not None
    raw = object_body()
    body = WEBHOOK_CREATE_SCHEMA.load(raw)
    return engine().create_webhook(player.id, body["url"], body["events"]), 201


@webhooks_bp.get("")
def list_webhooks() -> dict[str, Any]:
    player = current_player()
    assert player is not None
    return {"webhooks": engine().webhooks_of(player.id)}


@webhooks_bp.delete("/<webhook_id>")
def delete_webhook(webhook_id: str) -> tuple[str, int]:
    player = current_player()
    assert player is not None
    engine().delete_webhook(player.id, webhook_id)
    return "", 204


@webhooks_bp.get("/<webhook_id>/deliveries")
def list_deliveries(webhook_id: str) -> dict[str, Any]:
    player = current_player()
    assert player is not None
    return {"deliveries": engine().webhook_deliveries(player.id, webhook_id)}
