"""The data folder of ``intrigue serve``: one owner at a time, and no orphans left in it.

Two servers on one folder would run two redis-servers appending to the same file; a
``serve`` killed with SIGKILL used to leave its redis-server and workers running, and
a later rewrite of the append-only file by one of them lost finished games. So:

- ``serve`` holds an exclusive ``flock`` on ``intrigue.lock`` while it runs. The kernel
  drops it when the process dies, however it dies; children do not inherit it.
- It records what it started (``intrigue.state.json``: the Redis URL, process ids).
  Other commands attach with ``--data DIR`` by reading that record, but only while the
  lock is held, so a stale record is never trusted.
- Its children are asked by the kernel to exit when it dies (``PR_SET_PDEATHSIG``), and
  the next ``serve`` on the folder stops any recorded process still running first.
- The folder is its owner's alone: 0700, every file in it 0600 (a folder an older version
  left readable is tightened when taken), since it holds every seat's hand and the seeds.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import json
import os
import select
import signal
import subprocess
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

LOCK_FILE = "intrigue.lock"
STATE_FILE = "intrigue.state.json"
PR_SET_PDEATHSIG = 1


class FolderInUse(RuntimeError):
    """Another ``intrigue serve`` owns the folder."""


class NotServing(RuntimeError):
    """No ``intrigue serve`` is running on the folder, so there is nothing to attach to."""


class DataFolder:
    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path).resolve()
        self._lock_fd: int | None = None

    @property
    def state_path(self) -> Path:
        return self.path / STATE_FILE

    # ------------------------------------------------------------ the owner
    def acquire(self) -> None:
        """Take the folder for this process, or raise :class:`FolderInUse` naming its owner."""
        self.path.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(self.path / LOCK_FILE, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            owner = os.read(fd, 32).decode(errors="replace").strip()
            os.close(fd)
            raise FolderInUse(f"{self.path} is in use by another intrigue serve"
                              f"{f' (process {owner})' if owner else ''}; stop it first, or use another --data"
                              ) from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._lock_fd = fd
        make_private(self.path)

    def release(self) -> None:
        if self._lock_fd is not None:
            with contextlib.suppress(OSError):
                self.state_path.unlink()
            os.close(self._lock_fd)  # closing the only descriptor drops the flock
            self._lock_fd = None

    def record(self, **state: Any) -> None:
        """Write what this server runs, atomically (a reader never sees half a file)."""
        current = {**self.read_state(), **state, "pid": os.getpid()} if self._lock_fd is not None else state
        temporary = self.state_path.with_suffix(".tmp")
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(json.dumps(current))
        temporary.replace(self.state_path)

    def read_state(self) -> dict[str, Any]:
        try:
            state = json.loads(self.state_path.read_text())
        except (OSError, ValueError):
            return {}
        return state if isinstance(state, dict) else {}

    def stop_leftovers(self, timeout: float = 10.0) -> list[int]:
        """Stop the processes a previous ``serve`` on this folder recorded and that still run.

        Call it holding the lock: the previous owner is then dead, and anything it
        started that still runs is an orphan. A process id is only signalled when its
        command line is still the one recorded, so a reused id is left alone.
        """
        state = self.read_state()
        expected = {int(pid): cmd for pid, cmd in (state.get("children") or {}).items()}
        alive = [pid for pid, cmd in expected.items() if _command_line(pid) == cmd]
        for pid in alive:
            _signal(pid, signal.SIGTERM)
        give_up = time.monotonic() + timeout
        for pid in alive:
            _wait_gone(pid, max(0.0, give_up - time.monotonic()))
        for pid in alive:
            if _command_line(pid) == expected[pid]:
                _signal(pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            self.state_path.unlink()
        return alive

    # ------------------------------------------------------------ attaching
    def running_redis_url(self) -> str:
        """The Redis URL of the ``serve`` running on this folder, or :class:`NotServing`."""
        lock = self.path / LOCK_FILE
        if not lock.exists():
            raise NotServing(f"no intrigue serve has used {self.path} (there is no {LOCK_FILE} in it)")
        fd = os.open(lock, os.O_RDONLY | os.O_CLOEXEC)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
            except BlockingIOError:
                pass  # held: a serve is running
            else:
                raise NotServing(f"no intrigue serve is running on {self.path}; start one with "
                                 f"'intrigue serve --data {self.path}'")
        finally:
            os.close(fd)
        url = self.read_state().get("redis_url")
        if not isinstance(url, str):
            raise NotServing(f"the intrigue serve running on {self.path} has not started its Redis yet, "
                             "or uses REDIS_URL: set REDIS_URL")
        return url


def make_private(folder: Path) -> None:
    """``folder`` and everything in it its owner's alone: folders 0700, files 0600."""
    folder.chmod(0o700)
    for root, dirs, files in os.walk(folder):
        for names, mode in ((dirs, 0o700), (files, 0o600)):
            for name in names:
                path = os.path.join(root, name)
                if not os.path.islink(path):  # a link's target is not the folder's to change
                    with contextlib.suppress(OSError):
                        os.chmod(path, mode)


def die_with_parent() -> Callable[[], None]:
    """A ``preexec_fn`` that makes a child get SIGTERM when the process that started it dies.

    Linux's ``PR_SET_PDEATHSIG``; elsewhere it does nothing, and the next ``serve``
    stops the leftovers instead. If the parent died before the child set it, the child
    exits at once.
    """
    parent = os.getpid()
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return lambda: None

    def preexec() -> None:
        prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        if os.getppid() != parent:
            os._exit(1)

    return preexec


def command_line(pid: int) -> list[str] | None:
    """The argv of a running process (None when there is none): how a child is recorded."""
    return _command_line(pid)


def stop_children(processes: Sequence[subprocess.Popen], timeout: float = 10.0) -> None:
    """Ask child processes to stop (SIGTERM) all at once, then kill any still running after ``timeout``."""
    for process in processes:
        process.terminate()
    for process in processes:
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _signal(pid: int, signum: int) -> None:
    """Signal a process, and its whole group when it leads one (a worker and RQ's scheduler)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        if os.getpgid(pid) == pid:
            os.killpg(pid, signum)
        else:
            os.kill(pid, signum)


def _wait_gone(pid: int, timeout: float) -> None:
    """Wait up to ``timeout`` for a process that is not our child to exit (a pidfd turns
    readable when it does)."""
    try:
        fd = os.pidfd_open(pid)
    except (ProcessLookupError, AttributeError, OSError):
        return
    try:
        select.select([fd], [], [], timeout)
    finally:
        os.close(fd)


def _command_line(pid: int) -> list[str] | None:
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return None
    if not raw:  # a zombie: it has exited, only its parent has not reaped it
        return None
    return raw.rstrip(b"\0").decode(errors="replace").split("\0")
