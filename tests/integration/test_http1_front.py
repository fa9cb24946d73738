"""Plain HTTP/1.1 requests served on the short path (heads parsed by llhttp, through httptools)
answer exactly as gunicorn answers them, and whatever either parser refuses is gunicorn's.

The same raw bytes go to two servers of the same echo app under the API's worker, one with
the short path (the default) and one without (``INTRIGUE_PLAIN_REQUESTS=0``); every answer
must be the same but for its ``Date``, and the short path must have served what is plain
and left the rest to gunicorn.
"""

from __future__ import annotations

import json
import logging
import os
import socket
from collections.abc import Iterator
from contextlib import AbstractContextManager, ExitStack, nullcontext

import gevent
import gevent.event
import pytest
from gunicorn.config import Config

from engine.settings import Limits
from service.http1 import _FRAMING, LateBody, gunicorn_only, parse_head, replaying, serve_plain
from service.http_errors import BodyTimeout, close_after_answer
from tests.integration.conftest import ROOT, gunicorn_serving

# --------------------------------------------------------------------------- the head's parse

PLAIN = (b"POST /v1/games/abc/actions?x=1 HTTP/1.1\r\nHost: 127.0.0.1:8000\r\nContent-Type: application/json\r\n"
         b"Authorization: Bearer t0ken\r\nContent-Length: 17\r\nX-Forwarded-For: 10.0.0.1\r\nAccept:  */* ")


def test_a_plain_head_gives_what_gunicorn_puts_in_the_environ() -> None:
    parsed = parse_head(PLAIN, 8190, 8190, 100, gunicorn_only(Config()))
    assert parsed is not None
    method, target, fields, entries, length, close = parsed
    assert (method, target, length, close) == ("POST", "/v1/games/abc/actions?x=1", 17, False)
    assert entries == {"HTTP_HOST": "127.0.0.1:8000", "CONTENT_TYPE": "application/json",
                       "HTTP_AUTHORIZATION": "Bearer t0ken", "CONTENT_LENGTH": "17",
                       "HTTP_X_FORWARDED_FOR": "10.0.0.1", "HTTP_ACCEPT": "*/*"}
    assert fields[0] == ("HOST", "127.0.0.1:8000")


@pytest.mark.parametrize("head", [
    b"POST /a HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked",
    b"POST /a HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 2",
    b"GET /a HTTP/1.1\r\nHost: h\r\nUpgrade: h2c\r\nConnection: Upgrade",
    b"GET /a HTTP/1.1\r\nHost: h\r\nX-Forwarded-Proto: https",
    b"GET /a HTTP/1.1\r\nHost: h\r\nX_Forwarded_For: 1.2.3.4",
    b"GET /a HTTP/1.1\r\nHost: h\r\nAccept: a\r\nAccept: b",
    b"POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\nContent-Length: 2",
    b"POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 02",
    b"POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: -1",
    b"POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 1e3",
    b"GET /a HTTP/1.1\r\nHost: h\r\nX-Name: caf\xc3\xa9",
    b"GET /a HTTP/1.1\r\nHost: h\r\nX-Long: a\r\n b",
    b"GET /a HTTP/1.1\r\nHost: h\r\nX-Nul: a\x00b",
    b"GET /a HTTP/1.0\r\nHost: h",
    b"HEAD /a HTTP/1.1\r\nHost: h",
    b"GET http://h/a HTTP/1.1\r\nHost: h",
    b"GET /a#b HTTP/1.1\r\nHost: h",
    b"GET /a b HTTP/1.1\r\nHost: h",
    b"GET /a HTTP/1.1",
    b"GET /a HTTP/1.1\r\nHost: h\r\nHost: h",
    b"GET /a HTTP/1.1\r\nHost: h\r\nConnection: keep-alive, Upgrade",
    b"GET /a HTTP/1.1\r\nHost: h\r\nBad Name: x",
    b"GET /a HTTP/1.1\r\nHost: h\r\n: x",
    b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: h",
    b"GET /a HTTP/1.1\r\nHost: h\r\nX-Big: " + b"a" * 9000,
    b"GET /a HTTP/1.1\r\nHost: h" + b"\r\nX-F: 1" * 100,
])
def test_anything_but_a_plain_head_is_left_to_gunicorn(head: bytes) -> None:
    assert parse_head(head, 8190, 8190, 100, gunicorn_only(Config())) is None


