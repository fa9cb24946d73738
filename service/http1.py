"""The worker's HTTP/1.1 connection loop: heads parsed by llhttp (httptools), plain requests
served without gunicorn's request objects, everything else handed to gunicorn whole.

gunicorn's parser, request and environ objects cost an API process about 60 µs of CPU per
request, several times what reading and answering a plain request needs (docs/performance.md,
section 23). Nearly every request a client of this API sends is plain: HTTP/1.1, a short
head of well-formed fields, a body sent whole with its length or none. :func:`serve_plain`
serves those on a kept-alive connection.

The head is parsed by llhttp, Node's HTTP parser, through ``httptools`` (what uvicorn parses
with): it keeps the grammar and the request-smuggling defences (a ``Content-Length`` beside a
``Transfer-Encoding``, two lengths, a folded line, a bare CR or LF, a byte a field may not
hold, a method or target it does not know...). Over what llhttp accepts, :func:`parse_head`
applies this module's policy of what is plain; the first request that llhttp refuses or that
is not plain (a transfer coding, an ``Expect``, an upgrade, a forwarded scheme, a field name
with an underscore, a line or a head over gunicorn's limits, a byte outside printable
ASCII...) is handed to gunicorn with every byte read of it, and gunicorn serves the
connection from there, answering or refusing exactly as it would have. So a request is
served here only when both parsers accept it, and every refusal is gunicorn's.

A body whose end had not come with its head (``requests`` and urllib3 send a POST's head
and body in two writes) stays here: :class:`LateBody` reads the rest as the app reads it,
inside the worker's ``DeadlineBody`` (the body timeout), as gunicorn's body is read. A
chunked body is gunicorn's (a transfer coding is not plain).

The environ is the one gunicorn would build for such a request, and the answer is written by
the worker's response (``service.worker_response.CoalescingResponse``, a subclass of gunicorn's
that spells the status line, the ``Server``, ``Date`` and ``Connection`` fields and the
framing as gunicorn does).
"""

from __future__ import annotations

import io
from typing import Any

import httptools
from gunicorn import util
from gunicorn.http import wsgi

from engine.settings import gunicorn_script_name
from service.deadline_body import DeadlineBody
from service.worker_response import CoalescingResponse

#: The methods the API has: a request with any other goes to gunicorn.
_METHODS = frozenset({b"GET", b"POST", b"PUT", b"PATCH", b"DELETE", b"OPTIONS"})
#: Fields that send a request to gunicorn: framing and negotiation. (So do the fields of its
#: ``secure_scheme_headers``, whose trust it decides per peer: see :func:`gunicorn_only`.)
_FRAMING = frozenset({b"TRANSFER-ENCODING", b"EXPECT", b"UPGRADE", b"TE", b"HTTP2-SETTINGS"})
#: Longest head read before giving the request to gunicorn (its own limits decide then).
_HEAD_CEILING = 16384
_CHUNK = 65536


class PlainRequest:
    """What gunicorn's response, hooks and logs read of a request, for one served here."""

    version = (1, 1)
    scheme = "http"

    def __init__(self, method: str, uri: str, headers: list[tuple[str, str]], close: bool,
                 body: io.BytesIO | DeadlineBody) -> None:
        self.method = method
        self.uri = uri
        self.path, _, self.query = uri.partition("?")
        self.headers = headers
        self.must_close = close
        self.body = body

    def should_close(self) -> bool:
        return self.must_close


