"""HTTP plumbing shared by the blueprints: problem+json errors, the caller's seat,
request bodies through schemas, and rate limits."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from flask import Flask, Response, current_app, g, request
from marshmallow import Schema, ValidationError

from core.errors import Code, CommandError
from core.players import account_of, is_player_key
from core.vault import token_hash
from service.crowd import StreamCaps
from service.errors import status_of, title_of
from service.metrics import count, observe_request
from service.ratelimit import TOKEN, OverLimit, RateCounter, client_address, counter_key, retry_after
from stores.platform import Platform

if TYPE_CHECKING:
    from _typeshed.wsgi import WSGIApplication

PROBLEM = "application/problem+json"


def platform() -> Platform:
    return current_app.extensions["tablestream"]


def problem_body(error: CommandError) -> dict[str, Any]:
    """The problem+json body of ``error`` (RFC 9457)."""
    return {
        "type": f"https://tablestream.dev/problems/{error.code}",
        "title": title_of(error),
        "status": status_of(error),
        "detail": error.detail,
        "code": error.code,
        **error.extra,
    }


def problem(error: CommandError) -> Response:
    response = Response(json.dumps(problem_body(error)), status=status_of(error), mimetype=PROBLEM)
    if error.code == Code.UNAUTHORIZED:
        response.headers["WWW-Authenticate"] = 'Bearer realm="tablestream"'
    if "retry_after" in error.extra:
        response.headers["Retry-After"] = str(error.extra.get("retry_after", 1))
    return response


def body(schema: Schema) -> dict[str, Any]:
    """The request's JSON body loaded through ``schema``; 415/400/422 otherwise. A request
    with no body at all, whatever its Content-Type, is the empty object: a join with a
    player key, say, needs nothing more, and the schema names any field it lacks."""
    data = request.get_data(cache=True)
    if not data:
        raw: Any = {}
    elif not request.is_json:
        raise CommandError(Code.UNSUPPORTED_MEDIA_TYPE, "Send the body as JSON (Content-Type: application/json).")
    else:
        raw = _json_of(data)
    try:
        return schema.load(raw)
    except ValidationError as error:
        raise CommandError(
            Code.INVALID_REQUEST,
            "The request does not fit its schema: " + _flatten(error.messages) + ".",
            errors=error.messages,
        ) from None


def _json_of(data: bytes) -> dict[str, Any]:
    """A request body's JSON object; 400 for text that is not JSON, 422 for another value."""
    try:
        raw = json.loads(data)
    except (ValueError, RecursionError):
        raise CommandError(Code.BAD_REQUEST, "The body is not valid JSON.") from None
    try:
        # A \ud800-style escape decodes to a lone surrogate, which no UTF-8 text (an
        # event's hash, a seed's commitment) can hold: refuse it here, not with a 500 later.
        json.dumps(raw, ensure_ascii=False).encode()
    except UnicodeEncodeError:
        raise CommandError(
            Code.BAD_REQUEST, "The body holds a lone surrogate (\\ud800-\\udfff), which is not text."
        ) from None
    except RecursionError:
        raise CommandError(Code.BAD_REQUEST, "The body is nested too deeply.") from None
    if not isinstance(raw, dict):
        raise CommandError(Code.INVALID_REQUEST, "The body must be a JSON object.")
    return raw


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
        raise CommandError(Code.UNAUTHORIZED, "Send a seat token as 'Authorization: Bearer <token>'.")
    return token


def caller_player(required: bool = False) -> dict[str, Any] | None:
    """The player the request's player key acts for; None without one (401 if
    ``required``). An unknown, rotated or revoked key is 401."""
    if "player" not in g:
        token = bearer()
        player = None
        if token is not None and is_player_key(token):
            player = platform().players.authenticate(token)
            # (a seat token that happens to begin like a key is still a seat token)
            if player is None and platform().vault.owner(token) is None:
                raise CommandError(Code.UNAUTHORIZED, "That player key is unknown, rotated or revoked.")
        g.player = player
    if g.player is None and required:
        raise CommandError(Code.UNAUTHORIZED, "Send your player key as 'Authorization: Bearer <key>'.")
    return g.player  # type: ignore[no-any-return]


