"""The API's resources, each a blueprint whose routes declare their operations (``service.api_doc``).

The app serves them and ``service.openapi`` documents them: a blueprint listed here is in both.
"""

from __future__ import annotations

from service.api_doc import Blueprint
from service.chat import chat_bp
from service.community import community_bp
from service.export import export_bp
from service.orders import orders_bp
from service.routes import games_bp, leaderboards_bp, me_bp, players_bp
from service.shuffles import shuffles_bp
from service.tournaments import tournaments_bp
from service.transparency import keys_bp, transparency_bp
from service.webhooks import webhooks_bp

#: In the order of the reference.
API_BLUEPRINTS: tuple[Blueprint, ...] = (players_bp, leaderboards_bp, games_bp, chat_bp, orders_bp, me_bp,
                                         community_bp, webhooks_bp, keys_bp, transparency_bp, export_bp, shuffles_bp,
                                         tournaments_bp)