class LateBody:
    """A plain request's body whose end was still on its way when its head was read: the rest
    comes from the socket as the app reads it.

    :func:`serve_plain` wraps it in the worker's ``DeadlineBody``, as gunicorn's body is
    wrapped, so the body timeout, the 408 and the close are the same on both paths. An app
    that answers without reading the body (a 429 before the body, see ``service.front``)
    leaves the rest to be drained within the same deadline, unless the answer gave it up
    (``failed``, as ``service.http_errors.close_after_answer`` sets it).
    """

    def __init__(self, sock: Any, held: bytes, length: int) -> None:
        self._sock = sock
        #: Bytes read from the socket and not yet given out: the body's, then any of the next request's.
        self._held = held
        #: Bytes of the body not yet given out.
        self._left = length
        self._ended = False  # the client closed its side
        #: Set when the answer gives the body up: the connection closes instead of draining it.
        self.failed = False

    def buffered(self) -> int:
        """What a read returns now without waiting on the client (``service.front.in_memory``)."""
        return min(len(self._held), self._left)

    def _fill(self, wanted: int) -> None:
        """Read until ``wanted`` bytes are held, the body's end is, or the client's end is."""
        wanted = min(wanted, self._left)
        while len(self._held) < wanted and not self._ended:
            data = self._sock.recv(_CHUNK)
            if not data:  # the client's end: reads come short, as gunicorn's body's do
                self._ended = True
            self._held += data

    def _take(self, size: int) -> bytes:
        data, self._held = self._held[:size], self._held[size:]
        self._left -= len(data)
        return data

    def read(self, size: int | None = None) -> bytes:
        wanted = self._left if size is None or size < 0 else min(size, self._left)
        self._fill(wanted)
        return self._take(wanted)

    def readline(self, size: int | None = None) -> bytes:
        limit = self._left if size is None or size < 0 else min(size, self._left)
        while True:
            end = self._held.find(b"\n", 0, limit)
            if end >= 0:
                return self._take(end + 1)
            if len(self._held) >= limit or self._ended:
                return self._take(limit)
            self._fill(len(self._held) + 1)

    def readlines(self, size: int | None = None) -> list[bytes]:
        return list(iter(self.readline, b""))

    def __iter__(self) -> Any:
        return iter(self.readline, b"")

    def finish(self) -> bytes | None:
        """Once the body is read (or drained): the bytes read past it, the next request's
        start; None when the connection must close instead (the body was given up, or the
        client ended before it did)."""
        return None if self._left or self.failed else self._held


def _drained(body: DeadlineBody) -> bytes | None:
    """What :meth:`LateBody.finish` gives once the app has answered, after reading what the
    app left of the body within its deadline; None when the connection must close."""
    late: LateBody = body.body
    if not late.failed:
        try:
            while body.read(_CHUNK):
                pass
        except Exception:  # BodyTimeout (it marked the request to close), or the socket's error
            return None
    return late.finish()


def plain_served(cfg: Any) -> bool:
    """Whether this worker's settings leave plain requests to :func:`serve_plain`: not over
    TLS, no PROXY protocol, no HTTP/2, keep-alive on, no SCRIPT_NAME, no access log or
    logging set-up of gunicorn's (each is gunicorn's to honour)."""
    return (not cfg.is_ssl and str(getattr(cfg, "proxy_protocol", "off")).lower() in ("off", "false", "none")
            and str(getattr(cfg, "http2_cleartext", "off")).lower() in ("off", "false", "none")
            and "h2" not in (getattr(cfg, "http_protocols", None) or ["h1"])
            and cfg.keepalive > 0 and not gunicorn_script_name()
            and not (cfg.accesslog or cfg.logconfig or cfg.logconfig_dict or getattr(cfg, "logconfig_json", None)
                     or cfg.syslog))


def gunicorn_only(cfg: Any) -> frozenset[bytes]:
    """Field names (upper case) whose requests gunicorn serves: framing, negotiation, and the
    scheme a trusted proxy may set."""
    return _FRAMING | {name.upper().encode("latin-1") for name in (cfg.secure_scheme_headers or {})}


class _Head:
    """What llhttp's callbacks give of one head: its target and its fields, as bytes."""

    __slots__ = ("url", "fields")

    def __init__(self) -> None:
        self.url = b""
        self.fields: list[tuple[bytes, bytes]] = []

    def on_url(self, url: bytes) -> None:
        self.url += url

    def on_header(self, name: bytes, value: bytes) -> None:
        self.fields.append((name, value))


#: The bytes a plain field value or target may hold: printable ASCII, and tabs (in a value).
_PRINTABLE = bytes(range(32, 127)) + b"\t"


def _printable(value: bytes) -> bool:
    return not value.translate(None, _PRINTABLE)


