"""Exceptions named after the API's problem codes.

Every refusal the server sends is an RFC 9457 problem with a stable ``code``. Each
documented code has its own class (``not_your_turn`` raises :class:`NotYourTurn`), and
each class sits under one per status family, so a caller catches as narrowly as it
likes: ``except NotYourTurn``, ``except Conflict`` or ``except IntrigueError``. A code
this version does not know (a game's own rule codes, say) raises its family's class,
with the code still in ``code``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from intrigue_client.types import GameView


class IntrigueError(Exception):
    """A request the server refused, or one that could not be completed.

    ``problem`` is the whole problem body (``{}`` when there was none, as for a
    dropped connection), ``status`` the HTTP status (``None`` when no answer came).
    """

    def __init__(self, code: str, status: int | None, detail: str, problem: dict[str, Any] | None = None) -> None:
        super().__init__(f"{status} {code}: {detail}" if status is not None else f"{code}: {detail}")
        self.code = code
        self.status = status
        self.detail = detail
        self.problem: dict[str, Any] = problem or {}
        #: For an action: the Idempotency-Key it was sent with, to post the same decision again.
        self.idempotency_key: str | None = None


class ConnectionFailed(IntrigueError):
    """No answer after every retry: the server is down, unreachable or kept dropping the connection."""

    def __init__(self, detail: str) -> None:
        super().__init__("connection_failed", None, detail)


# ------------------------------------------------------------ status families
class BadRequest(IntrigueError):
    """400: the request itself is malformed; sending it again will not help."""


class Unauthorized(IntrigueError):
    """401: no token, or one the server does not know."""


class Forbidden(IntrigueError):
    """403: the caller may not do or read this."""


class NotFound(IntrigueError):
    """404: no such game, version, webhook or path."""


class MethodNotAllowed(IntrigueError):
    """405: the path exists, the method does not."""


class Conflict(IntrigueError):
    """409: the game's state does not allow this now."""


class RequestRejected(IntrigueError):
    """413, 415 or 431: the request's size or media type."""


class RuleViolation(IntrigueError):
    """422: the rules (or the options, or a webhook's destination) refuse it; nothing changed.

    For a refused action, ``legal_actions`` lists what the seat may do instead.
    """

    @property
    def legal_actions(self) -> list[dict[str, Any]]:
        return list(self.problem.get("legal_actions") or [])


class TooManyRequests(IntrigueError):
    """429, raised only when waiting ``Retry-After`` was not allowed or did not help."""

    @property
    def retry_after(self) -> float:
        return float(self.problem.get("retry_after") or 1.0)


class ServerError(IntrigueError):
    """5xx, raised after the retries: the outcome of a POST sent without a key is unknown."""


# ------------------------------------------------------------ 409s that carry the view
class StaleView(Conflict):
    """The game moved on before this action: ``game`` is the caller's view as it is now.

    The client reads it for you (``GET /v1/games/<id>``) before raising, so the caller
    decides again on fresh facts without another request of its own. ``game`` is
    ``None`` only when that read failed as well.
    """

    game: GameView | None = None


class VersionConflict(StaleView):
    """``version_conflict``: ``If-Match`` named a version the game has passed."""


class NotYourTurn(StaleView):
    """``not_your_turn``: the seat owes no decision now."""


