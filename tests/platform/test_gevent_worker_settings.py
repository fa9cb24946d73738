"""The API worker's shortcuts through gunicorn's per-request work change no answer."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from gunicorn.config import Config
from gunicorn.http import message, wsgi

from service.gevent_worker import freeze_settings, remember_trusted_peers, share_base_environ

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


def _request(cfg: Config, peer: object) -> message.Request:
    request = object.__new__(message.Request)  # the check reads only these two attributes
    request.cfg = cfg
    request.peer_addr = peer
    return request


def test_a_remembered_peer_is_trusted_exactly_when_gunicorn_would_trust_it() -> None:
    cfg = Config()
    cfg.set("forwarded_allow_ips", "10.0.0.1,192.168.0.0/24")
    remember_trusted_peers(limit=2)
    remember_trusted_peers()  # twice is once
    patched = message.Request._peer_is_trusted_proxy
    gunicorns_own = patched.__wrapped__
    peers = [("10.0.0.1", 5000), ("10.0.0.2", 5000), ("192.168.0.7", 1), ("10.0.0.1", 6000),
             ("::1", 80, 0, 0), "/run/intrigue.sock", ("10.0.0.2", 7000), ("192.168.1.7", 1)]
    for _ in range(2):  # asked afresh, then remembered (and forgotten past the limit)
        for peer in peers:
            assert patched(_request(cfg, peer)) == gunicorns_own(_request(cfg, peer)), peer
    assert patched(_request(cfg, ("10.0.0.1", 1))) is True
    assert patched(_request(cfg, ("10.0.0.2", 1))) is False


def test_every_request_gets_its_own_copy_of_the_shared_base_environ() -> None:
    cfg, other = Config(), Config()
    expected = wsgi.base_environ(cfg)
    share_base_environ(cfg)
    first, second = wsgi.base_environ(cfg), wsgi.base_environ(cfg)
    assert first is not second
    assert first.keys() == expected.keys()
    assert {k: v for k, v in first.items() if k != "wsgi.errors"} == {
        k: v for k, v in expected.items() if k != "wsgi.errors"}
    first["REQUEST_METHOD"] = "POST"
    assert "REQUEST_METHOD" not in wsgi.base_environ(cfg)
    assert wsgi.base_environ(other) is not wsgi.base_environ(other)  # another config: built as gunicorn does


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


_SENDALL_CHECK = '''
from gevent import monkey
monkey.patch_all()
import socket
import gevent
from gevent import _socket3
from service.gevent_worker import send_small_writes_at_once

send_small_writes_at_once()
send_small_writes_at_once()  # twice is once
assert _socket3.socket.sendall.tries_send_first and not hasattr(_socket3.socket.sendall.__wrapped__, "tries_send_first")


class Recording(_socket3.socket):  # as gevent's TLS socket: its own send, reached through sendall
    sends = []

    def send(self, data, flags=0, timeout=None):
        Recording.sends.append(len(data))
        return super().send(data, flags)


def round_trip(writer, reader, writes):
    got = bytearray()
    expected = b"".join(writes)

    def read():
        while len(got) < len(expected):
            got.extend(reader.recv(1 << 20))

    task = gevent.spawn(read)
    for data in writes:
        assert writer.sendall(data) is None
    task.join(timeout=30)
    assert bytes(got) == expected


a, b = socket.socketpair()
# A small write, then one far larger than the socket's buffer (the rest goes through gevent's loop).
round_trip(a, b, [b"s" * 1500, bytes(range(256)) * 40_000, bytearray(b"not bytes"), memoryview(b"a view")])
c, d = socket.socketpair()
recording = Recording(fileno=c.detach())
round_trip(recording, d, [b"x" * 1500])
assert Recording.sends == [1500], Recording.sends
print("ok")
'''


def test_sendall_sends_everything_and_leaves_subclasses_to_gevent() -> None:
    done = subprocess.run([sys.executable, "-c", _SENDALL_CHECK], capture_output=True, text=True, cwd=ROOT,
                          timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr
