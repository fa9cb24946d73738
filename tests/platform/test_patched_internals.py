"""The private names of gunicorn and gevent that service/gevent_worker.py and service/http_errors.py
patch are still there, shaped as the patches expect, and so are the parts of redis-py's
connections that events/lean.py drives itself.

Those patches replace or wrap internals no release promises to keep. pyproject.toml caps
the three libraries below their next major version; when the cap is raised, this test says
at once which patched name moved, instead of a worker that quietly loses a patch (or
fails at its first request).
"""

from __future__ import annotations

import inspect
import re
import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest
from gevent import _socket3, monkey
from gunicorn import util
from gunicorn.config import Config
from gunicorn.http import message, wsgi
from gunicorn.workers.ggevent import GeventWorker

ROOT = Path(__file__).resolve().parents[2]


def parameters(function: object) -> list[str]:
    return list(inspect.signature(function).parameters)  # type: ignore[arg-type]


@pytest.mark.parametrize("package", ["gunicorn", "gevent", "redis"])
def test_the_installed_release_is_within_the_capped_major_version(package: str) -> None:
    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    spec = next(d for d in dependencies if re.match(rf"{package}\b", d))
    cap = re.search(r"<\s*(\d+)\b", spec)
    assert cap, f"{package} has no upper bound on its major version in pyproject.toml: {spec!r}"
    assert int(version(package).split(".")[0]) < int(cap.group(1))


def test_gunicorns_response_keeps_what_the_coalescing_response_overrides() -> None:
    """CoalescingResponse swaps ``sock`` around the head's and the body's writes."""
    for name in ("send_headers", "_emit_body", "close", "can_sendfile"):
        assert callable(getattr(wsgi.Response, name, None)), f"gunicorn.http.wsgi.Response.{name} is gone"
    assert parameters(wsgi.Response.__init__) == ["self", "req", "sock", "cfg"]
    assert parameters(wsgi.Response._emit_body) == ["self", "data"]
    source = inspect.getsource(wsgi.Response)
    assert "self.sock = sock" in source and "self.headers_sent" in source
    # The worker swaps the module's Response: ``create`` must build it by that global name.
    assert "Response" in wsgi.create.__code__.co_names


def test_gunicorns_per_request_helpers_that_are_memoised_are_there() -> None:
    # Another test in this process may have installed the worker's memo: inspect gunicorn's own.
    assert parameters(getattr(wsgi.base_environ, "__wrapped__", wsgi.base_environ)) == ["cfg"]
    assert parameters(message.Request._peer_is_trusted_proxy) == ["self"]
    cfg = Config()
    assert cfg.settings and all(callable(getattr(s, "get", None)) for s in cfg.settings.values())


def test_gunicorns_gevent_worker_still_patches_and_rewraps_its_sockets_as_ours_does() -> None:
    """Worker.patch repeats what GeventWorker.patch does after patching; a change there must be seen."""
    source = inspect.getsource(GeventWorker.patch)
    assert "monkey.patch_all()" in source and "fileno=s.sock.detach()" in source
    for name in ("load_wsgi", "handle_quit", "patch"):
        assert callable(getattr(GeventWorker, name, None)), f"GeventWorker.{name} is gone"
    assert parameters(GeventWorker.handle_quit) == ["self", "sig", "frame"]


def test_gunicorns_error_writer_that_http_errors_replaces_is_there() -> None:
    assert parameters(util.write_error) == ["sock", "status_int", "reason", "mesg"]
    assert parameters(util.write_nonblock)[:2] == ["sock", "data"]


def test_gevents_socket_and_patch_are_there() -> None:
    assert callable(_socket3.socket.sendall) and parameters(_socket3.socket.sendall)[:3] == ["self", "data", "flags"]
    assert "_sock" in getattr(_socket3.socket, "__slots__", ()) or "_sock" in inspect.getsource(_socket3.socket)
    assert "select" in parameters(monkey.patch_all)
    assert issubclass(monkey.MonkeyPatchWarning, Warning)


def test_redis_connections_keep_what_lean_scripts_drive() -> None:
    """events/lean.py makes connections from a pool's class and arguments, and sends and reads
    a script call on one itself."""
    import redis

    pool = redis.ConnectionPool()
    assert issubclass(pool.connection_class, redis.Connection) and isinstance(pool.connection_kwargs, dict)
    assert parameters(redis.Connection.send_command)[:2] == ["self", "args"]  # send_command(*args)
    reading = inspect.signature(redis.Connection.read_response).parameters.values()
    assert all(p.default is not p.empty for p in list(reading)[1:])  # read_response() with no argument
