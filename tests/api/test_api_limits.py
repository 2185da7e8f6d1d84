"""Security and limits of the REST API: tokens kept only as hashes, per-address rate
limits, CORS off unless configured, the docs page served without a CDN, and the event
stream's heartbeat."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from typing import Any, cast

import fakeredis
from flask.testing import FlaskClient

from core.config import Config
from service.app import create_app
from stores.platform import Platform
from tests.api.conftest import bearer, new_tiny, operator


def client_with(**settings: Any) -> tuple[FlaskClient, Platform]:
    config = Config(**{"redis_url": "fake", "rate_per_address": 10**6, "rate_per_token": 10**6, **settings})
    platform = Platform(config, fakeredis.FakeRedis())
    return create_app(config, platform).test_client(), platform


def everything_stored(platform: Platform) -> bytes:
    """Every key and every value in the platform's Redis, as one blob of bytes."""
    client = platform.redis
    parts: list[bytes] = []
    for key in client.scan_iter(count=1000):
        parts.append(key)
        kind = client.type(key).decode()
        if kind == "string":
            parts.append(client.get(key) or b"")
        elif kind == "hash":
            for field, value in client.hgetall(key).items():
                parts += [field, value]
        elif kind == "stream":
            for _, fields in client.xrange(key):
                for field, value in fields.items():
                    parts += [field, value]
        elif kind == "zset":
            parts += client.zrange(key, 0, -1)
        elif kind == "list":
            parts += client.lrange(key, 0, -1)
        elif kind == "set":
            parts += list(client.smembers(key))
    return b"\n".join(parts)


def test_seat_tokens_are_stored_only_as_their_sha256(client: FlaskClient, platform: Platform) -> None:
    game = new_tiny(client, [{"name": "ann"}, {"open": True}])
    joined = client.post(f"/v1/games/{game['id']}/seats/1/join", json={"name": "bob"}).get_json()
    tokens = [game["seats"][0]["token"], joined["token"]]
    stored = everything_stored(platform)
    for token in tokens:
        assert token.encode() not in stored
        assert hashlib.sha256(token.encode()).hexdigest().encode() in stored
        assert client.get(f"/v1/games/{game['id']}", headers=bearer(token)).status_code == 200


def test_an_address_over_its_limit_gets_429_with_retry_after_and_other_addresses_do_not() -> None:
    client, _ = client_with(rate_per_address=3, rate_window_seconds=60)
    here = {"REMOTE_ADDR": "10.0.0.1"}
    statuses = [client.get("/v1/kinds", environ_base=here).status_code for _ in range(5)]
    assert statuses == [200, 200, 200, 429, 429]
    refused = client.get("/v1/kinds", environ_base=here)
    # Retry-After: the seconds until the next request is allowed, one interval (60 s / 3)
    assert refused.status_code == 429 and refused.headers["Retry-After"] == "20"
    assert refused.mimetype == "application/problem+json" and refused.get_json()["code"] == "rate_limited"
    assert client.get("/v1/kinds", environ_base={"REMOTE_ADDR": "10.0.0.2"}).status_code == 200
    assert client.get("/healthz", environ_base=here).status_code == 200, "health checks are not rate limited"


def test_cors_is_off_by_default(client: FlaskClient) -> None:
    response = client.get("/v1/kinds", headers={"Origin": "https://app.example"})
    assert response.status_code == 200
    assert not [h for h in response.headers.keys() if h.lower().startswith("access-control-")]