# ------------------------------------------------------------ one class per documented code
class EmptyBody(BadRequest): ...
class MalformedJson(BadRequest): ...
class BadEncoding(BadRequest): ...
class TooDeep(BadRequest): ...
class MalformedBody(BadRequest): ...
class InvalidBody(BadRequest): ...
class BadQuery(BadRequest): ...
class BadCursor(BadRequest): ...
class BadIfMatch(BadRequest): ...
class BadIdempotencyKey(BadRequest): ...
class BadLastEventId(BadRequest): ...
class AuthRequired(Unauthorized): ...
class BadAuthorization(Unauthorized): ...
class BadToken(Unauthorized): ...
class NotSeated(Forbidden): ...
class GameInProgress(Forbidden): ...
class GameNotFound(NotFound): ...
class VersionNotFound(NotFound): ...
class WebhookNotFound(NotFound): ...
class PathNotFound(NotFound): ...
class TokenNotFound(NotFound): ...
class GameNotStarted(Conflict): ...
class GameOver(Conflict): ...
class GameNotOpen(Conflict): ...
class IdempotencyKeyReused(Conflict): ...
class TooManyOpenGames(Conflict): ...
class GameStarted(Conflict): ...
class GameCancelled(Conflict): ...
class AlreadyResigned(Conflict): ...
class SeatResigned(Conflict): ...
class TooManyRevisions(Conflict): ...
class GameNotOver(Conflict): ...
class NotCreator(Forbidden): ...
class NotInvited(Forbidden): ...
class PlayerNotFound(NotFound): ...
class LeaderboardNotFound(NotFound): ...
class UnknownPlayer(RuleViolation): ...
class TooManyInvitations(RuleViolation): ...
class Busy(Conflict): ...
class TooManyTokens(Conflict): ...
class TableTalkFull(Conflict): ...
class BodyTooLarge(RequestRejected): ...
class UnsupportedMediaType(RequestRejected): ...
class HeadersTooLarge(RequestRejected): ...
class UnknownGame(RuleViolation): ...
class BadSeatCount(RuleViolation): ...
class BadBotSeat(RuleViolation): ...
class UnknownBotStrategy(RuleViolation): ...
class BadRecipient(RuleViolation): ...
class BadOrder(RuleViolation): ...
class TooManyWebhooks(RuleViolation): ...
class BadWebhookUrl(RuleViolation): ...
class WebhookHostUnresolvable(RuleViolation): ...
class WebhookDestinationRefused(RuleViolation): ...
class RateLimited(TooManyRequests): ...
class ChatRateLimited(TooManyRequests): ...
class AddressRateLimited(TooManyRequests): ...
class TooManyStreams(TooManyRequests): ...
class TooManyConnections(TooManyRequests): ...
class BodyTimeout(RequestRejected): ...
class InternalError(ServerError): ...
class NotImplementedByServer(ServerError): ...
class StoreUnavailable(ServerError): ...
class NotInLog(NotFound): ...
class BeyondLog(RuleViolation): ...
class BadRange(RuleViolation): ...
class BadCosignature(RuleViolation): ...
class TooManyActiveGames(Conflict): ...
class TooUnreliable(Forbidden): ...
class NotEnoughVacation(Conflict): ...
class OnVacation(Conflict): ...
class NotOnVacation(Conflict): ...
class BadTimezone(RuleViolation): ...
class SeatNotOffered(Conflict): ...
class AlreadySeated(Conflict): ...
class BadCommitment(RuleViolation): ...
class BadReveal(RuleViolation): ...
class GameNotStarting(Conflict): ...
class NothingToReveal(Conflict): ...


#: ``code`` -> exception class, for every code the API documents.
ERRORS_BY_CODE: dict[str, type[IntrigueError]] = {
    "empty_body": EmptyBody, "malformed_json": MalformedJson, "bad_encoding": BadEncoding, "too_deep": TooDeep,
    "malformed_body": MalformedBody, "invalid_body": InvalidBody, "bad_query": BadQuery, "bad_cursor": BadCursor,
    "bad_if_match": BadIfMatch, "bad_idempotency_key": BadIdempotencyKey, "bad_last_event_id": BadLastEventId,
    "bad_request": BadRequest,
    "auth_required": AuthRequired, "bad_authorization": BadAuthorization, "bad_token": BadToken,
    "not_seated": NotSeated, "game_in_progress": GameInProgress,
    "game_not_found": GameNotFound, "version_not_found": VersionNotFound, "webhook_not_found": WebhookNotFound,
    "not_found": PathNotFound, "token_not_found": TokenNotFound,
    "method_not_allowed": MethodNotAllowed,
    "version_conflict": VersionConflict, "not_your_turn": NotYourTurn, "game_not_started": GameNotStarted,
    "game_over": GameOver, "game_not_open": GameNotOpen, "idempotency_key_reused": IdempotencyKeyReused,
    "too_many_open_games": TooManyOpenGames, "busy": Busy, "too_many_tokens": TooManyTokens,
    "table_talk_full": TableTalkFull,
    "game_started": GameStarted, "game_cancelled": GameCancelled, "already_resigned": AlreadyResigned,
    "seat_resigned": SeatResigned, "too_many_revisions": TooManyRevisions, "game_not_over": GameNotOver,
    "not_creator": NotCreator,
    "not_invited": NotInvited, "player_not_found": PlayerNotFound, "leaderboard_not_found": LeaderboardNotFound,
    "unknown_player": UnknownPlayer, "too_many_invitations": TooManyInvitations,
    "body_too_large": BodyTooLarge, "unsupported_media_type": UnsupportedMediaType,
    "headers_too_large": HeadersTooLarge,
    "unknown_game": UnknownGame, "bad_seat_count": BadSeatCount, "bad_recipient": BadRecipient,
    "bad_order": BadOrder,
    "bad_bot_seat": BadBotSeat, "unknown_bot_strategy": UnknownBotStrategy,
    "too_many_webhooks": TooManyWebhooks, "bad_webhook_url": BadWebhookUrl,
    "webhook_host_unresolvable": WebhookHostUnresolvable, "webhook_destination_refused": WebhookDestinationRefused,
    "rate_limited": RateLimited, "chat_rate_limited": ChatRateLimited, "address_rate_limited": AddressRateLimited,
    "too_many_streams": TooManyStreams, "too_many_connections": TooManyConnections, "body_timeout": BodyTimeout,
    "internal_error": InternalError, "not_implemented": NotImplementedByServer, "store_unavailable": StoreUnavailable,
    "not_in_log": NotInLog, "beyond_log": BeyondLog, "bad_range": BadRange, "bad_cosignature": BadCosignature,
    "too_many_active_games": TooManyActiveGames, "too_unreliable": TooUnreliable,
    "not_enough_vacation": NotEnoughVacation, "on_vacation": OnVacation, "not_on_vacation": NotOnVacation,
    "bad_timezone": BadTimezone, "seat_not_offered": SeatNotOffered, "already_seated": AlreadySeated,
    "bad_commitment": BadCommitment, "bad_reveal": BadReveal, "game_not_starting": GameNotStarting,
    "nothing_to_reveal": NothingToReveal,
}

