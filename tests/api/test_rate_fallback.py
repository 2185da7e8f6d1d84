"""With the rate counters' Redis away (a master killed, until its replica is promoted), every
route is judged by the process's own counters (``service.ratelimit.LocalCounter``), at the
same limits: nothing is refused for want of the counters, and no client gets more than its
limit from one process. The cluster case, with a master killed, is
``tests/reliability/test_reliability_rate_failover.py``."""

from __future__ import annotations

from typing import Any

import fakeredis
import pytest
import redis
from flask import Flask

from core.config import Config
from service.app import create_app
from service.ratelimit import ADDRESS, TOKEN, LocalCounter, RateCounter
from stores.platform import Platform
from tests.api.conftest import OPERATOR, bearer, new_tiny, operator


def counters_away(app: Flask, platform: Platform, monkeypatch: pytest.MonkeyPatch) -> RateCounter:
    counter = RateCounter(platform.redis)

    def away(*args: Any, **kwargs: Any) -> None:
        raise redis.ConnectionError("the counters' node is away")

    monkeypatch.setattr(counter, "_hit", away)
    app.extensions["tablestream.rate"] = counter
    return counter


def test_every_route_answers_and_keeps_its_limits_with_the_counters_away(monkeypatch: pytest.MonkeyPatch) -> None:
    config = Config(
        redis_url="fake", rate_per_address=4, rate_per_token=3, rate_window_seconds=60, admin_token=OPERATOR
    )
    platform = Platform(config, fakeredis.FakeRedis())
    app = create_app(config, platform)
    client = app.test_client()
    game = new_tiny(client, [{"name": "ann"}, {"name": "bob"}])  # before: Redis's counters
    counter = counters_away(app, platform, monkeypatch)
    here = {"REMOTE_ADDR": "10.0.0.1"}
    assert [client.get("/v1/kinds", environ_base=here).status_code for _ in range(5)] == [200] * 4 + [429]
    assert client.get("/v1/kinds", environ_base=here).headers["Retry-After"] == "15"
    there = {"REMOTE_ADDR": "10.0.0.2"}
    seat = bearer(game["seats"][0]["token"])
    # Whom the token acts for is read by the route itself: the seat is known, the view its own.
    reads = [client.get(f"/v1/games/{game['id']}", headers=seat, environ_base=there) for _ in range(4)]
    assert [r.status_code for r in reads] == [200, 200, 200, 429]
    assert reads[0].get_json()["seat"] == 0
    assert client.get(f"/v1/games/{game['id']}", headers=bearer("not-a-token"), environ_base=there).status_code == 401
    assert counter.local.judged == 11
    scraped = client.get("/metrics", headers=operator(), environ_base={"REMOTE_ADDR": "10.0.0.3"})
    assert "tablestream_rate_local_total 11.0" in scraped.get_data(as_text=True), "what operators alert on"


def test_the_process_s_own_counters_spend_nothing_on_a_refusal() -> None:
    now = [1000.0]
    local = LocalCounter(clock=lambda: now[0])
    token = ("token-state", "token-owner")
    assert [local.hit("a", 2, 60_000, token, 1).refused_by for _ in range(3)] == [None, TOKEN, TOKEN]
    # The token's refusals spent nothing of its address's allowance: one request is left.
    assert local.hit("a", 2, 60_000).refused_by is None
    refused = local.hit("a", 2, 60_000)
    assert refused.refused_by == ADDRESS and refused.wait_ms == 30_000 and refused.local
    now[0] += 30.0  # one interval later, one request again
    assert local.hit("a", 2, 60_000).refused_by is None
    assert local.hit("a", 2, 60_000).refused_by == ADDRESS


def test_the_process_s_own_counters_are_bounded() -> None:
    now = [0.0]
    local = LocalCounter(capacity=100, clock=lambda: now[0])
    for index in range(1000):
        local.hit(f"address-{index}", 10, 1_000)
        now[0] += 0.01
    assert len(local._tats) <= 100