def test_a_limit_of_zero_is_no_limit_as_gunicorn_reads_it() -> None:
    head = b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: h\r\nX-Big: " + b"b" * 9000
    assert parse_head(head, 0, 0, 100) is not None
    assert parse_head(head, 8190, 0, 100) is None and parse_head(head, 0, 8190, 100) is None


def test_the_secure_scheme_fields_are_gunicorns_as_its_settings_name_them() -> None:
    config = Config()
    config.set("secure_scheme_headers", {"X-Scheme": "https"})
    assert gunicorn_only(config) == _FRAMING | {b"X-SCHEME"}
    assert parse_head(b"GET /a HTTP/1.1\r\nHost: h\r\nX-Scheme: https", 8190, 8190, 100, gunicorn_only(config)) is None
    assert parse_head(b"GET /a HTTP/1.1\r\nHost: h\r\nX-Forwarded-Proto: https", 8190, 8190, 100,
                      gunicorn_only(config)) is not None


#: Heads that smuggle or frame ambiguously: llhttp refuses each (or the policy does), so
#: gunicorn reads them and refuses them itself.
SMUGGLED = {
    "a length and a transfer coding": b"POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nTransfer-Encoding: chunked",
    "a transfer coding and a length": b"POST /a HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nContent-Length: 3",
    "two lengths that differ": b"POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nContent-Length: 4",
    "a length with a sign": b"POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: +3",
    "a length and a list": b"POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 3, 3",
    "a space before the colon": b"POST /a HTTP/1.1\r\nHost: h\r\nContent-Length : 3",
    "a folded line (obs-fold)": b"GET /a HTTP/1.1\r\nHost: h\r\nX-A: a\r\n\tb",
    "a bare CR in a value": b"GET /a HTTP/1.1\r\nHost: h\r\nX-A: a\rb",
    "a bare LF in a value": b"GET /a HTTP/1.1\r\nHost: h\r\nX-A: a\nContent-Length: 3",
    "a NUL in a value": b"GET /a HTTP/1.1\r\nHost: h\r\nX-A: a\x00",
    "a transfer coding that is not chunked last": b"POST /a HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked, gzip",
    "a method in lower case": b"get /a HTTP/1.1\r\nHost: h",
    "a byte over 127 in the target": b"GET /\xff HTTP/1.1\r\nHost: h",
    "two spaces in the request line": b"GET  /a HTTP/1.1\r\nHost: h",
}


@pytest.mark.parametrize("case", list(SMUGGLED))
def test_a_head_that_smuggles_is_refused_by_llhttp_and_left_to_gunicorn(case: str) -> None:
    assert parse_head(SMUGGLED[case], 8190, 8190, 100, gunicorn_only(Config())) is None


# --------------------------------------------------------------------------- the connection loop


class ScriptedSocket:
    """A client socket that gives its reads in the pieces scripted, then the end."""

    def __init__(self, pieces: list[bytes]) -> None:
        self.pieces = list(pieces)
        self.sent = b""

    def recv(self, size: int) -> bytes:
        return self.pieces.pop(0) if self.pieces else b""

    def sendall(self, data: bytes) -> None:
        self.sent += data

    def send(self, data: bytes) -> int:
        self.sent += data
        return len(data)


class EchoWorker:
    """What :func:`serve_plain` uses of gunicorn's worker."""

    def __init__(self) -> None:
        self.cfg = Config()
        self.limits = Limits()
        self.nr, self.max_requests, self.alive = 0, 10**9, True
        self.answered: list[dict] = []
        self.log = logging.getLogger("echo-worker")

    def timeout_ctx(self) -> AbstractContextManager[None]:
        return nullcontext()

    def wsgi(self, environ: dict, start_response) -> list[bytes]:
        self.answered.append({"path": environ["PATH_INFO"], "body": environ["wsgi.input"].read()})
        start_response("200 OK", [("Content-Length", "2")])
        return [b"ok"]


