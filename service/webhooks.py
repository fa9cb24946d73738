"""The webhooks resource: a player registers, lists and deletes webhooks (``engine.webhooks`` delivers them)."""

from __future__ import annotations

from typing import Any

from marshmallow import RAISE, Schema, fields, validate

from engine.webhooks import EVENT_TYPES
from service.api_doc import BODY, TOKEN, Blueprint, declare, path_param
from service.context import current_player, engine
from service.inputs import object_body

webhooks_bp = Blueprint("webhooks", __name__, url_prefix="/v1/me/webhooks")
WEBHOOK_ID = path_param("webhook_id", "The webhook's id")


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
    game = fields.String(allow_none=True, metadata={"description": "The game it is about (null for a tournament's)"})
    tournament = fields.String(metadata={"description": "Only on tournament_round and tournament_over: the "
                                                        "tournament it is about"})
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
@declare("Register a webhook; its signing secret is shown once", auth="required", ok=(201, "WebhookCreated"),
         problems=(BODY, TOKEN, {422: ("bad_webhook_url", "webhook_host_unresolvable", "webhook_destination_refused",
                                       "too_many_webhooks")}),
         body="WebhookCreate",
         description="Deliveries are POSTs of {id, type, game, version, deadline, created_at} (tournament_round "
                     "and tournament_over: {id, type, tournament, round, version, created_at}) with headers "
                     "Intrigue-Event, Intrigue-Delivery (the same on every retry) and Intrigue-Signature: t=<unix "
                     "seconds>,v1=<hex HMAC-SHA256 with the secret over '<t>.<raw body>'>. A 2xx within 5 s is "
                     "success; otherwise retried with exponential backoff for at least 24 h; redirects are not "
                     "followed; a webhook failing for 3 days is disabled. deadline_soon fires when a quarter of the "
                     "time before the default move is left.")
def create_webhook() -> tuple[dict[str, Any], int]:
    player = current_player()
    assert player is not None
    raw = object_body()
    body = WEBHOOK_CREATE_SCHEMA.load(raw)
    return engine().create_webhook(player.id, body["url"], body["events"]), 201


@webhooks_bp.get("")
@declare("Your webhooks, without their secrets", auth="required", ok=(200, "WebhookList"), problems=(TOKEN,))
def list_webhooks() -> dict[str, Any]:
    player = current_player()
    assert player is not None
    return {"webhooks": engine().webhooks_of(player.id)}


@webhooks_bp.delete("/<webhook_id>")
@declare("Delete a webhook", auth="required", ok=(204, None), problems=(TOKEN, {404: ("webhook_not_found",)}),
         params=(WEBHOOK_ID,), ok_type="")
def delete_webhook(webhook_id: str) -> tuple[str, int]:
    player = current_player()
    assert player is not None
    engine().delete_webhook(player.id, webhook_id)
    return "", 204


@webhooks_bp.get("/<webhook_id>/deliveries")
@declare("A webhook's recent deliveries", auth="required", ok=(200, "DeliveryList"),
         problems=(TOKEN, {404: ("webhook_not_found",)}), params=(WEBHOOK_ID,))
def list_deliveries(webhook_id: str) -> dict[str, Any]:
    player = current_player()
    assert player is not None
    return {"deliveries": engine().webhook_deliveries(player.id, webhook_id)}
