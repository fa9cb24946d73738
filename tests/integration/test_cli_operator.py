"""The ``intrigue`` command as an operator meets it: one serve per data folder, no orphans after
SIGKILL, a taken port in one line, and worker/reindex that name the Redis they use."""

from __future__ import annotations

import json
import os
import re
import select
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from service.datadir import LOCK_FILE, STATE_FILE, command_line
from service.embedded import free_port
from service.openapi import openapi_document
from tests.integration.conftest import ROOT, wait_for_server
from tests.support.client import Client


def env_without_redis() -> dict[str, str]:
    return {**{k: v for k, v in os.environ.items() if k != "REDIS_URL"}, "INTRIGUE_LOG_LEVEL": "WARNING"}


def intrigue(*args: str, env: dict[str, str] | None = None, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "service.cli", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout, env=env if env is not None else env_without_redis())


class Serve:
    """A running ``intrigue serve --data DIR`` started the way an operator starts it."""

    def __init__(self, data: Path, port: int | None = None, workers: int = 1) -> None:
        self.data, self.port = data, port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "service.cli", "serve", "--port", str(self.port), "--data", str(data),
             "--workers", str(workers)], cwd=ROOT, env=env_without_redis(),
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        wait_for_server(self.process, self.base, self.output)

    def output(self) -> str:
        return self.process.stdout.read().decode() if self.process.stdout else ""

    def children(self) -> dict[int, list[str]]:
        state = json.loads((self.data / STATE_FILE).read_text())
        return {int(pid): argv for pid, argv in state["children"].items()}

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
        self.process.communicate(timeout=30)


