"""Every name of gunicorn's and gevent's that the API's worker overrides, replaces or reads
past their public interface is still there, shaped as the worker expects; and so are the
parts of redis-py's connections that events/lean.py drives itself.

pyproject.toml allows one major version of each of these libraries, from the release this
suite ran on: this test runs on the installed release, so it runs on every release the pins
allow once the lower bound is the release tested (docs/ARCHITECTURE.md, "What the worker
takes from gunicorn and gevent", lists each name and why it stays). When a pin moves, this
test says at once which name moved, instead of a worker that quietly loses a shortcut (or
fails at its first request).
"""

from __future__ import annotations

import inspect
import re
import tomllib
from importlib.metadata import version
from pathlib import Path

import gevent.socket
import pytest
from gevent import monkey
from gunicorn import util
from gunicorn.config import Config
from gunicorn.http import wsgi
from gunicorn.http.body import Body, ChunkedReader, LengthReader
from gunicorn.workers.base import Worker
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


@pytest.mark.parametrize("package", ["gunicorn", "gevent"])
def test_the_pins_allow_one_major_version_from_the_release_tested(package: str) -> None:
    """The worker's overrides are checked on the installed release only: the pins allow no
    release older than it, nor another major version."""
    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    spec = next(d for d in dependencies if re.match(rf"{package}\b", d))
    floor = re.search(r">=\s*([\d.]+)", spec)
    cap = re.search(r"<\s*(\d+)\b", spec)
    assert floor and cap, spec
    low = tuple(int(part) for part in floor.group(1).split("."))
    installed = tuple(int(part) for part in version(package).split(".")[:len(low)])
    assert low[0] + 1 == int(cap.group(1)), f"{spec!r} allows more than one major version"
    assert low == installed, f"{spec!r}: its lower bound is not the release tested ({version(package)})"


def test_gunicorns_response_keeps_what_the_coalescing_response_overrides() -> None:
    """CoalescingResponse subclasses gunicorn's: it spells the head in ``send_headers``, frames
    the body in ``_emit_body`` (the hook gunicorn's ``write`` calls for that), and ends it in
    ``close``; it reads the attributes gunicorn's ``__init__`` and ``start_response`` set."""
    for name in ("send_headers", "_emit_body", "close", "can_sendfile", "should_close", "start_response", "write"):
        assert callable(getattr(wsgi.Response, name, None)), f"gunicorn.http.wsgi.Response.{name} is gone"
    assert parameters(wsgi.Response.__init__) == ["self", "req", "sock", "cfg"]
    assert parameters(wsgi.Response._emit_body) == ["self", "data"]
    assert "self._emit_body(" in inspect.getsource(wsgi.Response.write)
    source = inspect.getsource(wsgi.Response.__init__)
    for attribute in ("self.sock", "self.headers_sent", "self.chunked", "self.upgrade", "self.headers",
                      "self.version", "self.status"):
        assert f"{attribute} =" in source, attribute


def test_the_short_path_builds_on_gunicorns_public_helpers() -> None:
    """service/http1.py builds the environ and runs the hooks as gunicorn's handler does."""
    assert parameters(wsgi.base_environ) == ["cfg"]
    assert parameters(util.unquote_to_wsgi_str) == ["string"]
    assert isinstance(wsgi.FileWrapper, type)
    cfg = Config()
    assert callable(cfg.pre_request) and callable(cfg.post_request)
    assert cfg.settings and all(callable(getattr(s, "get", None)) for s in cfg.settings.values())
    assert "settings" in inspect.getsource(Config.__getattr__)  # what freeze_settings shadows


def test_gunicorns_gevent_worker_still_patches_and_rewraps_its_sockets_as_ours_does() -> None:
    """Worker.patch repeats what GeventWorker.patch does after patching; a change there must be seen."""
    source = inspect.getsource(GeventWorker.patch)
    assert "monkey.patch_all()" in source and "fileno=s.sock.detach()" in source
    for name in ("load_wsgi", "handle_quit", "patch", "handle", "handle_request", "handle_error", "timeout_ctx",
                 "init_process"):
        assert callable(getattr(GeventWorker, name, None)), f"GeventWorker.{name} is gone"
    assert parameters(GeventWorker.handle_quit) == ["self", "sig", "frame"]
    assert parameters(GeventWorker.handle) == ["self", "listener", "client", "addr"]
    assert parameters(GeventWorker.handle_request) == ["self", "listener_name", "req", "sock", "addr"]
    assert parameters(GeventWorker.handle_error) == ["self", "req", "client", "addr", "exc"]


def test_gunicorns_error_writer_that_http_errors_replaces_is_there() -> None:
    """The worker's refusals go through ``util.write_error``, looked up by that name."""
    assert parameters(util.write_error) == ["sock", "status_int", "reason", "mesg"]
    assert parameters(util.write_nonblock)[:2] == ["sock", "data"]
    assert "write_error" in inspect.getsource(Worker.handle_error)


def test_gunicorns_chunk_size_parser_that_chunked_bodies_wraps_is_there() -> None:
    assert parameters(ChunkedReader.parse_chunk_size) == ["self", "unreader", "data"]
    assert "return (chunk_size, rest_chunk)" in inspect.getsource(ChunkedReader.parse_chunk_size)


def test_gunicorns_body_keeps_what_the_body_deadline_reads() -> None:
    """DeadlineBody counts what gunicorn's length-delimited body holds; close_after_answer
    marks its request to close."""
    for reader, attributes in ((LengthReader, ("self.unreader", "self.length")), (ChunkedReader, ("self.req",)),
                               (Body, ("self.reader", "self.buf"))):
        source = inspect.getsource(reader.__init__)
        assert all(f"{attribute} =" in source for attribute in attributes), reader


def test_gevents_socket_and_patch_are_there() -> None:
    """The response sends with gevent's ``send`` then ``sendall``; a stream's push with
    ``send`` and a timeout of 0 (it raises rather than wait); the worker patches all but ``select``."""
    assert parameters(gevent.socket.socket.send)[:4] == ["self", "data", "flags", "timeout"]
    assert parameters(gevent.socket.socket.sendall)[:3] == ["self", "data", "flags"]
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
