"""Rematch: a seat of a finished game offers one, the others accept it."""

from __future__ import annotations

import json

from flask import Blueprint, Response

from core.errors import Code, CommandError
from service import schemas
from service.http import caller_player, caller_seat, platform

bp = Blueprint("rematch", __name__)


@bp.post("/v1/games/<game_id>/rematch")
def rematch(game_id: str) -> Response:
    """Offer a rematch of a finished game, or accept the one offered: the caller's seat
    (a seat token's, or the seat its player key holds) takes its seat in the rematch,
    which starts once every human seat has accepted. No body is needed."""
    seat = caller_seat(game_id)
    platform().handler.load(game_id)  # 404 first for a game that does not exist
    if seat is None:
        if caller_player() is not None:
            raise CommandError(Code.NOT_YOUR_SEAT, "Your player holds no seat in this game.")
        raise CommandError(Code.UNAUTHORIZED, "Only a seat of the game may offer or accept its rematch.")
    table, new_seat, token = platform().handler.rematch(game_id, seat, caller_player())
    payload = {"rematch": table.game_id, "seat": new_seat, "token": token, "game": table.summary()}
    headers = {"Location": f"/v1/games/{table.game_id}", "Cache-Control": "no-store"}
    return Response(
        json.dumps(schemas.one(schemas.RematchOut).dump(payload)),
        status=200,
        mimetype="application/json",
        headers=headers,
    )