def parse_head(head: bytes, line_limit: int, field_limit: int, fields_limit: int,
               refused: frozenset[bytes] = _FRAMING
               ) -> tuple[str, str, list[tuple[str, str]], dict[str, str], int, bool] | None:
    """(method, target, fields, environ entries, body length, close) of a plain request's
    head (without its blank line), or None when llhttp refuses it or it is not plain: gunicorn
    then reads it. ``refused`` names the fields (upper case) that make a request gunicorn's."""
    first = head.find(b"\r\n")
    if line_limit and (first if first >= 0 else len(head)) > line_limit:  # 0: no limit, as gunicorn reads it
        return None
    if head.count(b"\r\n") > fields_limit:
        return None
    parsed = _Head()
    parser = httptools.HttpRequestParser(parsed)
    try:
        parser.feed_data(head + b"\r\n\r\n")
    except (httptools.HttpParserError, httptools.HttpParserUpgrade):  # llhttp refused it, or an upgrade: gunicorn's
        return None
    method, url = parser.get_method(), parsed.url
    if (method not in _METHODS or url[:1] != b"/" or b"#" in url or not _printable(url)
            or head[:first] != b"%b %b HTTP/1.1" % (method, url)):  # one space apart, as gunicorn reads it
        return None
    fields: list[tuple[str, str]] = []
    entries: dict[str, str] = {}
    length = 0
    close = False
    for raw_name, raw_value in parsed.fields:
        if field_limit and len(raw_name) + len(raw_value) + 2 > field_limit:
            return None
        name = raw_name.upper()
        if name in refused or b"_" in name or not _printable(raw_value):
            return None
        value = raw_value.strip(b" \t").decode("ascii")
        if name == b"CONTENT-LENGTH":  # llhttp took digits alone, and one length at most
            if len(value) > 15 or (value[0] == "0" and value != "0"):
                return None
            length = int(value)
            key = "CONTENT_LENGTH"
        elif name == b"CONTENT-TYPE":
            key = "CONTENT_TYPE"
        else:
            if name == b"CONNECTION":
                token = value.lower()
                if token == "close":
                    close = True
                elif token != "keep-alive":
                    return None
            key = "HTTP_" + name.decode("ascii").replace("-", "_")
        if key in entries:
            return None  # a repeated field: gunicorn joins them (or refuses a second Host)
        entries[key] = value
        fields.append((name.decode("ascii"), value))
    if "HTTP_HOST" not in entries:
        return None  # HTTP/1.1 requires Host; gunicorn says what it makes of its absence
    return method.decode("ascii"), url.decode("ascii"), fields, entries, length, close


class _Replayed:
    """A client socket whose first reads return bytes already taken from it: how a request
    this path will not serve reaches gunicorn whole."""

    def __init__(self, sock: Any, data: bytes) -> None:
        #: The socket under this one: every call but ``recv`` is its, and a write (an event
        #: stream's push, see ``service.gevent_worker.chunked_socket``) may go straight to it.
        self.writes_to = sock
        self._data = data

    def recv(self, size: int, *args: Any) -> bytes:
        if self._data:
            data, self._data = self._data[:size], self._data[size:]
            return data
        return self.writes_to.recv(size, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.writes_to, name)


def replaying(sock: Any, data: bytes) -> Any:
    """``sock``, or a stand-in that first gives back ``data`` when there is any."""
    return _Replayed(sock, data) if data else sock