@pytest.fixture()
def data(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture(scope="module")
def serving(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Serve]:
    """One serve for the tests that only need one running (its folder is ``serving.data``)."""
    server = Serve(tmp_path_factory.mktemp("serving") / "data")
    yield server
    server.stop()


def group_members(pgid: int) -> list[int]:
    """Processes in group ``pgid`` (a worker leads one with the RQ scheduler it forks)."""
    members = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if os.getpgid(int(entry.name)) == pgid and command_line(int(entry.name)) is not None:
                    members.append(int(entry.name))
            except (ProcessLookupError, PermissionError):
                continue
    return members


def wait_gone(pids: list[int], timeout: float) -> list[int]:
    """Wait (on pidfds, no polling) until every process in ``pids`` has exited; those still running."""
    for pid in pids:
        try:
            fd = os.pidfd_open(pid)
        except ProcessLookupError:
            continue
        try:
            select.select([fd], [], [], timeout)
        finally:
            os.close(fd)
    return [pid for pid in pids if command_line(pid) is not None]


def test_a_second_serve_on_the_same_data_folder_refuses_in_one_line(serving: Serve) -> None:
    second = intrigue("serve", "--port", str(free_port()), "--data", str(serving.data), timeout=30)
    assert second.returncode == 2, second
    assert second.stdout == "" and second.stderr.count("\n") == 1
    assert "in use by another intrigue serve" in second.stderr and str(serving.process.pid) in second.stderr
    Client.register(serving.base, "still-serving")  # the first is untouched


def test_after_kill_9_of_serve_nothing_it_started_keeps_running(data: Path) -> None:
    first = Serve(data)
    host = Client.register(first.base, "host")
    game_id = host.create_game("coup", 2)
    host.join(game_id)
    children = first.children()
    assert all(command_line(pid) == argv for pid, argv in children.items())
    workers = [pid for pid, argv in children.items() if "worker" in argv]
    assert len(workers) == len(children) - 1 >= 1  # and one redis-server
    first.process.send_signal(signal.SIGKILL)
    first.process.communicate(timeout=10)
    assert wait_gone(list(children), timeout=20) == []
    for worker in workers:  # nor the scheduler RQ forks from each worker, in the worker's group
        assert wait_gone(group_members(worker), timeout=20) == []
    second = Serve(data)  # and the folder is usable at once, games kept
    try:
        assert Client(second.base, token=host.token).game(game_id)["players"][0]["name"] == "host"
    finally:
        second.stop()


def test_the_next_serve_stops_leftovers_recorded_in_the_folder(data: Path) -> None:
    """Children that outlived their serve anyway (not Linux, a signal lost) are stopped before
    the folder is opened; a recorded pid now running something else is left alone."""
    data.mkdir()
    # A leftover with a child, like a worker and its scheduler; the child says when it exists.
    code = "import os, signal; os.fork() or print('forked', flush=True); signal.pause()"
    leftover = subprocess.Popen([sys.executable, "-c", code, "leftover"], process_group=0, stdout=subprocess.PIPE)
    bystander = subprocess.Popen([sys.executable, "-c", "import signal; signal.pause()", "bystander"])
    try:
        assert leftover.stdout is not None and leftover.stdout.readline() == b"forked\n"
        assert len(group_members(leftover.pid)) == 2
        (data / LOCK_FILE).write_text("1\n")
        (data / STATE_FILE).write_text(json.dumps({"redis_url": "redis://127.0.0.1:1/0", "children": {
            str(leftover.pid): command_line(leftover.pid), str(bystander.pid): ["not", "what", "runs"]}}))
        server = Serve(data)
        try:
            leftover.wait(timeout=10)
            assert wait_gone(group_members(leftover.pid), timeout=10) == []
            assert bystander.poll() is None
        finally:
            server.stop()
    finally:
        for process in (leftover, bystander):
            if process.poll() is None:
                process.kill()
            process.wait(timeout=10)


def test_serve_on_a_taken_port_prints_one_line_and_leaves_nothing_behind(data: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = intrigue("serve", "--port", str(port), "--data", str(data), timeout=30)
    assert result.returncode == 2
    assert result.stdout == "" and result.stderr.count("\n") == 1, result.stderr
    assert f"cannot listen on 127.0.0.1:{port}" in result.stderr
    assert not data.exists()  # no Redis was started, no folder taken


@pytest.mark.parametrize("command", [["worker", "--burst"], ["reindex"]])
def test_worker_and_reindex_never_guess_a_redis(command: list[str]) -> None:
    result = intrigue(*command)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "--data DIR" in result.stderr and "REDIS_URL" in result.stderr


@pytest.mark.parametrize("command", [["worker", "--burst"], ["reindex"]])
def test_an_unreachable_redis_is_one_line_not_a_traceback(command: list[str]) -> None:
    result = intrigue(*command, env={**env_without_redis(), "REDIS_URL": f"redis://127.0.0.1:{free_port()}/0"})
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.count("\n") == 1 and "cannot reach Redis at redis://127.0.0.1:" in result.stderr


def test_attaching_to_a_folder_no_serve_runs_on_says_so(data: Path) -> None:
    result = intrigue("reindex", "--data", str(data))
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and "no intrigue serve" in result.stderr


def test_worker_and_reindex_attach_to_the_serve_running_on_a_folder(serving: Serve) -> None:
    host = Client.register(serving.base, "host")
    host.create_game("coup", 3)
    reindex = intrigue("reindex", "--data", str(serving.data))
    assert reindex.returncode == 0, reindex.stderr
    assert re.search(r"rebuilt the indexes of [1-9][0-9]* game\(s\)", reindex.stdout), reindex.stdout
    worker = intrigue("worker", "--data", str(serving.data), "--burst")
    assert worker.returncode == 0, worker.stderr


def test_version_and_the_defaults_in_serve_help() -> None:
    version = intrigue("--version")
    assert version.returncode == 0 and version.stdout.strip() == "intrigue 1.0.0"
    # The API document names the same version as the command line.
    assert openapi_document()["info"]["version"] == "1.0.0"
    help_text = " ".join(intrigue("serve", "--help").stdout.split())
    for default in ("(default: 127.0.0.1)", "(default: 8000)", "(default: intrigue-data)", "(default: 1)"):
        assert default in help_text, default
    assert "--processes PROCESSES" in help_text  # API processes; a watcher holds no thread, so no --threads
