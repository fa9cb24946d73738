"""`intrigue serve` with no configuration: embedded Redis, data kept in its folder across restarts."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import redis

from service.datadir import die_with_parent
from service.embedded import EmbeddedRedis, free_port
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


def test_serve_keeps_its_folder_and_its_redis_to_its_owner(tmp_path: Path) -> None:
    """Issue 47, item 6: on a shared host no other user can read or write a serve's games.

    The data folder is 0700 and every file in it 0600 (an older, readable folder is tightened
    when served), and the Redis listens on a Unix socket inside the folder, on no TCP port:
    the URL the folder records for attaching commands is that socket's.
    """
    data = tmp_path / "data"
    data.mkdir(mode=0o755)
    (data / "left-by-an-older-version.aof").write_text("x")
    os.chmod(data / "left-by-an-older-version.aof", 0o644)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    process = serve(data, port)
    try:
        wait_up(process, base)
        host = Client.register(base, "owner")
        host.join(host.create_game("coup", 2))
        state = json.loads((data / "intrigue.state.json").read_text())
        url = state["redis_url"]
        assert url.startswith("unix://") and url.split("?")[0].endswith(str(data.resolve() / "redis.sock"))
        redis_pid = next(int(pid) for pid, argv in state["children"].items() if "redis-server" in argv[0])
        listening = Path("/proc/net/tcp").read_text() + Path("/proc/net/tcp6").read_text()
        inodes = {os.readlink(f"/proc/{redis_pid}/fd/{fd}") for fd in os.listdir(f"/proc/{redis_pid}/fd")}
        tcp = [line for line in listening.splitlines()[1:]
               if line.split()[3] == "0A" and f"socket:[{line.split()[9]}]" in inodes]
        assert tcp == [], "the embedded Redis listens on TCP"
        modes = {path.relative_to(data): path.lstat().st_mode & 0o777 for path in data.rglob("*")}
        assert data.stat().st_mode & 0o777 == 0o700
        assert {str(path) for path in modes} >= {"intrigue.lock", "intrigue.state.json", "redis.sock", "redis.log",
                                                  "left-by-an-older-version.aof"}
        loose = {str(path): oct(mode) for path, mode in modes.items()
                 if mode != (0o700 if (data / path).is_dir() else 0o600)}
        assert loose == {}
    finally:
        stop(process)


def test_a_private_redis_whose_socket_path_is_too_long_takes_a_password(tmp_path: Path) -> None:
    """Past the kernel's socket path length, the private Redis is on loopback TCP with a random
    password no command line shows: a client without it is refused."""
    folder = tmp_path / ("long" * 30)
    with EmbeddedRedis(folder, persist=False, private=True) as server:
        assert server.socket_path is None and server.password
        assert redis.Redis.from_url(server.url).ping()
        with pytest.raises(redis.AuthenticationError):
            redis.Redis(port=server.port).ping()
        assert server.process is not None
        assert server.password not in Path(f"/proc/{server.process.pid}/cmdline").read_text()
        assert folder.stat().st_mode & 0o777 == 0o700
        assert (folder / "redis.conf").stat().st_mode & 0o777 == 0o600
