"""The server's public key and its transparency log over HTTP (issue 52; docs/transparency.md).

``GET /v1/keys`` lists the Ed25519 key; ``GET /v1/transparency/checkpoint`` is the log's
signed head as a C2SP checkpoint; the inclusion and consistency routes give RFC 9162
proofs, each hash in standard base64, so a client checks a game against a checkpoint it
holds and two checkpoints against each other without trusting this server.
"""

from __future__ import annotations

import base64
from typing import Any

from flask import Response, current_app
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
from service.api_doc import BODY, OPTIONAL_TOKEN, Blueprint, declare
from service.context import current_player, engine
from service.inputs import object_body
from service.queries import Matching, WholeNumber

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


def tree_size(name: str, description: str) -> WholeNumber:
    """A required tree size in the query."""
    return WholeNumber(0, MAX_SIZE, required=True, data_key=name, error_messages={
        "required": f"{name} is required: a tree size"}, metadata={"description": description})


class InclusionQuery(Schema):
    game = Matching("(?s).+", "game is required: a finished game's id", required=True,
                    error_messages={"required": "game is required: a finished game's id"},
                    metadata={"description": "A finished game's id", "minLength": 1, "maxLength": 64})
    size = tree_size("size", "The tree size, as a checkpoint gave it")


# "from" is a keyword: the field is named by its data_key.
ConsistencyQuery = Schema.from_dict({"from_": tree_size("from", "The earlier tree size (at least 1)"),
                                     "to": tree_size("to", "The later tree size (at most the log's)")},
                                    name="ConsistencyQuery")
INCLUSION_QUERY, CONSISTENCY_QUERY = InclusionQuery(), ConsistencyQuery()


def within_log(size: int, name: str) -> None:
    current = engine().transparency.tree.size()
    if size > current:
        raise Problem(422, "beyond_log", f"{name}={size} is past the log, which holds {current} games")


@keys_bp.get("")
@declare("The keys the server signs with (today one Ed25519 key)", auth="optional", ok=(200, "KeyList"),
         problems=(OPTIONAL_TOKEN,),
         description="The transparency log's checkpoints are signed with it (INTRIGUE_SIGNING_KEY).")
def keys() -> dict[str, Any]:
    """The keys this server signs with: today one Ed25519 key."""
    current_player(required=False)
    return {"keys": [signer().described()]}


@transparency_bp.get("/checkpoint")
@declare("The log's signed head: a C2SP checkpoint", auth="optional", ok=(200, None), problems=(OPTIONAL_TOKEN,),
         ok_type="text/plain",
         description="A C2SP signed note: the origin line, the tree size, the root hash in base64, a blank line, "
                     "then `\u2014 <name> <base64(key hash || Ed25519 signature)>`. Each finished game is one leaf, "
                     "hashed as RFC 9162 says.")
def checkpoint() -> Response:
    """The log's head now, signed: origin, tree size, base64 root hash, then the signature line."""
    current_player(required=False)
    tree = engine().transparency.tree
    size = tree.size()
    witnessed = tuple(engine().transparency.cosignatures(size))
    note = signer().sign(f"{ORIGIN}\n{size}\n{b64(tree.root(size))}\n", witnessed)
    return Response(note, mimetype="text/plain", headers={"Cache-Control": "no-store"})


@transparency_bp.get("/inclusion")
@declare("The proof that a finished game is in the tree of a size", auth="optional", ok=(200, "InclusionProof"),
         problems=(OPTIONAL_TOKEN, {400: ("bad_query",), 404: ("not_in_log",), 422: ("beyond_log",)}),
         description="Check it with RFC 9162's algorithm (section 2.1.3.2) against the root of a checkpoint of "
                     "that size; a size past the log, or too small to hold the game, is 422 beyond_log.")
@transparency_bp.arguments(INCLUSION_QUERY, location="query")
def inclusion(query: dict[str, Any]) -> dict[str, Any]:
    """The proof that a finished game is leaf ``index`` of the tree of ``size`` leaves."""
    current_player(required=False)
    game_id, size = query["game"], query["size"]
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
@declare("The proof that a later tree extends an earlier one", auth="optional", ok=(200, "ConsistencyProof"),
         problems=(OPTIONAL_TOKEN, {400: ("bad_query",), 422: ("bad_range", "beyond_log")}),
         description="RFC 9162's consistency proof (section 2.1.4); check it with section 2.1.4.2.")
@transparency_bp.arguments(CONSISTENCY_QUERY, location="query")
def consistency(query: dict[str, Any]) -> dict[str, Any]:
    """The proof that the tree of ``to`` leaves extends the tree of ``from`` leaves."""
    current_player(required=False)
    first, second = query["from_"], query["to"]
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
@declare("A witness's cosignature of a checkpoint", auth="optional", ok=(200, "Cosigned"),
         problems=(BODY, OPTIONAL_TOKEN, {422: ("bad_cosignature",)}), body="Cosignature",
         description="The checkpoint must be one this server signed, matching the log; the cosignature a C2SP "
                     "tlog-cosignature by the given key. Checkpoints of that size then carry it (one per witness, "
                     "its latest; at most 32 witnesses). `intrigue witness` sends it.")
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
