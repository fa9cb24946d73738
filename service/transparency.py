"""The server's public key and its transparency log over HTTP (issue 52; docs/transparency.md).

``GET /v1/keys`` lists the Ed25519 key; ``GET /v1/transparency/checkpoint`` is the log's
signed head as a C2SP checkpoint; the inclusion and consistency routes give RFC 9162
proofs, each hash in standard base64, so a client checks a game against a checkpoint it
holds and two checkpoints against each other without trusting this server.
"""

from __future__ import annotations

import base64
from typing import Any

from flask import Blueprint, Response, current_app, request
from marshmallow import RAISE, Schema, fields, validate

from engine.commit import MAX_GAME_ID
from engine.signing import (
    NoteSigner,
    cosignature_key_hash,
    key_in_redis,
    parse_private_key,
    verify_cosignature,
    verify_note,
)
from service.answers import Problem
from service.context import current_player, engine
from service.inputs import object_body, whole_number

keys_bp = Blueprint("keys", __name__, url_prefix="/v1/keys")
transparency_bp = Blueprint("transparency", __name__, url_prefix="/v1/transparency")

#: The checkpoint's origin line and the name its signature line carries.
ORIGIN = "intrigue/transparency"
MAX_SIZE = 2**63 - 1


def signer() -> NoteSigner:
    """This process's signer, made on first use from the settings' key, else the one kept in Redis."""
    made = current_app.extensions.get("intrigue.signer")
    if made is None:
        eng = engine()
        configured = eng.settings.signing_key
        key = parse_private_key(configured) if configured else key_in_redis(eng.redis, f"{eng.keys.prefix}:signing-key")
        made = current_app.extensions["intrigue.signer"] = NoteSigner(key, ORIGIN)
    return made


def b64(digest: bytes) -> str:
    return base64.b64encode(digest).decode()


def required_size(name: str) -> int:
    raw = request.args.get(name)
    if raw is None:
        raise Problem(400, "bad_query", f"{name} is required: a tree size")
    return whole_number(raw, name=name, code="bad_query", low=0, high=MAX_SIZE)


def within_log(size: int, name: str) -> None:
    current = engine().transparency.tree.size()
    if size > current:
        raise Problem(422, "beyond_log", f"{name}={size} is past the log, which holds {current} games")


@keys_bp.get("")
def keys() -> dict[str, Any]:
    """The keys this server signs with: today one Ed25519 key."""
    current_player(required=False)
    return {"keys": [signer().described()]}


@transparency_bp.get("/checkpoint")
def checkpoint() -> Response:
    """The log's head now, signed: origin, tree size, base64 root hash, then the signature line."""
    current_player(required=False)
    tree = engine().transparency.tree
    size = tree.size()
    witnessed = tuple(engine().transparency.cosignatures(size))
    note = signer().sign(f"{ORIGIN}\n{size}\n{b64(tree.root(size))}\n", witnessed)
    return Response(note, mimetype="text/plain", headers={"Cache-Control": "no-store"})


@transparency_bp.get("/inclusion")
def inclusion() -> dict[str, Any]:
    """The proof that a finished game is leaf ``index`` of the tree of ``size`` leaves."""
    current_player(required=False)
    game_id = request.args.get("game")
    if not game_id:
        raise Problem(400, "bad_query", "game is required: a finished game's id")
    size = required_size("size")
    log = engine().transparency
    found = log.leaf(game_id) if len(game_id) <= MAX_GAME_ID else None
    if found is None:  # a longer id names no game, and is not echoed whole
        raise Problem(404, "not_in_log",
                      f"game {game_id[:MAX_GAME_ID]} has no leaf in the log: unknown, or not finished")
    index, leaf = found
    within_log(size, "size")
    if index >= size:
        raise Problem(422, "beyond_log", f"game {game_id} is leaf {index}: a tree of {size} does not hold it yet")
    return {"index": index, "size": size, "leaf": leaf, "hashes": [b64(h) for h in log.tree.inclusion(index, size)]}


@transparency_bp.get("/consistency")
def consistency() -> dict[str, Any]:
    """The proof that the tree of ``to`` leaves extends the tree of ``from`` leaves."""
    current_player(required=False)
    first, second = required_size("from"), required_size("to")
    if not 0 < first <= second:
        raise Problem(422, "bad_range", f"from must be at least 1 and at most to (from={first}, to={second})")
    within_log(second, "to")
    return {"hashes": [b64(h) for h in engine().transparency.tree.consistency(first, second)]}


class CosignatureSchema(Schema):
    class Meta:
        unknown = RAISE

    checkpoint = fields.String(required=True, validate=validate.Length(min=1, max=8000), metadata={
        "description": "The checkpoint the witness checked, as GET /v1/transparency/checkpoint gave it"})
    cosignature = fields.String(required=True, validate=validate.Length(min=1, max=400), metadata={
        "description": "The witness's C2SP cosignature line: `\u2014 <name> base64(key hash || time || signature)`"})
    public_key = fields.String(required=True, validate=validate.Length(min=1, max=100), metadata={
        "description": "The witness's Ed25519 public key in base64"})


class CosignedSchema(Schema):
    witness = fields.String(metadata={"description": "`<name>+<key hash in hex>`"})
    size = fields.Integer(metadata={"description": "The tree size of the checkpoint it cosigned"})


COSIGNATURE_SCHEMA = CosignatureSchema()


@transparency_bp.post("/cosignatures")
def cosign() -> dict[str, Any]:
    """A witness's cosignature of a checkpoint this server signed, shown on checkpoints of that size."""
    current_player(required=False)
    body = COSIGNATURE_SCHEMA.load(object_body())
    try:
        public_key = base64.b64decode(body["public_key"], validate=True)
        if len(public_key) != 32:
            raise ValueError("not 32 bytes")
        note = body["checkpoint"].replace("\r\n", "\n")
        text = verify_note(note, ORIGIN, signer().public_key)
        _, size_line, root_line = text.rstrip("\n").split("\n")
        size = int(size_line)
    except ValueError as err:
        raise Problem(422, "bad_cosignature", f"not a checkpoint this server signed, or a bad key: {err}") from None
    log = engine().transparency
    if size > log.tree.size() or b64(log.tree.root(size)) != root_line:
        raise Problem(422, "bad_cosignature", "the checkpoint does not match the log")
    try:
        name = verify_cosignature(body["cosignature"], text, public_key)
    except ValueError as err:
        raise Problem(422, "bad_cosignature", str(err)) from None
    witness = f"{name}+{cosignature_key_hash(name, public_key).hex()}"
    if not log.cosign(witness, size, body["cosignature"].rstrip("\n") + "\n"):
        raise Problem(422, "bad_cosignature", "the log already keeps as many witnesses as it takes")
    return {"witness": witness, "size": size}
