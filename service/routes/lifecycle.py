"""Resign, abort and agreed endings: the endings a seat asks for. No body is needed."""

from __future__ import annotations

import json

from flask import Blueprint, Response

from core.commands import Acted
from core.errors import Code, CommandError
from projections.views import event_for
from service import schemas
from service.http import caller_player, caller_seat, platform
from service.metrics import count

bp = Blueprint("lifecycle", __name__)


def _seat(game_id: str, what: str) -> int:
    seat = caller_seat(game_id)
    platform().handler.load(game_id)  # 404 first for a game that does not exist
    if seat is None:
        if caller_player() is not None:
            raise CommandError(Code.NOT_YOUR_SEAT, "Your player holds no seat in this game.")
        raise CommandError(Code.UNAUTHORIZED, f"Only a seat of the game may {what} it; send its token or your key.")
    return seat


def _acted(game_id: str, seat: int, acted: Acted) -> Response:
    count("appends_total")
    table = acted.table
    seed = platform().opening_seed(table, seat)
    events = [event_for(table, e, seat, seed) for e in acted.envelopes]
    payload = {"version": acted.version, "events": events, "duplicate": False, "head": table.head}
    return Response(
        json.dumps(schemas.one(schemas.ActedOut).dump(payload)),
        mimetype="application/json",
        headers={"ETag": f'"{table.version}"'},
    )


@bp.post("/v1/games/<game_id>/resign")
def resign(game_id: str) -> Response:
    """The caller's seat resigns: with one other seat still in, that one wins; with more,
    the seat is out (or a bot plays on for it, by the game's ``on_leave``)."""
    seat = _seat(game_id, "resign from")
    return _acted(game_id, seat, platform().handler.resign(game_id, seat))


@bp.post("/v1/games/<game_id>/draw-offers")
def offer_draw(game_id: str) -> Response:
    """The caller's seat offers to end the game with a shared result among the seats still
    in; the others accept or decline; a move by anyone withdraws the offer."""
    seat = _seat(game_id, "offer to end")
    return _acted(game_id, seat, platform().handler.offer_draw(game_id, seat))


@bp.post("/v1/games/<game_id>/draw-offers/<offer>/<any(accept, decline):answer>")
def answer_draw(game_id: str, offer: str, answer: str) -> Response:
    """Accept or decline the pending offer (its maker's decline withdraws it); the last
    acceptance ends the game, rated as a draw among the seats still in."""
    seat = _seat(game_id, "answer an offer to end")
    return _acted(game_id, seat, platform().handler.answer_draw(game_id, seat, offer, answer == "accept"))


@bp.post("/v1/games/<game_id>/abort")
def abort(game_id: str) -> Response:
    """End the game with no result: while a seat is open, or until every seat has moved."""
    seat = _seat(game_id, "abort")
    return _acted(game_id, seat, platform().handler.abort(game_id, seat))
