"""``intrigue verify``: exit 2 and one line for input that is no game log, exit 1 for a tampered one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.core import Engine
from events.envelope import Envelope, seal
from service.cli import main
from tests.platform.test_engine import play_to_end, started


def verify(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["verify", str(path)])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture()
def genuine(engine: Engine, tmp_path: Path) -> list[str]:
    game_id, players = started(engine)
    play_to_end(engine, game_id, players)
    return [event.to_json() for event in engine.store.read(game_id)]


@pytest.mark.parametrize(("content", "says"), [
    (b"", "no events"),
    (b"\n  \n", "no events"),
    (bytes(range(256)) * 4, "not UTF-8"),
    (b"\x00\x01\x02binary", "not JSON"),
    (b'{"seq": 1, "type": "GameCreated"\n', "not JSON"),
    (b"[1, 2, 3]\n", "not an event"),
    (b'"just a string"\n', "not an event"),
    (b'{"hello": "world"}\n', "'seq' is missing"),
    (b'{"seq": "1", "type": "T", "at": "", "actor": null, "data": {}, "cause": {}, "prev": "", "hash": ""}\n',
     "'seq' is of the wrong type"),
    (b'{"seq": 1, "type": "T", "at": "", "actor": true, "data": {}, "cause": {}, "prev": "", "hash": ""}\n',
     "'actor' is of the wrong type"),
    ("caf\u00e9".encode("latin-1"), "not UTF-8"),
])
def test_input_that_is_no_game_log_exits_2_with_one_line(tmp_path: Path, capsys, content: bytes, says: str) -> None:
    path = tmp_path / "input"
    path.write_bytes(content)
    code, out, err = verify(path, capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and says in err, err


def test_a_missing_file_or_a_folder_exits_2(tmp_path: Path, capsys) -> None:
    for path in (tmp_path / "absent.ndjson", tmp_path):
        code, _, err = verify(path, capsys)
        assert code == 2 and err.count("\n") == 1 and "cannot read" in err


def test_a_genuine_log_exits_0_and_a_tampered_one_exits_1(genuine: list[str], tmp_path: Path, capsys) -> None:
    path = tmp_path / "game.ndjson"
    path.write_text("\n".join(genuine) + "\n")
    assert verify(path, capsys)[0] == 0
    edited = [json.loads(line) for line in genuine]
    edited[-3]["data"] = {"garbage": [1, 2]}
    path.write_text("\n".join(json.dumps(e) for e in edited) + "\n")
    code, _, err = verify(path, capsys)
    assert code == 1 and err.startswith("INVALID: event") and err.count("\n") == 1


def test_a_log_whose_game_has_not_ended_is_not_unusable_input(genuine: list[str], tmp_path: Path, capsys) -> None:
    path = tmp_path / "game.ndjson"
    path.write_text("\n".join(genuine[:3]) + "\n")
    code, _, err = verify(path, capsys)
    assert code == 1 and "not ended" in err


def test_a_resealed_log_the_rules_cannot_read_exits_1_not_a_traceback(genuine: list[str], tmp_path: Path,
                                                                       capsys) -> None:
    """A forger who recomputes the chain after garbling a step's data gets "tampered", not a crash."""
    events = [Envelope.from_json(line) for line in genuine]
    index = next(i for i, e in enumerate(events) if e.cause.get("kind") == "player")
    resealed, prev = list(events[:index]), events[index - 1].hash
    for event in events[index:]:
        data = {"garbage": None} if event is events[index] else event.data
        resealed.append(seal(event.seq, event.type, event.at, event.actor, data, event.cause, prev))
        prev = resealed[-1].hash
    path = tmp_path / "game.ndjson"
    path.write_text("".join(e.to_json() + "\n" for e in resealed))
    code, _, err = verify(path, capsys)
    assert code == 1 and err.startswith(f"INVALID: event {events[index].seq}:") and err.count("\n") == 1
