"""Health, metrics, the game kinds, and the API's own description."""

from __future__ import annotations

import json
from importlib import resources

from flask import Blueprint, Response

from games import registry
from service import schemas
from service.http import platform
from service.metrics import render, tally

bp = Blueprint("meta", __name__)


@bp.get("/healthz")
def healthz() -> Response:
    p = platform()
    try:
        p.redis.ping()
        last = p.redis.xrevrange(p.store.feed_key, count=1)
    except Exception as error:  # any failure to reach Redis is "unhealthy", said plainly
        body = {"status": "unavailable", "redis": {"reachable": False, "error": str(error)}}
        return Response(json.dumps(body), status=503, mimetype="application/json")
    try:
        version = p.redis.info("server").get("redis_version")
    except Exception:  # a Redis double without INFO still serves
        version = None
    last_write = None
    if last:
        last_write = {"feed_id": last[0][0].decode(), "game": last[0][1][b"game"].decode()}
    body = {
        "status": "ok",
        "redis": {"reachable": True, "version": version},
        "store": {"last_write": last_write},
        "kinds": registry.keys(),
    }
    return Response(json.dumps(body), mimetype="application/json")


@bp.get("/metrics")
def metrics() -> Response:
    from rq import Queue

    from workers.scheduling import queue_names

    p = platform()
    tally().flush()  # this process's counts; other processes add theirs within FLUSH_SECONDS
    raw = p.redis.hgetall(p.key("metrics"))
    depths = {name: len(Queue(name, connection=p.queue_redis)) for name in queue_names(p)}
    return Response(render(raw, depths), mimetype="text/plain; version=0.0.4")


@bp.get("/v1/kinds")
def kinds() -> Response:
    out = []
    for key in registry.keys():
        game = registry.get(key)
        assert game is not None
        out.append(
            {
                "key": game.key,
                "title": game.title,
                "summary": game.summary,
                "min_players": game.min_players,
                "max_players": game.max_players,
                "options": [option.as_json() for option in game.options],
            }
        )
    return Response(json.dumps({"kinds": schemas.KindOut(many=True).dump(out)}), mimetype="application/json")


def spec_text() -> str:
    return resources.files("service").joinpath("openapi.yaml").read_text()


@bp.get("/openapi.yaml")
def openapi() -> Response:
    return Response(spec_text(), mimetype="application/yaml")


@bp.get("/docs")
def docs() -> Response:
    from service.docs import render_docs

    return Response(render_docs(spec_text()), mimetype="text/html")
