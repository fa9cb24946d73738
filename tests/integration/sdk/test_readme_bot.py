"""The SDK README's bot, run as written: a whole game of Coup at a live server.

The code is read out of clients/python/README.md, so the README and what is tested can
never drift apart. Seat 2 runs the block as a program (its ``__main__`` part included,
configured by environment variables as the README says); seats 0 and 1 are the same
``RandomBot`` class in threads of this process.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from intrigue_client import Client

README = Path(__file__).resolve().parents[3] / "clients" / "python" / "README.md"


def readme_bot_code() -> str:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.DOTALL)
    bots = [block for block in blocks if "(Bot):" in block and "__main__" in block]
    assert len(bots) == 1, "the README has one bot program"
    return bots[0]


def test_the_readme_bot_is_about_twenty_lines() -> None:
    code = readme_bot_code()
    assert len(code.strip().splitlines()) <= 22
    compile(code, "README.md", "exec")


def test_the_readme_bot_plays_a_whole_game_of_coup(server: str, tmp_path: Path) -> None:
    code = readme_bot_code()
    namespace: dict[str, Any] = {"__name__": "readme_bot"}
    exec(compile(code, "README.md", "exec"), namespace)  # noqa: S102 (the README's own code, on purpose)
    random_bot = namespace["RandomBot"]

    host, second, third = (Client.register(server, name) for name in ("readme-a", "readme-b", "readme-c"))
    game_id = host.create_game("coup", 3)["id"]
    finals: dict[int, dict[str, Any]] = {}
    errors: list[BaseException] = []

    def seat(client: Client, index: int) -> None:
        try:
            finals[index] = random_bot(client).play(game_id)
        except BaseException as err:  # reported below
            errors.append(err)

    assert [client.join(game_id)["seat"] for client in (host, second)] == [0, 1]
    threads = [threading.Thread(target=seat, args=(client, index), daemon=True)
               for index, client in enumerate((host, second))]
    for thread in threads:
        thread.start()
    # The program joins last, which starts the game; the two threads are already following it.
    env = {**os.environ, "INTRIGUE_URL": server, "INTRIGUE_TOKEN": third.token or "", "INTRIGUE_GAME": game_id}
    program = tmp_path / "random_bot.py"
    program.write_text(code)
    done = subprocess.run([sys.executable, str(program)], env=env, capture_output=True, text=True, timeout=120)
    for thread in threads:
        thread.join(timeout=60)
    assert done.returncode == 0, done.stderr
    assert not errors, errors
    assert set(finals) == {0, 1}

    final = host.game(game_id)
    assert final["status"] == "finished" and len(final["winners"] or []) == 1
    assert f"winners: {final['winners']}" in done.stdout
    assert all(view["status"] == "finished" and view["version"] == final["version"] for view in finals.values())
    # Every seat played its share: each posted at least one action of its own.
    log = host.log(game_id)
    actors = {event["actor"] for event in log if event["type"] not in ("GameCreated", "PlayerJoined")}
    assert {0, 1, 2} <= actors
    # The finished game's stream gives every event once and then ends, with or without the view.
    feed = [event["seq"] for event in host.events(game_id, after=0)["events"]]
    assert [event.data["seq"] for event in host.stream(game_id, view=False)] == feed
    replayed = list(host.stream(game_id))
    assert replayed[-1].is_view and replayed[-1].data["status"] == "finished"
    transcript = host.transcript(game_id)
    assert "readme-c" in transcript or "seat 2" in transcript.lower()
    ndjson = tmp_path / "game.ndjson"
    ndjson.write_bytes(host.log_ndjson(game_id))
    verified = subprocess.run([sys.executable, "-m", "service.cli", "verify", str(ndjson)], capture_output=True,
                              text=True, timeout=60)
    assert verified.returncode == 0, verified.stdout + verified.stderr
