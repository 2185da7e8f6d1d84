"""Games: create, list, read, join, act, and the event feed (paged and live)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, Response, current_app, request, stream_with_context

from core.chat import Chat
from core.errors import Code, CommandError
from projections.table import Table
from projections.views import board, event_for
from service import fanout, schemas
from service.crowd import HUB
from service.http import body, caller_player, caller_seat, open_stream, platform, with_me
from service.metrics import count, observe_action

bp = Blueprint("games", __name__)

MAX_PAGE = 1000


def _json(payload: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(json.dumps(payload), status=status, mimetype="application/json", headers=headers)


def _table(game_id: str) -> Table:
    return platform().handler.load(game_id)


def _etag(table: Table) -> dict[str, str]:
    return {"ETag": f'"{table.version}"'}


def game_body(table: Table, seat: int | None) -> dict[str, Any]:
    out = table.summary()
    out["seat"] = seat
    if table.clock is not None:  # the time left now, beside the time left at the last event
        out["clock"] = table.clock.as_json(platform().handler.now_ms())
    link = platform().vault.rematch(table.game_id) if table.status == "finished" else None
    out["rematch"] = None if link in (None, platform().vault.PENDING) else link
    out["view"] = board(table, seat)
    out["undo_offer"] = platform().handler.undo_offer(table, seat, datetime.now(UTC)) if seat is not None else None
    undo, draw = table.undo, table.draw
    out["undo_request"] = (
        None
        if undo is None
        else {
            "id": undo.id,
            "by": undo.by,
            "to_version": undo.to_version,
            "expires_at": undo.expires_at,
            "accepted": sorted(undo.accepted),
        }
    )
    out["draw_offer"] = None if draw is None else {"id": draw.id, "by": draw.by, "accepted": sorted(draw.accepted)}
    if table.status == "active" and seat is not None and seat in table.to_act() and table.seats[seat].left is None:
        out["legal_actions"] = table.game.legal_actions(table.state, seat)
    else:
        out["legal_actions"] = []
    return out


@bp.post("/v1/games")
def create_game() -> Response:
    data = body(schemas.one(schemas.CreateGameIn))
    created = platform().handler.create_game(
        data["kind"],
        with_me(data["players"]) or [],
        data["options"],
        seed=data["seed"],
        command_id=request.headers.get("Idempotency-Key"),
        turn_seconds=data["turn_seconds"],
        unlisted=data["unlisted"],
        rated=data["rated"],
        lifecycle={
            "clock": data["clock"],
            "on_leave": data["on_leave"],
            "abandon_after": data["abandon_after"],
            "open_seconds": data["open_seconds"],
        },
    )
    summary = created.table.summary()
    for seat in summary["seats"]:
        if seat["seat"] in created.tokens:  # an invite seat's token is its invite code
            seat["invite" if seat.get("invite") else "token"] = created.tokens[seat["seat"]]
    payload = schemas.one(schemas.SummaryOut).dump(summary)
    return _json(payload, 201, {"Location": f"/v1/games/{created.table.game_id}", **_etag(created.table)})


def page_args() -> tuple[str | None, str | None, int, int]:
    """A list's ``status``, ``kind``, ``offset`` and ``limit`` from the query."""
    status = request.args.get("status")
    if status not in (None, "open", "active", "finished"):
        raise CommandError(Code.INVALID_REQUEST, "status must be open, active or finished.")
    return status, request.args.get("kind") or None, int_arg("offset", 0, 0, 10**9), int_arg("limit", 50, 1, 200)


@bp.get("/v1/games")
def list_games() -> Response:
    status, kind, offset, limit = page_args()
    total, summaries = platform().read_models.games(status, kind, offset, limit)
    page = {"games": summaries, "total": total, "offset": offset, "limit": limit}
    return _json(schemas.one(schemas.GamesPageOut).dump(page))


@bp.get("/v1/stats")
def stats() -> Response:
    """Per kind, from the projector's read model: games started and finished, the
    average length of a finished game, and wins by seat position and by bot level."""
    return _json({"kinds": platform().read_models.stats()})


def int_arg(name: str, default: int, low: int, high: int) -> int:
    raw = request.args.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise CommandError(Code.INVALID_REQUEST, f"{name} must be a whole number.") from None
    if not low <= value <= high:
        raise CommandError(Code.INVALID_REQUEST, f"{name} must be between {low} and {high}.")
    return value


@bp.get("/v1/games/<game_id>")
def get_game(game_id: str) -> Response:
    seat = caller_seat(game_id)
    table = _table(game_id)
    return _json(schemas.one(schemas.GameOut).dump(game_body(table, seat)), headers=_etag(table))


@bp.post("/v1/games/<game_id>/seats/<int:seat>/join")
def join(game_id: str, seat: int) -> Response:
    """Take an open seat: by name (the answer holds the seat's token), or with a player
    key (the seat is the player's; no token)."""
    data = body(schemas.one(schemas.JoinIn))
    player = caller_player()
    if player is None and data["name"] is None:
        raise CommandError(Code.INVALID_REQUEST, "Send a name for the seat, or your player key.")
    table, token = platform().handler.join(game_id, seat, data["name"], player, data["invite"])
    payload = {"seat": seat, "token": token, "game": table.summary()}
    return _json(schemas.one(schemas.JoinedOut).dump(payload), 200, _etag(table))


