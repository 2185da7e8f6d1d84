"""Players (issue 21): register, the player itself, its key, its games, a public profile."""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, request

from core.errors import CommandError
from service import schemas
from service.http import body, caller_player, platform
from service.routes.games import int_arg

bp = Blueprint("players", __name__)

PROFILE_GAMES = 20


def _json(payload: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(json.dumps(payload), status=status, mimetype="application/json", headers=headers)


def _me() -> dict[str, Any]:
    player = caller_player(required=True)
    assert player is not None
    return player


@bp.post("/v1/players")
def register() -> Response:
    """A new player: its key is in this answer and never again (only its hash is kept)."""
    data = body(schemas.one(schemas.PlayerNew))
    player, key = platform().players.register(data["name"])
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
    and games stay)."""
    platform().players.revoke(_me()["id"])
    return Response(status=204)


@bp.get("/v1/players/me/games")
def my_games() -> Response:
    """The caller's games, newest first, by status and kind; an active game says which seat
    is the player's and whether it is the player's turn."""
    player = _me()
    status = request.args.get("status")
    if status not in (None, "open", "active", "finished"):
        raise CommandError("invalid_request", "status must be open, active or finished.")
    kind = request.args.get("kind") or None
    offset = int_arg("offset", 0, 0, 10**9)
    limit = int_arg("limit", 50, 1, 200)
    total, summaries = platform().read_models.games(status, kind, offset, limit, player=player["id"])
    games = []
    for summary in summaries:
        seat = next((s["seat"] for s in summary["seats"] if s.get("player") == player["id"]), None)
        turn = False
        if summary["status"] == "active" and seat is not None:
            table = platform().tables.load(summary["id"])  # the read model lags: whose turn is read live
            turn = table is not None and table.status == "active" and seat in table.to_act()
        games.append({**summary, "my_seat": seat, "my_turn": turn})
    page = {"games": games, "total": total, "offset": offset, "limit": limit}
    return _json(schemas.one(schemas.MyGamesPageOut).dump(page))


@bp.get("/v1/players/<name>")
def profile(name: str) -> Response:
    """Anyone may read a player's profile: its name and its finished games."""
    player = platform().players.by_name(name)
    if player is None:
        raise CommandError("not_found", f"There is no player '{name}'.")
    total, finished = platform().read_models.games("finished", None, 0, PROFILE_GAMES, player=player["id"])
    out = {**player, "finished_games": {"total": total, "latest": finished}}
    return _json(schemas.one(schemas.ProfileOut).dump(out))
