"""The HTTP face of the core's error codes: each code's status and title, kept at the
edge. Every code has both (``tests/api/test_errors.py`` checks the mapping is total)."""

from __future__ import annotations

from core.errors import Code, CommandError

STATUS: dict[str, int] = {
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
    "game_in_play": 409,
    "seat_left": 409,
    "out_of_time": 409,
    "seat_taken": 409,
    "already_seated": 409,
    "name_taken": 409,
    "request_in_progress": 409,
    "irreversible": 409,
    "undo_pending": 409,
    "draw_pending": 409,
    "undo_expired": 409,
    "payload_too_large": 413,
    "unsupported_media_type": 415,
    "illegal_action": 422,
    "invalid_options": 422,
    "invalid_request": 422,
    "no_shared_result": 422,
    "idempotency_key_reused": 422,
    "precondition_required": 428,
    "rate_limited": 429,
    "too_many_streams": 429,
    "too_many_connections": 429,
    "internal_error": 500,
    "log_damaged": 500,
    "unavailable": 503,
}

TITLES: dict[str, str] = {
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
    "game_in_play": "Game still in play",
    "seat_left": "Seat has left the game",
    "out_of_time": "Out of time",
    "seat_taken": "Seat taken",
    "already_seated": "Already seated",
    "name_taken": "Name taken",
    "request_in_progress": "Request in progress",
    "irreversible": "Irreversible",
    "undo_pending": "Undo pending",
    "draw_pending": "Offer pending",
    "undo_expired": "Undo expired",
    "payload_too_large": "Payload too large",
    "unsupported_media_type": "Unsupported media type",
    "illegal_action": "Illegal action",
    "invalid_options": "Invalid options",
    "invalid_request": "Invalid request",
    "no_shared_result": "No shared result in this game",
    "idempotency_key_reused": "Idempotency-Key reused",
    "precondition_required": "Expected version required",
    "rate_limited": "Too many requests",
    "too_many_streams": "Too many streams",
    "too_many_connections": "Too many connections",
    "internal_error": "Internal error",
    "log_damaged": "Game log damaged",
    "unavailable": "Service unavailable",
}


def status_of(error: CommandError) -> int:
    return STATUS[error.code]


def title_of(error: CommandError) -> str:
    return TITLES[error.code]


__all__ = ["STATUS", "TITLES", "Code", "CommandError", "status_of", "title_of"]
