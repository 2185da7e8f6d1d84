"""Health, metrics, the game kinds, and the API's own description."""

from __future__ import annotations

import functools
import hmac
import json
import secrets
from importlib import resources
from typing import Any

from flask import Blueprint, Response, current_app, request
from prometheus_client import CONTENT_TYPE_LATEST
from redis.cluster import RedisCluster

from core.errors import Code, CommandError
from events.keys import clustered
from games import registry
from service import health, schemas
from service.docs import etag, render_docs
from service.http import bearer, platform
from service.metrics import exposition

bp = Blueprint("meta", __name__)


HEALTH_SECONDS = 30


def operator_token(what: str) -> str:
    """The bearer token, when it is the operator's (``TABLESTREAM_ADMIN_TOKEN``); else 401/403."""
    admin = platform().config.admin_token
    token = bearer()
    if token is None:
        raise CommandError(Code.UNAUTHORIZED, "Send the operator's token as 'Authorization: Bearer <token>'.")
    if admin is None or not hmac.compare_digest(token.encode(), admin.encode()):
        raise CommandError(
            Code.FORBIDDEN, f"{what} is for the operator: send TABLESTREAM_ADMIN_TOKEN as the bearer token."
        )
    return token


@bp.get("/healthz")
def healthz() -> Response:
    """Healthy only when the store takes a write and gives it back, through the same client
    the API uses: a Redis that answers PING but refuses writes (read-only, out of memory,
    failing to persist, short of replicas) is not one the API can serve from. A healthy
    answer also says whether job workers are alive and how far the projector is behind:
    ``degraded`` when either is wrong, still 200 (``service.health``)."""
    p = platform()
    probe, value = p.key("healthz", secrets.token_hex(8)), secrets.token_hex(8)
    try:
        p.redis.set(probe, value, ex=HEALTH_SECONDS)
        read = p.redis.get(probe)
        p.redis.delete(probe)
        if read is None or read.decode() != value:
            raise RuntimeError("a value written to Redis did not read back")
        last = p.store.last_notice()
        cluster = _cluster_state(p.redis)
    except Exception as error:  # any failure to use Redis is "unhealthy", said plainly
        body = {"status": "unavailable", "redis": {"reachable": _pings(p), "writable": False, "error": str(error)}}
        return Response(json.dumps(body), status=503, mimetype="application/json")
    if cluster is not None and not cluster["serving"]:
        body = {"status": "unavailable", "redis": {"reachable": True, "writable": True, "cluster": cluster}}
        return Response(json.dumps(body), status=503, mimetype="application/json")
    try:
        version = p.redis.info("server").get("redis_version")
    except Exception:  # a Redis double without INFO still serves
        version = None
    last_write = None if last is None else {"feed_id": last.id, "game": last.game}
    queue = p.queue_redis if p.queue_redis is not p.redis else None
    beside = health.report(p.store, current_app.extensions.get(health.CENSUS), queue)
    body = {
        "status": "ok",
        "degraded": beside["degraded"],
        "problems": beside["problems"],
        "redis": {"reachable": True, "writable": True, "version": version}
        | ({"cluster": cluster} if cluster is not None else {}),
        "store": {"last_write": last_write},
        "queue": beside["queue"],
        "workers": beside["workers"],
        "projector": beside["projector"],
        "kinds": registry.keys(),
    }
    return Response(json.dumps(body), mimetype="application/json")


def _cluster_state(client: Any) -> dict[str, Any] | None:
    """On a Redis Cluster: its state as a node sees it, the slots it serves, and how many
    of its masters answer; ``serving`` only when every slot is served and every master
    answers (a write to one slot says nothing of the others)."""
    if not clustered(client):
        return None
    info = client.cluster_info(target_nodes=RedisCluster.RANDOM)
    masters = client.get_primaries()
    answering = sum(1 for node in masters if _node_answers(client, node))
    slots_ok = int(info.get("cluster_slots_ok", 0))
    state = {
        "state": info.get("cluster_state"),
        "slots_ok": slots_ok,
        "slots": 16384,
        "masters": len(masters),
        "masters_answering": answering,
    }
    state["serving"] = state["state"] == "ok" and slots_ok == 16384 and answering == len(masters) > 0
    return state


