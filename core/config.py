"""Configuration, read from the environment."""

from __future__ import annotations

import ipaddress
import os
import re
from dataclasses import dataclass, field

from games.base import TABLE_SIZE


def _choice(name: str, choices: tuple[str, ...]) -> str:
    """The setting ``name``, one of ``choices`` (the first when unset)."""
    value = (os.environ.get(name) or choices[0]).strip().lower()
    if value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(choices)}, not {value!r}")
    return value


def _int(name: str, default: int) -> int:
    value = os.environ.get(name)
    return default if value in (None, "") else int(value)


def _between(name: str, default: int, least: int, most: int) -> int:
    value = _int(name, default)
    if not least <= value <= most:
        raise ValueError(f"{name} must be from {least} to {most}, not {value}")
    return value


@dataclass(frozen=True)
class Config:
    redis_url: str | None = None
    queue_redis_url: str | None = None
    data_dir: str = ".tablestream"
    host: str = "127.0.0.1"
    port: int = 8000
    prefix: str = "ts"
    max_body_bytes: int = 64 * 1024
    rate_per_token: int = 20
    rate_per_address: int = 100
    rate_window_seconds: float = 1
    # Off (0) by default: X-Forwarded-For is ignored and a request counts against its
    # peer's address. A count of proxies, or their addresses/networks, to read it.
    trusted_proxies: int | tuple[str, ...] = 0
    cors_origins: tuple[str, ...] = ()
    undo_seconds: int = 120
    # The largest table of a kind whose rulebook sets none (``GameBase.open_ended``: Fortress,
    # "for 2 or more players"); a kind whose rulebook gives its largest table keeps it.
    max_seats: int = TABLE_SIZE
    api_workers: int = 2
    # Connections one API worker (an evented process: an open stream costs it a greenlet,
    # not a thread) holds at once, whoever they are from.
    api_connections: int = 10_000
    # Per worker process: connections open from one client address (streams included),
    # event streams open from one address, and from one bearer token. Over any of them a
    # client gets 429 with Retry-After; everyone else keeps their share.
    connections_per_address: int = 1_000
    streams_per_address: int = 500
    streams_per_token: int = 64
    # A connection that has not sent a whole request's line and headers this long after
    # it opened, or after its last answer, is dropped (a slow client holding sockets).
    header_seconds: float = 5
    heartbeat_seconds: int = 15
    # A bot's search stops this long after its job starts, so it answers within a second
    # even where a position is slower than the one its iteration budget was set on.
    bot_seconds: float = 0.6
    inline_jobs: bool = False
    # The operator's bearer token for maintenance routes (read-model rebuilds); unset: none.
    admin_token: str | None = None
    # Feed partitions (``events.redis_store``): 0 picks the engine's default, 1 on a single
    # Redis (the first version's layout), CLUSTER_PARTITIONS on a cluster. Fixed for the
    # life of a deployment: the store refuses to start on another count.
    partitions: int = 0
    # Replicas an append waits for before it is acknowledged (Redis WAIT), and how long:
    # -1 picks the engine's default, 0 on a single Redis, 1 on a cluster.
    replica_wait: int = -1
    replica_wait_ms: int = 500
    # A change that can be asked again (a command with an id) that fewer replicas than asked
    # confirm in time: "refuse" (503, written but not acknowledged; the retry learns it) or
    # "acknowledge" (acknowledged on the master alone, marked unreplicated in the answer and
    # recorded for the audit).
    unreplicated: str = "refuse"
    # Webhooks (``core.webhooks``): the hosts and networks their URLs may name (empty: any
    # public address), the first retry's delay in seconds (doubling after), and the attempts
    # before a delivery is given up as failed.
    webhook_allow: tuple[str, ...] = ()
    webhook_retry_seconds: float = 10
    webhook_attempts: int = 8
    # The ledger's transparency log (``events.transparency``): the origin line its signed
    # checkpoints begin with, and its Ed25519 key (base64 of the 32-byte private seed);
    # unset, a key is made once and kept in Redis beside the ledger.
    log_origin: str = "localhost/tablestream"
    log_key: str | None = None
    # The witnesses whose cosignatures of its checkpoints the service keeps and serves:
    # their verifier keys (``name+id+base64(0x04 || key)``).
    witnesses: tuple[str, ...] = ()
    extra: dict[str, str] = field(default_factory=dict)

    @classmethod
    def from_env(cls) -> Config:
        cors = os.environ.get("TABLESTREAM_CORS_ORIGINS", "")
        return cls(
            redis_url=os.environ.get("REDIS_URL") or None,
            queue_redis_url=os.environ.get("QUEUE_REDIS_URL") or None,
            data_dir=os.environ.get("TABLESTREAM_DATA_DIR") or ".tablestream",
            host=os.environ.get("HOST") or "127.0.0.1",
            port=_int("PORT", 8000),
            prefix=os.environ.get("TABLESTREAM_PREFIX") or "ts",
            max_body_bytes=_int("TABLESTREAM_MAX_BODY", 64 * 1024),
            rate_per_token=_int("TABLESTREAM_RATE_PER_TOKEN", 20),
            rate_per_address=_int("TABLESTREAM_RATE_PER_ADDRESS", 100),
            trusted_proxies=parse_trusted_proxies(os.environ.get("TABLESTREAM_TRUSTED_PROXIES", "")),
            cors_origins=tuple(o.strip() for o in cors.split(",") if o.strip()),
            undo_seconds=_int("TABLESTREAM_UNDO_SECONDS", 120),
            max_seats=_between("TABLESTREAM_MAX_SEATS", TABLE_SIZE, 2, MOST_SEATS),
            api_workers=_int("TABLESTREAM_API_WORKERS", 2),
            api_connections=_int("TABLESTREAM_API_CONNECTIONS", 10_000),
            connections_per_address=_int("TABLESTREAM_CONNECTIONS_PER_ADDRESS", 1_000),
            streams_per_address=_int("TABLESTREAM_STREAMS_PER_ADDRESS", 500),
            streams_per_token=_int("TABLESTREAM_STREAMS_PER_TOKEN", 64),
            header_seconds=float(os.environ.get("TABLESTREAM_HEADER_SECONDS") or 5),
            heartbeat_seconds=_int("TABLESTREAM_HEARTBEAT_SECONDS", 15),
            bot_seconds=float(os.environ.get("TABLESTREAM_BOT_SECONDS") or 0.6),
            admin_token=os.environ.get("TABLESTREAM_ADMIN_TOKEN") or None,
            partitions=_int("TABLESTREAM_PARTITIONS", 0),
            replica_wait=_int("TABLESTREAM_REPLICA_WAIT", -1),
            replica_wait_ms=_int("TABLESTREAM_REPLICA_WAIT_MS", 500),
            unreplicated=_choice("TABLESTREAM_UNREPLICATED", ("refuse", "acknowledge")),
            webhook_allow=parse_webhook_allow(os.environ.get("TABLESTREAM_WEBHOOK_ALLOW", "")),
            webhook_retry_seconds=float(os.environ.get("TABLESTREAM_WEBHOOK_RETRY_SECONDS") or 10),
            webhook_attempts=_int("TABLESTREAM_WEBHOOK_ATTEMPTS", 8),
            log_origin=os.environ.get("TABLESTREAM_LOG_ORIGIN") or "localhost/tablestream",
            log_key=os.environ.get("TABLESTREAM_LOG_KEY") or None,
            witnesses=tuple(k.strip() for k in os.environ.get("TABLESTREAM_WITNESSES", "").split(",") if k.strip()),
        )

    @property
    def cluster(self) -> bool:
        """``REDIS_URL`` names a Redis Cluster: ``redis+cluster://host:port[,host:port...]``."""
        return self.redis_url is not None and self.redis_url.startswith(CLUSTER_SCHEME)

    @property
    def cluster_nodes(self) -> list[tuple[str, int]]:
        """The cluster's startup nodes, from ``REDIS_URL``."""
        if not self.cluster or self.redis_url is None:
            return []
        nodes = []
        for entry in self.redis_url[len(CLUSTER_SCHEME) :].split("/", 1)[0].split(","):
            host, _, port = entry.strip().rpartition(":")
            if not host or not port.isdigit():
                raise ValueError(f"REDIS_URL: {entry!r} is not host:port (redis+cluster://host:port,host:port)")
            nodes.append((host, int(port)))
        return nodes

    @property
    def feed_partitions(self) -> int:
        if self.partitions > 0:
            return self.partitions
        return CLUSTER_PARTITIONS if self.cluster else 1

    @property
    def replicas_to_wait(self) -> int:
        if self.replica_wait >= 0:
            return self.replica_wait
        return 1 if self.cluster else 0

    @property
    def queue_url(self) -> str | None:
        if self.cluster:
            # RQ does not run on a cluster: its queues need a Redis of their own.
            return self.queue_redis_url
        return self.queue_redis_url or self.redis_url


