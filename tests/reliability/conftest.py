"""Fixtures of the reliability suite: an in-process platform on the shared test Redis
(under the test's prefix); ``own_redis``, a redis-server of the test's own (so it may be
killed), is in ``tests/conftest.py``."""

from __future__ import annotations

import pytest
import redis

from core.config import Config
from stores.platform import Platform
from workers.scheduling import InlineBots
from workers.wiring import wire


@pytest.fixture
def inline_platform(real_redis: redis.Redis, redis_url: str, prefix: str) -> Platform:
    """The platform on the real test Redis; bot turns played inline; no rate limits."""
    config = Config(
        redis_url=redis_url, prefix=prefix, rate_per_address=10**6, rate_per_token=10**6, heartbeat_seconds=1
    )
    platform = wire(Platform(config, real_redis), bots=False)  # RQ's long jobs, as the entry points wire them
    platform.handler.scheduler = InlineBots(platform)
    return platform


def event_counts(platform: Platform) -> dict[str, int]:
    """Every game's last version: compared before and after to show nothing was appended."""
    return {game: platform.store.last_version(game) for game in platform.store.game_ids()}