def _node_answers(client: Any, node: Any) -> bool:
    try:
        return bool(client.ping(target_nodes=node))
    except Exception:
        return False


def _pings(p: Any) -> bool:
    try:
        return bool(p.redis.ping())
    except Exception:
        return False


@bp.get("/metrics")
def metrics() -> Response:
    """Prometheus text, for the operator's token only (docs/operations.md)."""
    operator_token("Reading the metrics")
    return Response(exposition(platform()), mimetype=CONTENT_TYPE_LATEST)


@bp.get("/v1/kinds")
def kinds() -> Response:
    """Every kind, with the options its games accept (as the kind declares them, ``rules``
    included) and its largest table (this service's, for a kind whose rulebook sets none)."""
    table_size = platform().config.max_seats
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
                "max_players": game.most_players(table_size),
                "open_ended": game.open_ended,
                "options": [option.as_json() for option in game.accepted_options],
                "rules_revision": game.rules_revision,
            }
        )
    return Response(json.dumps({"kinds": schemas.KindOut(many=True).dump(out)}), mimetype="application/json")


def _kind(key: str) -> Any:
    game = registry.get(key)
    if game is None:
        raise CommandError(Code.UNKNOWN_KIND, f"There is no game kind {key!r} (see GET /v1/kinds).")
    return game


@bp.get("/v1/kinds/<kind>/cards")
def card_faces(kind: str) -> Response:
    """Every card of the kind as its face shows it: public data, the same for everyone."""
    game = _kind(kind)
    body = {"kind": game.key, "cards": game.card_faces()}
    cached = {"Cache-Control": "max-age=3600"}
    return Response(json.dumps(body, sort_keys=True), mimetype="application/json", headers=cached)


def how_to_play(readme: str) -> str:
    """The "How to play" section of a game's README (up to the next second-level heading)."""
    lines = readme.splitlines()
    start = next((i for i, line in enumerate(lines) if line.strip().lower() == "## how to play"), None)
    if start is None:
        return ""
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    return "\n".join(lines[start + 1 : end]).strip() + "\n"


@bp.get("/v1/kinds/<kind>/rules")
def rules(kind: str) -> Response:
    """How to play the kind, in the project's own words (its README), and its rulings."""
    game = _kind(kind)
    package = resources.files(type(game).__module__.rsplit(".", 1)[0])
    readme = package.joinpath("README.md")
    rulings = package.joinpath("RULINGS.md")
    body = {
        "kind": game.key,
        "title": game.title,
        "how_to_play": how_to_play(readme.read_text()) if readme.is_file() else "",
        "rulings": rulings.read_text() if rulings.is_file() else "",
    }
    return Response(json.dumps(body), mimetype="application/json", headers={"Cache-Control": "max-age=3600"})


@functools.cache
def spec_text() -> str:
    """The contract, read once a process: it checks every query string, and reading its
    280 kB (and hashing it again for the parsed form's cache) took a few milliseconds of
    every such request."""
    return resources.files("service").joinpath("openapi.yaml").read_text()


@bp.get("/openapi.yaml")
def openapi() -> Response:
    return Response(spec_text(), mimetype="application/yaml")


# Nothing from another host, should Redoc ever ask for something there.
DOCS_POLICY = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' 'unsafe-eval' blob:; "
    "style-src 'self' 'unsafe-inline'; img-src 'self' data:; worker-src 'self' blob:; font-src 'self' data:"
)


@bp.get("/docs")
def docs() -> Response:
    """The page carries Redoc's bundle (a megabyte): a browser that has it asks with its
    ETag and gets 304."""
    page = rendered_docs(spec_text())
    response = Response(page, mimetype="text/html")
    response.set_etag(etag(page))
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Content-Security-Policy"] = DOCS_POLICY
    response.make_conditional(request)
    return response


@functools.lru_cache(maxsize=1)
def rendered_docs(text: str) -> str:
    return render_docs(text)
