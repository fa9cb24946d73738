"""The OpenAPI schemas of correspondence play: table talk and webhooks.

Their operations are declared on their routes (service/chat.py, service/webhooks.py);
:mod:`service.openapi` adds these components to the one document it builds.
"""

from __future__ import annotations

from service.chat import ChatMessageSchema, MessageListSchema, MessageSchema
from service.webhooks import (
    DeliveryListSchema,
    WebhookCreatedSchema,
    WebhookCreateSchema,
    WebhookListSchema,
    WebhookSchema,
)

SCHEMAS = {
    "MessageCreate": MessageSchema, "ChatMessage": ChatMessageSchema, "MessageList": MessageListSchema,
    "WebhookCreate": WebhookCreateSchema, "WebhookCreated": WebhookCreatedSchema, "Webhook": WebhookSchema,
    "WebhookList": WebhookListSchema, "DeliveryList": DeliveryListSchema,
}
