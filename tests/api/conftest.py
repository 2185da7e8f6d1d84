"""An in-process app on fakeredis with the tiny game, and a client helper."""

from __future__ import annotations

from typing import Any

import fakeredis
import pytest
from flask import Flask
from flask.testing import FlaskClient

from core.config import Config
from service.app import create_app
from stores.platform import Platform
from tests.api.conformance import CheckedClient
from workers.scheduling import InlineBots
from workers.wiring import wire

OPERATOR = "operator-token-for-tests"


@pytest.fixture
def platform() -> Platform:
    config = Config(redis_url="fake", rate_per_address=10**6, rate_per_token=10**6, admin_token=OPERATOR)
    p = Platform(config, fakeredis.FakeRedis())
    wire(p, bots=False)  # RQ's long jobs and queues, as the entry points wire them
    p.handler.scheduler = InlineBots(p)
    return p


@pytest.fixture
def app(platform: Platform) -> Flask:
    app = create_app(platform.config, platform)
    app.test_client_class = CheckedClient  # every answer the tests get is checked against the contract
    return app


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def operator() -> dict[str, str]:
    """The operator's bearer header (metrics, rebuilds)."""
    return bearer(OPERATOR)


def new_tiny(client: FlaskClient, players: list[dict[str, Any]] | None = None, **extra: Any) -> dict[str, Any]:
    players = players or [{"name": "ann"}, {"name": "bob"}]
    response = client.post("/v1/games", json={"kind": "tiny", "players": players, **extra})
    assert response.status_code == 201, response.get_data(as_text=True)
    return response.get_json()
