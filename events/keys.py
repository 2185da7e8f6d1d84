"""Key names that depend on the Redis engine.

On a single Redis, names are what the first version wrote (no data moves). On Redis
Cluster a script or a transaction may touch keys of one slot only, so keys used together
carry one hash tag: ``<prefix>:{<group>}:...`` (the read models, the ledger, the rate
limits; a game's keys carry its partition's, see ``events.redis_store``).
"""

from __future__ import annotations

import zlib
from typing import Any

from redis.cluster import RedisCluster


def clustered(client: Any) -> bool:
    """Whether ``client`` talks to a Redis Cluster."""
    return isinstance(client, RedisCluster)


def group(prefix: str, name: str, client: Any) -> str:
    """The start of the names of a group of keys used together: ``<prefix>:<name>``, or
    ``<prefix>:{<name>}`` on a cluster (one slot for the group)."""
    return f"{prefix}:{{{name}}}" if clustered(client) else f"{prefix}:{name}"


def partition_of(game_id: str, partitions: int) -> int:
    """The feed partition a game belongs to, for life (see ``events.redis_store``)."""
    return zlib.crc32(game_id.encode()) % partitions if partitions > 1 else 0
