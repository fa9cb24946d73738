"""`intrigue serve` with no configuration: embedded Redis, data kept in its folder across restarts."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

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