@pytest.mark.parametrize(("pieces", "served", "left"), [
    # two pipelined requests, then the end of the connection
    ([b"POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\nhiGET /b HTTP/1.1\r\nHost: h\r\n\r\n"],
     [("/a", b"hi"), ("/b", b"")], None),
    # a head in three pieces, the blank line split between two of them
    ([b"GET /a HTTP/1.1\r\nHo", b"st: h\r\n\r", b"\n"], [("/a", b"")], None),
    # a body not yet arrived whole: read as the app reads it, then the next request
    ([b"POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhi", b"ya", b"!GET /b HTTP/1.1\r\nHost: h\r\n\r\n"],
     [("/a", b"hiya!"), ("/b", b"")], None),
    # a head alone, then its body and the next request in one piece
    ([b"POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\n", b"okGET /b HTTP/1.1\r\nHost: h\r\n\r\n"],
     [("/a", b"ok"), ("/b", b"")], None),
    # a body the client never ends: the app reads what came, and the connection closes
    ([b"POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhi"], [("/a", b"hi")], None),
    # a plain request, then one that is not: the second goes to gunicorn whole
    ([b"GET /a HTTP/1.1\r\nHost: h\r\n\r\nPOST /b HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"],
     [("/a", b"")], b"POST /b HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"),
    # a line ended by a bare LF: gunicorn's, before the head is even complete
    ([b"GET /a HTTP/1.1\nHost: h\n"], [], b"GET /a HTTP/1.1\nHost: h\n"),
    # a head longer than the short path reads: gunicorn's, whatever its limits say
    ([b"GET /a HTTP/1.1\r\nHost: h\r\nX-Big: " + b"a" * 17000 + b"\r\n\r\n"], [],
     b"GET /a HTTP/1.1\r\nHost: h\r\nX-Big: " + b"a" * 17000 + b"\r\n\r\n"),
    # a request closing the connection: nothing after it is read
    ([b"GET /a HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\nGET /b HTTP/1.1\r\nHost: h\r\n\r\n"],
     [("/a", b"")], None),
])
def test_the_loop_serves_plain_requests_and_hands_on_the_rest_whole(pieces, served, left) -> None:
    worker, client = EchoWorker(), ScriptedSocket(pieces)
    assert serve_plain(worker, ("127.0.0.1", 8000), client, ("127.0.0.1", 5000)) == left
    assert [(a["path"], a["body"]) for a in worker.answered] == served
    assert client.sent.count(b"HTTP/1.1 200 OK\r\n") == len(served)


class SilentWorker(EchoWorker):
    """An app that answers without reading the body (as a refusal before the body does),
    or, with ``give_up``, marks the body given up as ``close_after_answer`` does."""

    def __init__(self, give_up: bool = False) -> None:
        super().__init__()
        self.give_up = give_up

    def wsgi(self, environ: dict, start_response) -> list[bytes]:
        self.answered.append({"path": environ["PATH_INFO"], "body": b""})
        if self.give_up:
            close_after_answer(environ)
        start_response("200 OK", [("Content-Length", "2")])
        return [b"ok"]


def test_a_late_body_the_app_did_not_read_is_drained_before_the_next_request() -> None:
    worker = SilentWorker()
    client = ScriptedSocket([b"POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 6\r\n\r\nab", b"cd",
                             b"efGET /b HTTP/1.1\r\nHost: h\r\n\r\n"])
    assert serve_plain(worker, ("127.0.0.1", 8000), client, ("127.0.0.1", 5000)) is None
    assert [a["path"] for a in worker.answered] == ["/a", "/b"]
    assert client.sent.count(b"HTTP/1.1 200 OK\r\n") == 2


def test_a_late_body_given_up_closes_the_connection_unread() -> None:
    worker = SilentWorker(give_up=True)
    client = ScriptedSocket([b"POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 6\r\n\r\nab", b"cdef",
                             b"GET /b HTTP/1.1\r\nHost: h\r\n\r\n"])
    assert serve_plain(worker, ("127.0.0.1", 8000), client, ("127.0.0.1", 5000)) is None
    assert [a["path"] for a in worker.answered] == ["/a"]
    assert b"Connection: close\r\n" in client.sent
    assert client.pieces == [b"cdef", b"GET /b HTTP/1.1\r\nHost: h\r\n\r\n"]  # never read


class StalledSocket(ScriptedSocket):
    """Gives its pieces, then waits (on gevent's hub) for bytes that never come."""

    def recv(self, size: int) -> bytes:
        if self.pieces:
            return self.pieces.pop(0)
        gevent.event.Event().wait()  # never set: only the body timeout ends this read
        return b""


