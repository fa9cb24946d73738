"""The signed final record a finished game's published log ends with (issue 52, item 2).

``GET /v1/games/<id>/log`` ends a finished game's log with one more envelope, of type
``LogSigned``, chained to the game's last event (its ``prev`` is the final hash, its
``seq`` the next number): its data names the game, the final hash, the key's id and
algorithm, and the Ed25519 signature of :func:`signed_message`. A player holding the log
can then show anyone that the server committed to exactly this history; a second,
different history of the same game signed by the same key is the operator's own proof
of a split view. Ed25519 signatures are deterministic, so the record is made again each
time the log is served and is always the same.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from engine.signing import NoteSigner
from events.envelope import Envelope, chain_hash, seal
from projections.audit import LOG_SIGNED, game_events


def signed_message(game_id: str, final_hash: str) -> bytes:
    """What the key signs: a domain-separation line, the game's id and its final hash."""
    return f"intrigue/final-hash/v1\n{game_id}\n{final_hash}\n".encode()


def final_record(signer: NoteSigner, game_id: str, last: Envelope) -> Envelope:
    """The ``LogSigned`` envelope that follows ``last``, the game's final event."""
    signature = signer.key.sign(signed_message(game_id, last.hash))
    data = {"game": game_id, "final_hash": last.hash, "key_id": signer.key_id, "alg": "Ed25519",
            "signature": base64.b64encode(signature).decode()}
    return seal(last.seq + 1, LOG_SIGNED, last.at, None, data, {"kind": "signature"}, last.hash)


class BadSignature(ValueError):
    """The final record is missing, malformed, not linked to the log, or not signed by the key given."""


def check_final_record(events: Sequence[Envelope], public_key: bytes | None) -> str | None:
    """Check the log's ``LogSigned`` record: its link to the game's last event always, its
    signature when ``public_key`` (raw, 32 bytes) is given. Returns a line saying what held,
    None when the log has no such record and no key was given; :class:`BadSignature` otherwise."""
    found = [e for e in events if e.type == LOG_SIGNED]
    if not found:
        if public_key is None:
            return None
        raise BadSignature("the log has no signed final record (LogSigned): the server never signed it")
    if len(found) > 1 or events[-1] is not found[0]:
        raise BadSignature("a log has one signed final record, and it is the last line")
    record, last = found[0], game_events(events)[-1]
    data = record.data
    if record.prev != last.hash or record.seq != last.seq + 1 or record.hash != chain_hash(last.hash, record.body()):
        raise BadSignature("the signed final record is not chained to the game's last event")
    if data.get("final_hash") != last.hash or data.get("game") != game_events(events)[0].data.get("id"):
        raise BadSignature("the signed final record names another game or another final hash")
    if public_key is None:
        return f"the final hash is signed by key {data.get('key_id')} (not checked: give --key or --url)"
    try:
        signature = base64.b64decode(str(data.get("signature")), validate=True)
        Ed25519PublicKey.from_public_bytes(public_key).verify(signature, signed_message(data["game"], last.hash))
    except (ValueError, InvalidSignature):
        raise BadSignature(f"the final hash's signature (key {data.get('key_id')}) does not hold with the key "
                           "given: a tampered signature, or another server's key") from None
    return f"the final hash {last.hash} is signed by key {data.get('key_id')}"
