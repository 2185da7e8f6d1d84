"""Errors a client can act on: a stable code, an HTTP status and a sentence."""

from __future__ import annotations

from typing import Any

STATUS = {
    "bad_request": 400,
    "unauthorized": 401,
    "not_your_seat": 403,
    "not_your_turn": 403,
    "forbidden": 403,
    "not_found": 404,
    "unknown_kind": 404,
    "method_not_allowed": 405,
    "stale_version": 409,
    "game_over": 409,
    "game_not_started": 409,
    "seat_taken": 409,
    "request_in_progress": 409,
    "irreversible": 409,
    "undo_pending": 409,
    "undo_expired": 409,
    "payload_too_large": 413,
    "unsupported_media_type": 415,
    "illegal_action": 422,
    "invalid_options": 422,
    "invalid_request": 422,
    "idempotency_key_reused": 422,
    "precondition_required": 428,
    "rate_limited": 429,
    "internal_error": 500,
    "log_damaged": 500,
    "unavailable": 503,
}

TITLES = {
    "bad_request": "Bad request",
    "unauthorized": "Missing or unknown token",
    "not_your_seat": "Not your seat",
    "not_your_turn": "Not your turn",
    "forbidden": "Forbidden",
    "not_found": "Not found",
    "unknown_kind": "Unknown game kind",
    "method_not_allowed": "Method not allowed",
    "stale_version": "Stale version",
    "game_over": "Game over",
    "game_not_started": "Game not started",
    "seat_taken": "Seat taken",
    "request_in_progress": "Request in progress",
    "irreversible": "Irreversible",
    "undo_pending": "Undo pending",
    "undo_expired": "Undo expired",
    "payload_too_large": "Payload too large",
    "unsupported_media_type": "Unsupported media type",
    "illegal_action": "Illegal action",
    "invalid_options": "Invalid options",
    "invalid_request": "Invalid request",
    "idempotency_key_reused": "Idempotency-Key reused",
    "precondition_required": "Expected version required",
    "rate_limited": "Too many requests",
    "internal_error": "Internal error",
    "log_damaged": "Game log damaged",
    "unavailable": "Service unavailable",
}


class CommandError(Exception):
    """A command that cannot be carried out; nothing was appended."""

    def __init__(self, code: str, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.extra = extra

    @property
    def status(self) -> int:
        return STATUS[self.code]

    @property
    def title(self) -> str:
        return TITLES[self.code]
