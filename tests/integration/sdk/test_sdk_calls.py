"""The SDK's typed calls against a live server: every route, its answer's shape, its errors."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from intrigue_client import (
    ERRORS_BY_CODE,
    BadOrder,
    BadToken,
    Client,
    Conflict,
    GameInProgress,
    GameNotFound,
    GameNotOver,
    GameStarted,
    IntrigueError,
    NotCreator,
    NotInvited,
    NotYourTurn,
    PlayerNotFound,
    RuleViolation,
    TournamentNotFound,
    VersionConflict,
    WebhookDestinationRefused,
    error_from_problem,
)


def start_coup(server: str, prefix: str) -> tuple[str, list[Client]]:
    players = [Client.register(server, f"{prefix}{i}") for i in range(3)]
    game_id = players[0].create_game("coup", 3, time_control={"seconds_per_move": 86400})["id"]
    for index, player in enumerate(players):
        assert player.join(game_id)["seat"] == index
    for player in players:  # each sees the game starting and reveals its secret (the last did as it joined)
        player.game(game_id)
    return game_id, players


def coins(client: Client, game_id: str, seat: int) -> int:
    view = client.game(game_id)["view"]
    assert view is not None
    return view["seats"][seat]["coins"]


def test_every_call_of_a_game_in_play(server: str) -> None:
    alice = Client.register(server, "alice")
    assert alice.player is not None and alice.player["name"] == "alice" and alice.token
    created = alice.create_game("coup", 3, time_control={"seconds_per_move": 86400, "reserve_seconds": 60})
    game_id = created["id"]
    assert created["status"] == "open" and created["seats"] == 3 and created["time_control"]["reserve_seconds"] == 60
    assert game_id in {game["id"] for game in alice.iter_lobby("coup", page_size=2)}
    assert all(game["game"] == "coup" for game in alice.lobby("coup", limit=5)["games"])

    bob, carol = Client.register(server, "bob"), Client.register(server, "carol")
    assert [client.join(game_id)["seat"] for client in (alice, bob, carol)] == [0, 1, 2]
    assert alice.join(game_id)["seat"] == 0  # joining twice keeps the seat (and reveals: the game is starting)
    waiting = alice.game(game_id)
    assert waiting["status"] == "starting"
    assert waiting["entropy"] == {"0": "revealed", "1": "committed", "2": "revealed"}
    assert bob.game(game_id)["status"] == "active"  # bob's client reveals the last secret: the deal

    view = alice.game(game_id)
    assert view["entropy"] == {"0": "revealed", "1": "revealed", "2": "revealed"}
    assert view["status"] == "active" and view["seat"] == 0 and view["awaiting"] == [0]
    assert {"type": "income"} in view["legal_actions"] and view["view"] is not None
    answer = alice.act(game_id, {"type": "income"}, if_match=view["version"])
    assert answer["version"] > view["version"] and answer["events"]
    assert answer["game"]["view"]["seats"][0]["coins"] == view["view"]["seats"][0]["coins"] + 1
    minimal = bob.act(game_id, {"type": "income"}, if_match=answer["version"], minimal=True)
    assert "game" not in minimal and minimal["events"]

    page = carol.events(game_id, after=0, view=True)
    assert page["status"] == "active" and page["game"]["seat"] == 2 and page["game"]["legal_actions"]
    seqs = [event["seq"] for event in page["events"]]
    assert seqs == sorted(seqs) and seqs[-1] == page["version"] == minimal["version"]
    quiet = carol.events(game_id, after=page["version"], wait=1)
    assert quiet["events"] == [] and quiet["version"] == page["version"]

    then = alice.replay(game_id, version=view["version"])
    assert then["version"] == view["version"] and then["game"]["legal_actions"] == [] and then["state"] is None
    assert then["game"]["view"]["seats"][0]["coins"] == view["view"]["seats"][0]["coins"]

    said = alice.send_message(game_id, "good luck, everyone")
    whisper = bob.send_message(game_id, "carol, shall we?", to=2)
    assert said["from"] == 0 and said["to"] is None and whisper["to"] == 2
    assert [m["text"] for m in alice.messages(game_id)["messages"]] == ["good luck, everyone"]
    carol_reads = carol.messages(game_id)
    assert [m["id"] for m in carol_reads["messages"]] == [said["id"], whisper["id"]]
    assert carol.messages(game_id, after=carol_reads["messages_after"])["messages"] == []

    mine = {game["id"]: game for game in alice.iter_my_games(page_size=1)}
    assert mine[game_id]["seat"] == 0 and mine[game_id]["awaiting_me"] is False
    inbox = carol.my_games(awaiting_me=True)
    assert [game["id"] for game in inbox["games"]] == [game_id] and inbox["games"][0]["awaiting_me"]

    with pytest.raises(GameInProgress) as refused:
        alice.log(game_id)
    assert refused.value.status == 403 and refused.value.code == "game_in_progress"
    with pytest.raises(GameInProgress):
        alice.transcript(game_id)
    assert "/v1/games/{game_id}/events/stream" in alice.openapi()["paths"]
    with Client(server, token=alice.token) as again:
        assert again.game(game_id)["seat"] == 0 and repr(again) == f"<Client {server} as a token>"
    assert repr(alice) == f"<Client {server} as alice>"


def test_refusals_raise_the_exception_named_after_their_code(server: str) -> None:
    game_id, (alice, bob, _) = start_coup(server, "refused")
    with pytest.raises(GameNotFound) as missing:
        alice.game("no-such-game")
    assert missing.value.status == 404 and missing.value.problem["code"] == "game_not_found"
    with pytest.raises(BadToken) as stranger:
        Client(server, token="not-a-token").game(game_id)
    assert stranger.value.status == 401 and isinstance(stranger.value, IntrigueError)
    with pytest.raises(RuleViolation) as broke:
        alice.act(game_id, {"type": "assassinate", "target": 1})
    assert broke.value.code == "not_enough_coins" and {"type": "income"} in broke.value.legal_actions
    assert broke.value.idempotency_key
    with pytest.raises(WebhookDestinationRefused) as loopback:
        alice.create_webhook("http://127.0.0.1:9/hook", ["your_turn"])
    assert loopback.value.status == 422
    assert coins(alice, game_id, 0) == 2  # nothing changed

    # Every code the README documents has its class, and an unknown one falls back by status.
    for code in ("version_conflict", "not_your_turn", "busy", "rate_limited", "store_unavailable", "bad_cursor",
                 "bad_last_event_id", "too_many_open_games", "not_found", "method_not_allowed", "bad_request"):
        assert error_from_problem(409, {"code": code}).__class__ is ERRORS_BY_CODE[code]
    assert type(error_from_problem(409, {"code": "some_new_conflict"})) is Conflict


def test_a_409_carries_the_fresh_view(server: str) -> None:
    game_id, (alice, bob, _) = start_coup(server, "conflict")
    before = alice.game(game_id)
    alice.act(game_id, {"type": "income"}, if_match=before["version"])
    bob_view = bob.game(game_id)
    with pytest.raises(VersionConflict) as stale:
        bob.act(game_id, {"type": "income"}, if_match=before["version"])  # decided on a version that has passed
    assert stale.value.status == 409 and stale.value.code == "version_conflict"
    fresh = stale.value.game
    assert fresh is not None and fresh["version"] == bob_view["version"] and fresh["seat"] == 1
    assert {"type": "income"} in fresh["legal_actions"]

    with pytest.raises(NotYourTurn) as early:
        alice.act(game_id, {"type": "income"}, if_match=bob_view["version"])
    assert early.value.game is not None and early.value.game["legal_actions"] == []
    assert early.value.game["awaiting"] == [1] and early.value.game["seat"] == 0
    assert coins(bob, game_id, 1) == 2 and coins(bob, game_id, 0) == 3  # the refused actions changed nothing


def test_every_code_the_api_document_lists_raises_its_own_class(server: str) -> None:
    """The OpenAPI document enumerates, per operation and status, the problem codes: each has its class."""
    document = Client(server).openapi()
    listed: dict[str, int] = {}
    for operations in document["paths"].values():
        for operation in operations.values():
            for status, answer in operation.get("responses", {}).items():
                for media in answer.get("content", {}).values():
                    for part in media.get("schema", {}).get("allOf", []):
                        for code in part.get("properties", {}).get("code", {}).get("enum", []):
                            listed[code] = int(status)
    assert {"version_conflict", "not_your_turn", "rate_limited", "store_unavailable"} <= set(listed)
    for code, status in listed.items():
        error = error_from_problem(status, {"code": code, "detail": "d"})
        assert error.code == code and error.status == status
        if status == 422:  # a game's own rule codes are RuleViolations, with the code kept
            assert isinstance(error, RuleViolation)
        else:
            assert code in ERRORS_BY_CODE and type(error) is ERRORS_BY_CODE[code], code


def test_every_exception_is_exported_by_name() -> None:
    import intrigue_client
    from intrigue_client import errors

    classes = {name for name, value in vars(errors).items()
               if isinstance(value, type) and issubclass(value, IntrigueError)}
    assert classes <= set(errors.__all__) <= set(intrigue_client.__all__)
    assert all(hasattr(intrigue_client, name) for name in intrigue_client.__all__)


def test_the_tables_etiquette_calls(server: str) -> None:
    host, guest, stranger = (Client.register(server, f"etiquette-{n}") for n in ("host", "guest", "stranger"))
    assert guest.player is not None and host.player is not None
    open_id = host.create_game("coup", 2, unlisted=True, invite=[guest.player["id"]])["id"]
    with pytest.raises(NotInvited):
        stranger.join(open_id)
    guest.join(open_id)
    assert guest.leave(open_id)["players"] == [None, None]
    with pytest.raises(NotCreator):
        guest.cancel(open_id)
    host.cancel(open_id)
    assert host.game(open_id)["status"] == "cancelled"
    game_id = host.create_game("coup", 2)["id"]
    host.join(game_id)
    guest.join(game_id)
    host.game(game_id)  # the host's client sees it starting and reveals: the game starts
    with pytest.raises(GameStarted):
        guest.leave(game_id)
    with pytest.raises(GameNotOver):
        guest.rematch(game_id)
    resigned = guest.resign(game_id)
    assert resigned["game"]["winners"] == [0] and resigned["game"]["reason"] == "resigned"
    again = host.rematch(game_id)
    assert again["game"]["rematch_of"] == game_id and guest.rematch(game_id)["game"]["id"] == again["game"]["id"]
    assert host.player_profile(guest.player["id"])["name"] == "etiquette-guest"
    with pytest.raises(PlayerNotFound):
        host.player_profile("no-such-player")
    board = host.leaderboard("coup", limit=1)
    assert board["game"] == "coup" and len(board["players"]) <= 1


def test_standing_orders_are_set_read_and_cleared(server: str) -> None:
    game_id, players = start_coup(server, "orders")
    allow = {"decision": "react", "when": {"targeted": False}, "answer": {"type": "pass"}}
    assert players[1].set_orders(game_id, [allow]) == [{**allow, "once": False}]
    assert players[1].orders(game_id) == [{**allow, "once": False}]
    assert players[2].orders(game_id) == []
    with pytest.raises(BadOrder) as refused:
        players[2].set_orders(game_id, [{"decision": "react", "when": {"hungry": True}, "answer": {"type": "pass"}}])
    assert (refused.value.problem["order"], refused.value.problem["field"]) == (0, "when.hungry")
    players[0].act(game_id, {"type": "tax"})  # seat 1's order passes at once: only seat 2 is asked
    assert players[0].game(game_id)["awaiting"] == [2]
    players[1].clear_orders(game_id)
    assert players[1].orders(game_id) == []


def test_a_tournament_round_lasts_fourteen_days_by_default_and_its_stream_is_read(server: str) -> None:
    host, guest = Client.register(server, "tour-sdk-host"), Client.register(server, "tour-sdk-guest")
    starts = (datetime.now(UTC) + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
    created = host.create_tournament("coup", 2, 1, starts, 2)
    assert created["round_seconds"] == 14 * 24 * 3600  # the default, when the body names none
    guest.join_tournament(created["id"])
    stream = guest.tournament_log(created["id"])
    assert [event["type"] for event in stream] == ["TournamentCreated", "PlayerJoinedTournament"]
    assert stream[0]["data"]["round_seconds"] == 14 * 24 * 3600
    assert guest.tournament_log_ndjson(created["id"]).count(b"\n") == 2
    with pytest.raises(TournamentNotFound):
        guest.tournament_log("no-such-tournament")
