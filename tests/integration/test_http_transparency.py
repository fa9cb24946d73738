"""The server's key and the transparency log over HTTP, against ``intrigue serve`` and real Redis.

Finished Coup games become leaves; the test checks what the server says with nothing but
the published key, RFC 9162's verification algorithms and the games' own logs: the
checkpoint's signature, each game's inclusion, and that a later checkpoint extends an
earlier one. Bad queries get problem+json and change nothing.
"""

from __future__ import annotations

import base64
import json
import stat
from pathlib import Path
from typing import Any

import pytest
import requests
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.signing import NoteSigner, parse_private_key, public_bytes, verify_cosignature, verify_note
from engine.transparency import leaf_bytes
from events import merkle
from events.store import connect
from service.cli import main
from service.embedded import EmbeddedRedis
from tests.integration.test_api_reference import finish
from tests.support.client import Client
from tests.support.polling import wait_until

ORIGIN = "intrigue/transparency"


def finished_game(server: str, tag: str) -> str:
    """A two-seat Coup played to its end; its id once its leaf is in the log."""
    players = [Client.register(server, f"{tag}{i}") for i in range(2)]
    game_id = players[0].create_game("coup", 2)
    for player in players:
        player.join(game_id)
    finish(server, game_id, players)
    wait_until(lambda: requests.get(f"{server}/v1/transparency/inclusion", params={"game": game_id, "size": 2**40},
                                    timeout=10).status_code == 422, f"game {game_id}'s leaf")
    return game_id


def public_key(server: str) -> bytes:
    keys = requests.get(f"{server}/v1/keys", timeout=10).json()["keys"]
    assert len(keys) == 1
    return base64.b64decode(keys[0]["public_key"])


def checkpoint(server: str) -> tuple[int, bytes]:
    """The log's size and root, after checking the checkpoint's signature with the published key."""
    response = requests.get(f"{server}/v1/transparency/checkpoint", timeout=10)
    assert response.status_code == 200 and response.headers["Content-Type"].startswith("text/plain")
    text = verify_note(response.text, ORIGIN, public_key(server))
    origin, size, root = text.splitlines()
    assert origin == ORIGIN
    return int(size), base64.b64decode(root)


def inclusion(server: str, game_id: str, size: int) -> dict[str, Any]:
    response = requests.get(f"{server}/v1/transparency/inclusion", params={"game": game_id, "size": size}, timeout=10)
    assert response.status_code == 200, response.text
    return response.json()


def test_the_key_is_listed_as_the_issue_shapes_it(server: str) -> None:
    body = requests.get(f"{server}/v1/keys", timeout=10).json()
    assert list(body) == ["keys"]
    (key,) = body["keys"]
    assert set(key) == {"id", "alg", "public_key"} and key["alg"] == "Ed25519"
    assert len(base64.b64decode(key["public_key"], validate=True)) == 32
    assert key["id"].startswith(ORIGIN + "+")


def test_a_finished_game_is_proved_in_the_signed_log_and_the_log_only_grows(server: str) -> None:
    first_game = finished_game(server, "tlogA")
    size, root = checkpoint(server)
    proof = inclusion(server, first_game, size)
    assert set(proof) == {"index", "size", "leaf", "hashes"} and proof["size"] == size
    # The leaf says what the game's own log and view say.
    lines = requests.get(f"{server}/v1/games/{first_game}/log", timeout=10).text.splitlines()
    view = requests.get(f"{server}/v1/games/{first_game}", timeout=10).json()
    last = json.loads(lines[-2])
    assert json.loads(lines[-1])["type"] == "LogSigned"  # the signed final record follows the game's last event
    assert proof["leaf"] == {"game": first_game, "final_hash": last["hash"], "seed_hash": view["seed_hash"],
                             "ended_at": last["at"]}
    hashes = [base64.b64decode(h) for h in proof["hashes"]]
    leaf = merkle.leaf_hash(leaf_bytes(proof["leaf"]))
    assert merkle.verify_inclusion(leaf, proof["index"], size, hashes, root)
    assert not merkle.verify_inclusion(merkle.leaf_hash(leaf_bytes({**proof["leaf"], "final_hash": "0" * 64})),
                                       proof["index"], size, hashes, root)

    second_game = finished_game(server, "tlogB")
    later_size, later_root = checkpoint(server)
    assert later_size > size
    both = requests.get(f"{server}/v1/transparency/consistency", params={"from": size, "to": later_size},
                        timeout=10).json()
    assert list(both) == ["hashes"]
    path = [base64.b64decode(h) for h in both["hashes"]]
    assert merkle.verify_consistency(size, later_size, root, later_root, path)
    assert not merkle.verify_consistency(size, later_size, merkle.leaf_hash(b"another history"), later_root, path)
    # The first game is still where it was, now under the later root; the second is after it.
    again = inclusion(server, first_game, later_size)
    assert again["index"] == proof["index"]
    assert merkle.verify_inclusion(leaf, again["index"], later_size, [base64.b64decode(h) for h in again["hashes"]],
                                   later_root)
    assert inclusion(server, second_game, later_size)["index"] > proof["index"]


