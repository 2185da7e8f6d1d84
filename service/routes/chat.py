"""Table chat: post to a game's seats or spectators channel, and read it back
(``core.chat`` says who may do which). Live, messages come over the game's event stream
as ``event: chat`` (``service.routes.games.stream``) and on each seated player's stream."""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, current_app, request

from core.chat import MAX_PAGE, PAGE, Chat, channels_asked, check_cursor
from service import schemas
from service.http import body, caller_player, caller_seat, platform
from service.routes.games import int_arg

bp = Blueprint("chat", __name__)


def chat() -> Chat:
    """The app's one ``Chat`` (its script registered once)."""
    found: Chat | None = current_app.extensions.get("tablestream.chat")
    if found is None:
        found = current_app.extensions["tablestream.chat"] = Chat.of(platform())
    return found


def _json(payload: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(json.dumps(payload), status=status, mimetype="application/json", headers=headers)


@bp.post("/v1/games/<game_id>/chat")
def post(game_id: str) -> Response:
    seat = caller_seat(game_id)
    player = caller_player()
    data = body(schemas.one(schemas.ChatIn))
    table = platform().handler.load(game_id)
    message = chat().post(table, data["channel"], data["text"], seat, player)
    return _json(schemas.one(schemas.ChatMessageOut).dump(message), 201)


@bp.get("/v1/games/<game_id>/chat")
def read(game_id: str) -> Response:
    seat = caller_seat(game_id)
    table = platform().handler.load(game_id)
    channels = channels_asked(table, seat, request.args.get("channel") or None)
    after = check_cursor(request.args.get("after", "0"))
    messages, next_after = chat().read(game_id, channels, after, int_arg("limit", PAGE, 1, MAX_PAGE))
    # What the reader blocked, or muted here, is left out (the cursor still moves past it).
    reader = caller_player()
    hidden = platform().moderation.hidden_from(reader["id"] if reader else None, game_id)
    messages = [m for m in messages if m["from"].get("player") not in hidden]
    page = {"messages": messages, "next_after": next_after}
    return _json(schemas.one(schemas.ChatPageOut).dump(page))