def signed_in() -> dict[str, Any]:
    """The caller's player: 401 for a request without a player key."""
    player = caller_player(required=True)
    assert player is not None
    return player


def with_me(players: list[dict[str, Any]] | None) -> list[dict[str, Any]] | None:
    """A create's or fork's seats with the caller's own (``"me": true``) made the player's:
    its name, held by its id. Needs a player key; one such seat at most."""
    if players is None:
        return players
    if sum(1 for p in players if p.get("me")) > 1:
        raise CommandError(Code.ALREADY_SEATED, "A player holds at most one seat of a game: one 'me' seat.")
    out = []
    for p in players:
        seat = {k: v for k, v in p.items() if k not in ("me", "reserved")}
        if p.get("me"):
            player = caller_player(required=True)
            assert player is not None
            seat = {"name": player["name"], "player": player["id"], **account_of(player)}
        elif p.get("reserved"):  # an open seat reserved for a player named here
            named = platform().players.by_name(p["reserved"])
            if named is None:
                raise CommandError(Code.INVALID_REQUEST, f"There is no player '{p['reserved']}' to reserve a seat for.")
            inviting = caller_player()
            if inviting is not None and inviting["id"] in platform().moderation.blocks(named["id"]):
                raise CommandError(Code.FORBIDDEN, f"{named['name']} takes no invitation from you.")
            seat["reserved_for"] = named["id"]
        out.append(seat)
    return out


def caller_seat(game_id: str) -> int | None:
    """The seat the request's token acts for in this game; None for a spectator.
    An unknown token is 401; a token of another game is 403. A player key acts for the
    seat its player holds in the game (a spectator's view where it holds none)."""
    if "seat" in g and g.get("seat_game") == game_id:
        return g.seat
    player = caller_player()
    if player is not None:
        table = platform().handler.load(game_id)
        held = [i for i, s in enumerate(table.seats) if s.player == player["id"]]
        g.seat, g.seat_game = (held[0] if held else None), game_id
        return g.seat  # type: ignore[no-any-return]
    token = bearer()
    seat = None
    if token is not None:
        fetched = g.get("token_owner")  # read by the rate limiter in its round trip
        owner = fetched[1] if fetched is not None and fetched[0] == token else platform().vault.owner(token)
        if owner is None:
            raise CommandError(Code.UNAUTHORIZED, "That token is unknown or was revoked.")
        if owner[0] != game_id:
            raise CommandError(Code.NOT_YOUR_SEAT, "That token belongs to another game.")
        seat = owner[1]
    g.seat, g.seat_game = seat, game_id
    return seat


def open_stream() -> Callable[[], None]:
    """Count an event stream against the caller's address and token (``service.crowd``),
    refusing it over either cap; returns what gives it back when the stream ends."""
    config = platform().config
    caps = current_app.extensions.get("tablestream.streams")
    if caps is None:
        caps = current_app.extensions["tablestream.streams"] = StreamCaps(
            config.streams_per_address, config.streams_per_token
        )
    address = client_address(request.remote_addr, request.headers.get("X-Forwarded-For"), config.trusted_proxies)
    token = bearer_token(request.headers.get("Authorization", ""))
    return caps.admit(address, None if token is None else _digest(request.environ, token))


# Tokens this process knows to be refused, each until Redis would allow its next request.
OVER_LIMIT = OverLimit()


def _refuse(left_ms: int) -> CommandError:
    seconds = retry_after(left_ms)
    return CommandError(Code.RATE_LIMITED, f"Too many requests; wait {seconds} s and try again.", retry_after=seconds)


def _token_counter_key(p: Platform, digest: str) -> str:
    return counter_key(p.config.prefix, p.redis, "token", digest)


_DIGEST = "tablestream.token_digest"  # set by over_limit_gate in the WSGI environ


def _digest(environ: dict[str, Any], token: str) -> str:
    """The token's SHA-256, hashed once a request (the gate, the limiter and the owner's
    key all use it)."""
    known = environ.get(_DIGEST)
    if known is None or known[0] != token:
        known = environ[_DIGEST] = (token, token_hash(token))
    return str(known[1])


