"""Moderation over HTTP (``core.moderation``): a player's blocks and a game's mutes, reports
by players, and the operator's review of reports and closing of players."""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, request
from marshmallow import fields, validate

from core.errors import Code, CommandError
from core.moderation import MAX_NOTE, REASONS, RESOLUTIONS
from service import schemas
from service.http import body, platform, signed_in
from service.routes.games import int_arg
from service.routes.meta import operator_token

bp = Blueprint("moderation", __name__)


class ReportIn(schemas.Strict):
    player = fields.String(required=True, validate=validate.Length(min=1, max=64))
    reason = fields.String(required=True, validate=validate.OneOf(REASONS))
    game = fields.String(load_default=None, allow_none=True, validate=validate.Length(min=1, max=64))
    note = fields.String(load_default="", validate=validate.Length(max=MAX_NOTE))


class ResolveIn(schemas.Strict):
    resolution = fields.String(required=True, validate=validate.OneOf(RESOLUTIONS))
    note = fields.String(load_default="", validate=validate.Length(max=MAX_NOTE))


def _json(payload: Any, status: int = 200) -> Response:
    return Response(json.dumps(payload), status=status, mimetype="application/json")


def _named(name: str) -> dict[str, Any]:
    player = platform().players.by_name(name)
    if player is None:
        raise CommandError(Code.NOT_FOUND, f"There is no player '{name}'.")
    return player


@bp.get("/v1/players/me/blocks")
def blocks() -> Response:
    ids = sorted(platform().moderation.blocks(signed_in()["id"]))
    found = [platform().players.get(player_id) for player_id in ids]
    return _json({"players": [{"id": p["id"], "name": p["name"]} for p in found if p is not None]})


@bp.put("/v1/players/me/blocks/<name>")
def block(name: str) -> Response:
    """No invitation from them, no chat of theirs, no automatch with them; they are not told."""
    platform().moderation.block(signed_in(), _named(name))
    return Response(status=204)


@bp.delete("/v1/players/me/blocks/<name>")
def unblock(name: str) -> Response:
    platform().moderation.unblock(signed_in(), _named(name))
    return Response(status=204)


@bp.put("/v1/games/<game_id>/mutes/<name>")
def mute(game_id: str, name: str) -> Response:
    """That player's chat in this game, hidden from the caller (and only from the caller)."""
    platform().handler.load(game_id)  # 404 for a game that does not exist
    platform().moderation.mute(game_id, signed_in(), _named(name))
    return Response(status=204)


@bp.delete("/v1/games/<game_id>/mutes/<name>")
def unmute(game_id: str, name: str) -> Response:
    platform().moderation.unmute(game_id, signed_in(), _named(name))
    return Response(status=204)


@bp.post("/v1/reports")
def report() -> Response:
    reporter = signed_in()
    data = body(schemas.one(ReportIn))
    if data["game"] is not None:
        platform().handler.load(data["game"])  # 404 for a game that does not exist
    filed = platform().moderation.report(reporter, _named(data["player"]), data["reason"], data["game"], data["note"])
    return _json({"id": filed["id"], "status": filed["status"], "created_at": filed["created_at"]}, 201)


@bp.get("/v1/reports")
def reports() -> Response:
    operator_token("Reading reports")
    status = request.args.get("status", "open")
    offset, limit = int_arg("offset", 0, 0, 10**9), int_arg("limit", 50, 1, 200)
    total, page = platform().moderation.reports(status, offset, limit)
    return _json({"reports": page, "total": total, "offset": offset, "limit": limit})


@bp.post("/v1/reports/<report_id>/resolve")
def resolve(report_id: str) -> Response:
    """Dismissed, or the reported player closed (its key stops at once)."""
    operator_token("Resolving a report")
    data = body(schemas.one(ResolveIn))
    resolved = platform().moderation.resolve(report_id, data["resolution"], data["note"])
    if data["resolution"] == "closed":
        platform().players.close(resolved["player"]["id"])
    return _json(resolved)


@bp.post("/v1/players/<name>/close")
def close(name: str) -> Response:
    """The operator closes a player: its key stops at once and no other is issued."""
    operator_token("Closing a player")
    player = _named(name)
    platform().players.close(player["id"])
    closed = platform().players.get(player["id"])
    return _json(closed)
