"""Wiring: one object holding the Redis clients, the store, the tables and the handler."""

from __future__ import annotations

import redis

from events.ledger import Ledger
from events.redis_store import RedisEventStore
from projections.snapshots import RedisSnapshots
from projections.tables import Tables
from service.config import Config
from service.handler import Handler, Scheduler, Vault


class Platform:
    def __init__(
        self,
        config: Config,
        client: redis.Redis,
        queue_client: redis.Redis | None = None,
        scheduler: Scheduler | None = None,
    ) -> None:
        self.config = config
        self.redis = client
        self.queue_redis = queue_client or client
        self.store = RedisEventStore(client, prefix=config.prefix)
        self.snapshots = RedisSnapshots(client, prefix=config.prefix)
        self.tables = Tables(self.store, self.snapshots)
        self.vault = Vault(client, prefix=config.prefix)
        self.ledger = Ledger(client, prefix=config.prefix)
        self.handler = Handler(self.store, self.tables, self.vault, scheduler, self.ledger)

    @classmethod
    def from_config(cls, config: Config, with_scheduler: bool = True) -> Platform:
        if config.redis_url is None:
            raise ValueError("REDIS_URL is not set")
        client = redis.Redis.from_url(config.redis_url, health_check_interval=30)
        queue_client = redis.Redis.from_url(config.queue_url) if config.queue_url != config.redis_url else client
        platform = cls(config, client, queue_client)
        if with_scheduler:
            from workers.scheduling import RQScheduler

            platform.handler.scheduler = RQScheduler(platform)
        return platform

    def key(self, *parts: str) -> str:
        return ":".join((self.config.prefix, *parts))
