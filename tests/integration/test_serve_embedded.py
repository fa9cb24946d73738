"""`intrigue serve` with no configuration: embedded Redis, data kept in its folder across restarts."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from service.datadir import die_with_parent
from service.embedded import free_port
from tests.integration.conftest import ROOT, wait_for_server
from tests.support.client import Client


def serve(data: Path, port: int) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    return subprocess.Popen([sys.executable, "-m", "service.cli", "serve", "--port", str(port), "--data", str(data)],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            preexec_fn=die_with_parent())


def wait_up(process: subprocess.Popen[bytes], base: str) -> None:
    wait_for_server(process, base, lambda: process.stdout.read().decode() if process.stdout else "exited")


def stop(process: subprocess.Popen[bytes]) -> str:
    process.terminate()
    output, _ = process.communicate(timeout=30)
    return output.decode()


def test_embedded_server_keeps_players_and_games_across_restarts(tmp_path: Path) -> None:
    data = tmp_path / "data"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    first = serve(data, port)
    try:
        wait_up(first, base)
        host = Client.register(base, "host")
        game_id = host.create_game("coup", 2)
        host.join(game_id)
    finally:
        output = stop(first)
    assert f"http://127.0.0.1:{port}/" in output  # it logs the URL it serves
    assert (data / "intrigue.aof").exists() or (data / "appendonlydir").exists()

    second = serve(data, port)
    try:
        wait_up(second, base)
        view = Client(base, token=host.token).game(game_id)
        assert view["status"] == "open" and view["players"][0]["name"] == "host"
        guest = Client.register(base, "guest")
        assert guest.join(game_id) == 1
        assert guest.game(game_id)["status"] == "active"
    finally:
        stop(second)


def test_ctrl_c_stops_everything_quietly_and_keeps_the_data(tmp_path: Path) -> None:
    """A terminal's Ctrl-C signals the whole foreground group: serve stops its workers, then Redis."""
    data = tmp_path / "data"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    process = subprocess.Popen([sys.executable, "-m", "service.cli", "serve", "--port", str(port), "--data", str(data)],
                               cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               start_new_session=True)  # a group of its own, as a shell gives a foreground job
    try:
        wait_up(process, base)
        host = Client.register(base, "host")
        game_id = host.create_game("coup", 2)
        children = json.loads((data / "intrigue.state.json").read_text())["children"]
        assert len(children) >= 2  # Redis and the workers
        os.killpg(process.pid, signal.SIGINT)
        output, _ = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    text = output.decode()
    assert process.returncode == 0, text
    assert "Traceback" not in text and "lost Redis" not in text and "ERROR" not in text, text
    for pid in map(int, children):
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
    again = serve(data, port)
    try:
        wait_up(again, base)
        assert Client(base, token=host.token).game(game_id)["status"] == "open"
    finally:
        stop(again)