class TimingOutWorker(EchoWorker):
    """Answers 408 when the body does not arrive in time, as the API's app does."""

    def wsgi(self, environ: dict, start_response) -> list[bytes]:
        try:
            return super().wsgi(environ, start_response)
        except BodyTimeout:
            start_response("408 Request Timeout", [("Content-Length", "0")])
            return []


def test_a_late_body_that_does_not_arrive_in_time_is_answered_408_and_closed() -> None:
    worker = TimingOutWorker()
    worker.limits = Limits(body_timeout=0.05)
    client = StalledSocket([b"POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 6\r\n\r\nab"])
    assert serve_plain(worker, ("127.0.0.1", 8000), client, ("127.0.0.1", 5000)) is None
    assert client.sent.startswith(b"HTTP/1.1 408 Request Timeout\r\n")
    assert b"Connection: close\r\n" in client.sent


def test_a_late_body_is_read_as_the_app_reads_it() -> None:
    body = LateBody(ScriptedSocket([b"ne\ntw", b"o\nthree"]), b"o", 13)
    assert body.buffered() == 1
    assert body.readline() == b"one\n"
    assert body.read(2) == b"tw"
    assert list(body) == [b"o\n", b"three"]
    assert body.read() == b"" and body.finish() == b""
    ended = LateBody(ScriptedSocket([b"bc"]), b"a", 5)  # the client ends before the body does
    assert ended.read() == b"abc" and ended.finish() is None


def test_a_stand_in_socket_gives_back_the_bytes_read_before_the_rest() -> None:
    under = ScriptedSocket([b"and more"])
    sock = replaying(under, b"read before")
    assert sock.recv(4) + sock.recv(100) + sock.recv(100) == b"read before" + b"and more"
    sock.sendall(b"x")
    assert under.sent == b"x"
    assert replaying(under, b"") is under


# --------------------------------------------------------------------------- the real server


@pytest.fixture(scope="module")
def servers(tmp_path_factory) -> Iterator[dict[str, int]]:
    """The echo app under the API's worker and settings: with the short path, and without."""
    folder = tmp_path_factory.mktemp("plain")
    with ExitStack() as stack:
        ports = {}
        for name, flag in (("short", "1"), ("gunicorn", "0")):
            env = {**os.environ, "INTRIGUE_LOG_LEVEL": "WARNING", "INTRIGUE_PLAIN_REQUESTS": flag,
                   "PYTHONPATH": str(ROOT)}
            base = stack.enter_context(gunicorn_serving(env, folder / f"{name}.log", "tests.support.echo_wsgi:app"))
            ports[name] = int(base.rsplit(":", 1)[1])
        yield ports