@bp.post("/v1/games/<game_id>/seats/<int:seat>/claim")
def claim(game_id: str, seat: int) -> Response:
    """A player takes over a seat it played with a seat token: the token stops working."""
    player = caller_player(required=True)
    assert player is not None
    data = body(schemas.one(schemas.ClaimIn))
    _table(game_id)  # 404 first for a game that does not exist
    table = platform().handler.claim(game_id, seat, data["token"], player)
    return _json(schemas.one(schemas.GameOut).dump(game_body(table, seat)), 200, _etag(table))


@bp.post("/v1/games/<game_id>/actions")
def act(game_id: str) -> Response:
    seat = caller_seat(game_id)
    data = body(schemas.one(schemas.ActionIn))
    if seat is None:
        _table(game_id)
        if caller_player() is not None:
            raise CommandError(Code.NOT_YOUR_SEAT, "Your player holds no seat in this game.")
        raise CommandError(Code.UNAUTHORIZED, "Spectators cannot act; send a seat token.")
    expected = data["expected_version"]
    if expected is None:
        expected = _if_match()
    key = request.headers.get("Idempotency-Key")
    # A key is its caller's own: two seats that happen to pick the same key send two commands.
    command_id = None if key is None else f"seat-{seat}:{key}"
    started = time.perf_counter()
    try:
        acted = platform().handler.act(game_id, seat, data["action"], expected, command_id=command_id)
    except CommandError as error:
        if error.code == Code.STALE_VERSION:
            count("conflicts_total")
        raise
    if not acted.duplicate:
        count("appends_total")
        observe_action(acted.table.kind, time.perf_counter() - started)
    table = acted.table
    seed = platform().opening_seed(table, seat)
    events = [event_for(table, e, seat, seed) for e in acted.envelopes]
    payload = {
        "version": acted.version,
        "events": events,
        "duplicate": acted.duplicate,
        "replicated": acted.replicated,
        "head": table.head,
    }
    return _json(schemas.one(schemas.ActedOut).dump(payload), headers=_etag(table))


def _if_match() -> int:
    header = request.headers.get("If-Match")
    if header is None:
        raise CommandError(Code.PRECONDITION_REQUIRED, "Send expected_version in the body or the version in If-Match.")
    try:
        value = int(header.strip().strip('"').removeprefix("W/").strip('"'))
    except ValueError:
        raise CommandError(Code.INVALID_REQUEST, "If-Match must be a version number.") from None
    if value < 0:
        raise CommandError(Code.INVALID_REQUEST, "If-Match must be a version number.")
    return value


@bp.get("/v1/games/<game_id>/events")
def events(game_id: str) -> Response:
    seat = caller_seat(game_id)
    table = _table(game_id)
    after = int_arg("after", 0, 0, 2**53)
    limit = int_arg("limit", 100, 1, MAX_PAGE)
    # Up to the table's version, head first: one prefix of the log, never a version past the
    # head the page names, and a log that lost any of them answers log_damaged.
    envelopes = platform().store.read_span(game_id, after, min(table.version, after + limit))
    seed = platform().opening_seed(table, seat)
    page = {
        "events": [event_for(table, e, seat, seed) for e in envelopes],
        "last_version": table.version,
        "next_after": envelopes[-1].version if envelopes else after,
        "head": table.head,
    }
    return _json(schemas.one(schemas.EventsPageOut).dump(page), headers=_etag(table))


@bp.get("/v1/games/<game_id>/events/stream")
def stream(game_id: str) -> Response:
    """The game's events as they are appended (each with its version as id), and the chat
    the caller may read as ``event: chat`` without an id, so that Last-Event-ID stays a
    version (a client catches up missed chat with ``GET .../chat?after=``). The process's
    one reader of the game (``service.fanout``) waits for both; the stream only listens."""
    seat = caller_seat(game_id)
    player = caller_player()
    watcher = player["id"] if player is not None and seat is None else None
    opened = _table(game_id)
    resume = request.headers.get("Last-Event-ID") or request.args.get("after") or "0"
    try:
        after = max(0, int(resume))
    except ValueError:
        raise CommandError(Code.INVALID_REQUEST, "Last-Event-ID must be a version number.") from None
    heartbeat = platform().config.heartbeat_seconds
    hidden = platform().moderation.hidden_from(player["id"] if player else None, game_id)  # as the stream opens
    first = fanout.first_page(platform().store, opened, after)
    close = open_stream()

    def generate() -> Iterator[str]:
        try:
            yield from fanout.follow(hub(), opened, after, seat, watcher, heartbeat, first, hidden)
        finally:
            close()

    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    return Response(stream_with_context(generate()), mimetype="text/event-stream", headers=headers)


def hub() -> fanout.Hub:
    """This process's readers of the games it streams."""
    found: fanout.Hub | None = current_app.extensions.get(HUB)
    if found is None:
        p = platform()
        found = current_app.extensions[HUB] = fanout.Hub(p, Chat.of(p), p.config.heartbeat_seconds)
    return found
