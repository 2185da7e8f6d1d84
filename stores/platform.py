"""Wiring: one object holding the Redis clients the service works on and every store on
them (the event store and the ledger, the projections' snapshots and read models, the
core's vault, players, chat and webhooks on their adapters here), the tables and the
handler. The entry points build it (``Platform.from_config``); the core only names the
parts it needs (``core.tooling.Wiring``, ``core.chat.ChatWiring``)."""

from __future__ import annotations

from typing import Any

import redis
from redis.backoff import NoBackoff
from redis.cluster import ClusterNode, RedisCluster
from redis.retry import Retry
from redis.sentinel import Sentinel

from core.config import Config
from core.handler import Handler, Scheduler
from core.jobs import LongJobs, NoJobs
from core.moderation import Moderation
from core.players import Players
from core.seeks import MatchRunner, NoMatchRunner
from core.tournaments import NoTournamentRunner, TournamentRunner
from core.vault import opening_seed
from core.webhooks import Webhooks
from events.ledger import Ledger
from events.redis_store import RedisEventStore
from projections.inbox import Inbox
from projections.ratings import Ratings
from projections.read_models import ReadModels
from projections.snapshots import RedisSnapshots
from projections.table import Table
from projections.tables import Tables
from stores.analyses import RedisAnalyses
from stores.chat import RedisChatLog
from stores.moderation import RedisModerationStore
from stores.players import RedisPlayerStore
from stores.seeks import RedisSeekStore
from stores.tournaments import RedisTournamentStore
from stores.vault import RedisVault
from stores.webhooks import RedisWebhookStore

# Settled here rather than left to redis-py's defaults, which version 8 changed: a read
# gives up after 5 s (a stream's blocking read waits up to a heartbeat, 15 s, and RQ's
# longer) and a process opens at most 100 connections (an evented API process serves
# thousands of requests at once, and each game it streams holds one for its reader).
CONNECTIONS: dict[str, Any] = {"socket_timeout": None, "max_connections": 2**31}


SENTINEL_SCHEME = "redis+sentinel://"


def queue_from_url(url: str) -> Any:
    """The job queue's Redis: ``redis://...``, or one that Redis Sentinel keeps, as
    ``redis+sentinel://host:port[,host:port...]/<service name>[/<db>]``: the client asks
    the sentinels for the service's master at each new connection, so after a failover
    the workers and the API enqueue on the promoted replica."""
    # The queue's Redis away must not slow every move that enqueues a bot's turn by the
    # default retries' backoff (about 3 s): one quick retry, then the reconcile's turn.
    retry = Retry(NoBackoff(), 1)
    if not url.startswith(SENTINEL_SCHEME):
        return redis.Redis.from_url(url, retry=retry, **CONNECTIONS)
    hosts, _, rest = url[len(SENTINEL_SCHEME) :].partition("/")
    service, _, db = rest.partition("/")
    nodes = []
    for entry in hosts.split(","):
        host, _, port = entry.strip().rpartition(":")
        if not host or not port.isdigit():
            raise ValueError(f"QUEUE_REDIS_URL: {entry!r} is not host:port ({SENTINEL_SCHEME}host:port,.../service)")
        nodes.append((host, int(port)))
    if not service or (db and not db.isdigit()):
        raise ValueError(f"QUEUE_REDIS_URL: name the sentinels' service ({SENTINEL_SCHEME}host:port/service[/db])")
    sentinel = Sentinel(nodes, socket_timeout=1.0)
    return sentinel.master_for(service, db=int(db or 0), retry=retry, **CONNECTIONS)


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
        self.store = RedisEventStore(
            client,
            prefix=config.prefix,
            partitions=config.feed_partitions,
            replicas=config.replicas_to_wait,
            replica_wait_ms=config.replica_wait_ms,
        )
        self.snapshots = RedisSnapshots(client, prefix=config.prefix)
        self.tables = Tables(self.store, self.snapshots)
        self.vault = RedisVault(client, prefix=config.prefix)
        self.ledger = Ledger(
            client, prefix=config.prefix, origin=config.log_origin, key=config.log_key, witnesses=config.witnesses
        )
        self.handler = Handler(self.store, self.tables, self.vault, scheduler, self.ledger, config.max_seats)
        self.handler.unreplicated = config.unreplicated
        self.jobs: LongJobs = NoJobs()
        self.read_models = ReadModels(client, config.prefix, config.feed_partitions)
        self.players = Players(RedisPlayerStore(client, config.prefix))
        self.ratings = Ratings(client, self.ledger, config.prefix)
        self.webhooks = Webhooks(RedisWebhookStore(client, config.prefix), config.webhook_allow)
        self.inbox = Inbox(client, config.prefix)
        self.chat_log = RedisChatLog(self.store)
        self.analyses = RedisAnalyses(self.store)
        self.moderation = Moderation(RedisModerationStore(client, config.prefix))
        self.tournaments = RedisTournamentStore(client, config.prefix)
        self.tournament_runner: TournamentRunner = NoTournamentRunner()
        self.seeks = RedisSeekStore(client, config.prefix, self.ratings)
        self.match_runner: MatchRunner = NoMatchRunner()

    @classmethod
    def from_config(cls, config: Config) -> Platform:
        """The platform on the configured Redis (a single one, or a cluster), with no job
        runner: the entry points wire one in (``workers.wiring``)."""
        if config.redis_url is None:
            raise ValueError("REDIS_URL is not set")
        client: Any
        if config.cluster:
            if config.queue_url is None:
                raise ValueError(
                    "REDIS_URL names a Redis Cluster, on which RQ cannot run: set QUEUE_REDIS_URL "
                    "to a single-node Redis (or a Sentinel-managed one) for the job queues."
                )
            nodes = [ClusterNode(host, port) for host, port in config.cluster_nodes]
            client = RedisCluster(startup_nodes=nodes, health_check_interval=30, **CONNECTIONS)
        else:
            client = redis.Redis.from_url(config.redis_url, health_check_interval=30, **CONNECTIONS)
        # The queue's Redis away must not slow every move that enqueues a bot's turn by the
        # default retries' backoff (about 3 s): one quick retry, then the reconcile's turn.
        queue_client = client if config.queue_url == config.redis_url else queue_from_url(config.queue_url or "")
        platform = cls(config, client, queue_client)
        platform.store.check_partitions()
        return platform

    def key(self, *parts: str) -> str:
        return ":".join((self.config.prefix, *parts))

    def opening_seed(self, table: Table, seat: int | None) -> str | None:
        """The seed a seat's events are opened with while ``table`` is in play
        (``core.vault.opening_seed``)."""
        return opening_seed(self.vault, table, seat)