@pytest.mark.parametrize(("path", "params", "status", "code"), [
    ("inclusion", {"size": 1}, 400, "bad_query"),
    ("inclusion", {"game": "nosuchgame"}, 400, "bad_query"),
    ("inclusion", {"game": "nosuchgame", "size": "two"}, 400, "bad_query"),
    ("inclusion", {"game": "nosuchgame", "size": 1}, 404, "not_in_log"),
    ("consistency", {"from": 1}, 400, "bad_query"),
    ("consistency", {"from": "-1", "to": 1}, 400, "bad_query"),
    ("consistency", {"from": 0, "to": 1}, 422, "bad_range"),
    ("consistency", {"from": 3, "to": 2}, 422, "bad_range"),
    ("consistency", {"from": 1, "to": 2**40}, 422, "beyond_log"),
])
def test_bad_queries_get_a_problem(server: str, path: str, params: dict[str, Any], status: int, code: str) -> None:
    response = requests.get(f"{server}/v1/transparency/{path}", params=params, timeout=10)
    assert response.status_code == status, response.text
    assert response.headers["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == code


def test_a_size_that_does_not_hold_the_game_is_refused(server: str) -> None:
    game_id = finished_game(server, "tlogC")
    size, _ = checkpoint(server)
    index = inclusion(server, game_id, size)["index"]
    for too_small in (0, index):
        response = requests.get(f"{server}/v1/transparency/inclusion", params={"game": game_id, "size": too_small},
                                timeout=10)
        assert response.status_code == 422 and response.json()["code"] == "beyond_log"
    assert checkpoint(server)[0] == size  # asking changed nothing


def test_intrigue_verify_proves_a_game_against_a_checkpoint_file(server: str, tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    game_id = finished_game(server, "tlogD")
    log = tmp_path / "game.ndjson"
    log.write_bytes(requests.get(f"{server}/v1/games/{game_id}/log", timeout=10).content)
    note = requests.get(f"{server}/v1/transparency/checkpoint", timeout=10).text
    checkpoint_file = tmp_path / "checkpoint"
    checkpoint_file.write_text(note, encoding="utf-8")
    key = base64.b64encode(public_key(server)).decode()

    def verify(*extra: str) -> int:
        return main(["verify", str(log), "--checkpoint", str(checkpoint_file), *extra])

    assert verify("--url", server) == 0
    assert f"game {game_id} is leaf" in capsys.readouterr().out
    assert verify("--url", server, "--key", key) == 0
    # Another key, a changed size, or another game's log: not proved.
    other = base64.b64encode(public_bytes(Ed25519PrivateKey.generate().public_key())).decode()
    assert verify("--url", server, "--key", other) == 1
    origin, size, root, *rest = note.split("\n")
    checkpoint_file.write_text("\n".join([origin, str(int(size) + 1), root, *rest]), encoding="utf-8")
    assert verify("--url", server) == 1
    checkpoint_file.write_text(note, encoding="utf-8")
    lines = log.read_text().splitlines()
    forged = json.loads(lines[-1])
    forged["hash"] = "0" * 64
    log.write_text("\n".join([*lines[:-1], json.dumps(forged)]) + "\n")
    assert main(["verify", str(log)]) == 1  # the chain itself no longer holds
    log.write_text("\n".join(lines) + "\n")
    # Nothing to check the signature or fetch the proof with: unusable.
    assert verify() == 2
    assert verify("--key", key) == 2
    capsys.readouterr()


def test_a_witness_cosigns_honest_growth_and_reports_a_fork(server: str, redis_server: EmbeddedRedis, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    state = tmp_path / "witness.json"
    finished_game(server, "tlogE")
    assert main(["witness", "--url", server, "--state", str(state)]) == 0
    assert stat.S_IMODE(state.stat().st_mode) == 0o600
    finished_game(server, "tlogF")
    assert main(["witness", "--url", server, "--state", str(state)]) == 0  # grown, consistent: cosigned again
    seen = json.loads(state.read_text())
    note = requests.get(f"{server}/v1/transparency/checkpoint", timeout=10).text
    cosigned = [line for line in note.splitlines() if line.startswith(f"\u2014 {seen['name']} ")]
    if note.split("\n")[1] == seen["checkpoint"].split("\n")[1]:  # no game ended meanwhile on the shared server
        assert len(cosigned) == 1
        text = note.split("\n\n")[0] + "\n"
        witness_key = parse_private_key(seen["private_key"]).public_key()
        assert verify_cosignature(cosigned[0], text, public_bytes(witness_key)) == seen["name"]
    # A cosignature that does not match, or of a checkpoint the server did not sign, is refused.
    bad = requests.post(f"{server}/v1/transparency/cosignatures", timeout=10, json={
        "checkpoint": note.replace("\n\n", "\n\n\n"), "cosignature": "\u2014 w AAAA",
        "public_key": base64.b64encode(bytes(32)).decode()})
    assert bad.status_code == 422 and bad.json()["code"] == "bad_cosignature"
    # The operator signs another root for the size the witness saw: a fork, both checkpoints printed.
    log_key = parse_private_key(connect(redis_server.url).get("intrigue:signing-key") or b"")
    _, size, _ = seen["checkpoint"].split("\n")[:3]
    forged = NoteSigner(log_key, ORIGIN).sign(f"{ORIGIN}\n{size}\n{base64.b64encode(bytes(32)).decode()}\n")
    state.write_text(json.dumps({**seen, "checkpoint": forged}))
    capsys.readouterr()
    assert main(["witness", "--url", server, "--state", str(state)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("FORK: ") and forged in err
    assert json.loads(state.read_text())["checkpoint"] == forged  # the fork is not forgotten