_BY_STATUS: dict[int, type[IntrigueError]] = {400: BadRequest, 401: Unauthorized, 403: Forbidden, 404: NotFound,
                                              405: MethodNotAllowed, 408: RequestRejected, 409: Conflict,
                                              413: RequestRejected, 415: RequestRejected, 422: RuleViolation,
                                              429: TooManyRequests, 431: RequestRejected}


def error_from_problem(status: int, problem: dict[str, Any], fallback_detail: str = "") -> IntrigueError:
    """The exception for one problem answer: its code's class, else its status family's."""
    code = str(problem.get("code") or "http_error")
    detail = str(problem.get("detail") or fallback_detail or f"HTTP {status}")
    cls = ERRORS_BY_CODE.get(code) or _BY_STATUS.get(status) or (ServerError if status >= 500 else IntrigueError)
    return cls(code, status, detail, problem)


__all__ = [
    "ERRORS_BY_CODE", "error_from_problem", "IntrigueError", "ConnectionFailed", "BadRequest", "Unauthorized",
    "Forbidden", "NotFound", "MethodNotAllowed", "Conflict", "RequestRejected", "RuleViolation", "TooManyRequests",
    "ServerError", "StaleView", "VersionConflict", "NotYourTurn", "EmptyBody", "MalformedJson", "BadEncoding",
    "TooDeep", "MalformedBody", "InvalidBody", "BadQuery", "BadCursor", "BadIfMatch", "BadIdempotencyKey",
    "BadLastEventId", "AuthRequired", "BadAuthorization", "BadToken", "NotSeated", "GameInProgress", "GameNotFound",
    "VersionNotFound", "WebhookNotFound", "PathNotFound", "GameNotStarted", "GameOver", "GameNotOpen",
    "IdempotencyKeyReused", "TooManyOpenGames", "Busy", "BodyTooLarge", "UnsupportedMediaType", "HeadersTooLarge",
    "UnknownGame", "BadSeatCount", "BadBotSeat", "UnknownBotStrategy",
    "BadRecipient", "BadOrder", "TooManyWebhooks", "BadWebhookUrl", "WebhookHostUnresolvable",
    "WebhookDestinationRefused", "RateLimited", "ChatRateLimited", "InternalError", "NotImplementedByServer",
    "StoreUnavailable",
    "TokenNotFound", "TooManyTokens", "TableTalkFull", "AddressRateLimited", "TooManyStreams",
    "TooManyConnections", "BodyTimeout",
    "GameStarted", "GameCancelled", "AlreadyResigned", "SeatResigned", "TooManyRevisions", "GameNotOver",
    "NotCreator", "NotInvited", "PlayerNotFound", "LeaderboardNotFound", "UnknownPlayer", "TooManyInvitations",
    "NotInLog", "BeyondLog", "BadRange", "BadCosignature", "BadCommitment", "BadReveal", "GameNotStarting",
    "NothingToReveal",
    "TooManyActiveGames", "TooUnreliable", "NotEnoughVacation", "OnVacation", "NotOnVacation", "BadTimezone",
    "SeatNotOffered", "AlreadySeated",
]
