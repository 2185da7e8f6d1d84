"""Webhooks: a player's URLs for its notices, and their recent deliveries
(``core.webhooks`` says what may be registered; ``workers.webhooks`` sends)."""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response

from service import schemas
from service.http import body, caller_player, platform

bp = Blueprint("webhooks", __name__)


def _json(payload: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(json.dumps(payload), status=status, mimetype="application/json", headers=headers)


def _me() -> str:
    player = caller_player(required=True)
    assert player is not None
    return str(player["id"])


@bp.post("/v1/players/me/webhooks")
def register() -> Response:
    """A new webhook; its signing secret is in this answer and never again."""
    player = _me()
    data = body(schemas.one(schemas.WebhookIn))
    hook = platform().webhooks.register(player, data["url"], data["events"])
    headers = {"Location": f"/v1/players/me/webhooks/{hook['id']}", "Cache-Control": "no-store"}
    return _json(schemas.one(schemas.WebhookOut).dump(hook), 201, headers)


@bp.get("/v1/players/me/webhooks")
def listed() -> Response:
    hooks = platform().webhooks.of_player(_me())
    return _json(schemas.one(schemas.WebhooksOut).dump({"webhooks": hooks}))


@bp.delete("/v1/players/me/webhooks/<webhook_id>")
def delete(webhook_id: str) -> Response:
    """The webhook and its deliveries go; what it had not sent is not sent."""
    platform().webhooks.delete(_me(), webhook_id)
    return Response(status=204)


@bp.get("/v1/players/me/webhooks/<webhook_id>/deliveries")
def deliveries(webhook_id: str) -> Response:
    """The webhook's latest deliveries, newest first, with their status."""
    player = _me()
    hooks = platform().webhooks
    hooks.owned(player, webhook_id)
    found = [d.as_json() for d in hooks.recent(webhook_id)]
    return _json(schemas.one(schemas.DeliveriesOut).dump({"webhook": webhook_id, "deliveries": found}))
