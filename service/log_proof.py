"""``intrigue verify --checkpoint``: is this game in the log a signed checkpoint commits to?

The checkpoint is checked first (its signature, with ``--key`` or the key ``--url``'s
server publishes), then the game's leaf is recomputed from the log the player holds,
and its inclusion proof, fetched from ``--url`` for the checkpoint's size, is checked
with RFC 9162's algorithm against the checkpoint's root. Nothing the server says is
trusted but what the signature and the proof bind it to.
"""

from __future__ import annotations

import base64
import json
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from engine.signing import public_bytes, verify_note
from engine.transparency import leaf_bytes, leaf_of_log
from events import merkle
from events.envelope import Envelope
from projections.audit import game_events


class Unusable(Exception):
    """What was given cannot be checked at all (exit status 2)."""


class NotProved(Exception):
    """The checkpoint or the proof does not hold (exit status 1)."""


def get_json(url: str) -> Any:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:  # noqa: S310 - the operator's own URL
            return json.loads(response.read())
    except urllib.error.HTTPError as err:
        raise NotProved(f"{url} answered {err.code}: {err.read()[:300].decode(errors='replace')}") from None
    except (urllib.error.URLError, OSError, ValueError) as err:
        raise Unusable(f"cannot read {url}: {err}") from None


def server_key(url: str) -> bytes:
    keys = get_json(url.rstrip("/") + "/v1/keys").get("keys") or []
    for key in keys:
        if key.get("alg") == "Ed25519":
            return base64.b64decode(key["public_key"])
    raise Unusable(f"{url} publishes no Ed25519 key")


def resolve_key(given: str | None, url: str | None) -> bytes | None:
    """The server's raw public key: ``--key`` (a file or the text itself: base64 of the 32
    bytes, a PEM public key, or the JSON of ``GET /v1/keys``), else the key ``--url``
    publishes, else None."""
    if given:
        text = given
        path = Path(given)
        try:
            if len(given) < 4096 and path.is_file():
                text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as err:
            raise Unusable(f"cannot read the key file {given}: {err}") from None
        return _parse_key(text.strip())
    if url:
        return server_key(url)
    return None


def _parse_key(text: str) -> bytes:
    bad = Unusable("--key must be the server's Ed25519 public key: 32 bytes in base64, a PEM public key, "
                   "or GET /v1/keys's JSON (given inline or as a file)")
    try:
        if text.startswith("-----BEGIN"):
            key = serialization.load_pem_public_key(text.encode())
            if not isinstance(key, Ed25519PublicKey):
                raise bad
            return public_bytes(key)
        if text.startswith("{"):
            listed = [k for k in json.loads(text).get("keys") or [] if k.get("alg") == "Ed25519"]
            if not listed:
                raise bad
            text = listed[0]["public_key"]
        raw = base64.b64decode(text, validate=True)
    except (ValueError, TypeError, KeyError, AttributeError):
        raise bad from None
    if len(raw) != 32:
        raise bad
    return raw


def check(events: Sequence[Envelope], note: str, url: str | None, public_key: bytes | None) -> str:
    """A line saying where the game sits in the signed tree; NotProved or Unusable otherwise."""
    if public_key is None:
        raise Unusable("--checkpoint needs the server's key: --key, or --url to fetch it")
    lines = note.split("\n")
    if len(lines) < 4:
        raise Unusable("the checkpoint is not a signed note (origin, size, root hash, a blank line, signatures)")
    origin = lines[0]
    try:
        text = verify_note(note, origin, public_key)
    except ValueError as err:
        raise NotProved(f"the checkpoint's signature does not hold: {err}") from None
    try:
        _, size_line, root_line, *_ = text.split("\n")
        size, root = int(size_line), base64.b64decode(root_line, validate=True)
    except ValueError:
        raise Unusable("the checkpoint's body is not origin, tree size and base64 root hash") from None
    if not url:
        raise Unusable("--checkpoint needs --url to fetch the game's inclusion proof")
    leaf = leaf_of_log(game_events(events))
    query = urllib.parse.urlencode({"game": leaf["game"], "size": size})
    proof = get_json(f"{url.rstrip('/')}/v1/transparency/inclusion?{query}")
    if proof.get("leaf") != leaf:
        raise NotProved(f"the log's leaf {leaf} is not the one the server proves: {proof.get('leaf')}")
    try:
        hashes = [base64.b64decode(h, validate=True) for h in proof["hashes"]]
        index = int(proof["index"])
    except (KeyError, TypeError, ValueError):
        raise NotProved("the server's inclusion proof is malformed") from None
    if not merkle.verify_inclusion(merkle.leaf_hash(leaf_bytes(leaf)), index, size, hashes, root):
        raise NotProved(f"the inclusion proof does not lead to the checkpoint's root: game {leaf['game']} "
                        f"is not in the log of {size} games that {origin} signed")
    return f"game {leaf['game']} is leaf {index} of the {size} games the checkpoint of {origin} signs"
