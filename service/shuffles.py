"""Fair shuffles over HTTP (issue 52, item 1): a join's commitment and ``POST /v1/games/<id>/reveal``.

A player joins with ``{"commitment": "<64 hex>"}``, the SHA-256 of a secret of 32 random
bytes it keeps; once every seat is taken the game is ``starting`` and each committed seat
reveals ``{"secret": "<64 hex>"}``. The engine checks both (``engine.fair_shuffle``); the
schemas here only take the fields' shapes.
"""

from __future__ import annotations

from typing import Any

from flask import request
from marshmallow import RAISE, Schema, fields, validate

from projections.record import seat_of
from projections.views import game_view
from service.api_doc import BODY, GAME, GAME_ID, TOKEN, Blueprint, declare
from service.context import after_answer, current_player, engine
from service.inputs import object_body

shuffles_bp = Blueprint("shuffles", __name__, url_prefix="/v1/games")

HEX64 = "64 lowercase hex digits"


class JoinSchema(Schema):
    class Meta:
        unknown = RAISE

    commitment = fields.String(validate=validate.Length(min=1, max=200), metadata={
        "description": f"Fair shuffles: the SHA-256 of a secret of 32 random bytes you keep, {HEX64} (a malformed "
                       "one is 422 bad_commitment). Once every seat is taken you reveal the secret (POST "
                       "/v1/games/{game_id}/reveal) and it is mixed into the seed of every draw",
        "example": "5f70bf18a086007016e948b04aed3b82103a36bea41755b6cddfaf10ace3c6ef"})
    seat = fields.Integer(strict=True, validate=validate.Range(min=0, max=11), metadata={
        "description": "A substitute's join: a seat a running game offers (`seats_offered` in GET "
                       "/v1/games?seeking_substitute=true; docs/community.md); no commitment with it"})


class RevealSchema(Schema):
    class Meta:
        unknown = RAISE

    secret = fields.String(required=True, validate=validate.Length(min=1, max=200), metadata={
        "description": f"The secret your commitment hashes, {HEX64} (32 bytes); one that does not match is 422 "
                       "bad_reveal",
        "example": "e9f2a5c1d0b7e3f4a6c8b2d4e6f8a0c2e4f6a8b0c2d4e6f8a0b2c4d6e8f0a2b4"})


class RevealedSchema(Schema):
    game = fields.Dict(metadata={"description": "The game as your seat sees it (a GameView): `entropy` says "
                                                "where each committed seat's secret stands"})


JOIN_SCHEMA = JoinSchema()
REVEAL_SCHEMA = RevealSchema()


def join_body() -> dict[str, Any]:
    """A join's body: a commitment, or a substitute's seat (service/community.py); empty when none was sent."""
    if not (request.content_length or request.headers.get("Transfer-Encoding")):
        return {}
    body: dict[str, Any] = JOIN_SCHEMA.load(object_body())
    return body


@shuffles_bp.post("/<game_id>/reveal")
@declare("Reveal your seat's committed secret (fair shuffles)", auth="required", ok=(200, "Revealed"),
         problems=(BODY, TOKEN, GAME, {403: ("not_seated",), 409: ("game_not_starting", "nothing_to_reveal", "busy"),
                                      422: ("bad_reveal",)}),
         params=(GAME_ID,), body="Reveal",
         description="Once every seat is taken (status `starting`). The last secret missing starts the game; every "
                     "draw then comes from the server's seed mixed with the secrets revealed (docs/transparency.md). "
                     "Sending the same secret again changes nothing.")
def reveal(game_id: str) -> dict[str, Any]:
    """A committed seat's secret; the last one missing starts the game. Sending it again changes nothing."""
    player = current_player()
    assert player is not None
    body = REVEAL_SCHEMA.load(object_body())
    done = engine().reveal(player, game_id, body["secret"], answer_first=True)
    after_answer(done.after_answer)
    return {"game": game_view(done.record, seat_of(done.record, player.id))}
