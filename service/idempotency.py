"""``Idempotency-Key`` on every POST: the same key and body give the first answer, status and body.

A seat's action keeps its own keys inside the game's append (``engine.core``); every other
POST (registration, creation, join, messages, webhooks...) is covered here, around the
route: before it runs the key is claimed for the caller (a player, the operator, or, for a
caller without a token, its address); after it, the answer is remembered. A retry with
the same key and body is answered as the first request was, without running the route
again; the same key with another body (or path) is ``409 idempotency_key_reused``.

Failures are not remembered (5xx, and a 429 whose request never ran): the retry runs
again, as the README advises.
"""

from __future__ import annotations

import hashlib
import time

import orjson
from flask import Flask, Response, g, request

from engine.core import Engine
from engine.replies import Remembered, Replies
from service.answers import Problem
from service.context import caller, client_address, current_player

#: The longest Idempotency-Key a client may send (as for actions).
MAX_KEY = 200
#: Routes whose keys the engine keeps itself, in the game's own append.
OWN_KEYS = frozenset({"games.act"})
#: How long a retry waits for the first request with its key to answer.
WAIT_FOR_FIRST_SECONDS = 10.0
#: Headers of the first answer that its replays repeat.
KEPT_HEADERS = ("Location", "Preference-Applied")


def install(app: Flask, engine: Engine) -> None:
    """Honour the header on every POST of ``app`` (after its rate limit: a replay spends a token too)."""
    replies = Replies(engine.redis, engine.keys.prefix)

    @app.before_request
    def _replay_or_claim() -> Response | None:
        if request.method != "POST" or request.endpoint in OWN_KEYS or request.endpoint is None:
            return None
        key = request.headers.get("Idempotency-Key")
        if key is None:
            return None
        if not 1 <= len(key) <= MAX_KEY:
            raise Problem(400, "bad_idempotency_key", f"Idempotency-Key must be 1 to {MAX_KEY} characters")
        subject = _subject()
        if subject is None:  # a bad token: the route refuses it, and there is nothing to remember
            return None
        fingerprint = _fingerprint()
        held = replies.claim(subject, key, fingerprint)
        give_up = time.monotonic() + WAIT_FOR_FIRST_SECONDS
        while held is not None and held.answer is None and held.fingerprint == fingerprint:
            if time.monotonic() > give_up:
                raise Problem(409, "busy", "a request with this Idempotency-Key is still running; try again")
            time.sleep(0.02)  # the first request with this key is running: its answer is the answer
            held = replies.read(subject, key) or replies.claim(subject, key, fingerprint)
        if held is None:
            g.idempotency = (subject, key, fingerprint)
            return None
        if held.fingerprint != fingerprint:
            raise Problem(409, "idempotency_key_reused",
                          "this Idempotency-Key was already used for a different request")
        return _replayed(held)

    @app.after_request
    def _remember(response: Response) -> Response:
        claimed = g.pop("idempotency", None)
        if claimed is None:
            return response
        subject, key, fingerprint = claimed
        if response.status_code >= 500 or response.status_code == 429 or response.is_streamed:
            replies.release(subject, key)
            return response
        headers = {name: response.headers[name] for name in KEPT_HEADERS if name in response.headers}
        answer = orjson.dumps({"status": response.status_code, "type": response.content_type,
                               "headers": headers, "body": response.get_data().decode("utf-8", "replace")})
        replies.remember(subject, key, fingerprint, answer)
        return response

    @app.teardown_request
    def _release_unanswered(_: BaseException | None) -> None:
        claimed = g.pop("idempotency", None)  # still there: no answer was remembered
        if claimed is not None:
            replies.release(claimed[0], claimed[1])


def _subject() -> str | None:
    """Whose key it is: the player's, the operator's, or the address's of a caller without a token."""
    try:
        player = current_player(required=False)
    except Problem:
        return None
    if caller().operator:
        return "operator"
    return f"player:{player.id}" if player is not None else f"address:{client_address()}"


def _fingerprint() -> str:
    """The request a key stands for: its path and body (a JSON body by its content, not its spacing)."""
    body = request.get_data(cache=True)
    try:
        body = orjson.dumps(orjson.loads(body), option=orjson.OPT_SORT_KEYS) if body else body
    except orjson.JSONDecodeError:
        pass
    return hashlib.sha256(request.path.encode("utf-8", "surrogateescape") + b"\0" + body).hexdigest()


def _replayed(held: Remembered) -> Response:
    assert held.answer is not None
    first = orjson.loads(held.answer)
    response = Response(first["body"].encode(), status=first["status"], content_type=first["type"])
    for name, value in first["headers"].items():
        response.headers[name] = value
    return response
