"""``intrigue witness``: one more pair of eyes on the transparency log, so a fork shows.

Each run fetches the log's checkpoint, checks its signature with the log's key (learnt
on the first run and kept in the state file), and checks that it extends the last
checkpoint this witness saw with a consistency proof. Only then does it cosign it
(c2sp.org/tlog-cosignature) and send the cosignature back, so later checkpoints of that
size carry it; the new checkpoint becomes the one remembered. A checkpoint that does not
extend the last one (a smaller tree, another root for the same size, a proof that fails)
is a fork: the run prints both signed checkpoints and exits 1, keeping the old state.

The state file (JSON, mode 0600) holds the witness's name and Ed25519 key, the log's
public key and the last checkpoint seen.
"""

from __future__ import annotations

import base64
import json
import os
import secrets
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.signing import cosignature_line, parse_private_key, pem, public_bytes, verify_note
from events import merkle
from service.log_proof import NotProved, Unusable, get_json, server_key

ORIGIN = "intrigue/transparency"


class Fork(Exception):
    """Two signed checkpoints that cannot both be true."""

    def __init__(self, reason: str, old: str, new: str) -> None:
        super().__init__(f"{reason}\n--- the checkpoint seen before:\n{old}--- the checkpoint now:\n{new}")


def _text(url: str) -> str:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:  # noqa: S310 - the operator's own URL
            return response.read().decode()
    except (urllib.error.URLError, OSError, UnicodeDecodeError) as err:
        raise Unusable(f"cannot read {url}: {err}") from None


def _post(url: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310
            return json.loads(response.read())
    except urllib.error.HTTPError as err:
        raise NotProved(f"{url} refused the cosignature ({err.code}): {err.read()[:300].decode(errors='replace')}"
                        ) from None
    except (urllib.error.URLError, OSError, ValueError) as err:
        raise Unusable(f"cannot reach {url}: {err}") from None


def load_state(path: Path) -> dict[str, Any]:
    """The state file's content; a name and a key are made for what it lacks (a first run, or a
    file holding only ``log_key`` to pin the log's key)."""
    loaded: dict[str, Any] = {}
    if path.exists():
        try:
            loaded = dict(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError) as err:
            raise Unusable(f"the state file {path} cannot be read: {err}") from None
    return {"name": f"witness-{secrets.token_hex(4)}", "private_key": pem(Ed25519PrivateKey.generate()).decode(),
            **loaded}


def save_state(path: Path, state: dict[str, Any]) -> None:
    temporary = path.with_suffix(path.suffix + ".tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump(state, out, indent=1)
    os.replace(temporary, path)


def head(note: str, log_key: bytes) -> tuple[str, int, bytes]:
    """The checked text, size and root of a checkpoint signed by the log's key."""
    try:
        text = verify_note(note, ORIGIN, log_key)
        _, size, root = text.rstrip("\n").split("\n")
        return text, int(size), base64.b64decode(root, validate=True)
    except ValueError as err:
        raise NotProved(f"the checkpoint is not signed by the log's key, or is malformed: {err}") from None


def witness(url: str, state_path: Path) -> str:
    """One witness run; a line saying what was cosigned, or Fork, NotProved, Unusable."""
    base = url.rstrip("/")
    state = load_state(state_path)
    log_key = base64.b64decode(state["log_key"]) if "log_key" in state else server_key(base)
    note = _text(base + "/v1/transparency/checkpoint")
    text, size, root = head(note, log_key)
    previous = state.get("checkpoint")
    if previous:
        _, old_size, old_root = head(previous, log_key)
        if size < old_size:
            raise Fork(f"the log shrank from {old_size} to {size} games", previous, note)
        if size == old_size and root != old_root:
            raise Fork(f"two roots for the same {size} games", previous, note)
        if size > old_size:
            proof = get_json(f"{base}/v1/transparency/consistency?from={old_size}&to={size}")
            hashes = [base64.b64decode(h) for h in proof.get("hashes", [])]
            if not merkle.verify_consistency(old_size, size, old_root, root, hashes):
                raise Fork(f"the tree of {size} games does not extend the tree of {old_size}", previous, note)
    key = parse_private_key(state["private_key"])
    line = cosignature_line(key, state["name"], text, int(time.time()))
    answer = _post(base + "/v1/transparency/cosignatures",
                   {"checkpoint": note, "cosignature": line,
                    "public_key": base64.b64encode(public_bytes(key.public_key())).decode()})
    save_state(state_path, {**state, "log_key": base64.b64encode(log_key).decode(), "checkpoint": note})
    return f"cosigned the log's checkpoint of {size} games as {answer.get('witness')}"
