"""The edge, tried as a client or an attacker would: every problem's
body states the answer's real status; the metrics are the operator's; a query parameter
the route does not take is refused by name; and /healthz says 503 when the store that
answers PING will not take a write."""

from __future__ import annotations

from pathlib import Path

import fakeredis
import pytest
import redis
from flask.testing import FlaskClient

from core.config import Config
from service.app import create_app
from service.query import allowed
from service.routes.meta import spec_text
from stores.platform import Platform
from tests.reliability.procs import RedisServer

OPERATOR = "the-operators-own-token"


@pytest.fixture
def client() -> FlaskClient:
    config = Config(
        redis_url="fake", rate_per_address=10**6, rate_per_token=10**6, admin_token=OPERATOR, max_body_bytes=1024
    )
    return create_app(platform=Platform(config, fakeredis.FakeRedis())).test_client()


def new_game(client: FlaskClient) -> dict:  # type: ignore[type-arg]
    created = client.post("/v1/games", json={"kind": "tiny", "players": [{"name": "ann"}, {"name": "bob"}]})
    assert created.status_code == 201
    return dict(created.get_json())


def test_every_problem_body_states_the_status_it_is_sent_with(client: FlaskClient) -> None:
    game = new_game(client)
    gid, ann = game["id"], {"Authorization": f"Bearer {game['seats'][0]['token']}"}
    attempts = [
        client.delete("/v1/games"),  # 405
        client.put(f"/v1/games/{gid}/actions", json={}),  # 405
        client.get(f"/v1/games/{gid}/actions"),  # 405
        client.get("/v1/no-such-route"),  # 404
        client.get("/v1/games/no-such-game"),  # 404
        client.post("/v1/games", data="x" * 5000, content_type="application/json"),  # 413
        client.post("/v1/games", data="kind=tiny", content_type="application/x-www-form-urlencoded"),  # 415
        client.post("/v1/games", data="{not json", content_type="application/json"),  # 400
        client.post("/v1/games", json={"kind": "tiny", "players": [], "extra": 1}),  # 422
        client.get(f"/v1/games/{gid}", headers={"Authorization": "Bearer nobody"}),  # 401
        client.post(f"/v1/games/{gid}/actions", headers=ann, json={"action": {"type": "draw"}, "expected_version": 0}),
        client.get("/v1/games?player=ann"),  # 400
        client.get("/metrics"),  # 401
    ]
    statuses = set()
    for answer in attempts:
        assert answer.mimetype == "application/problem+json", answer.get_data(as_text=True)
        body = answer.get_json()
        assert body["status"] == answer.status_code, body
        assert body["type"].endswith("/" + body["code"])
        statuses.add(answer.status_code)
    assert statuses >= {400, 401, 404, 405, 409, 413, 415, 422}
    assert "POST" in client.get(f"/v1/games/{gid}/actions").headers["Allow"]


def test_the_metrics_are_the_operators_however_the_header_is_spelled(client: FlaskClient) -> None:
    game = new_game(client)
    seat = game["seats"][0]["token"]
    refused = {
        "no token": ({}, 401),
        "a seat's token": ({"Authorization": f"Bearer {seat}"}, 403),
        "a wrong token": ({"Authorization": f"Bearer {OPERATOR}x"}, 403),
        "a prefix of it": ({"Authorization": f"Bearer {OPERATOR[:-1]}"}, 403),
        "another scheme": ({"Authorization": f"Basic {OPERATOR}"}, 401),
    }
    for name, (headers, status) in refused.items():
        answer = client.get("/metrics", headers=headers)
        assert answer.status_code == status, name
        assert "tablestream_requests_total" not in answer.get_data(as_text=True), name
    for spelling in (f"Bearer {OPERATOR}", f"bearer {OPERATOR}", f"BEARER   {OPERATOR}  "):
        answer = client.get("/metrics", headers={"Authorization": spelling})
        assert answer.status_code == 200 and "tablestream_requests_total" in answer.get_data(as_text=True)

    closed = Config(redis_url="fake", rate_per_address=10**6, rate_per_token=10**6)
    unset = create_app(platform=Platform(closed, fakeredis.FakeRedis())).test_client()
    assert unset.get("/metrics", headers={"Authorization": f"Bearer {OPERATOR}"}).status_code == 403


