"""What the application refuses, by kind: the transport decides how each kind is answered.

Each error carries a stable ``code`` for clients, a ``detail`` for people and any
``extra`` fields the answer shows (the game's version, the legal actions, when to
retry). Details are written from what the caller may already see: never another seat's
hand, bid, the deck or the seed.
"""

from __future__ import annotations

from typing import Any


class DomainError(Exception):
    """A refused command or query; subclasses say which kind of refusal it is."""

    def __init__(self, code: str, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.extra = extra


class NotFound(DomainError):
    """What was named does not exist (a game, a version, a webhook)."""


class Forbidden(DomainError):
    """The caller may not do this (not seated, not yet published)."""


class Conflict(DomainError):
    """The game's state does not allow it now (over, not open, moved on, busy)."""


class NotYourTurn(Conflict):
    """The seat has no decision to make now."""


class Invalid(DomainError):
    """The request is well formed but the rules or the settings refuse it."""


class Limited(DomainError):
    """The caller is out of allowance; ``retry_after`` says when to come back."""

    def __init__(self, code: str, detail: str, retry_after: float, **extra: Any) -> None:
        super().__init__(code, detail, retry_after=retry_after, **extra)
        self.retry_after = retry_after


#: Every code the engine refuses with, declared here where the kinds are: code -> (kind, meaning).
#: A game's own rule and option codes are declared by the game (``RULE_CODES``); the engine passes
#: them on as they are. The transport answers each kind with one status, so each code has one status.
DOMAIN_CODES: dict[str, tuple[type[DomainError], str]] = {
    "game_not_found": (NotFound, "no game has this id"),
    "version_not_found": (NotFound, "a replay asked for a version past the game's current one"),
    "webhook_not_found": (NotFound, "the caller has no webhook with this id"),
    "not_seated": (Forbidden, "the caller holds no seat in this game"),
    "game_not_open": (Conflict, "the game no longer takes players"),
    "game_not_started": (Conflict, "the game still has free seats"),
    "game_over": (Conflict, "the game has ended"),
    "not_your_turn": (NotYourTurn, "the seat owes no decision now"),
    "version_conflict": (Conflict, "the game moved on from the version the caller named"),
    "idempotency_key_reused": (Conflict, "the key was already used for a different action"),
    "busy": (Conflict, "the game changed too often while the command ran; retry"),
    "table_talk_full": (Conflict, "the game keeps as many messages as the operator allows"),
    "too_many_tokens": (Conflict, "the player holds as many tokens as allowed; revoke one first"),
    "token_not_found": (NotFound, "the caller has no token with this id"),
    "unknown_game": (Invalid, "the server hosts no game of this name"),
    "bad_seat_count": (Invalid, "the game is not played by this many seats"),
    "bad_order": (Invalid, "a standing order names no decision or condition of the game, or a bad value "
                           "(`order` is its place in the list, `field` the field at fault)"),
    "bad_recipient": (Invalid, "a private message names no other seated player"),
    "bad_webhook_url": (Invalid, "the webhook URL is not an http(s) URL the server accepts"),
    "webhook_host_unresolvable": (Invalid, "the webhook URL's host does not resolve"),
    "webhook_destination_refused": (Invalid, "the webhook URL's host resolves to a private address"),
    "too_many_webhooks": (Invalid, "the player has as many webhooks as allowed"),
    "bad_bot_seat": (Invalid, "a bot seat that is not the game's, or no seat left for a person"),
    "unknown_bot_strategy": (Invalid, "a bot strategy the server does not have"),
    "rate_limited": (Limited, "too many requests from this caller"),
    "chat_rate_limited": (Limited, "too many table-talk messages from this seat"),
    "address_rate_limited": (Limited, "too many requests from this client address, over all its tokens"),
    "too_many_streams": (Limited, "too many event streams open at once for this player or address"),
    "not_creator": (Forbidden, "only the game's creator may cancel it (a tournament's, start it)"),
    "not_invited": (Forbidden, "the game takes only the players invited to it"),
    "humans_only": (Forbidden, "the game's creator keeps bot accounts out of it"),
    "player_not_found": (NotFound, "no player has this id"),
    "leaderboard_not_found": (NotFound, "the server hosts no game of this name to rank players in"),
    "game_started": (Conflict, "the game has started: too late to leave or cancel it (resign instead)"),
    "game_cancelled": (Conflict, "the game was cancelled before it started"),
    "already_resigned": (Conflict, "the seat has resigned already"),
    "seat_resigned": (Conflict, "the seat resigned: the takeover bot plays it"),
    "too_many_revisions": (Conflict, "the seat replaced its sealed decision (or the player left the open game) "
                                     "as often as the operator allows"),
    "game_not_over": (Conflict, "a rematch is offered once the game has ended"),
    "unknown_player": (Invalid, "an invitation names no registered player"),
    "bad_commitment": (Invalid, "a join's commitment is not 64 lowercase hex digits (the SHA-256 of a secret)"),
    "bad_reveal": (Invalid, "a revealed secret is not 64 hex digits whose SHA-256 is the seat's commitment"),
    "game_not_starting": (Conflict, "the game is not waiting for secrets: its seats are not all taken, or it "
                                    "has started"),
    "nothing_to_reveal": (Conflict, "the seat joined without a commitment"),
    "too_many_invitations": (Invalid, "more players invited than the game has seats"),
    # The correspondence community (issue 50).
    "too_many_active_games": (Conflict, "the player holds as many seats in games not over as the operator allows"),
    "too_unreliable": (Forbidden, "the player's reliability is below the game's min_reliability"),
    "not_enough_vacation": (Conflict, "the player has fewer vacation days left this year than asked for"),
    "on_vacation": (Conflict, "the player is on vacation already (end it first)"),
    "not_on_vacation": (Conflict, "the player is not on vacation"),
    "bad_timezone": (Invalid, "not an IANA time zone name the server knows"),
    "seat_not_offered": (Conflict, "the seat is not offered to a substitute (not left to the bot, or the game "
                                   "takes none)"),
    "already_seated": (Conflict, "a player seated in a game cannot substitute for another of its seats"),
    "tournament_not_found": (NotFound, "no tournament has this id"),
    "tournament_started": (Conflict, "the tournament has started: too late to join, leave or start it"),
    "tournament_cancelled": (Conflict, "the tournament was cancelled at its start for want of players"),
    "tournament_full": (Conflict, "the tournament has its max_players already"),
    "too_few_players": (Conflict, "fewer players than min_players have joined: too early to start"),
    "tournament_not_started": (Conflict, "the tournament has not started: leave it instead of withdrawing"),
    "tournament_over": (Conflict, "the tournament is over"),
    "already_withdrawn": (Conflict, "the player has withdrawn from the tournament already"),
    "not_entered": (Forbidden, "the caller has not joined this tournament"),
    "bad_player_bounds": (Invalid, "min_players below seats_per_table, or max_players below min_players"),
    "bad_starts_at": (Invalid, "a tournament's starts_at that is not in the future"),
}

#: Rule codes that fault the game's moment, not the action: a conflict whichever layer raises them,
#: so every problem code answers with one status.
CONFLICT_RULE_CODES = frozenset({"not_your_turn", "game_over"})


def rule_refusal(code: str, detail: str, **extra: Any) -> DomainError:
    """The domain error for a game's rule refusal: a conflict for the codes above, else invalid."""
    if code == "not_your_turn":
        return NotYourTurn(code, detail, **extra)
    if code in CONFLICT_RULE_CODES:
        return Conflict(code, detail, **extra)
    return Invalid(code, detail, **extra)