def exchange(port: int, writes: list[bytes]) -> bytes:
    """Send ``writes`` on one connection, then read every answer until the server closes it."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        for data in writes:
            sock.sendall(data)
        received = b""
        while data := sock.recv(65536):
            received += data
    return received


def answers(stream: bytes) -> list[tuple[bytes, list[bytes], dict]]:
    """Each answer on a connection: its status line, its fields but ``Date``, its body (JSON
    when it is the echo's, with the path that served it taken out and returned apart)."""
    out = []
    while stream:
        head, _, stream = stream.partition(b"\r\n\r\n")
        status, *fields = head.split(b"\r\n")
        named = {f.split(b":", 1)[0].lower(): f.split(b":", 1)[1].strip() for f in fields}
        if status.split(b" ")[1].startswith(b"1"):  # 100 Continue: an answer still follows
            body = b""
        elif b"content-length" in named:
            length = int(named[b"content-length"])
            body, stream = stream[:length], stream[length:]
        elif named.get(b"transfer-encoding") == b"chunked":
            body = b""
            while True:
                size, _, stream = stream.partition(b"\r\n")
                size_n = int(size, 16)
                body, stream = body + stream[:size_n], stream[size_n + 2:]
                if size_n == 0:
                    break
        else:
            body, stream = stream, b""
        kept = [f for f in fields if not f.lower().startswith(b"date:")]
        try:
            echoed = json.loads(body)
        except ValueError:
            echoed = {"raw": body.decode("latin-1")}
        out.append((status, kept, echoed))
    return out


END = b"GET /end HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n"

CASES = {
    "a move's POST, then a GET, pipelined": (
        [b"POST /v1/games/g1/actions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
         b"Authorization: Bearer abc\r\nContent-Length: 24\r\n\r\n{\"action\":{\"type\":\"x\"}}\n"
         b"GET /v1/games/g1?view=true&x=%41%2F HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-For: 10.1.2.3\r\n\r\n" + END],
        ["shortcut", "shortcut", "shortcut"]),
    "an answer in chunks, an escaped path, a path that starts with two slashes": (
        [b"GET /stream HTTP/1.1\r\nHost: h\r\n\r\nGET /caf%C3%A9%20x;p=1 HTTP/1.1\r\nHost: h\r\n\r\n"
         b"GET //x/y??z=1 HTTP/1.1\r\nHost: h\r\n\r\n" + END],
        ["shortcut", "shortcut", "shortcut", "shortcut"]),
    "a chunked body, then a plain request after it": (
        [b"POST /c HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
         b"POST /d HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\nok" + END],
        ["gunicorn", "gunicorn", "gunicorn"]),
    "a body that comes after its head": (
        [b"POST /e HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\n", b"hello" + END],
        ["shortcut", "shortcut"]),
    "Expect: 100-continue": (
        [b"POST /f HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\nhi" + END],
        [None, "gunicorn", "gunicorn"]),
    "a forwarded scheme, a repeated field, a field with an underscore": (
        [b"GET /g HTTP/1.1\r\nHost: h\r\nX-Forwarded-Proto: https\r\n\r\n"
         b"GET /h HTTP/1.1\r\nHost: h\r\nAccept: a\r\nAccept: b\r\n\r\n"
         b"GET /i HTTP/1.1\r\nHost: h\r\nX_Token: x\r\n\r\n" + END],
        ["gunicorn", "gunicorn", "gunicorn", "gunicorn"]),
    "HEAD": (  # the last request: its answer's length is that of a body it does not carry
        [b"HEAD /j HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n"],
        None),
    "HTTP/1.0": (
        [b"GET /k HTTP/1.0\r\nHost: h\r\n\r\n"],
        ["gunicorn"]),
    "an app that fails": (
        [b"GET /fail HTTP/1.1\r\nHost: h\r\n\r\n"],
        None),
    "a request line that is not HTTP": (
        [b"GARBAGE\r\n\r\n"],
        None),
    "a length beside a transfer coding (request smuggling)": (
        [b"POST /m HTTP/1.1\r\nHost: h\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n"
         b"0\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: h\r\n\r\n"],
        None),
    "two lengths (request smuggling)": (
        [b"POST /n HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\nContent-Length: 20\r\n\r\n"
         b"GET /smuggled HTTP/1.1\r\nHost: h\r\n\r\n"],
        None),
    "a chunk size that is not hexadecimal": (
        [b"POST /o HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\nabc\r\n0\r\n\r\n"],
        None),
    "a folded field (obs-fold)": (
        [b"GET /p HTTP/1.1\r\nHost: h\r\nX-A: a\r\n b\r\n\r\n"],
        None),
    "a head over gunicorn's limit": (
        [b"GET /l HTTP/1.1\r\nHost: h\r\nX-Big: " + b"a" * 9000 + b"\r\n\r\n"],
        None),
}


@pytest.mark.parametrize("case", list(CASES))
def test_each_answer_is_the_one_gunicorn_gives(servers: dict[str, int], case: str) -> None:
    writes, paths = CASES[case]
    short = answers(exchange(servers["short"], writes))
    slow = answers(exchange(servers["gunicorn"], writes))
    assert [(status, fields, {k: v for k, v in body.items() if k != "path"}) for status, fields, body in short] == \
           [(status, fields, {k: v for k, v in body.items() if k != "path"}) for status, fields, body in slow]
    assert short, "no answer at all"
    assert all(body.get("path") in (None, "gunicorn") for _, _, body in slow)
    if paths is not None:
        assert [body.get("path") for _, _, body in short] == paths


def test_a_python_clients_posts_keep_their_connection_on_the_short_path(servers: dict[str, int]) -> None:
    """requests (urllib3) writes a POST's head and its body apart: the body is read late, on
    the short path, and the connection stays there for every request after it."""
    import requests

    with requests.Session() as session:
        paths = []
        for number in range(20):
            answer = session.post(f"http://127.0.0.1:{servers['short']}/p{number}", json={"n": number})
            echoed = answer.json()
            assert json.loads(echoed["body"]) == {"n": number}
            paths.append(echoed["path"])
            paths.append(session.get(f"http://127.0.0.1:{servers['short']}/g{number}").json()["path"])
    assert paths == ["shortcut"] * 40
