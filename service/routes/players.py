"""Players: register, the player itself, its key, its games, a public profile,
and its live stream."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, request, stream_with_context
from redis import RedisError

from core.errors import Code, CommandError
from games import registry
from projections.inbox import Inbox
from projections.read_models import TURN
from service import schemas
from service.http import bearer, body, caller_player, open_stream, platform
from service.routes.games import int_arg, page_args

bp = Blueprint("players", __name__)

PROFILE_GAMES = 20
CURSOR = re.compile(r"0|\d{1,20}-\d{1,20}")  # "0": from the oldest notice kept


def _json(payload: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(json.dumps(payload), status=status, mimetype="application/json", headers=headers)


def _me() -> dict[str, Any]:
    player = caller_player(required=True)
    assert player is not None
    return player


@bp.post("/v1/players")
def register() -> Response:
    """A new player: its key is in this answer and never again (only its hash is kept).
    ``bot: true`` registers a bot account: a program that plays over this same API, shown
    as a bot in its profile and in every seat it takes; it cannot be undone."""
    data = body(schemas.one(schemas.PlayerNew))
    player, key = platform().players.register(data["name"], bot=data["bot"])
    out = schemas.one(schemas.PlayerOut).dump({**player, "key": key})
    return _json(out, 201, {"Location": f"/v1/players/{player['name']}", "Cache-Control": "no-store"})


@bp.get("/v1/players/me")
def me() -> Response:
    return _json(schemas.one(schemas.PlayerOut).dump(_me()))


@bp.post("/v1/players/me/key")
def rotate() -> Response:
    """A new key; the one sent stops working at once."""
    player = _me()
    key = platform().players.rotate(player["id"])
    return _json(schemas.one(schemas.PlayerOut).dump({**player, "key": key}), headers={"Cache-Control": "no-store"})


@bp.delete("/v1/players/me/key")
def revoke() -> Response:
    """The key stops working and no other is issued: the player can act no more (its name
    and games stay), and its webhooks go."""
    player = _me()
    platform().players.revoke(player["id"])
    platform().webhooks.delete_all(player["id"])
    return Response(status=204)


@bp.get("/v1/players/me/games")
def my_games() -> Response:
    """The caller's games, newest first, by status and kind; an active game says which seat
    is the player's and whether it is the player's turn. ``my_turn=true``: only the active
    games where it is (from the read model, which may lag a move: each game's turn is read
    again live, and one that is no longer the player's is left out of the page)."""
    player = _me()
    status, kind, offset, limit = page_args()
    only_turn = request.args.get("my_turn")
    if only_turn not in (None, "true"):
        raise CommandError(Code.INVALID_REQUEST, "my_turn takes one value, true: leave it out for every game.")
    if only_turn and status not in (None, "active"):
        raise CommandError(Code.INVALID_REQUEST, "my_turn=true lists active games: leave status out or make it active.")
    listed = TURN if only_turn else status
    total, summaries = platform().read_models.games(listed, kind, offset, limit, player=player["id"])
    games = []
    for summary in summaries:
        held = [s["seat"] for s in summary["seats"] if s.get("player") == player["id"]]
        seat = held[0] if held else None
        turn = False
        if summary["status"] == "active" and held:
            table = platform().tables.load(summary["id"])  # the read model lags: whose turn is read live
            turn = table is not None and table.status == "active" and not table.to_act().isdisjoint(held)
        if only_turn and not turn:
            continue
        games.append({**summary, "my_seat": seat, "my_turn": turn})
    page = {"games": games, "total": total, "offset": offset, "limit": limit}
    return _json(schemas.one(schemas.MyGamesPageOut).dump(page))


@bp.get("/v1/players/<name>")
def profile(name: str) -> Response:
    """Anyone may read a player's profile: its name and its finished games."""
    player = platform().players.by_name(name)
    if player is None:
        raise CommandError(Code.NOT_FOUND, f"There is no player '{name}'.")
    total, finished = platform().read_models.games("finished", None, 0, PROFILE_GAMES, player=f"{player['id']}/public")
    out = {**player, "finished_games": {"total": total, "latest": finished}}
    return _json(schemas.one(schemas.ProfileOut).dump(out))


@bp.get("/v1/players/me/stream")
def stream() -> Response:
    """Server-sent events of everything that concerns the player in any game (see
    ``projections.inbox``): each event's id is a cursor; a client reconnects with
    ``Last-Event-ID`` (or ``?after=``) and gets what it missed, as long as the inbox keeps
    it. Without a cursor the stream starts from now. The stream ends when the key stops
    working (rotated or revoked)."""
    player = _me()
    token = bearer() or ""
    inbox = Inbox(platform().redis, platform().config.prefix)
    resume = request.headers.get("Last-Event-ID") or request.args.get("after")
    if resume is not None and CURSOR.fullmatch(resume) is None:
        raise CommandError(
            Code.INVALID_REQUEST,
            "Last-Event-ID must be an event id of this stream (digits-digits), or 0 for the oldest kept.",
        )
    p = platform()
    heartbeat = p.config.heartbeat_seconds
    after = resume if resume is not None else inbox.last_id(player["id"])
    close = open_stream()

    def generate() -> Iterator[str]:
        try:
            yield from notices()
        finally:
            close()

    def notices() -> Iterator[str]:
        last = after
        yield "retry: 2000\n\n"
        while True:
            try:
                if p.players.authenticate(token) is None:  # rotated or revoked: the stream ends
                    yield "event: key_revoked\ndata: {}\n\n"
                    return
                found = inbox.read(player["id"], last, block_ms=heartbeat * 1000)
            except RedisError:
                yield ": store unavailable, retrying\n\n"
                time.sleep(1)
                continue
            if not found:
                yield ": heartbeat\n\n"
                continue
            for entry_id, notice in found:
                yield f"id: {entry_id}\nevent: {notice['type']}\ndata: {json.dumps(notice)}\n\n"
                last = entry_id

    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    return Response(stream_with_context(generate()), mimetype="text/event-stream", headers=headers)


@bp.get("/v1/players/<name>/ratings")
def ratings(name: str) -> Response:
    """A player's Glicko-2 rating per kind, with its history (one point per rated game)."""
    player = platform().players.by_name(name)
    if player is None:
        raise CommandError(Code.NOT_FOUND, f"There is no player '{name}'.")
    return _json({"player": player, "kinds": platform().ratings.of(player["id"])})


@bp.get("/v1/leaderboards/<kind>")
def leaderboard(kind: str) -> Response:
    """The highest-rated players of a kind."""
    if registry.get(kind) is None:
        raise CommandError(Code.UNKNOWN_KIND, f"There is no game kind '{kind}'.")
    limit = int_arg("limit", 50, 1, 200)
    rows = []
    for rank, row in enumerate(platform().ratings.leaderboard(kind, limit), start=1):
        player = platform().players.get(row["player"])
        rows.append({"rank": rank, "name": player["name"] if player else None, **row})
    return _json({"kind": kind, "players": rows})
