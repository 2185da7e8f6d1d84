"""Matchmaking over HTTP (``core.seeks``): seek a game, see the open seeks (the lobby),
cancel one's own. A worker pairs them; each seeker hears ``seek_filled`` on its stream."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, Response, request
from marshmallow import fields, validate

from core.errors import Code, CommandError
from core.seeks import MAX_WIDTH, OPEN_PER_PLAYER, SEEK_SECONDS, new_id
from events.store import stamp
from games import registry
from service import schemas
from service.http import body, platform, signed_in
from service.routes.games import int_arg

bp = Blueprint("seeks", __name__)


class SeekIn(schemas.Strict):
    kind = fields.String(required=True, validate=validate.Length(min=1, max=64))
    players = fields.Integer(strict=True, load_default=None, validate=validate.Range(2, 16))
    clock = fields.Nested(schemas.ClockIn, load_default=None, allow_none=True)
    rated = schemas.Flag(load_default=False)
    width = fields.Integer(strict=True, load_default=None, allow_none=True, validate=validate.Range(0, MAX_WIDTH))


def _json(payload: Any, status: int = 200) -> Response:
    return Response(json.dumps(payload), status=status, mimetype="application/json")


def shown(seek: dict[str, Any]) -> dict[str, Any]:
    """A seek as anyone sees it (the lobby): no player id beyond the one its seats would show."""
    keys = ("id", "kind", "players", "clock", "rated", "width", "rating", "status", "created_at", "game")
    return {**{k: seek.get(k) for k in keys}, "player": seek["player"]}


@bp.post("/v1/seeks")
def seek() -> Response:
    player = signed_in()
    data = body(schemas.one(SeekIn))
    game = registry.get(data["kind"])
    if game is None:
        raise CommandError(Code.UNKNOWN_KIND, f"There is no kind '{data['kind']}'.")
    seats = data["players"] or game.min_players
    if not game.min_players <= seats <= game.max_players:
        raise CommandError(
            Code.INVALID_REQUEST, f"{data['kind']} is played by {game.min_players} to {game.max_players} players."
        )
    rating = platform().redis.hget(platform().ratings.key("current", data["kind"]), player["id"])
    now = datetime.now(UTC)
    record = {
        "id": new_id(),
        "kind": data["kind"],
        "players": seats,
        "clock": data["clock"],
        "rated": data["rated"],
        "width": data["width"],
        "rating": round(json.loads(rating)["rating"]) if rating else 1500,
        "player": {"id": player["id"], "name": player["name"], **({"account": "bot"} if player.get("bot") else {})},
        "status": "open",
        "created_at": stamp(now),
        "created_ms": int(now.timestamp() * 1000),
        "game": None,
    }
    if not platform().seeks.add(record, OPEN_PER_PLAYER):
        raise CommandError(
            Code.RATE_LIMITED,
            f"You have {OPEN_PER_PLAYER} open seeks of {data['kind']}: cancel one or wait for a game.",
        )
    platform().match_runner.schedule(data["kind"])
    return _json(shown(record), 201)


@bp.get("/v1/seeks")
def lobby() -> Response:
    kind = request.args.get("kind")
    if not kind or registry.get(kind) is None:
        raise CommandError(Code.INVALID_REQUEST, "kind must name a kind: the open seeks are listed per kind.")
    limit = int_arg("limit", 50, 1, 200)
    fresh = int(time.time() * 1000) - SEEK_SECONDS * 1000
    found = [shown(s) for s in reversed(platform().seeks.open_seeks(kind)) if s["created_ms"] >= fresh][:limit]
    return _json({"seeks": found})


@bp.get("/v1/seeks/<seek_id>")
def one(seek_id: str) -> Response:
    """A seek, by its id: open, matching, filled (with its game) or cancelled."""
    found = platform().seeks.get(seek_id)
    if found is None:
        raise CommandError(Code.NOT_FOUND, f"There is no seek {seek_id}.")
    return _json(shown(found))


@bp.delete("/v1/seeks/<seek_id>")
def cancel(seek_id: str) -> Response:
    player = signed_in()
    found = platform().seeks.get(seek_id)
    if found is None or found["player"]["id"] != player["id"]:
        raise CommandError(Code.NOT_FOUND, f"You have no seek {seek_id}.")
    if not platform().seeks.cancel(found):
        raise CommandError(Code.GAME_IN_PLAY, "That seek is no longer open: it was taken for a game, or cancelled.")
    return Response(status=204)
