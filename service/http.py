"""HTTP plumbing shared by the blueprints: problem+json errors, the caller's seat,
request bodies through schemas, and rate limits."""

from __future__ import annotations

import hashlib
import json
import time
from typing import Any

from flask import Response, current_app, g, request
from marshmallow import Schema, ValidationError

from service.errors import CommandError
from service.platform import Platform

PROBLEM = "application/problem+json"


def platform() -> Platform:
    return current_app.extensions["tablestream"]


def problem(error: CommandError) -> Response:
    body = {
        "type": f"https://tablestream.dev/problems/{error.code}",
        "title": error.title,
        "status": error.status,
        "detail": error.detail,
        "code": error.code,
        **error.extra,
    }
    response = Response(json.dumps(body), status=error.status, mimetype=PROBLEM)
    if error.code == "unauthorized":
        response.headers["WWW-Authenticate"] = 'Bearer realm="tablestream"'
    if error.code == "rate_limited":
        response.headers["Retry-After"] = str(error.extra.get("retry_after", 1))
    return response


def body(schema: Schema) -> dict[str, Any]:
    """The request's JSON body loaded through ``schema``; 415/400/422 otherwise."""
    if not request.is_json:
        raise CommandError("unsupported_media_type", "Send the body as JSON (Content-Type: application/json).")
    try:
        raw = json.loads(request.get_data(cache=True) or b"null")
    except (ValueError, RecursionError):
        raise CommandError("bad_request", "The body is not valid JSON.") from None
    try:
        # A \ud800-style escape decodes to a lone surrogate, which no UTF-8 text (an
        # event's hash, a seed's commitment) can hold: refuse it here, not with a 500 later.
        json.dumps(raw, ensure_ascii=False).encode()
    except UnicodeEncodeError:
        raise CommandError(
            "bad_request", "The body holds a lone surrogate (\\ud800-\\udfff), which is not text."
        ) from None
    except RecursionError:
        raise CommandError("bad_request", "The body is nested too deeply.") from None
    if not isinstance(raw, dict):
        raise CommandError("invalid_request", "The body must be a JSON object.")
    try:
        return schema.load(raw)
    except ValidationError as error:
        raise CommandError(
            "invalid_request", "The request does not fit its schema: " + _flatten(error.messages) + ".",
            errors=error.messages,
        ) from None


def _flatten(messages: Any, path: str = "") -> str:
    if isinstance(messages, dict):
        return "; ".join(_flatten(v, f"{path}.{k}" if path else str(k)) for k, v in messages.items())
    if isinstance(messages, list):
        return ", ".join(_flatten(m, path) for m in messages)
    return f"{path}: {messages}" if path else str(messages)


def bearer() -> str | None:
    header = request.headers.get("Authorization", "")
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise CommandError("unauthorized", "Send a seat token as 'Authorization: Bearer <token>'.")
    return token.strip()


def caller_seat(game_id: str) -> int | None:
    """The seat the request's token acts for in this game; None for a spectator.
    An unknown token is 401; a token of another game is 403."""
    if "seat" in g and g.get("seat_game") == game_id:
        return g.seat
    token = bearer()
    seat = None
    if token is not None:
        fetched = g.get("token_owner")  # read by the rate limiter in its round trip
        owner = fetched[1] if fetched is not None and fetched[0] == token else platform().vault.owner(token)
        if owner is None:
            raise CommandError("unauthorized", "That token is unknown or was revoked.")
        if owner[0] != game_id:
            raise CommandError("not_your_seat", "That token belongs to another game.")
        seat = owner[1]
    g.seat, g.seat_game = seat, game_id
    return seat


# Keys of tokens known to be over their limit, each with the monotonic time its window
# ends, so a flood from one token is refused without a Redis round trip per request.
_OVER_LIMIT: dict[str, float] = {}


def rate_limit() -> None:
    """Fixed one-window counters per address and per token, in Redis. The same round
    trip reads whom a bearer token acts for, which ``caller_seat`` then uses."""
    config = platform().config
    window = config.rate_window_seconds
    header = request.headers.get("Authorization", "")
    token_key = platform().key("rate", "token", hashlib.sha256(header.encode()).hexdigest()[:32]) if header else None
    now = time.monotonic()
    if token_key is not None and _OVER_LIMIT.get(token_key, 0.0) > now:
        raise CommandError("rate_limited", f"Too many requests; wait {window} s and try again.", retry_after=window)
    pipe = platform().redis.pipeline(transaction=False)
    address_key = platform().key("rate", "ip", request.remote_addr or "?")
    pipe.set(address_key, 0, ex=window, nx=True)
    pipe.incr(address_key)
    if token_key is not None:
        pipe.set(token_key, 0, ex=window, nx=True)
        pipe.incr(token_key)
        pipe.pttl(token_key)
    scheme, _, token = header.partition(" ")
    token = token.strip() if scheme.lower() == "bearer" else ""
    if token:
        pipe.get(platform().vault.token_key(token))
    counts = pipe.execute()
    if token:
        g.token_owner = (token, platform().vault.owner_of(counts[-1]))
    token_over = token_key is not None and counts[3] > config.rate_per_token
    if token_over and token_key is not None:
        if len(_OVER_LIMIT) > 10_000:
            _OVER_LIMIT.clear()
        _OVER_LIMIT[token_key] = now + max(0, counts[4]) / 1000
    if counts[1] > config.rate_per_address or token_over:
        raise CommandError(
            "rate_limited", f"Too many requests; wait {window} s and try again.", retry_after=window
        )
