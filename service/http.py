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
from service.ratelimit import RateCounter, client_address, retry_after

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


def bearer_token(header: str) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, read leniently (the
    scheme in any case, any whitespace around and between); None if it is not one.
    The rate limiter keys a token's counter by what this returns, so every spelling
    that authenticates as a token counts against that token."""
    parts = header.split(None, 1)
    if len(parts) != 2 or parts[0].lower() != "bearer":
        return None
    return parts[1].strip() or None


def bearer() -> str | None:
    header = request.headers.get("Authorization", "")
    if not header:
        return None
    token = bearer_token(header)
    if token is None:
        raise CommandError("unauthorized", "Send a seat token as 'Authorization: Bearer <token>'.")
    return token


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


# Token counters known to be over their limit, each with the monotonic time its window
# ends, so a flood from one token is refused without a Redis round trip per request. It
# only ever refuses what Redis would refuse too: the window's end is the counter's own
# expiry, and a counter deleted early only means this process refuses until that end.
_OVER_LIMIT: dict[str, float] = {}


def _refuse(left_ms: int) -> CommandError:
    seconds = retry_after(left_ms)
    return CommandError("rate_limited", f"Too many requests; wait {seconds} s and try again.", retry_after=seconds)


def rate_limit() -> None:
    """Fixed-window counters per client address and per bearer token, counted in one
    atomic round trip (``service.ratelimit``) that also reads whom the token acts for,
    which ``caller_seat`` then uses. A header that is not a bearer token counts
    against the address alone."""
    config = platform().config
    counter = current_app.extensions.get("tablestream.rate")
    if counter is None:
        counter = current_app.extensions["tablestream.rate"] = RateCounter(platform().redis)
    address = client_address(request.remote_addr, request.headers.get("X-Forwarded-For"), config.trusted_proxies)
    address_key = platform().key("rate", "ip", address)
    token = bearer_token(request.headers.get("Authorization", ""))
    if token is None:
        hit = counter.hit(address_key, config.rate_window_seconds)
        if hit.address_count > config.rate_per_address:
            raise _refuse(hit.address_left_ms)
        return
    token_key = platform().key("rate", "token", hashlib.sha256(token.encode()).hexdigest())
    now = time.monotonic()
    ends = _OVER_LIMIT.get(token_key, 0.0)
    if ends > now:
        raise _refuse(round((ends - now) * 1000))
    hit = counter.hit(address_key, config.rate_window_seconds, (token_key, platform().vault.token_key(token)))
    g.token_owner = (token, platform().vault.owner_of(hit.owner))
    if hit.token_count is not None and hit.token_count > config.rate_per_token:
        if len(_OVER_LIMIT) > 10_000:
            for key in [key for key, end in _OVER_LIMIT.items() if end <= now]:
                del _OVER_LIMIT[key]
            if len(_OVER_LIMIT) > 10_000:
                _OVER_LIMIT.clear()
        _OVER_LIMIT[token_key] = now + hit.token_left_ms / 1000
        raise _refuse(hit.token_left_ms)
    if hit.address_count > config.rate_per_address:
        raise _refuse(hit.address_left_ms)
