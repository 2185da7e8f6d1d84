"""Matchmaking over HTTP (``core.seeks``): seek a game, see the open seeks (the lobby),
cancel one's own. A worker pairs them; each seeker hears ``seek_filled`` on its stream. A
seek is kept before its match is scheduled: with the queue away it waits for the reconcile
or the next seek of its kind."""

from __future__ import annotations

import json
import logging
import time
from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, Response, request
from marshmallow import fields, validate

from core.errors import Code, CommandError
from core.jobs import QueueUnavailable
from core.seeks import MAX_WIDTH, OPEN_PER_PLAYER, SEEK_SECONDS, new_id
from core.seeks import status as seek_status
from events.store import stamp
from games import registry
from service import schemas
from service.http import body, platform, signed_in
from service.routes.games import int_arg

bp = Blueprint("seeks", __name__)
log = logging.getLogger(__name__)


class SeekIn(schemas.Strict):
    kind = fields.String(required=True, validate=validate.Length(min=1, max=64))
    players = fields.Integer(strict=True, load_default=None, validate=validate.Range(2, 16))
    clock = fields.Nested(schemas.ClockIn, load_default=None, allow_none=True)
    rated = schemas.Flag(load_default=False)
    width = fields.Integer(strict=True, load_default=None, allow_none=True, validate=validate.Range(0, MAX_WIDTH))


def _json(payload: Any, status: int = 200) -> Response:
    return Response(json.dumps(payload), status=status, mimetype="application/json")


def _now_ms() -> int:
    return int(time.time() * 1000)


def shown(seek: dict[str, Any]) -> dict[str, Any]:
    """A seek as anyone sees it (the lobby): no player id beyond the one its seats would show."""
    keys = ("id", "kind", "players", "clock", "rated", "width", "rating", "created_at", "game")
    return {**{k: seek.get(k) for k in keys}, "status": seek_status(seek, _now_ms()), "player": seek["player"]}


@bp.post("/v1/seeks")
def seek() -> Response:
    player = signed_in()
    data = body(schemas.one(SeekIn))
    game = registry.get(data["kind"])
    if game is None:
        raise CommandError(Code.UNKNOWN_KIND, f"There is no kind '{data['kind']}'.")
    seats = data["players"] or game.min_players
    most = game.most_players(platform().config.max_seats)
    if not game.min_players <= seats <= most:
        raise CommandError(Code.INVALID_REQUEST, f"{data['kind']} is played by {game.min_players} to {most} players.")
    now = datetime.now(UTC)
    record = {
        "id": new_id(),
        "kind": data["kind"],
        "players": seats,
        "clock": data["clock"],
        "rated": data["rated"],
        "width": data["width"],
        "rating": platform().seeks.rating(data["kind"], player["id"]),
        "player": {"id": player["id"], "name": player["name"], **({"account": "bot"} if player.get("bot") else {})},
        "status": "open",
        "created_at": stamp(now),
        "created_ms": int(now.timestamp() * 1000),
        "game": None,
    }
    held = platform().seeks.add(record, OPEN_PER_PLAYER, record["created_ms"] - SEEK_SECONDS * 1000)
    if held is None:
        raise CommandError(
            Code.RATE_LIMITED,
            f"You have {OPEN_PER_PLAYER} open seeks of {data['kind']}: cancel one or wait for a game.",
        )
    if held != record["id"]:  # the same seek again (a retry, say): the one open
        return _json(shown(platform().seeks.get(held) or {**record, "id": held}), 200)
    try:
        platform().match_runner.schedule(data["kind"])
    except QueueUnavailable as error:
        log.warning("seek %s kept, its match left to the reconcile: %s", record["id"], error)
    return _json(shown(record), 201)


@bp.get("/v1/seeks")
def lobby() -> Response:
    kind = request.args.get("kind")
    if not kind or registry.get(kind) is None:
        raise CommandError(Code.INVALID_REQUEST, "kind must name a kind: the open seeks are listed per kind.")
    offset, limit = int_arg("offset", 0, 0, 10**9), int_arg("limit", 50, 1, 200)
    total, found = platform().seeks.lobby(kind, _now_ms() - SEEK_SECONDS * 1000, offset, limit)
    return _json({"seeks": [shown(s) for s in found], "total": total, "offset": offset, "limit": limit})


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
    if seek_status(found, _now_ms()) != "open" or not platform().seeks.cancel(found):
        raise CommandError(Code.GAME_IN_PLAY, "That seek is no longer open: taken for a game, cancelled or expired.")
    return Response(status=204)
