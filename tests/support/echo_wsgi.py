"""A WSGI app that answers with what it was given: the environ's text entries, the body,
and which server path built the environ (gunicorn's adds ``wsgi.early_hints``; both names
are eight letters long, so the two paths' answers have the same length)."""

from __future__ import annotations

import json
from typing import Any


def app(environ: dict[str, Any], start_response: Any) -> list[bytes]:
    if environ["PATH_INFO"] == "/v1/openapi.json":  # what the tests' wait_for_server asks
        start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", "2")])
        return [b"{}"]
    body = environ["wsgi.input"].read()
    # The two ports differ between the servers compared; the rest must not.
    seen = {key: value for key, value in environ.items()
            if isinstance(value, str) and key not in ("REMOTE_PORT", "SERVER_PORT")}
    answer = json.dumps({"environ": seen, "body": body.decode("latin-1"),
                         "path": "gunicorn" if "wsgi.early_hints" in environ else "shortcut"}, sort_keys=True).encode()
    if environ["PATH_INFO"] == "/stream":  # no length: gunicorn frames it in chunks
        start_response("200 OK", [("Content-Type", "application/json")])
        return [answer[:10], answer[10:]]
    if environ["PATH_INFO"] == "/fail":
        raise RuntimeError("the echo app fails on purpose")
    start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(answer)))])
    return [answer]