def test_cors_answers_only_the_configured_origins() -> None:
    client, _ = client_with(cors_origins=("https://app.example",))
    allowed = client.get("/v1/kinds", headers={"Origin": "https://app.example"})
    assert allowed.headers["Access-Control-Allow-Origin"] == "https://app.example"
    assert "ETag" in allowed.headers["Access-Control-Expose-Headers"]
    preflight = client.options(
        "/v1/games/some-game/actions",
        headers={
            "Origin": "https://app.example",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "Authorization, Idempotency-Key",
        },
    )
    assert preflight.status_code == 200
    assert preflight.headers["Access-Control-Allow-Origin"] == "https://app.example"
    assert {"authorization", "idempotency-key", "if-match"} <= {
        h.strip().lower() for h in preflight.headers["Access-Control-Allow-Headers"].split(",")
    }
    other = client.get("/v1/kinds", headers={"Origin": "https://evil.example"})
    assert "Access-Control-Allow-Origin" not in other.headers


def test_the_docs_page_loads_nothing_from_elsewhere(client: FlaskClient) -> None:
    page = client.get("/docs").get_data(as_text=True)
    assert "<html" in page and "/v1/games/{game_id}/events/stream" in page
    assert re.findall(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//""", page) == [], "no CDN, no remote asset"
    assert "@import" not in page


def test_the_event_stream_sends_a_heartbeat_while_nothing_happens_then_the_next_event() -> None:
    client, platform = client_with(heartbeat_seconds=1)
    game = new_tiny(client)
    response = client.get(
        f"/v1/games/{game['id']}/events/stream", headers={"Last-Event-ID": str(game["version"])}, buffered=False
    )
    chunks = iter(cast(Iterable[bytes], response.response))
    try:
        assert next(chunks).startswith(b"retry:")
        assert next(chunks) == b": heartbeat\n\n"
        # Acted through the handler: a second request from this thread would share the
        # open stream's request context, which a real server never does.
        platform.handler.act(game["id"], 0, {"type": "add", "amount": 1}, game["version"])
        sent = b""
        while sent.count(b"\n\n") < 2:
            sent += next(chunks)
        assert sent.startswith(f"id: {game['version'] + 1}\nevent: ActionTaken\n".encode()), sent
        assert f"id: {game['version'] + 2}\nevent: Added\n".encode() in sent
    finally:
        response.close()


def test_the_stream_of_a_finished_game_sends_the_rest_and_ends(client: FlaskClient) -> None:
    game = new_tiny(client, options={"start": 9})
    token = game["seats"][0]["token"]
    final = client.post(
        f"/v1/games/{game['id']}/actions",
        headers=bearer(token),
        json={"action": {"type": "add", "amount": 1}, "expected_version": game["version"]},
    ).get_json()
    caught_up = client.get(f"/v1/games/{game['id']}/events/stream", headers={"Last-Event-ID": str(final["version"])})
    assert caught_up.get_data(as_text=True) == "retry: 2000\n\n"
    resumed = client.get(
        f"/v1/games/{game['id']}/events/stream", headers={"Last-Event-ID": str(final["version"] - 1)}
    ).get_data(as_text=True)
    assert [line for line in resumed.splitlines() if line.startswith("id: ")] == [f"id: {final['version']}"]


def test_metrics_keep_each_family_together_and_the_histogram_cumulative(client: FlaskClient) -> None:
    game = new_tiny(client)
    for _ in range(3):
        client.get(f"/v1/games/{game['id']}")
    text = client.get("/metrics", headers=operator()).get_data(as_text=True)
    samples = [line for line in text.splitlines() if line and not line.startswith("#")]
    families = [re.sub(r"(_bucket|_sum|_count)$", "", line.split("{")[0].split(" ")[0]) for line in samples]
    runs = [name for index, name in enumerate(families) if index == 0 or families[index - 1] != name]
    assert len(runs) == len(set(runs)), f"a metric family is split: {runs}"
    route = 'route="/v1/games/<game_id>"'
    buckets = [
        float(line.rsplit(" ", 1)[1])
        for line in samples
        if line.startswith("tablestream_request_seconds_bucket{") and route in line
    ]
    assert buckets == sorted(buckets) and buckets[-1] == 3
    assert f"tablestream_request_seconds_count{{{route}}} 3.0" in samples  # prometheus_client writes floats