def serve_plain(worker: Any, listener_name: Any, client: Any, addr: Any) -> bytes | None:
    """Serve plain requests on ``client`` until one is not plain: return what was read of it
    (gunicorn serves the connection from there), or None once the connection is done."""
    if isinstance(listener_name, str):
        return b""  # a unix socket: gunicorn derives SERVER_* from the Host field
    cfg = worker.cfg
    refused = gunicorn_only(cfg)
    connection = _connection_environ(cfg, client, listener_name, addr)
    buffered = b""
    while True:
        end = buffered.find(b"\r\n\r\n")
        if end < 0:
            with worker.timeout_ctx():
                while end < 0:
                    if len(buffered) > _HEAD_CEILING:
                        return buffered
                    data = client.recv(_CHUNK)
                    if not data:
                        return None
                    buffered += data
                    end = buffered.find(b"\r\n\r\n", max(0, len(buffered) - len(data) - 3))
                    if end < 0 and buffered.count(b"\n") != buffered.count(b"\r\n"):
                        return buffered  # a line ended by a bare LF: gunicorn says what it makes of it
            if end < 0:
                return None  # no head in time: closed, as gunicorn closes it
        if end > _HEAD_CEILING:
            return buffered  # a long head is rare: gunicorn's limits decide
        parsed = parse_head(buffered[:end], cfg.limit_request_line, cfg.limit_request_field_size,
                            cfg.limit_request_fields, refused)
        if parsed is None:
            return buffered
        method, target, fields, entries, length, close = parsed
        start = end + 4
        if len(buffered) - start >= length:
            request = PlainRequest(method, target, fields, close, io.BytesIO(buffered[start:start + length]))
            buffered = buffered[start + length:]
            if not _answer(worker, request, connection, entries, client, addr):
                return None
            continue
        # The body is still on its way: the app reads it, within the body timeout.
        request = PlainRequest(method, target, fields, close, io.BytesIO())
        body = request.body = DeadlineBody(LateBody(client, buffered[start:], length), request,
                                           worker.limits.body_timeout)
        if not _answer(worker, request, connection, entries, client, addr):
            return None
        rest = _drained(body)
        if rest is None:
            return None
        buffered = rest


def _connection_environ(cfg: Any, client: Any, listener_name: Any, addr: Any) -> dict[str, Any]:
    """The part of the environ gunicorn builds that is the same for every request of one
    connection: its shared base, the socket, the protocol, the server's and the peer's address."""
    environ = wsgi.base_environ(cfg)
    environ.update({"gunicorn.socket": client, "SERVER_PROTOCOL": "HTTP/1.1", "wsgi.url_scheme": PlainRequest.scheme,
                    "SERVER_NAME": listener_name[0], "SERVER_PORT": str(listener_name[1]), "SCRIPT_NAME": "",
                    "wsgi.multithread": True})
    if isinstance(addr, tuple):
        environ["REMOTE_ADDR"], environ["REMOTE_PORT"] = addr[0], str(addr[1])
    else:
        environ["REMOTE_ADDR"] = str(addr)
    return environ


def _answer(worker: Any, request: PlainRequest, connection: dict[str, Any], entries: dict[str, str],
            client: Any, addr: Any) -> bool:
    """Run the app for one plain request, as gunicorn's ``handle_request`` does: whether the
    connection stays open."""
    cfg = worker.cfg
    environ: dict[str, Any] = {}
    response = None
    try:
        cfg.pre_request(worker, request)
        response = CoalescingResponse(request, client, cfg)
        environ = dict(connection)
        environ.update(entries)
        environ.update({"wsgi.input": request.body, "REQUEST_METHOD": request.method, "QUERY_STRING": request.query,
                        "RAW_URI": request.uri, "PATH_INFO": util.unquote_to_wsgi_str(request.path)})
        worker.nr += 1
        if worker.nr >= worker.max_requests and worker.alive:
            worker.log.info("Autorestarting worker after current request.")
            worker.alive = False
        if not worker.alive:
            response.force_close()
        answer = worker.wsgi(environ, response.start_response)
        try:
            if isinstance(answer, wsgi.FileWrapper):
                response.write_file(answer)
            else:
                for item in answer:
                    response.write(item)
            response.close()
        finally:
            if hasattr(answer, "close"):
                answer.close()
        return not response.should_close()
    except OSError:
        raise  # the client went away: the connection's handler closes it
    except Exception as exc:
        if response is not None and response.headers_sent:
            worker.log.exception("Error handling request")  # too late for an error answer
            return False
        worker.handle_error(request, client, addr, exc)
        return False
    finally:
        try:
            cfg.post_request(worker, request, environ, response)
        except Exception:
            worker.log.exception("Exception in post_request hook")
