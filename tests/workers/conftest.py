"""The worker tests' platform: on the real test Redis, bot turns scheduled through RQ."""

from __future__ import annotations

import pytest
import redis

from core.config import Config
from stores.platform import Platform
from workers import wiring
from workers.scheduling import RQScheduler


@pytest.fixture
def platform(real_redis: redis.Redis, redis_url: str, prefix: str) -> Platform:
    p = Platform(Config(redis_url=redis_url, prefix=prefix), real_redis)
    p.handler.scheduler = RQScheduler(p)
    wiring.use(p)
    return p
