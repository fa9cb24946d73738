"""The reference web client: static files served in front of the API, no build step.

The client is plain HTML, CSS and ES modules in ``service/static``. It talks to the server
only through the public API under ``/v1``, as any third-party client would, and through the
JavaScript SDK any third-party client may use (``clients/js/src``, served at ``/static/sdk/``). This WSGI
layer answers ``GET``/``HEAD`` for its files (``/static/...``) and for the client's own
addresses (``/``, ``/lobby``, ``/games/<id>``...), which all get the same page: the router
in the browser draws the right screen, so a table can be bookmarked and reloaded. Every
other request goes to the API untouched.

The files are answered before Flask sees the request: they touch no Redis, so loading
the page spends none of the API's rate-limit tokens.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from werkzeug.security import safe_join
from werkzeug.wrappers import Response

from games import registry

STATIC = Path(__file__).resolve().parent / "static"
#: The JavaScript SDK the client plays through (``clients/js/src``), served at ``/static/sdk/``:
#: from the checkout, or where the image puts it (inside the installed package's static files).
SDK = next((found for found in (STATIC.parent.parent / "clients" / "js" / "src", STATIC / "sdk") if found.is_dir()),
           STATIC / "sdk")

#: The client's own addresses: every one of them is the same page (``index.html``).
CLIENT_ROUTES = re.compile(r"/(?:lobby|me|new|account|substitutes|games/[A-Za-z0-9_-]{1,64}"
                           r"|players/[A-Za-z0-9_-]{1,64}|leaderboards(?:/[a-z]{1,32})?|rules/[a-z]{1,32}"
                           r"|tournaments(?:/[A-Za-z0-9_-]{1,64})?)?/?")

#: A game's rules summary, its package's README, as text: ``/rules/coup.md``; and its component
#: data files, whose numbers the client's tooltips quote: ``/rules/coup/cards.json``.
RULES = re.compile(r"/rules/([a-z]{1,32})\.md")
DATA = re.compile(r"/rules/([a-z]{1,32})/([a-z_]{1,32}\.json)")
GAMES = STATIC.parent.parent / "games"

_TYPES = {".html": "text/html", ".js": "text/javascript",
          ".css": "text/css", ".svg": "image/svg+xml", ".png": "image/png",
          ".json": "application/json", ".txt": "text/plain", ".md": "text/markdown"}

#: Only this origin: no script, style, font or connection anywhere else, ever.
_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
           "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'")

StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


class WebClient:
    """WSGI middleware serving the client's files and page; anything else goes to ``inner``."""

    def __init__(self, inner: WSGIApp, root: Path = STATIC) -> None:
        self.inner = inner
        self.root = root

    def file_for(self, path: str) -> Path | None:
        """The file answering ``path``, or None when the path is not the client's."""
        if CLIENT_ROUTES.fullmatch(path):
            return self.root / "index.html"
        rules = RULES.fullmatch(path)
        if rules and rules.group(1) in registry.GAMES:
            readme = GAMES / rules.group(1) / "README.md"
            return readme if readme.is_file() else None
        data = DATA.fullmatch(path)
        if data and data.group(1) in registry.GAMES:
            found = GAMES / data.group(1) / "data" / data.group(2)
            return found if found.is_file() else None
        if path.startswith("/static/sdk/") and path.endswith(".js"):
            sdk = safe_join(str(SDK), path[len("/static/sdk/"):])
            return Path(sdk) if sdk is not None and Path(sdk).is_file() else None
        if path.startswith("/static/"):
            found = safe_join(str(self.root), path[len("/static/"):])
            if found is not None and Path(found).is_file():
                return Path(found)
        return None

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") not in ("GET", "HEAD"):
            return self.inner(environ, start_response)
        found = self.file_for(environ.get("PATH_INFO", ""))
        if found is None:
            return self.inner(environ, start_response)
        # The files are small: read whole (no sendfile, which gunicorn's gevent worker would
        # hold on to at shutdown) and revalidated on every load by their ETag (a 304), so an
        # upgrade is never half-seen.
        response = Response(found.read_bytes(), mimetype=_TYPES.get(found.suffix, "application/octet-stream"))
        response.add_etag()
        response.make_conditional(environ)
        response.headers["Cache-Control"] = "no-cache"
        response.headers["Content-Security-Policy"] = _POLICY
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        return response(environ, start_response)
