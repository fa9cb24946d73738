"""Scoped tokens (issue 53): a token does only what its scopes cover, on both HTTP paths.

A registration's token, and one issued without ``scopes``, carry every scope. A call outside
a token's scopes is ``403 missing_scope`` naming the scope, and changes nothing; the front's
fast handlers (a move, a join, a creation, a stream from the start) hand such a call to the
app, which answers it the same way (both admit through ``service.admission.admit``).
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
import requests
from intrigue_client import Client, InvalidBody, MissingScope

from service.openapi import operations
from service.scopes import SCOPE_OF, SCOPES, scope_for


def scoped(server: str, owner: Client, scopes: list[str]) -> Client:
    issued = owner.create_token(scopes)  # type: ignore[arg-type]  # the test names scopes as plain strings
    assert issued["scopes"] == [scope for scope in SCOPES if scope in scopes]
    return Client(server, issued["token"])


def refused(call: Any, scope: str) -> None:
    with pytest.raises(MissingScope) as caught:
        call()
    assert caught.value.status == 403 and caught.value.problem["scope"] == scope


def test_registration_and_unscoped_tokens_hold_every_scope(server: str) -> None:
    me = Client.register(server, f"scopes-{uuid.uuid4().hex[:6]}")
    assert [token["scopes"] for token in me.tokens()] == [list(SCOPES)]
    plain = requests.post(f"{server}/v1/me/tokens", headers={"Authorization": f"Bearer {me.token}"}, timeout=10)
    assert plain.status_code == 201 and plain.json()["scopes"] == list(SCOPES)
    listed = {token["id"]: token["scopes"] for token in me.tokens()}
    assert listed[plain.json()["id"]] == list(SCOPES)


def test_a_read_only_token_reads_but_neither_plays_nor_creates(server: str) -> None:
    me = Client.register(server, f"reader-{uuid.uuid4().hex[:6]}")
    game = me.create_game("coup", 2, bots={1: "random"})
    reader = scoped(server, me, ["read"])
    refused(lambda: reader.join(game["id"]), "play")  # the front's fast handler's join
    assert me.game(game["id"])["status"] == "open", "the refused join changed nothing"
    me.join(game["id"])
    view = reader.game(game["id"])
    assert view["seat"] == 0  # read: the seat's own view
    while 0 not in view["awaiting"]:
        view = reader.game(game["id"])
    refused(lambda: reader.act(game["id"], view["legal_actions"][0], if_match=view["version"]), "play")
    assert me.game(game["id"])["version"] == view["version"], "the refused action changed nothing"
    refused(lambda: reader.create_game("coup", 2), "create")  # the front's fast handler's creation
    refused(lambda: reader.send_message(game["id"], "hello"), "chat")
    refused(lambda: reader.webhooks(), "webhooks")
    refused(lambda: reader.tokens(), "account")
    with reader.stream(game["id"]) as stream:  # read covers the stream
        assert next(iter(stream)).type in ("game", "GameCreated")


def test_a_play_only_token_plays_but_cannot_read_the_stream(server: str) -> None:
    me = Client.register(server, f"player-{uuid.uuid4().hex[:6]}")
    game = me.create_game("coup", 2, bots={1: "random"})
    player = scoped(server, me, ["play"])
    assert player.join(game["id"])["seat"] == 0
    stream = requests.get(f"{server}/v1/games/{game['id']}/events/stream?view=true", timeout=10,
                          headers={"Authorization": f"Bearer {player.token}"})  # the front's fast handler's stream
    assert stream.status_code == 403 and stream.json()["code"] == "missing_scope" and stream.json()["scope"] == "read"
    refused(lambda: player.game(game["id"]), "read")
    view = me.game(game["id"])
    while 0 not in view["awaiting"]:
        view = me.game(game["id"])
    answer = player.act(game["id"], view["legal_actions"][0], if_match=view["version"])
    assert answer["version"] > view["version"]


@pytest.mark.parametrize("body", [{"scopes": ["admin"]}, {"scopes": []}, {"scopes": "read"}, {"scope": ["read"]}])
def test_bad_scopes_are_refused_and_issue_nothing(server: str, body: dict[str, Any]) -> None:
    me = Client.register(server, f"badscope-{uuid.uuid4().hex[:6]}")
    answer = requests.post(f"{server}/v1/me/tokens", json=body, headers={"Authorization": f"Bearer {me.token}"},
                           timeout=10)
    assert answer.status_code == 400 and answer.json()["code"] == "invalid_body"
    assert len(me.tokens()) == 1
    with pytest.raises(InvalidBody):
        me.create_token(["root"])  # type: ignore[list-item]  # a scope the server does not have


def test_the_reference_names_each_operations_scope(server: str) -> None:
    document = requests.get(f"{server}/v1/openapi.json", timeout=30).json()
    assert set(document["components"]["securitySchemes"]["bearer"]["description"].split("`")[1::2]) >= set(SCOPES)
    named = {}
    for path, declared in document["paths"].items():
        for method, operation in declared.items():
            requirements = [req["bearer"] for req in operation["security"] if "bearer" in req]
            if f"{method.upper()} {path}" in SCOPE_OF:
                assert requirements, (method, path)
                named[f"{method.upper()} {path}"] = requirements[0][0]
                assert "missing_scope" in operation["responses"]["403"]["description"]
            else:
                assert all(req == [] for req in requirements), (method, path)
    assert named == SCOPE_OF
    assert document["paths"]["/v1/me/tokens"]["post"]["requestBody"]["required"] is False


def test_paths_map_to_their_scopes() -> None:
    assert scope_for("GET", "/v1/me/games") == "read"
    assert scope_for("GET", "/v1/games/abc") == "read"
    assert scope_for("HEAD", "/v1/games/abc/events/stream") == "read"
    assert scope_for("POST", "/v1/games/abc/actions") == "play"
    assert scope_for("POST", "/v1/games") == "create"
    assert scope_for("GET", "/v1/games") is None and scope_for("POST", "/v1/players") is None
    assert scope_for("DELETE", "/v1/me/tokens/abc") == "account"


def test_every_call_that_takes_a_token_has_a_scope() -> None:
    """A new route is given a scope when it is written: only a witness's cosignature, which any
    caller may send, takes a token without naming one."""
    unscoped = sorted(op.key for op in operations() if op.auth != "none" and op.key not in SCOPE_OF)
    assert unscoped == ["POST /v1/transparency/cosignatures"]
    assert set(SCOPE_OF) <= {op.key for op in operations()}, "every scoped call is a route"