CLUSTER_SCHEME = "redis+cluster://"
# A create request lists at most this many players (``service.schemas.CreateGameIn``), so no
# larger table could be asked for.
MOST_SEATS = 16
# Divisible by 2, 3, 4, 6, 8, 12, 16, 24: as many partitions on each master of such a
# cluster (its masters holding equal ranges of slots).
CLUSTER_PARTITIONS = 48


def parse_trusted_proxies(value: str) -> int | tuple[str, ...]:
    """``TABLESTREAM_TRUSTED_PROXIES``: empty or 0 (off), a count of proxies, or a
    comma-separated list of proxy addresses or networks (checked here, at start-up)."""
    value = value.strip()
    if not value:
        return 0
    if value.isdigit():
        return int(value)
    entries = tuple(entry.strip() for entry in value.split(",") if entry.strip())
    for entry in entries:
        ipaddress.ip_network(entry, strict=False)
    return entries


HOST_NAME = re.compile(r"(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?")


def parse_webhook_allow(value: str) -> tuple[str, ...]:
    """``TABLESTREAM_WEBHOOK_ALLOW``: a comma-separated list of host names
    (``hooks.example.com``, or ``*.example.com`` for the names under it) and addresses or
    networks (``203.0.113.7``, ``10.1.0.0/16``), checked here, at start-up; empty: any
    public address."""
    entries = tuple(entry.strip().lower() for entry in value.split(",") if entry.strip())
    for entry in entries:
        try:
            ipaddress.ip_network(entry, strict=False)
        except ValueError:
            if HOST_NAME.fullmatch(entry) is None or len(entry) > 253:
                raise ValueError(
                    f"TABLESTREAM_WEBHOOK_ALLOW: {entry!r} is neither a host name, *.domain, an address nor a network"
                ) from None
    return entries
