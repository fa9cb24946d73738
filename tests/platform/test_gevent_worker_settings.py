"""The API worker's shortcuts through gunicorn's per-request work change no answer."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import gevent
import gevent.socket
from gunicorn.config import Config

from service.gevent_worker import freeze_settings
from service.worker_response import CoalescingResponse

ROOT = Path(__file__).resolve().parents[2]


def test_frozen_settings_read_as_before_and_properties_still_compute() -> None:
    cfg = Config()
    cfg.set("keepalive", 75)
    cfg.set("limit_request_line", 8190)
    before = {name: getattr(cfg, name) for name in cfg.settings}
    freeze_settings(cfg)
    assert {name: getattr(cfg, name) for name in cfg.settings} == before
    assert "keepalive" in vars(cfg)  # a plain lookup now, not Config.__getattr__
    assert cfg.keepalive == 75
    # A setting that Config also computes as a property (the string names a class) stays computed.
    assert "worker_class" not in vars(cfg)
    assert isinstance(cfg.worker_class, type)


def _patch_in_a_fresh_process(first: str) -> str:
    """What gevent prints when the worker patches after ``first`` ran (its stderr)."""
    code = f"{first}\nfrom service.gevent_worker import patch_all_but_select\npatch_all_but_select()\n"
    done = subprocess.run([sys.executable, "-W", "always", "-c", code], capture_output=True, text=True,
                          cwd=ROOT, timeout=60, check=True)
    return done.stderr


def test_the_warning_about_redis_asyncios_ssl_names_is_silenced() -> None:
    assert "MonkeyPatchWarning" not in _patch_in_a_fresh_process("import redis.asyncio.connection")


def test_any_other_module_that_took_ssl_names_early_is_still_warned_about() -> None:
    stderr = _patch_in_a_fresh_process("import redis.asyncio.connection\nfrom ssl import SSLContext")
    assert "MonkeyPatchWarning" in stderr
    assert "__main__" in stderr


def test_an_answer_larger_than_the_sockets_buffer_is_sent_whole_and_no_socket_class_is_patched() -> None:
    """The response tries one ``send``, then gevent's ``sendall`` for the rest; gevent's socket
    class (Redis's sockets are of it too) keeps its own ``sendall``."""
    gevents_own = gevent.socket.socket.sendall
    ours, theirs = socket.socketpair()
    writer, reader = gevent.socket.socket(fileno=ours.detach()), gevent.socket.socket(fileno=theirs.detach())
    request = SimpleNamespace(version=(1, 1), method="GET", should_close=lambda: False, proxy_protocol_info=None)
    response = CoalescingResponse(request, writer, Config())
    body = bytes(range(256)) * 40_000
    response.start_response("200 OK", [("Content-Length", str(len(body)))])
    got = bytearray()

    def read() -> None:
        while not got.endswith(body):
            data = reader.recv(1 << 20)
            if not data:
                return
            got.extend(data)

    task = gevent.spawn(read)
    response.write(body)
    response.close()
    task.join(timeout=30)
    head, _, sent = bytes(got).partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200 OK\r\n") and sent == body
    assert gevent.socket.socket.sendall is gevents_own
    writer.close()
    reader.close()