def test_a_query_parameter_no_route_takes_is_refused_by_name_on_every_route(client: FlaskClient) -> None:
    game = new_game(client)
    gid, ann = game["id"], {"Authorization": f"Bearer {game['seats'][0]['token']}"}
    gets = {
        "/v1/games": "/v1/games",
        "/v1/games/{game_id}": f"/v1/games/{gid}",
        "/v1/games/{game_id}/events": f"/v1/games/{gid}/events",
        "/v1/games/{game_id}/history/{version}": f"/v1/games/{gid}/history/1",
        "/v1/games/{game_id}/replay": f"/v1/games/{gid}/replay",
        "/v1/kinds": "/v1/kinds",
        "/v1/stats": "/v1/stats",
        "/v1/ledger": "/v1/ledger",
    }
    taken = allowed(spec_text())
    for spec_path, url in gets.items():
        answer = client.get(f"{url}?player=ann&zz=1", headers=ann)
        body = answer.get_json()
        assert answer.status_code == 400 and body["code"] == "bad_request", (url, body)
        assert body["unknown_parameters"] == ["player", "zz"] and "player, zz" in body["detail"]
        for name in taken[spec_path, "GET"]:  # every parameter the spec names still works
            value = "finished" if name == "status" else "tiny" if name == "kind" else "1"
            assert client.get(f"{url}?{name}={value}", headers=ann).status_code == 200, (url, name)
    posted = client.post(
        f"/v1/games/{gid}/actions?force=1",
        headers=ann,
        json={"action": {"type": "draw"}, "expected_version": game["version"]},
    )
    assert posted.status_code == 400 and posted.get_json()["unknown_parameters"] == ["force"]
    assert client.get(f"/v1/games/{gid}").get_json()["version"] == game["version"]  # nothing appended


def test_healthz_is_503_while_the_redis_that_answers_ping_refuses_writes(own_redis: RedisServer) -> None:
    # Given a Redis that answers PING but refuses every write (it wants a replica it does
    # not have), when /healthz is asked, then it says 503 with the reason, as the API's
    # own calls fail; once writes work again, it says 200. Its probe leaves no key behind.
    client_redis = own_redis.client()
    config = Config(redis_url=own_redis.url, rate_per_address=10**6, rate_per_token=10**6)
    app = create_app(platform=Platform(config, redis.Redis.from_url(own_redis.url))).test_client()
    assert app.get("/healthz").status_code == 200
    client_redis.config_set("min-replicas-to-write", 1)
    try:
        health = app.get("/healthz")
        body = health.get_json()
        assert health.status_code == 503 and body["status"] == "unavailable", body
        assert body["redis"]["reachable"] is True and body["redis"]["writable"] is False
        assert "NOREPLICAS" in body["redis"]["error"]
        created = app.post("/v1/games", json={"kind": "tiny", "players": [{"name": "a"}, {"name": "b"}]})
        assert created.status_code == 503
    finally:
        client_redis.config_set("min-replicas-to-write", 0)
    assert app.get("/healthz").status_code == 200
    assert [k for k in client_redis.scan_iter(match="*healthz*")] == []


def test_healthz_is_503_when_redis_is_gone(tmp_path: Path) -> None:
    server = RedisServer(tmp_path / "gone")
    server.start()
    config = Config(redis_url=server.url, rate_per_address=10**6, rate_per_token=10**6)
    app = create_app(platform=Platform(config, redis.Redis.from_url(server.url, socket_timeout=2))).test_client()
    assert app.get("/healthz").status_code == 200
    server.stop()
    body = app.get("/healthz").get_json()
    assert body["status"] == "unavailable" and body["redis"]["reachable"] is False
