"""Errors a client can act on: one closed set of stable codes, each with a sentence.
How a code is shown on the wire (its HTTP status and title) is the edge's business:
``service.errors``."""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class Code(StrEnum):
    """Every code a command can fail with. A code not listed here cannot be raised."""

    BAD_REQUEST = "bad_request"
    UNAUTHORIZED = "unauthorized"
    NOT_YOUR_SEAT = "not_your_seat"
    NOT_YOUR_TURN = "not_your_turn"
    FORBIDDEN = "forbidden"
    NOT_FOUND = "not_found"
    UNKNOWN_KIND = "unknown_kind"
    METHOD_NOT_ALLOWED = "method_not_allowed"
    STALE_VERSION = "stale_version"
    GAME_OVER = "game_over"
    GAME_NOT_STARTED = "game_not_started"
    GAME_IN_PLAY = "game_in_play"
    SEAT_LEFT = "seat_left"
    OUT_OF_TIME = "out_of_time"
    SEAT_TAKEN = "seat_taken"
    ALREADY_SEATED = "already_seated"
    NAME_TAKEN = "name_taken"
    REQUEST_IN_PROGRESS = "request_in_progress"
    IRREVERSIBLE = "irreversible"
    UNDO_PENDING = "undo_pending"
    DRAW_PENDING = "draw_pending"
    NO_SHARED_RESULT = "no_shared_result"
    UNDO_EXPIRED = "undo_expired"
    PAYLOAD_TOO_LARGE = "payload_too_large"
    UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type"
    ILLEGAL_ACTION = "illegal_action"
    INVALID_OPTIONS = "invalid_options"
    INVALID_REQUEST = "invalid_request"
    IDEMPOTENCY_KEY_REUSED = "idempotency_key_reused"
    PRECONDITION_REQUIRED = "precondition_required"
    RATE_LIMITED = "rate_limited"
    TOO_MANY_STREAMS = "too_many_streams"
    TOO_MANY_CONNECTIONS = "too_many_connections"
    INTERNAL_ERROR = "internal_error"
    LOG_DAMAGED = "log_damaged"
    UNAVAILABLE = "unavailable"


class CommandError(Exception):
    """A command that cannot be carried out; nothing was appended."""

    def __init__(self, code: Code | str, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.code = Code(code)  # ValueError for a code outside the set
        self.detail = detail
        self.extra = extra


def log_damaged(game_id: str, version: int, head_version: int) -> CommandError:
    """The answer for a log that does not hold every version it was appended up to: no
    route serves a shorter or gapped log as if it were the game."""
    return CommandError(
        Code.LOG_DAMAGED,
        f"Game {game_id}'s log ends at version {version} but was appended up to version {head_version}: "
        "events are missing. Nothing is served from it until the operator restores it.",
        version=version,
        head_version=head_version,
    )
