"""One error type for everything a client can get wrong, rendered as RFC 9457 problem details."""

from __future__ import annotations

from typing import Any


class Problem(Exception):
    """A refused request. ``code`` is stable for clients; ``detail`` is for people.

    Details are written from what the caller may already see: never another seat's
    hand, bid, the deck or the seed.
    """

    def __init__(self, status: int, code: str, detail: str, title: str | None = None, **extra: Any) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.title = title or _TITLES.get(status, "Error")
        self.extra = extra

    def to_dict(self) -> dict[str, Any]:
        return {"type": f"https://intrigue.invalid/problems/{self.code}", "title": self.title,
                "status": self.status, "detail": self.detail, "code": self.code, **self.extra}


_TITLES = {
    400: "Malformed request",
    401: "Authentication required",
    403: "Forbidden",
    404: "Not found",
    405: "Method not allowed",
    409: "Conflict",
    413: "Request too large",
    415: "Unsupported media type",
    422: "Rule violation",
    429: "Too many requests",
    500: "Internal error",
    503: "Service unavailable",
}