def rate_limit() -> None:
    """Rate limits per client address and per bearer token (``service.ratelimit``),
    checked in one atomic round trip that also reads whom the token acts for, which
    ``caller_seat`` then uses. A header that is not a bearer token counts against the
    address alone. With the counters' Redis away, every route is judged by this process's
    own counters at the same limits, and answers as its own store allows: no route is
    refused for want of its counters."""
    config = platform().config
    counter = current_app.extensions.get("tablestream.rate")
    if counter is None:
        counter = current_app.extensions["tablestream.rate"] = RateCounter(platform().redis)
    address = client_address(request.remote_addr, request.headers.get("X-Forwarded-For"), config.trusted_proxies)
    address_key = counter_key(config.prefix, platform().redis, "ip", address)
    token = bearer_token(request.headers.get("Authorization", ""))
    if token is None:
        hit = counter.hit(address_key, config.rate_per_address, config.rate_window_seconds)
        if hit.local:
            count("rate_local_total")
        if hit.refused_by is not None:
            raise _refuse(hit.wait_ms)
        return
    digest = _digest(request.environ, token)
    token_key = _token_counter_key(platform(), digest)
    now = time.monotonic()
    left = OVER_LIMIT.left_ms(token_key, now)
    if left is not None:
        raise _refuse(left)
    hit = counter.hit(
        address_key,
        config.rate_per_address,
        config.rate_window_seconds,
        (token_key, platform().vault.owner_key(digest)),
        config.rate_per_token,
    )
    if not hit.local:  # the owner, read in the same round trip (else caller_seat reads it)
        g.token_owner = (token, platform().vault.owner_of(hit.owner))
    else:
        count("rate_local_total")
    if hit.refused_by == TOKEN:
        OVER_LIMIT.remember(token_key, now, hit.wait_ms)
    if hit.refused_by is not None:
        raise _refuse(hit.wait_ms)


REFUSED_BEFORE_ROUTING = "(refused before routing)"


def over_limit_gate(app: Flask, wsgi_app: WSGIApplication) -> WSGIApplication:
    """Wrap ``wsgi_app`` so that a ``/v1`` request whose token this process already knows
    to be over its limit is refused before Flask sees it: no request context, routing,
    Redis round trip or error handler, only the same problem+json answer (429, the
    Retry-After of its window, the CORS headers an allowed origin gets) and its metric.
    A token flooding at many times its limit then costs the process little more than
    reading its header, so it slows other tokens' requests as little as it can. Refused
    here, a request does not count against its address: it is refused whatever it is."""
    p: Platform = app.extensions["tablestream"]

    def gate(environ: dict[str, Any], start_response: Any) -> Any:
        if environ.get("PATH_INFO", "").startswith("/v1/"):
            token = bearer_token(environ.get("HTTP_AUTHORIZATION", ""))
            if token is not None:
                started = time.perf_counter()
                left = OVER_LIMIT.left_ms(_token_counter_key(p, _digest(environ, token)), time.monotonic())
                if left is not None:
                    response = problem(_refuse(left))
                    response.headers.extend(cors_headers(p.config.cors_origins, environ.get("HTTP_ORIGIN")))
                    method = environ.get("REQUEST_METHOD", "GET")
                    observe_request(REFUSED_BEFORE_ROUTING, method, 429, time.perf_counter() - started, app)
                    return response(environ, start_response)
        return wsgi_app(environ, start_response)

    return gate


CORS_HEADERS = "Authorization, Content-Type, Idempotency-Key, If-Match, Last-Event-ID"


def cors_headers(allowed: Any, origin: str | None) -> list[tuple[str, str]]:
    """The CORS headers an answer to ``origin`` carries (none unless it is allowed)."""
    if not allowed or not origin or (origin not in allowed and "*" not in allowed):
        return []
    return [
        ("Access-Control-Allow-Origin", origin),
        ("Access-Control-Allow-Headers", CORS_HEADERS),
        ("Access-Control-Allow-Methods", "GET, POST, OPTIONS"),
        ("Access-Control-Expose-Headers", "ETag, Retry-After, Location"),
        ("Vary", "Origin"),
    ]
